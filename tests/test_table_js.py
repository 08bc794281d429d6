"""table.js tested on its own: its pure functions (the table rebuilt from the widget's parts, a card's facts,
the gesture rule, counted words) run under Node's test runner against messages Python made in random games and
checked against their types (uu/table/messages.py). Skipped without Node, except on CI, which installs it."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from pydantic import TypeAdapter

from uu.engine import new_game
from uu.i18n import language
from uu.table.messages import TableView
from uu.table.seat_view import legal_actions, next_step, observe
from uu.table.widget import TableWidget, table_labels

ROOT = Path(__file__).resolve().parents[1]


def fixtures() -> dict[str, Any]:
    tables: list[dict[str, Any]] = []
    gestures: list[dict[str, Any]] = []
    widget = TableWidget()
    for seed in range(4):
        game = new_game(["You", "Ben", "Cy", "Dee"][: 2 + seed % 3], seed=seed)
        rng = random.Random(seed)
        for _ in range(80):
            d = game.pending
            if d is None:
                break
            obs = observe(game, d.player)
            TypeAdapter(TableView).validate_python(obs, strict=True)
            actions = legal_actions(game, d.player)
            widget.set_table(obs, actions)
            tables.append({"seats": widget.seats, "middle": widget.middle, "state": widget.state,
                           "log_new": widget.log_new, "expected": {k: v for k, v in obs.items() if k != "log"}})
            steps = []
            for a in actions:
                for n in range(len(a["gesture"]) + 1):
                    clicks = a["gesture"][:n]
                    chosen, nxt = next_step(actions, clicks)
                    steps.append({"clicks": clicks, "next": sorted(nxt), "chosen": chosen})
            gestures.append({"actions": actions, "steps": steps})
            game.push(rng.choice(game.legal_actions))
    labels = []
    for lang in ("en", "fr", "de"):
        with language(lang):
            labels.append({"lang": lang, "labels": table_labels()})
    return {"facts": widget.facts, "tables": tables, "gestures": gestures, "labels": labels}


def test_table_js_pure_functions_under_node(tmp_path: Path) -> None:
    node = shutil.which("node")
    if node is None:
        if os.environ.get("CI"):
            pytest.fail("Node is needed for table.js's own tests (.ci/run installs it: apt-get install nodejs)")
        pytest.skip("no node on this machine (apt-get install nodejs)")
    data = tmp_path / "fixtures.json"
    data.write_text(json.dumps(fixtures()), encoding="utf-8")
    run = subprocess.run([node, "--test", str(ROOT / "tests" / "js" / "table.test.mjs")], capture_output=True,
                         text=True, timeout=300, env={**os.environ, "UU_TABLE_FIXTURES": str(data)})
    assert run.returncode == 0, run.stdout[-4000:] + run.stderr[-2000:]
