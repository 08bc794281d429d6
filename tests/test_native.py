"""The compiled engine (uu.native): the same modules compiled by mypyc must play exactly the games the Python
modules play, for every rule and option (the rules are the same code; these tests prove the compilation
changed nothing), and a stale build must never be used."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from uu import native
from uu.bots import RandomBot
from uu.engine import new_game

ROOT = Path(__file__).resolve().parents[1]
# Non-default options too: each one switches rule code on (option.targeting, option.deck-out, ...).
OPTION_SETS: list[dict] = [
    {},
    {"targeting": "neigh-first", "deck_out": "reshuffle"},
    {"baby_moves": "nursery-only", "return_is_leaving": True, "pandas": "all-effects", "hand_limit": 5},
]
SEEDS = range(6)
PLAYERS = (2, 3, 4, 6, 8)

_FINGERPRINT = """
import hashlib, json, sys
from uu.bots import RandomBot
from uu.engine import new_game
from uu import native

def fingerprint(n, seed, options):
    g = new_game([f"P{i}" for i in range(n)], seed=seed, options=options)
    bot = RandomBot(seed)
    h = hashlib.sha256()
    while g.pending is not None and g.state.decisions < 3000:
        d = g.pending
        a = bot.choose(g)
        h.update(f"{d.player}|{d.kind}|{d.prompt}|{len(d.actions)}|{g.describe(a)}\\n".encode())
        g.push(a)
    for e in g.log:
        h.update(f"{e.text}|{e.rules}|{e.player}\\n".encode())
    h.update(repr(g.to_dict()).encode())
    return h.hexdigest()

cases = json.loads(sys.stdin.read())
print(json.dumps({"engine": native.engine, "prints": [fingerprint(*c) for c in cases]}))
"""


def _cases() -> list[list]:
    return [[n, seed, opts] for opts in OPTION_SETS for n in PLAYERS for seed in SEEDS]


def _run(cases: list[list], engine: str) -> dict:
    env = dict(os.environ, UU_ENGINE=engine)
    out = subprocess.run([sys.executable, "-c", _FINGERPRINT], input=json.dumps(cases), capture_output=True,
                         text=True, env=env, cwd=ROOT, timeout=900)
    assert out.returncode == 0, out.stderr[-3000:]
    return json.loads(out.stdout)


def test_compiled_engine_in_use_under_ci() -> None:
    """CI builds the compiled engine (dev.py runs `python -m uu.native build`): the suite and `uu bench` must
    then run on it, or the speed figures would describe another engine."""
    if os.environ.get("CI") != "true":
        pytest.skip("only required under CI=true (elsewhere the build needs a C compiler and mypy)")
    assert native.engine == "compiled", native.reason


def test_compiled_engine_plays_the_same_games_as_python() -> None:
    if native.engine != "compiled":
        pytest.skip(f"no compiled engine to compare: {native.reason}")
    cases = _cases()
    python = _run(cases, "python")
    compiled = _run(cases, "")
    assert python["engine"] == "python" and compiled["engine"] == "compiled"
    differ = [c for c, a, b in zip(cases, python["prints"], compiled["prints"]) if a != b]
    assert not differ, f"the compiled engine plays differently in {len(differ)} games, e.g. {differ[:3]}"


def test_fingerprint_sees_a_different_game() -> None:
    """The comparison above can fail: two seeds give two fingerprints."""
    prints = _run([[4, 1, {}], [4, 2, {}], [4, 1, {}]], "python")["prints"]
    assert prints[0] == prints[2] != prints[1]


def test_scenario_files_pass_on_the_python_engine() -> None:
    """The rest of the suite runs on whichever engine is active (the compiled one under CI); the scenario
    files also run on the Python modules, so both stay correct."""
    env = dict(os.environ, UU_ENGINE="python")
    out = subprocess.run([sys.executable, "-m", "uu.cli", "scenario", "check", "tests/scenarios"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert out.returncode == 0, (out.stdout + out.stderr)[-3000:]
    assert "0 failed" in out.stdout


def test_edited_source_means_no_compiled_modules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A build is only used for the exact sources it was made from: change one byte of one engine file and
    `activate` keeps the Python modules."""
    monkeypatch.setattr(native, "engine", native.engine)  # restored afterwards: activate sets them
    monkeypatch.setattr(native, "reason", native.reason)
    engine_copy = tmp_path / "engine"
    shutil.copytree(native.ENGINE_DIR, engine_copy, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(native, "ENGINE_DIR", engine_copy)
    monkeypatch.setenv("UU_NATIVE_DIR", str(tmp_path / "native"))
    monkeypatch.delenv("UU_ENGINE", raising=False)
    before = native.sources_digest()
    fake = native.build_dir(before)
    (fake / "uu" / "engine").mkdir(parents=True)
    (fake / "COMPLETE").write_text(before)
    # a "build" without its modules (say, interrupted) is not used: the Python modules are kept
    path: list[str] = []
    native.activate("engine", path, again=True)
    assert path == [] and native.engine == "python" and "no compiled build" in native.reason
    flow = engine_copy / "flow.py"
    flow.write_text(flow.read_text() + "\n# edited\n")
    assert native.sources_digest() != before
    native.activate("engine", path, again=True)
    assert path == [] and "no compiled build for these sources" in native.reason
    monkeypatch.setenv("UU_ENGINE", "python")
    native.activate("engine", path, again=True)
    assert path == [] and "UU_ENGINE=python" in native.reason


def test_status_command_names_the_engine() -> None:
    out = subprocess.run([sys.executable, "-m", "uu.native", "status"], capture_output=True, text=True,
                         cwd=ROOT, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"engine: {native.engine} (")


def test_bench_reports_the_engine() -> None:
    from uu.benchmarks.engine import bench

    assert bench([2], 2, 0)["engine"] == native.engine


def test_random_game_runs_on_the_active_engine() -> None:
    """Smoke check in this process (whatever engine the import chose): a full game ends."""
    g = new_game(["A", "B", "C", "D"], seed=11)
    bot = RandomBot(11)
    while g.pending is not None:
        g.push(bot.choose(g))
    assert g.is_over and g.winner is not None


def test_move_stack_and_malformed_input_on_the_python_engine_too() -> None:
    """tests/test_move_stack.py and test_engine_input.py run on whichever engine is active (the compiled one
    when built); here they also run on the Python modules, so `pop` is exact and malformed actions get the
    engine's errors in both builds."""
    if native.engine != "compiled":
        pytest.skip(f"the active engine is already the Python one: {native.reason}")
    env = dict(os.environ, UU_ENGINE="python")
    out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "tests/test_move_stack.py",
                          "tests/test_engine_input.py"],
                         capture_output=True, text=True, env=env, cwd=ROOT, timeout=600)
    assert out.returncode == 0, (out.stdout + out.stderr)[-3000:]
    assert " passed" in out.stdout and "failed" not in out.stdout
