"""`python3 dev.py lite [DIR]`: the static site, the whole tutor running in the learner's browser (Pyodide).

Steps (docs/static-build.md has the why of each):
1. a build environment in the cache with the pinned packages (uu/lite/pins.py);
2. Pyodide from the npm package `pyodide` (`npm pack`, no install), and the page's widget manager from npm:
   ipywidgets' manager for pages without Jupyter, anywidget's front end for it and RequireJS;
3. the wheels the page loads, from PyPI (`pip download`), PyYAML repacked as pure Python, and this repository's
   own wheel (`pip wheel`);
4. Pyodide's lock file rewritten to list exactly those wheels (with their hashes), so the page loads them from
   the site and never asks a package index; the ones the tutor needs installed once into one file
   (`site_image`) that the worker's loadPyodide (uu/lite/boot.mjs) writes into site-packages before Python starts;
5. the site's folder: Pyodide, the wheels, the widget manager, and Python's memory snapshot (`memory_snapshot`);
6. the tutor's page (`uu/lite/pages.py`): its loading screen, its script, the worker that runs Python, and their
   Content-Security-Policy.

Downloads are kept in `.lite-cache/` beside the repository (git-ignored): a second build is offline. Standard
library only: it runs before any environment exists, and drives pip, npm and Node as programs.
"""

from __future__ import annotations

import argparse
import base64
import csv
import gzip
import hashlib
import io
import json
import shutil
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from pathlib import Path
from typing import Any

from uu.lite.pages import write_pages
from uu.lite.pins import (
    BUILD_REQUIREMENTS,
    PRELOAD,
    PYODIDE_ABI,
    PYODIDE_NPM,
    REPACKED,
    WASM,
    WHEELS,
    WIDGETS_NPM,
)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]  # the repository (the build reads its sources)
PYODIDE_FILES = ["pyodide.asm.mjs", "pyodide.asm.wasm", "pyodide.mjs", "python_stdlib.zip", "package.json"]


def say(msg: str) -> None:
    print(f"uu lite: {msg}", flush=True)


def run(cmd: list[str | Path], cwd: Path | None = None) -> str:
    r = subprocess.run([str(c) for c in cmd], cwd=cwd, capture_output=True, text=True)
    if r.returncode != 0:
        raise SystemExit(f"uu lite: failed ({r.returncode}): {' '.join(map(str, cmd))}\n{r.stdout[-3000:]}\n"
                         f"{r.stderr[-3000:]}")
    return r.stdout


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# ---- 1. the build environment ---------------------------------------------------------------------------------
def build_env(cache: Path) -> Path:
    env = cache / "build-env"
    py = env / "bin" / "python"
    stamp = env / ".uu-stamp"
    want = "\n".join(BUILD_REQUIREMENTS)
    if stamp.exists() and stamp.read_text() == want:
        return env
    say(f"creating the build environment {env} (the pinned packages, once)")
    if env.exists():
        shutil.rmtree(env)
    venv.EnvBuilder(with_pip=True).create(env)
    run([py, "-m", "pip", "install", "-q", "--disable-pip-version-check", *BUILD_REQUIREMENTS])
    stamp.write_text(want)
    return env


# ---- 2. Pyodide and the widget manager, from npm ---------------------------------------------------------------
def npm_package(cache: Path, spec: str) -> Path:
    """The npm package `spec` (name@version) unpacked once into the cache (`npm pack`, nothing installed);
    returns its folder."""
    where = cache / "npm" / spec.replace("/", "+")
    pkg = where / "package"
    if (pkg / "package.json").exists():
        return pkg
    where.mkdir(parents=True, exist_ok=True)
    npm = shutil.which("npm")
    if npm is None:
        raise SystemExit(f"uu lite: npm is needed once, to fetch the package {spec} (apt-get install npm)")
    say(f"npm pack {spec}")
    out = run([npm, "pack", spec, "--silent"], cwd=where).strip().splitlines()[-1]
    with tarfile.open(where / out) as tar:
        tar.extractall(where, filter="data")
    return pkg


