"""The `uu` command (docs/scenario-format.md, "The uu command"): scenario check | schema, bench, cards."""

from __future__ import annotations

import json

import pytest

from uu.cli import main

PASSING = """\
name: poison works
rules: [verb.destroy]
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Rhinocorn]}
hands: {Ana: [Unicorn Poison, Yay]}
deck: [Neigh, Neigh, Neigh]
rest: box
steps:
  - {as: Ana, do: play, card: Unicorn Poison, target: {card: Rhinocorn, owner: Ben}}
expect:
  stables: {Ben: []}
  discard: [Unicorn Poison, Rhinocorn]
"""

FAILING = PASSING.replace("name: poison works", "name: wrong expectation").replace(
    "stables: {Ben: []}", "stables: {Ben: [Rhinocorn]}")

MALFORMED = "name: broken\nplayers: [Ana, Ben]\nbogus_key: 1\n"


def lines(capsys) -> list[str]:
    return capsys.readouterr().out.strip().splitlines()


def test_scenario_check_mixed_folder(tmp_path, capsys):
    (tmp_path / "a_pass.yaml").write_text(PASSING)
    sub = tmp_path / "sub"
    sub.mkdir()
    (sub / "b_fail.yaml").write_text(FAILING)
    (tmp_path / "c_malformed.yaml").write_text(MALFORMED)
    (tmp_path / "ignored.txt").write_text("not yaml")
    code = main(["scenario", "check", str(tmp_path)])
    out = lines(capsys)
    assert code == 1
    assert out[-1] == "1 passed, 2 failed"
    assert len(out) == 4
    assert "PASS poison works" in out
    assert any(line.startswith("FAIL wrong expectation: ") and "stables.Ben" in line for line in out)
    bad = [line for line in out if "c_malformed.yaml" in line]
    assert len(bad) == 1 and bad[0].startswith("FAIL ") and "bogus_key" in bad[0] and "line 3" in bad[0]
    assert not any("Traceback" in line for line in out)


def test_scenario_check_all_passing(tmp_path, capsys):
    (tmp_path / "one.yaml").write_text(PASSING)
    (tmp_path / "two.yaml").write_text(PASSING.replace("poison works", "poison again"))
    code = main(["scenario", "check", str(tmp_path / "one.yaml"), str(tmp_path / "two.yaml")])
    out = lines(capsys)
    assert code == 0
    assert out == ["PASS poison works", "PASS poison again", "2 passed, 0 failed"]


def test_scenario_check_missing_file_is_a_fail(tmp_path, capsys):
    code = main(["scenario", "check", str(tmp_path / "nope.yaml")])
    out = lines(capsys)
    assert code == 1 and out[-1] == "0 passed, 1 failed" and out[0].startswith("FAIL ")


def test_scenario_schema(capsys):
    assert main(["scenario", "schema"]) == 0
    schema = json.loads(capsys.readouterr().out)
    assert "properties" in schema and "players" in schema["properties"]
    xo = schema["x-options"]
    assert xo["targeting"]["default"] == "declare-first"
    assert xo["deck_out"]["default"] == "end"
    assert {"seed", "hand_limit", "win_threshold"} <= set(xo)


BENCH_KEYS = {"games", "players", "seconds", "games_per_s", "decisions_per_s", "mean_decisions"}


def test_bench_prints_one_json_object(capsys):
    assert main(["bench", "--games", "3", "--players", "2"]) == 0
    out = capsys.readouterr().out.strip()
    assert len(out.splitlines()) == 1
    data = json.loads(out)
    assert BENCH_KEYS <= set(data)
    assert data["games"] == 3 and data["players"] == 2
    assert data["mean_decisions"] > 0 and data["seconds"] >= 0


def test_bench_check_reports_invariants(capsys):
    assert main(["bench", "--games", "3", "--players", "3", "--check", "--seed", "4"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert BENCH_KEYS <= set(data)
    assert data["invariant_violations"] == 0
    assert data["stuck_games"] == 0


def test_bench_rejects_bad_player_count(capsys):
    with pytest.raises(SystemExit) as e:
        main(["bench", "--games", "1", "--players", "9"])
    assert e.value.code == 2


def test_cards_lists_84(capsys):
    assert main(["cards"]) == 0
    out = lines(capsys)
    assert len(out) == 84
    assert out[0].startswith("Baby Unicorn (Red) | Baby Unicorn | x1 | ")
    assert any(line.startswith("Neigh | Instant | x14 | ") for line in out)
    assert not any("NOT IMPLEMENTED" in line for line in out)


def test_cards_missing_prints_nothing(capsys):
    assert main(["cards", "--missing"]) == 0
    assert capsys.readouterr().out == ""
