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