WIDGETS_DIR = "static/widgets"


def widget_scripts(cache: Path, out: Path) -> None:
    """The page's widget manager into `out`/static/widgets (uu/lite/pins.py `WIDGETS_NPM`), with a NOTICE.txt
    that names each package, its version and its license, and carries the license texts the packages ship."""
    target = out / WIDGETS_DIR
    target.mkdir(parents=True, exist_ok=True)
    notice = ["The page's widget manager, copied unchanged from these npm packages by uu/lite/build.py.", ""]
    for spec, (path, name) in WIDGETS_NPM.items():
        pkg = npm_package(cache, spec)
        shutil.copy2(pkg / path, target / name)
        meta = json.loads((pkg / "package.json").read_text(encoding="utf-8"))
        notice += [f"{name}: {meta['name']} {meta['version']}, license {meta.get('license', 'see the package')}"]
        for text in sorted([*pkg.glob("LICENSE*"), *pkg.glob("dist/*.LICENSE.txt")]):
            notice += ["", f"--- {meta['name']}: {text.relative_to(pkg)} ---", text.read_text(encoding="utf-8")]
        notice.append("")
    (target / "NOTICE.txt").write_text("\n".join(notice), encoding="utf-8")


# ---- 3. wheels ------------------------------------------------------------------------------------------------
def download_wheels(env: Path, cache: Path) -> dict[str, Path]:
    """{lock name: wheel} for every entry of WHEELS, downloaded once into cache/wheels."""
    dest = cache / "wheels"
    dest.mkdir(parents=True, exist_ok=True)
    py = env / "bin" / "python"
    found: dict[str, Path] = {}
    for name, req, _imports, _depends in WHEELS:
        found[name] = _one_wheel(py, dest, name, req)
    return found


def _one_wheel(py: Path, dest: Path, name: str, req: str) -> Path:
    dist, version = req.split("==")
    stem = dist.lower().replace("-", "_").replace(".", "_")
    kind = "wasm" if name in WASM else "linux" if name in REPACKED else "pure"
    sub = dest / kind
    sub.mkdir(exist_ok=True)
    have = [p for p in sub.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    if have:
        return have[0]
    say(f"pip download {req} ({kind})")
    cmd: list[str | Path] = [py, "-m", "pip", "download", "-q", "--disable-pip-version-check", "--no-deps",
                             "--only-binary=:all:", "-d", sub, req]
    if kind == "wasm":
        cmd += ["--platform", PYODIDE_ABI, "--python-version", "3.14", "--implementation", "cp", "--abi", "cp314"]
    elif kind == "linux":
        cmd += ["--platform", "manylinux_2_17_x86_64", "--python-version", "3.14", "--implementation", "cp",
                "--abi", "cp314"]
    else:
        cmd += ["--python-version", "3.14", "--implementation", "py", "--abi", "none", "--platform", "any"]
    run(cmd)
    have = [p for p in sub.glob("*.whl") if p.name.lower().startswith(f"{stem}-{version}-")]
    if not have:
        raise SystemExit(f"uu lite: pip download {req} gave no wheel named {stem}-{version}-*.whl")
    return have[0]


def repack_pure(wheel: Path, out_dir: Path) -> Path:
    """A copy of a binary wheel without its compiled extensions, tagged py3-none-any (the package must fall back
    to plain Python without them, as PyYAML does)."""
    dist, version = wheel.name.split("-")[:2]
    target = out_dir / f"{dist}-{version}-py3-none-any.whl"
    rewrite_wheel(wheel, target, pure=True)
    return target


def rewrite_wheel(wheel: Path, target: Path, pure: bool = False, extra: dict[str, bytes] | None = None) -> None:
    """Copy a wheel to `target` with a new RECORD: without `.so` files and tagged py3-none-any if `pure`, with
    the files of `extra` ({name in the wheel: bytes}) added."""
    src = zipfile.ZipFile(wheel)
    extra = dict(extra or {})
    rows: list[list[str]] = []
    with zipfile.ZipFile(target, "w", zipfile.ZIP_DEFLATED) as z:
        record_name = ""
        for info in src.infolist():
            name = info.filename
            if pure and name.endswith(".so") or name in extra:
                continue
            if name.endswith(".dist-info/RECORD"):
                record_name = name
                continue
            data = src.read(name)
            if pure and name.endswith(".dist-info/WHEEL"):
                lines = [ln for ln in data.decode().splitlines() if not ln.startswith(("Tag:", "Root-Is-Purelib:"))]
                data = ("\n".join(lines + ["Root-Is-Purelib: true", "Tag: py3-none-any"]) + "\n").encode()
            z.writestr(_fixed_info(name), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.append([name, f"sha256={digest}", str(len(data))])
        for name, data in extra.items():
            z.writestr(_fixed_info(name), data)
            digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
            rows.append([name, f"sha256={digest}", str(len(data))])
        buf = io.StringIO()
        csv.writer(buf, lineterminator="\n").writerows(rows + [[record_name, "", ""]])
        z.writestr(_fixed_info(record_name), buf.getvalue())


def _fixed_info(name: str) -> zipfile.ZipInfo:
    info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))  # the same bytes for the same input
    info.compress_type = zipfile.ZIP_DEFLATED
    info.external_attr = 0o644 << 16
    return info


