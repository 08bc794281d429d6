"""The typed messages between Python and the table (uu/table/messages.py): the schema shipped beside table.js
is current, every table, action list and playback step of random games validates against it exactly (no key
missing, none extra, no wrong type), what the widget sends validates too, and what the browser sends is
accepted only as one of its four messages."""

from __future__ import annotations

import copy
from typing import Any

import pytest
from pydantic import TypeAdapter, ValidationError

from uu.bots import RandomBot
from uu.engine import new_game
from uu.engine.game import Game
from uu.session import Session
from uu.table.messages import (
    SCHEMA_FILE,
    ActionView,
    BannerMessage,
    ChooseMessage,
    LogRequest,
    MiddlePart,
    SeatsPart,
    StatePart,
    StepView,
    TableView,
    WhyMessage,
    parse_browser_message,
    schema_text,
)
from uu.table.replay import steps_view
from uu.table.seat_view import legal_actions, observe
from uu.table.widget import TableWidget

TABLE = TypeAdapter(TableView)
ACTIONS = TypeAdapter(list[ActionView])
STEPS = TypeAdapter(list[StepView])


def test_the_shipped_schema_is_current() -> None:
    assert SCHEMA_FILE.read_text(encoding="utf-8") == schema_text(), (
        "uu/table/messages.schema.json is out of date: run `python -m uu.table.messages`")


def _games(seed: int, players: int) -> tuple[Game, RandomBot]:
    return new_game([f"P{i}" for i in range(players)], seed=seed), RandomBot(seed)


@pytest.mark.parametrize(("seed", "players"), [(s, 2 + s % 5) for s in range(6)])
def test_every_table_of_random_games_is_what_the_types_say(seed: int, players: int) -> None:
    game, bot = _games(seed, players)
    kinds: set[str] = set()
    widget = TableWidget()
    for _ in range(300):
        if game.pending is None:
            break
        seat = game.pending.player
        kinds.add(game.pending.kind)
        for viewer in (None, *range(players)):
            TABLE.validate_python(observe(game, viewer), strict=True)
            ACTIONS.validate_python(legal_actions(game, viewer), strict=True)
        widget.set_table(observe(game, seat), legal_actions(game, seat))
        TypeAdapter(SeatsPart).validate_python(widget.seats, strict=True)
        TypeAdapter(MiddlePart).validate_python(widget.middle, strict=True)
        TypeAdapter(StatePart).validate_python(widget.state, strict=True)
        # the bots move on, each decision recorded as a step the table plays back
        session = Session(game, {s: (lambda g, _seat: bot.choose(g)) for s in range(players)})
        session.run_bots(limit=3)
        STEPS.validate_python(steps_view(game, session.steps_since(0) or [], seat), strict=True)
    assert {"baby", "action"} <= kinds  # the games went past setup into real turns


def test_a_key_too_many_or_missing_or_of_the_wrong_type_is_refused() -> None:
    game, _ = _games(1, 3)
    good: dict[str, Any] = dict(observe(game, 0))
    TABLE.validate_python(good, strict=True)
    extra = copy.deepcopy(good)
    extra["players"][0]["secret"] = "x"
    missing = copy.deepcopy(good)
    del missing["turn"]["phase"]
    wrong = copy.deepcopy(good)
    wrong["deck_size"] = "12"
    for bad in (extra, missing, wrong):
        with pytest.raises(ValidationError):
            TABLE.validate_python(bad, strict=True)


@pytest.mark.parametrize(("content", "kind"), [
    ({"type": "choose", "id": 3, "version": 7}, ChooseMessage),
    ({"type": "choose", "id": 0}, ChooseMessage),  # no version: never the table's
    ({"type": "why", "key": "deck", "name": "Neigh"}, WhyMessage),
    ({"type": "why", "key": "deck", "name": "x" * 500}, WhyMessage),  # an over-long name is dropped
    ({"type": "log", "from": 12}, LogRequest),
    ({"type": "banner", "version": 2}, BannerMessage),
])
def test_the_four_browser_messages_are_read(content: object, kind: type) -> None:
    assert isinstance(parse_browser_message(content), kind)


@pytest.mark.parametrize("content", [
    {"type": "choose", "id": "0", "version": 1}, {"type": "choose", "id": True, "version": 1},
    {"type": "choose", "id": -1, "version": 1}, {"type": "choose", "id": 0, "version": 1, "extra": 1},
    {"type": "why", "key": "k" * 201}, {"type": "why"}, {"type": "log", "from": -1}, {"type": "log", "from": "3"},
    {"type": "open", "id": 1}, {"type": "banner"}, "choose 0", None, [], 12,
])
def test_anything_else_from_the_browser_is_dropped(content: object) -> None:
    assert parse_browser_message(content) is None
