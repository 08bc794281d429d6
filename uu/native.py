"""The compiled engine: the same engine modules, compiled to C by mypyc, used when built for these sources.

Why: the rules engine is plain Python, and bots, hints and playouts run it for many games (`uu bench` measures
how fast). mypyc compiles the very same modules (no second implementation to keep in step), turning their
calls between each other and their attribute reads into C. Nothing else changes: the compiled engine plays the same game as the Python one
for every seed (tests/test_native.py compares them).

How it is found: `python -m uu.native build` (run by dev.py after installing) compiles the modules in
`COMPILED` into `<sys.prefix>/uu-native/<digest>/`, where the digest covers every source file of uu.engine
and uu.cards and the Python version. When those packages are imported, `activate` puts that folder first on
their search paths only if a complete build for the *current* digest exists, so an edited source file
can never run stale compiled code: it simply runs as Python until the next build. `UU_ENGINE=python` forces
the Python modules (the comparison test uses it). Without a C compiler the build is skipped with a message
and everything works, only slower.

    python -m uu.native build     # compile (seconds to a minute; nothing to do when up to date)
    python -m uu.native status    # which engine an import gets now, and why
"""

from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

# The modules of the hot loop (frames, flow, pile, effects, verb handlers, what they ask, and the card objects they
# read), by package. game.py, hooks.py, save.py and the rest stay Python: they run once per call from
# outside, and game.Game is subclassed and copied in ways a compiled class does not allow.
COMPILED: dict[str, tuple[str, ...]] = {
    "cards": ("carddef",),
    "engine": ("state", "actions", "frames", "rng", "queries", "targets", "moves", "effects", "verb_handlers", "pile",
               "flow"),
}
GROUP = "uu_engine_native"  # the name of the shared library mypyc builds for the group (a top-level module)
PACKAGE_DIR = Path(__file__).resolve().parent
ENGINE_DIR = PACKAGE_DIR / "engine"
CARDS_DIR = PACKAGE_DIR / "cards"
# Flags for the type check mypyc runs first: PyYAML ships no type hints (the schema imports it).
MYPY_FLAGS = ("--ignore-missing-imports",)

engine = "python"  # what `activate` chose: "compiled" or "python"
reason = "uu.engine not imported yet"
_folder: Path | None = None  # the build in use, once chosen (the same for every package)
_chosen = False


def sources_digest() -> str:
    """One digest of everything a build depends on: every engine and cards module (compiled or called by the
    compiled ones), and the interpreter (compiled modules only load into the Python they were built
    for)."""
    h = hashlib.sha256()
    h.update(f"{sys.implementation.cache_tag} {sysconfig.get_platform()} {COMPILED}".encode())
    for path in sorted(ENGINE_DIR.glob("*.py")) + sorted(CARDS_DIR.glob("*.py")):
        h.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()[:20]


def native_root() -> Path:
    return Path(os.environ.get("UU_NATIVE_DIR") or Path(sys.prefix) / "uu-native")


def build_dir(digest: str | None = None) -> Path:
    return native_root() / (digest or sources_digest())


def _complete(folder: Path) -> bool:
    """A finished build: its marker (written last), the group's shared library and every module's shim."""
    if not (folder / "COMPLETE").is_file() or not list(folder.glob(f"{GROUP}__mypyc.*")):
        return False
    return all(list((folder / "uu" / pkg).glob(f"{m}.*")) for pkg, mods in COMPILED.items() for m in mods)


def _choose() -> Path | None:
    """The build to use for this process, or None for the Python modules (decided once)."""
    global engine, reason
    if os.environ.get("UU_ENGINE", "").lower() == "python":
        engine, reason = "python", "UU_ENGINE=python asks for the Python modules"
        return None
    folder = build_dir()
    if not _complete(folder):
        engine, reason = "python", (f"no compiled build for these sources in {native_root()} "
                                    f"(run `python -m uu.native build`)")
        return None
    sys.path.append(str(folder))  # where the group's shared library is imported from, by its own name
    try:
        importlib.import_module(f"{GROUP}__mypyc")
    except ImportError as e:  # a broken or foreign build: fall back rather than fail the import of uu
        sys.path.remove(str(folder))
        engine, reason = "python", f"the compiled build in {folder} does not load: {e}"
        return None
    engine, reason = "compiled", f"mypyc build {folder.name} in {native_root()}"
    return folder


def activate(package: str, package_path: list[str], again: bool = False) -> None:
    """Called by uu/cards/__init__.py and uu/engine/__init__.py before their modules are imported: put the
    compiled modules first on the package's search path when a build for the current sources exists.
    `again` decides afresh (tests); otherwise the first package's decision holds for both."""
    global _folder, _chosen
    if again or not _chosen:
        _folder, _chosen = _choose(), True
    if _folder is not None:
        package_path.insert(0, str(_folder / "uu" / package))


_SETUP = """
import sys
from setuptools import setup
from mypyc.build import mypycify
paths, flags, group, target, out, temp = sys.argv[1:7]
setup(name="uu-native", script_args=["build_ext", "--build-lib", out, "--build-temp", temp],
      ext_modules=mypycify(paths.split("|") + flags.split("|"), group_name=group, target_dir=target,
                           opt_level="3"))
"""


def build() -> tuple[bool, str]:
    """Compile the engine for the current sources unless that is done; returns (ok, message). Never raises
    for a missing compiler or mypy: the Python engine stays in use."""
    digest = sources_digest()
    folder = build_dir(digest)
    if _complete(folder):
        return True, f"compiled engine up to date ({folder})"
    try:
        import mypyc  # noqa: F401
    except ImportError:
        return False, "mypy (mypyc) is not installed: the engine runs as Python (pip install 'uu[fast]')"
    root = native_root()
    root.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="uu-native-") as tmp:
        staging = Path(tmp) / "out"
        paths = "|".join(str(PACKAGE_DIR / pkg / f"{m}.py") for pkg, mods in COMPILED.items() for m in mods)
        cmd = [sys.executable, "-c", _SETUP, paths, "|".join(MYPY_FLAGS), GROUP, str(Path(tmp) / "c"),
               str(staging), str(Path(tmp) / "t")]
        proc = subprocess.run(cmd, cwd=tmp, capture_output=True, text=True)
        if proc.returncode != 0:
            tail = (proc.stdout + proc.stderr)[-3000:]
            return False, f"compiling the engine failed; the engine runs as Python.\n{tail}"
        missing = [f"{pkg}.{m}" for pkg, mods in COMPILED.items() for m in mods
                   if not list((staging / "uu" / pkg).glob(f"{m}.*"))]
        if missing:
            return False, f"the build made no module for {', '.join(missing)}; the engine runs as Python"
        (staging / "COMPLETE").write_text(f"{digest}\n")
        for old in root.iterdir():  # earlier builds are for sources that no longer exist
            if old.is_dir() and old.name != digest:
                shutil.rmtree(old, ignore_errors=True)
        if folder.exists():
            shutil.rmtree(folder)
        shutil.move(str(staging), str(folder))
    return True, f"compiled the engine with mypyc into {folder}"


def main(argv: list[str]) -> int:
    cmd = argv[0] if argv else "status"
    if cmd == "build":
        ok, message = build()
        print(f"uu.native: {message}")
        return 0 if ok else 1
    if cmd == "status":
        # the choice an import of uu.engine would make, made here without importing it: uu.engine imports
        # this module, never the other way round
        _choose()
        print(f"engine: {engine} ({reason})")
        return 0
    print("usage: python -m uu.native build|status", file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