def project_wheel(env: Path, out_dir: Path) -> Path:
    """This repository as a wheel (its dependencies are the lock's business, not pip's)."""
    for old in out_dir.glob("uu_tutor-*.whl"):
        old.unlink()
    say("pip wheel . (the uu-tutor wheel from this repository)")
    run([env / "bin" / "python", "-m", "pip", "wheel", "-q", "--disable-pip-version-check", "--no-deps",
         "--no-build-isolation", "-w", out_dir, ROOT])
    (wheel,) = out_dir.glob("uu_tutor-*.whl")
    check_languages(wheel)
    built = wheel.with_suffix(".built")
    wheel.rename(built)
    rewrite_wheel(built, wheel, extra={"uu/lite/preread.json": preread_table(env)})
    built.unlink()
    return wheel


def check_languages(wheel: Path) -> None:
    """The static build speaks French and German too: its wheel must carry the compiled catalogs (setup.py
    compiles them) and every lesson translation of the repository (lessons/<lang>/*.yaml)."""
    names = set(zipfile.ZipFile(wheel).namelist())
    missing = [f"uu/i18n/locale/{lang}/LC_MESSAGES/uu.mo" for lang in ("fr", "de")
               if f"uu/i18n/locale/{lang}/LC_MESSAGES/uu.mo" not in names]
    for path in sorted((ROOT / "lessons").glob("*/*.yaml")):
        name = f"uu/lessons/{path.parent.name}/{path.name}"
        if name not in names:
            missing.append(name)
    if missing:
        raise SystemExit(f"uu.lite.build: the wheel lacks {', '.join(missing[:5])}"
                         f"{' and more' if len(missing) > 5 else ''}: the static build would speak English only")


# What the app reads with PyYAML when it starts: in the browser PyYAML is plain Python and takes seconds over
# them, so the build reads them once (uu.yamlfile.preread). Data that JSON cannot carry unchanged is left out.
PREREAD_SCRIPT = """
import hashlib, json, sys, yaml
table = {}
for name in sys.argv[1:]:
    text = open(name, encoding="utf-8").read()
    data = yaml.safe_load(text)
    if json.loads(json.dumps(data)) == data:
        table[hashlib.sha256(text.encode("utf-8")).hexdigest()] = data
print(json.dumps(table, separators=(",", ":")))
"""


