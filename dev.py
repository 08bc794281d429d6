#!/usr/bin/env python3
"""Developer entry point: `python3 dev.py app [args]` runs the tutor app, `python3 dev.py test [args]` tests,
`python3 dev.py i18n` brings the translation catalogs up to the code (uu/i18n/catalogs.py), `python3 dev.py hub-check [--users N]` checks uu on a real JupyterHub on this machine (uu/server/hubcheck.py), `python3
dev.py lite [DIR]` builds the static site (uu/lite/build.py) and `lite-check [DIR]` builds and checks it.

Standard library only, so it works with any Python >= 3.11 on a fresh machine. It creates `.venv` next to this
file when missing and installs the project into it (`pip install -e '.[app,test,fast]'`) once; it re-installs only when
pyproject.toml changed since the last install (a stamp file in .venv records its hash).

Python 3.11 and 3.12 have a standard-library module named `uu` that comes before site-packages on sys.path
and would hide this package. A built wheel carries the fix itself (setup.py puts `uu_first.py` and
`uu_first.pth` at the top of it), but an editable install does not get those two files; so this script puts
`uu/_first.py` into the venv's site-packages as `uu_first.py` with a `uu_first.pth` that loads it (see that
module). Python 3.13+ needs none.
"""

from __future__ import annotations

import glob
import hashlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
BIN = VENV / ("Scripts" if os.name == "nt" else "bin")
PY = BIN / ("python.exe" if os.name == "nt" else "python")
STAMP = VENV / ".uu-install-stamp"
USAGE = ("usage: python3 dev.py app [uu app args] | python3 dev.py test [pytest args] | "
         "python3 dev.py i18n | python3 dev.py hub-check [--users N] [--keep] | python3 dev.py lite [DIR] | python3 dev.py lite-check [DIR]")
LITE_DEFAULT = ROOT / "build" / "lite"
MIN_PY = (3, 11)  # must match requires-python in pyproject.toml


def step(msg: str) -> None:
    print(f"dev.py: {msg}", flush=True)


def run(cmd: list[str | Path], check: bool = True) -> int:
    rc = subprocess.call([str(c) for c in cmd], cwd=ROOT)
    if check and rc != 0:
        step(f"failed (exit {rc}): {' '.join(str(c) for c in cmd)}")
        sys.exit(rc)
    return rc


def _version(exe: str) -> tuple[int, int] | None:
    try:
        out = subprocess.run([exe, "-c", "import sys; print(*sys.version_info[:2])"], capture_output=True,
                             text=True, timeout=30)
    except (OSError, subprocess.SubprocessError):
        return None
    parts = out.stdout.split()
    return (int(parts[0]), int(parts[1])) if out.returncode == 0 and len(parts) == 2 else None


def find_python() -> str:
    """An interpreter >= MIN_PY: this one, else python3.N on PATH, else a pyenv install."""
    if sys.version_info[:2] >= MIN_PY:
        return sys.executable
    candidates = [shutil.which(f"python3.{minor}") for minor in range(20, MIN_PY[1] - 1, -1)]
    pyenv_root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    pyenv_pythons = glob.glob(os.path.join(pyenv_root, "versions", "3.*", "bin", "python3"))
    candidates += sorted(pyenv_pythons, key=lambda p: _version(p) or (0, 0), reverse=True)
    for exe in filter(None, candidates):
        v = _version(exe)
        if v is not None and v >= MIN_PY:
            return exe
    sys.exit(f"dev.py: uu needs Python >= {MIN_PY[0]}.{MIN_PY[1]} (older ones have a stdlib module named uu "
             f"that hides the package); none found on PATH or under {pyenv_root}/versions")


