"""Let `import uu` find this package on Python 3.11 and 3.12.

Their standard library has a module named `uu` (removed in 3.13) and the standard library comes before
site-packages on sys.path, so an installed package named `uu` is hidden there. dev.py and binder/postBuild
copy this file into the environment's site-packages as `uu_first.py`, with a `uu_first.pth` line that imports
it at start-up: it puts a finder first on sys.meta_path that resolves the top-level name `uu` to this
package (a regular install on sys.path, or an editable install's own finder) and leaves every other import
alone. On 3.13 and later it does nothing.
"""

from __future__ import annotations

import importlib.machinery
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType


class UUFirst:
    @classmethod
    def find_spec(cls, name: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        if name != "uu":
            return None
        for entry in sys.path:
            if os.path.isfile(os.path.join(entry or ".", "uu", "__init__.py")):
                return importlib.machinery.PathFinder.find_spec(name, [entry or "."])
        for finder in sys.meta_path:  # an editable install maps `uu` with a finder of its own
            if finder is cls or finder is importlib.machinery.PathFinder:
                continue
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find else None
            if spec is not None:
                return spec
        return None


def install() -> None:
    if sys.version_info < (3, 13) and UUFirst not in sys.meta_path:
        sys.meta_path.insert(0, UUFirst)


install()