def preread_table(env: Path) -> bytes:
    # the lessons and their translations (lessons/<lang>/*.yaml), which the app reads when a language is chosen
    files = [ROOT / "uu" / "cards" / "catalog.yaml", *sorted((ROOT / "lessons").glob("*.yaml")),
             *sorted((ROOT / "lessons").glob("*/*.yaml"))]
    out = run([env / "bin" / "python", "-c", PREREAD_SCRIPT, *files])
    return out.strip().encode("utf-8")


def precompile(pyodide: Path, wheels_dir: Path) -> None:
    """Add Python 3.14 bytecode to the wheels and to a copy of the standard library (`wheels_dir`/
    python_stdlib.zip, which `build_site` then puts on the site), compiled by Pyodide in Node (uu/lite/pyc.mjs):
    the browser then skips compiling every module at each visit. Without Node the site still works, only slower
    to start."""
    shutil.copy2(pyodide / "python_stdlib.zip", wheels_dir / "python_stdlib.zip")
    node = shutil.which("node")
    if node is None:
        say("node not found: the wheels and the standard library go without .pyc files (the first screen comes"
            " many seconds later)")
        return
    say("compiling the wheels' modules and the standard library to .pyc with Pyodide in Node (uu/lite/pyc.mjs)")
    run([node, HERE / "pyc.mjs", pyodide, wheels_dir, wheels_dir / "python_stdlib.zip"])


# ---- 4. the lock file -----------------------------------------------------------------------------------------
def write_lock(pyodide: Path, target: Path, wheels: dict[str, tuple[Path, list[str], list[str]]]) -> None:
    """Pyodide's lock file listing only our wheels (in `target`, beside it): `loadPackage` and micropip find
    everything there, and nothing else (a missing package fails at once instead of asking an index)."""
    lock = json.loads((pyodide / "pyodide-lock.json").read_text())
    packages: dict[str, dict[str, object]] = {}
    for name, (wheel, imports, depends) in wheels.items():
        version = wheel.name.split("-")[1]
        packages[name] = {"name": name, "version": version, "file_name": wheel.name, "install_dir": "site",
                          "sha256": sha256(wheel), "package_type": "package", "imports": imports,
                          "depends": depends, "unvendored_tests": False, "shared_library": False}
    lock["packages"] = packages
    (target / "pyodide-lock.json").write_text(json.dumps(lock, indent=1, sort_keys=True))


# ---- 4b. the preloaded packages installed once, at build time (uu/lite/boot.mjs unpacks them) -------------------
IMAGE = "uu-site.bin"
BOOT = "uu-pyodide.mjs"  # uu/lite/boot.mjs on the site: the worker's loadPyodide (uu/lite/worker.mjs)


def closure(names: list[str], packages: dict[str, dict[str, Any]]) -> list[str]:
    """`names` with everything they depend on in the lock's `packages`, each once, in the order first met."""
    out: list[str] = []
    todo = list(names)
    while todo:
        name = todo.pop(0)
        if name not in out:
            out.append(name)
            todo += packages[name]["depends"]
    return out