def install_import_fix() -> None:
    """Copy uu/_first.py into the venv's site-packages (see the module docstring above)."""
    out = subprocess.run([str(PY), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                         capture_output=True, text=True, check=True)
    site = Path(out.stdout.strip())
    source = (ROOT / "uu" / "_first.py").read_text()
    target = site / "uu_first.py"
    if not target.exists() or target.read_text() != source:
        target.write_text(source)
        (site / "uu_first.pth").write_text("import uu_first\n")


def setup() -> None:
    if sys.version_info < (3, 11):
        sys.exit(f"dev.py: Python >= 3.11 is needed to run dev.py, this is {sys.version.split()[0]}")
    if PY.exists() and (_version(str(PY)) or (0, 0)) < MIN_PY:
        step(f"removing {VENV.relative_to(ROOT)}: its Python is older than {MIN_PY[0]}.{MIN_PY[1]}")
        shutil.rmtree(VENV)
    if not PY.exists():
        exe = find_python()
        step(f"creating virtual environment {VENV.relative_to(ROOT)} with {exe}")
        run([exe, "-m", "venv", VENV])
    install_import_fix()
    digest = hashlib.sha256((ROOT / "pyproject.toml").read_bytes()).hexdigest()
    if STAMP.exists() and STAMP.read_text().strip() == digest:
        step("project already installed in .venv (pyproject.toml unchanged)")
        return
    log = VENV / "pip-install.log"
    step(f"installing the project into .venv: pip install -e '.[app,test,fast]' (log: {log.relative_to(ROOT)})")
    with open(log, "w") as out:
        # the distribution was called `uu` before it became `uu-tutor`: an old editable install of it would
        # stay beside the new one (and its removal later would take the `uu` command with it)
        if glob.glob(str(VENV / "lib" / "python3*" / "site-packages" / "uu-*.dist-info")):
            subprocess.call([str(PY), "-m", "pip", "uninstall", "-y", "uu"], cwd=ROOT, stdout=out,
                            stderr=subprocess.STDOUT)
        rc = subprocess.call([str(PY), "-m", "pip", "install", "--disable-pip-version-check",
                              "-e", ".[app,test,fast]"], cwd=ROOT, stdout=out, stderr=subprocess.STDOUT)
    if rc != 0:
        print(log.read_text()[-6000:], file=sys.stderr)
        step(f"pip install failed (exit {rc})")
        sys.exit(rc)
    # jsonschema's format-nongpl extra pulls rfc3987-syntax, whose import costs ~2 s of every Voila start
    # and is used by no Jupyter schema (docs/jupyter-notes.md).
    step("removing rfc3987-syntax (slow import, not needed)")
    subprocess.call([str(PY), "-m", "pip", "uninstall", "-q", "-y", "rfc3987-syntax"], cwd=ROOT,
                    stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    STAMP.write_text(digest + "\n")


def build_engine() -> None:
    """Compile the engine's hot modules with mypyc for the current sources (uu/native.py); quick when they
    are unchanged since the last build. A failure is reported, not fatal: the engine then runs as Python."""
    step("compiling the engine with mypyc unless up to date: python -m uu.native build")
    run([PY, "-m", "uu.native", "build"], check=False)


# What `hub-check` installs: JupyterHub into .venv, its proxy from npm into .venv/hub-proxy (never globally).
JUPYTERHUB_PIN = "jupyterhub==5.5.4"
PROXY_PIN = "configurable-http-proxy@5.3.0"
PROXY_DIR = VENV / "hub-proxy"


def hub_tools() -> Path:
    """JupyterHub (pinned) in .venv and configurable-http-proxy (pinned) in .venv/hub-proxy; the proxy's path."""
    want = JUPYTERHUB_PIN.split("==")[1]
    out = subprocess.run([str(PY), "-c", "import jupyterhub; print(jupyterhub.__version__)"], capture_output=True,
                         text=True)
    if out.stdout.strip() != want:
        step(f"installing {JUPYTERHUB_PIN} into .venv")
        run([PY, "-m", "pip", "install", "-q", "--disable-pip-version-check", JUPYTERHUB_PIN])
    proxy = PROXY_DIR / "node_modules" / ".bin" / "configurable-http-proxy"
    stamp = PROXY_DIR / ".uu-pin"
    if not proxy.exists() or not stamp.exists() or stamp.read_text().strip() != PROXY_PIN:
        npm = shutil.which("npm")
        if npm is None or shutil.which("node") is None:
            print("HUB-CHECK FAILED node and npm are needed for the hub's proxy (apt-get install nodejs npm)")
            sys.exit(1)
        step(f"installing {PROXY_PIN} from npm into {PROXY_DIR.relative_to(ROOT)}")
        PROXY_DIR.mkdir(parents=True, exist_ok=True)
        run([npm, "install", "--prefix", PROXY_DIR, "--no-audit", "--no-fund", "--loglevel=error", PROXY_PIN])
        stamp.write_text(PROXY_PIN + "\n")
    return proxy


def lite(cmd: str, args: list[str]) -> int:
    """`lite [DIR]`: build the static site (uu/lite/build.py, standard library only: no .venv needed).
    `lite-check [DIR]`: build it, then check it: tests/test_lite_site.py (Node and Chromium) with UU_LITE_SITE."""
    out = Path(args[0]).resolve() if args else LITE_DEFAULT
    step(f"building the static site in {out}: python -m uu.lite.build")
    rc = subprocess.call([find_python(), "-m", "uu.lite.build", str(out), *args[1:]], cwd=ROOT)
    if rc != 0 or cmd == "lite":
        return rc
    setup()
    step("checking the static site: python -m pytest tests/test_lite_site.py")
    env = {**os.environ, "UU_LITE_SITE": str(out)}
    rc = subprocess.call([str(PY), "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_lite_site.py"],
                         cwd=ROOT, env=env)
    step("LITE-CHECK OK" if rc == 0 else f"LITE-CHECK FAILED (exit {rc})")
    return rc


def workers(args: list[str]) -> list[str]:
    """`-n N` for pytest-xdist (the `test` extra; conftest.py says which tests share a worker): one worker per
    CPU, at most 4 (the browser tests that share one server run on one worker, so more would mostly wait),
    unless the caller chose a number (`-n 0` runs everything in this one process)."""
    if any(a == "--numprocesses" or a.startswith(("-n", "--numprocesses=")) for a in args):
        return []
    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return ["-n", str(min(cpus, 4))] if cpus > 1 else []


def main(argv: list[str]) -> int:
    if argv and argv[0] in ("lite", "lite-check"):
        return lite(argv[0], argv[1:])
    if not argv or argv[0] not in ("app", "test", "hub-check", "i18n"):
        print(USAGE, file=sys.stderr)
        return 2
    cmd, args = argv[0], argv[1:]
    setup()
    build_engine()
    if cmd == "i18n":
        step("running: python -m uu.i18n.catalogs update (extract the marked messages, update the .po, compile)")
        return run([PY, "-m", "uu.i18n.catalogs", "update"], check=False)
    if cmd == "hub-check":
        proxy = hub_tools()
        step("running: python -m uu.server.hubcheck " + " ".join(args))
        return run([PY, "-m", "uu.server.hubcheck", "--proxy", proxy, *args], check=False)
    if cmd == "app":
        step("running: uu app " + " ".join(args))
        proc = subprocess.Popen([str(BIN / "uu"), "app", *args], cwd=ROOT)
        while True:
            try:
                return proc.wait()
            except KeyboardInterrupt:  # the app got the same Ctrl-C: let it shut its kernels down
                continue
    step("running: ruff check uu tests")
    ruff_rc = run([PY, "-m", "ruff", "check", "uu", "tests"], check=False)
    step("running: mypy uu (the whole package; settings in pyproject.toml)")
    mypy_rc = run([PY, "-m", "mypy", "uu"], check=False)
    args = [*workers(args), *args]
    step("running: python -m pytest " + " ".join(args))
    rc = run([PY, "-m", "pytest", *args], check=False)
    if ruff_rc != 0:
        step(f"ruff found problems (exit {ruff_rc})")
    if mypy_rc != 0:
        step(f"mypy found problems (exit {mypy_rc})")
    return rc or ruff_rc or mypy_rc


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
