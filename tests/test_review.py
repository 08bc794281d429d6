"""Game records (uu.scenario.record), the review (uu.tutor.game_review, uu.words.review_text) and the `uu hint` / `uu review`
commands: shapes, round trips, and one-line errors with exit status 2 for bad input."""

from __future__ import annotations

import html
import json
import re
from pathlib import Path

import pytest

from uu.benchmarks.bots import bench_bots
from uu.benchmarks.review_speed import bench_review, bot_game
from uu.cli import main
from uu.engine.actions import Action
from uu.scenario.record import RecordError, load_record, parse_record, record_for, replay
from uu.tutor.game_review import review
from uu.words.review_text import chart_summary, chart_svg, review_json, review_text

POSITION = """\
name: poisoned
players: [You, Bramble]
turn: {player: Bramble, phase: action}
stables:
  You: [Baby Unicorn (Red), Narwhal, Basic Unicorn (Red)]
  Bramble: [Baby Unicorn (Blue), Basic Unicorn (Blue)]
hands:
  You: [Neigh, Basic Unicorn (Green)]
  Bramble: [Unicorn Poison, Basic Unicorn (Yellow)]
steps:
  - {as: Bramble, do: play, card: Unicorn Poison, target: {card: Narwhal, owner: You}}
"""


@pytest.fixture(scope="module")
def record():
    return bot_game(3, seed=2)


def test_a_record_round_trips_and_replays_to_the_same_end(record, tmp_path):
    path = tmp_path / "game.json"
    path.write_text(record.to_json(), encoding="utf-8")
    again = load_record(path)
    assert again == record and again.result and again.version == 2  # version 2: a dealt game starts from its deal
    moves = list(replay(again))
    assert len(moves) == len(record.moves)
    last, action, number = moves[-1]
    last.push(action)
    assert last.is_over and last.result_text() == record.result and number == len(record.moves)


def test_a_record_that_does_not_fit_its_start_is_refused_with_the_move(record):
    data = json.loads(record.to_json())
    data["moves"][5]["action"] = {"kind": "play", "card": "Unicorn Poison"}
    with pytest.raises(RecordError, match=r"move 6"):
        list(replay(parse_record(json.dumps(data))))
    with pytest.raises(RecordError, match="not a game record"):
        parse_record('{"moves": []}')
    with pytest.raises(RecordError, match="not JSON"):
        parse_record("{")


def test_the_review_grades_the_players_decisions(record):
    short = parse_record(record.to_json())
    short.moves = short.moves[:60]  # the review of a game cut short: no result, no end point on the chart
    r = review(short, 1, deals=3, seconds=None, extra=0)
    assert r.decisions and r.won is None and r.player_name == "P2"
    for d in r.decisions:
        assert 0.0 <= d.chance_after <= 1.0 and 0.0 <= d.chance_before <= 1.0
        assert d.chance_before >= d.chance_after - 1e-9  # the best move is worth at least the move made
        assert not d.worse or d.best != d.action  # a move graded worse names another as better
    data = review_json(r)
    assert set(data) == {"player", "winner", "won", "accuracy", "counts", "thresholds", "decisions",
                         "key_moments"} and data["player"] == "P2"
    assert set(data["decisions"][0]) == {"number", "turn", "kind", "grade", "move", "chance", "interval", "best",
                                         "best_chance", "best_interval", "loss", "loss_interval", "words"}
    assert sum(data["counts"].values()) == len(data["decisions"])
    assert len(data["key_moments"]) <= 5 and all(isinstance(t["words"], str) for t in data["key_moments"])
    text = review_text(r)
    assert "playout" not in text.lower() and "Key moments" in text
    assert not re.search(r"\b(\w+)\s+\1\b", text, re.IGNORECASE), text  # no doubled word


def test_the_chart_is_drawn_with_a_text_alternative(record):
    r = review(record, 0, deals=2, seconds=None, extra=0)
    svg = chart_svg(r)
    assert svg.startswith("<svg") and 'role="img"' in svg and "<desc>" in svg and "aria-label=" in svg
    assert svg.count('class="uu-review-point"') == len(r.decisions) and "<polyline" in svg
    summary = chart_summary(r)
    assert html.escape(summary) in svg and ("won" in summary or "lost" in summary)