def site_image(wheels_dir: Path, target: Path) -> list[str]:
    """Write `target`: every preloaded wheel (PRELOAD and what it depends on) installed as Pyodide would put it
    in site-packages, as one gzip file from which uu/lite/boot.mjs writes a package's files (and those of what
    it depends on) into Pyodide's file system before Python starts. The wheels with compiled modules (WASM) and
    what they depend on are left to Pyodide's loader, which prepares their WebAssembly. A wheel's `.data`
    folder (scripts, manual pages, JupyterLab's copy of a widget's JavaScript) is not installed: nothing in the
    browser uses it. Returns the lock names in the image.

    The file: gzip of [header length, 4 bytes little-endian][header, JSON][the files' bytes, one after the other,
    in the header's order]; the header: {"packages": [{"name", "depends" (lock names), "files": [[path, size]]}]}.
    """
    packages = json.loads((wheels_dir / "pyodide-lock.json").read_text())["packages"]
    loader = closure(sorted(WASM), packages)
    inside = [name for name in closure(PRELOAD, packages) if name not in loader]
    listed: list[dict[str, object]] = []
    seen: dict[str, str] = {}
    body = io.BytesIO()
    for name in inside:
        files: list[list[object]] = []
        with zipfile.ZipFile(wheels_dir / packages[name]["file_name"]) as wheel:
            for info in wheel.infolist():
                path = info.filename
                if info.is_dir() or path.split("/")[0].endswith(".data"):
                    continue
                if path in seen:
                    raise SystemExit(f"uu lite: {path} is in the wheels of both {seen[path]} and {name}")
                seen[path] = name
                data = wheel.read(info)
                files.append([path, len(data)])
                body.write(data)
        listed.append({"name": name, "depends": packages[name]["depends"], "files": files})
    header = json.dumps({"packages": listed}, separators=(",", ":")).encode()
    raw = len(header).to_bytes(4, "little") + header + body.getvalue()
    target.write_bytes(gzip.compress(raw, compresslevel=9, mtime=0))
    return inside


# ---- 5. the site ----------------------------------------------------------------------------------------------
def build_site(cache: Path, pyodide: Path, wheels_dir: Path, out: Path) -> None:
    if out.exists():
        shutil.rmtree(out)
    out.mkdir(parents=True)
    target = out / "static" / "pyodide"
    target.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy2(pyodide / name, target / name)
    for wheel in wheels_dir.glob("*.whl"):
        shutil.copy2(wheel, target / wheel.name)
    shutil.copy2(wheels_dir / "python_stdlib.zip", target / "python_stdlib.zip")  # with its bytecode
    shutil.copy2(wheels_dir / IMAGE, target / IMAGE)
    shutil.copy2(HERE / "boot.mjs", target / BOOT)
    widget_scripts(cache, out)
    (out / ".nojekyll").write_text("")  # GitHub Pages: serve folders whose names start with _ as they are


# ---- 5b. Python's memory snapshot (uu/lite/snapshot.mjs makes it, uu/lite/boot.mjs restores it) ----------------
SNAPSHOT = "uu-snapshot.bin"


def memory_snapshot(out: Path) -> None:
    """`static/pyodide/uu-snapshot.bin`: Python's memory after the widgets' imports, made by the
    site's own Pyodide in Node (uu/lite/snapshot.mjs) and gzipped (45 MB to 11). Without Node the site goes without
    it, and Python starts as before (slower)."""
    node = shutil.which("node")
    if node is None:
        say("node not found: no memory snapshot (Python starts from scratch at every visit, seconds slower)")
        return
    target = out / "static" / "pyodide"
    raw = target / (SNAPSHOT + ".raw")
    say("Python's memory snapshot after the widgets' imports, in Node (uu/lite/snapshot.mjs)")
    run([node, HERE / "snapshot.mjs", target, raw])
    (target / SNAPSHOT).write_bytes(gzip.compress(raw.read_bytes(), compresslevel=6, mtime=0))
    raw.unlink()


VERSIONS = "uu-boot.json"


def boot_versions(out: Path) -> None:
    """`static/pyodide/uu-boot.json`: the SHA-256 and the unpacked size of the two big files the worker unpacks at
    every start (`uu-site.bin`, `uu-snapshot.bin`). uu/lite/boot.mjs keeps their unpacked copies in the browser
    (the site's private folder) under that version, so a second visit reads them instead of unpacking them
    again, a new build's files are never mistaken for an old one's, and a copy cut short is known by its size."""
    target = out / "static" / "pyodide"
    versions = {name: {"sha256": sha256(target / name), "unpacked": len(gzip.decompress((target / name).read_bytes()))}
                for name in (IMAGE, SNAPSHOT) if (target / name).is_file()}
    (target / VERSIONS).write_text(json.dumps(versions, indent=1, sort_keys=True) + "\n")


