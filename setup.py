"""Build hook: the wheel carries the import fix for Python 3.11 and 3.12 (uu/_first.py explains it).

Their standard library has a module named `uu` that comes before site-packages on sys.path and hides this
package. So the wheel puts two files at the top of site-packages: `uu_first.py` (a copy of uu/_first.py)
and `uu_first.pth`, which Python's `site` module runs at start-up (a .pth line starting with `import` is
executed). It also compiles the translations (gettext catalogs, uu/i18n) to the .mo files gettext reads.
Everything else about the package is in pyproject.toml.
"""

from __future__ import annotations

import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent
PTH_NAME = "uu_first.pth"
PTH_LINE = "import uu_first\n"


class BuildPyWithImportFix(build_py):
    """build_py, then the finder module and its .pth at the top of the build (the wheel's root)."""

    def run(self) -> None:
        compile_catalogs()  # before the copy, so the .mo files go into the build (and an editable install finds them)
        super().run()
        root = Path(self.build_lib)
        root.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(HERE / "uu" / "_first.py", root / "uu_first.py")
        (root / PTH_NAME).write_text(PTH_LINE)

    def get_outputs(self, include_bytecode: bool = True) -> list[str]:
        # listed so that editable installs and `pip uninstall` know the two files too
        root = Path(self.build_lib)
        return [*super().get_outputs(include_bytecode), str(root / "uu_first.py"), str(root / PTH_NAME)]


def compile_catalogs() -> None:
    """uu/i18n/locale/<lang>/LC_MESSAGES/uu.po -> uu.mo beside it, with Babel (a build requirement)."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    for po in sorted((HERE / "uu" / "i18n" / "locale").glob("*/LC_MESSAGES/uu.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parents[1].name, domain="uu")
        with po.with_suffix(".mo").open("wb") as f:
            write_mo(f, catalog)


setup(cmdclass={"build_py": BuildPyWithImportFix})
