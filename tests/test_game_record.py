"""The game record as a save format of its own (uu/scenario/record.py, docs/save-format.md): a game that began
with a deal starts from that deal (its seed and options), never from the engine's inner state; a game from a
position starts from its snapshot; version-1 records still load; a start that is both or neither is refused."""

from __future__ import annotations

import json

import pytest

from uu.bots import RandomBot
from uu.engine import new_game
from uu.scenario.load import parse_scenario
from uu.scenario.record import GameRecord, RecordError, parse_record, record_for, record_of, replay
from uu.scenario.to_game import build_game


def played(seed: int, players: int, moves: int, options: dict | None = None):  # type: ignore[no-untyped-def]
    game = new_game([f"P{i}" for i in range(players)], seed=seed, options=options)
    bot = RandomBot(seed)
    for _ in range(moves):
        if game.pending is None:
            break
        game.push(bot.choose(game))
    return game


@pytest.mark.parametrize(("seed", "players", "options"), [(3, 2, None), (11, 4, {"targeting": "neigh-first"}),
                                                          (5, 6, {"deck_out": "reshuffle"})])
def test_a_dealt_game_is_saved_as_its_deal_and_its_moves(seed: int, players: int, options: dict | None) -> None:
    game = played(seed, players, 120, options)
    record = record_of(game)
    data = json.loads(record.to_json())
    assert data["version"] == 2 and set(data["start"]) == {"deal"}
    assert data["start"]["deal"]["seed"] == seed and data["start"]["deal"]["options"] == (options or {})
    assert "zones" not in json.dumps(data["start"])  # nothing of the engine's state
    again = parse_record(record.to_json())
    end = again.start_game()
    for _before, legal, _n in replay(again):
        end.push(legal)
    assert end.to_dict() == game.to_dict()


def test_a_game_from_a_position_is_saved_from_its_snapshot() -> None:
    game = build_game(parse_scenario("""
name: a position
players: [Ana, Ben]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue)]}
hands: {Ana: [Rhinocorn]}
"""))
    record = record_for(game)
    assert record.start.snapshot is not None and record.start.deal is None
    assert parse_record(record.to_json()).start_game().to_dict() == game.to_dict()


def test_a_version_one_record_still_loads() -> None:
    game = played(8, 3, 40)
    start = game.copy()
    start.pop_to(0)
    old = {"format": "uu-game-record", "version": 1, "players": list(game.players), "start": start.to_dict(),
           "moves": json.loads(record_of(game).to_json())["moves"], "result": None}
    record = parse_record(json.dumps(old))
    end = record.start_game()
    for _before, legal, _n in replay(record):
        end.push(legal)
    assert end.to_dict() == game.to_dict()


@pytest.mark.parametrize("start", [{}, {"deal": {"seed": 1}, "snapshot": {}}, {"deal": {"seed": -1}},
                                   {"deal": {"seed": 1, "options": {"no_such_option": 1}}}, {"other": 1}])
def test_a_start_that_is_not_one_deal_or_one_snapshot_is_refused(start: dict) -> None:
    text = json.dumps({"format": "uu-game-record", "version": 2, "players": ["A", "B"], "start": start,
                       "moves": []})
    with pytest.raises(RecordError):
        parse_record(text).start_game()


def test_records_are_game_records() -> None:
    assert isinstance(record_of(played(1, 2, 5)), GameRecord)