# ---- 6. the tutor's own pages (uu/lite/pages.py) ---------------------------------------------------------------
WORDS_SCRIPT = "import json; from uu.lite.words import loading_words; print(json.dumps(loading_words()))"


def first_files(out: Path) -> dict[str, object]:
    """What the tutor needs before it can start, as the loading screen fetches and counts it: the interpreter,
    the packages installed (`site_image`), the wheels Pyodide's loader still installs, Python's memory snapshot
    (`memory_snapshot`) if the build made one, and the page's widget manager (paths from the site's root)."""
    pyodide = out / "static" / "pyodide"
    packages = json.loads((pyodide / "pyodide-lock.json").read_text())["packages"]
    names = [BOOT, "pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json",
             IMAGE, *(packages[name]["file_name"] for name in closure(sorted(WASM), packages))]
    if (pyodide / SNAPSHOT).is_file():
        names.append(SNAPSHOT)
    paths = [f"static/pyodide/{n}" for n in names] + [f"{WIDGETS_DIR}/{name}" for _path, name in WIDGETS_NPM.values()]
    return {"first": paths, "bytes": sum((out / path).stat().st_size for path in paths)}


def tutor_pages(env: Path, out: Path) -> None:
    """The tutor's page, its scripts and the Content-Security-Policy."""
    words = json.loads(run([env / "bin" / "python", "-c", WORDS_SCRIPT], cwd=ROOT))
    policy = write_pages(out, words, first_files(out))
    say(f"the tutor's pages written; Content-Security-Policy: {policy}")


def build(out: Path, cache: Path) -> Path:
    t0 = time.monotonic()
    cache.mkdir(parents=True, exist_ok=True)
    env = build_env(cache)
    pyodide = npm_package(cache, PYODIDE_NPM)
    downloaded = download_wheels(env, cache)
    work = cache / "work"
    wheels_dir = work / "wheels"
    if wheels_dir.exists():
        shutil.rmtree(wheels_dir)
    wheels_dir.mkdir(parents=True)
    chosen: dict[str, tuple[Path, list[str], list[str]]] = {}
    for name, _req, imports, depends in WHEELS:
        src = downloaded[name]
        wheel = repack_pure(src, wheels_dir) if name in REPACKED else Path(shutil.copy2(src, wheels_dir))
        chosen[name] = (wheel, imports, depends)
    own = project_wheel(env, wheels_dir)
    chosen["uu-tutor"] = (own, ["uu"], ["pydantic", "pyyaml", "ipywidgets", "anywidget"])
    precompile(pyodide, wheels_dir)
    write_lock(pyodide, wheels_dir, chosen)
    site_image(wheels_dir, wheels_dir / IMAGE)
    build_site(cache, pyodide, wheels_dir, out)
    shutil.copy2(wheels_dir / "pyodide-lock.json", out / "static" / "pyodide" / "pyodide-lock.json")
    memory_snapshot(out)
    boot_versions(out)
    tutor_pages(env, out)
    files = [p for p in out.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    say(f"built {out} in {time.monotonic() - t0:.1f} s: {len(files)} files, {size / 2**20:.1f} MiB. "
        f"Try it: python3 -m http.server -d {out} -b 127.0.0.1 8000, then open http://127.0.0.1:8000/")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="uu lite build", description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("out", nargs="?", default=str(ROOT / "build" / "lite"), help="output folder (build/lite)")
    ap.add_argument("--cache", default=str(ROOT / ".lite-cache"), help="downloads kept here (.lite-cache)")
    args = ap.parse_args(argv)
    build(Path(args.out).resolve(), Path(args.cache).resolve())
    return 0


if __name__ == "__main__":
    sys.exit(main())
