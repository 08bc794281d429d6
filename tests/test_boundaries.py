"""Lower layers never import higher ones: the engine, scenarios, bots and tutor never import ipywidgets."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_core_layers_do_not_import_ipywidgets() -> None:
    code = ("import sys; import uu.engine, uu.scenario, uu.bots, uu.tutor, uu.cards, uu.benchmarks.engine;"
            "from uu.engine import new_game; g = new_game(['a', 'b'], seed=1);"
            "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('ipywidgets', 'IPython', 'voila'));"
            "print(bad); sys.exit(1 if bad else 0)")
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, r.stdout + r.stderr


def _uu_imports(path: Path) -> set[str]:
    """Every uu module `path` imports, at the top or inside a function."""
    import ast

    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names if a.name.split(".")[0] == "uu"}
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == "uu":
            out.add(node.module)
    return out


def test_native_imports_no_engine() -> None:
    """uu.engine imports uu.native to find the compiled modules; never the other way round (no cycle)."""
    assert not {m for m in _uu_imports(ROOT / "uu" / "native.py") if m.startswith("uu.engine") or m == "uu"}


def test_cards_import_no_engine() -> None:
    """The catalog and the verb registry sit below the engine: uu.cards never imports uu.engine."""
    for path in (ROOT / "uu" / "cards").glob("*.py"):
        assert not {m for m in _uu_imports(path) if m.startswith("uu.engine")}, path