def run(capsys, *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_uu_hint_json(tmp_path, capsys):
    path = tmp_path / "p.yaml"
    path.write_text(POSITION, encoding="utf-8")
    code, out, _ = run(capsys, "hint", str(path), "--json")
    data = json.loads(out)
    assert code == 0 and list(data) == ["player", "decision", "clear", "best", "text", "candidates"]
    assert data["player"] == "You" and data["decision"] == "respond" and "If you pass" in data["text"]
    cands = data["candidates"]
    assert [set(c) for c in cands] == [{"move", "chance", "low", "high", "games", "grade", "loss"}] * len(cands)
    assert cands[0]["move"] == data["best"] and cands[0]["grade"] in ("best", "good")
    played = [c for c in cands if c["games"]]
    # "clear": the headline is the best estimate and every other move is graded worse than it
    assert data["clear"] == (cands[0]["grade"] == "best" and all(
        c["grade"] in ("inaccuracy", "mistake", "blunder") for c in played[1:]))
    code, out, _ = run(capsys, "hint", str(path), "--player", "You")
    assert code == 0 and "95% interval" in out


@pytest.mark.parametrize("args, message", [
    (["--player", "Bramble"], "is You's, not Bramble's"),
    (["--player", "Nobody"], "there is no player 'Nobody'"),
])
def test_uu_hint_refuses_a_wrong_player(tmp_path, capsys, args, message):
    path = tmp_path / "p.yaml"
    path.write_text(POSITION, encoding="utf-8")
    code, out, err = run(capsys, "hint", str(path), *args)
    assert code == 2 and not out and message in err and err.count("\n") == 1


@pytest.mark.parametrize("content", [None, "a: [", "name: x\nplayers: [A]\n", "\x00\x01"])
def test_uu_hint_and_review_turn_bad_files_into_one_line(tmp_path, capsys, content):
    path = tmp_path / "bad.yaml"
    if content is not None:
        path.write_text(content, encoding="utf-8")
    for command in ("hint", "review"):
        code, out, err = run(capsys, command, str(path))
        assert code == 2 and not out and err.startswith("uu: error: ") and err.count("\n") == 1, err
        assert "Traceback" not in err


def test_bench_saves_games_that_uu_review_grades(tmp_path, capsys):
    folder = tmp_path / "games"
    bench_bots(["heuristic", "random"], 1, seed=3, save_games=folder)
    files = sorted(folder.glob("game-*.json"))
    assert [f.name for f in files] == ["game-3.json"]
    rec = load_record(files[0])
    assert rec.players == ["heuristic 1", "random 2"] and rec.result
    short = parse_record(rec.to_json())
    short.moves = short.moves[:30]
    cut = tmp_path / "short.json"
    cut.write_text(short.to_json(), encoding="utf-8")
    code, out, err = run(capsys, "review", str(cut), "--player", "random 2", "--json")
    data = json.loads(out)
    assert code == 0 and data["player"] == "random 2" and data["decisions"], err
    code, _, err = run(capsys, "review", str(cut), "--player", "Nobody")
    assert code == 2 and "the players are heuristic 1, random 2" in err


def test_record_of_a_played_game_notes_every_move():
    from uu.engine import new_game
    from uu.scenario.record import GameStart

    g = new_game(["A", "B"], seed=1)
    rec = record_for(g)
    a = g.pending.actions[0]
    rec.add(g, a)
    g.push(a)
    assert rec.moves[0].player == 0 and rec.moves[0].action.action() == a
    assert re.match(r"baby ", rec.moves[0].move)
    # a start position whose players are not the record's (a deal start takes the record's own names)
    snapshot = GameStart(snapshot=new_game(["A", "B"], seed=1).to_dict())
    with pytest.raises(RecordError):
        list(replay(rec.model_copy(update={"players": ["A", "C"], "start": snapshot})))
    assert Action("draw") != a


def test_bench_review_keys():
    r = bench_review(players=2, games=1, seed=0, seconds=0.02)
    assert r["decisions"] > 0 and r["seconds_per_decision"] > 0 and r["games"] == 1


def test_missing_record_file(capsys):
    code, _, err = run(capsys, "review", str(Path("/nonexistent/record.json")))
    assert code == 2 and "no such file" in err
