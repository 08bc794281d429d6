"""The `>>>` examples in the package's docstrings run as tests, so none can go stale unseen."""

from __future__ import annotations

import doctest
import importlib
from pathlib import Path

import pytest

import uu

ROOT = Path(uu.__file__).resolve().parent


def _modules_with_examples() -> list[str]:
    out = []
    for path in sorted(ROOT.rglob("*.py")):
        if ">>>" in path.read_text(encoding="utf-8"):
            rel = path.relative_to(ROOT.parent).with_suffix("")
            out.append(".".join(rel.parts))
    return out


MODULES = _modules_with_examples()


def test_examples_found():
    assert "uu.engine.game" in MODULES


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE, verbose=False)
    assert result.attempted, f"{name}: its examples were not found"
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed (run doctest -v)"
