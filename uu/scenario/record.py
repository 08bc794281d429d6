"""Game records: a whole game as its start position and the moves made, one JSON file, versioned.

A record is what `uu bench --save-games DIR` writes for each game it plays and what the play screen offers as
"Save this game"; `uu review RECORD` (uu.tutor.game_review) replays it and grades one player's decisions.

    {"format": "uu-game-record", "version": 2, "players": ["You", "Bramble", "Clover"],
     "start": {"deal": {"seed": 1234, "options": {"targeting": "declare-first"}}},
     "moves": [{"player": 0, "move": "baby Baby Unicorn (Red)", "action": {"kind": "baby", "card": ...}}, ...],
     "result": "Bramble wins"}

The start is the deal when the game began with one (`Game.deal`: its seed and the options that differ from the
defaults, which with the players' names deal the same cards again), so a record says nothing of the engine's
inner state; a game that began from a position (a lesson's step, the sandbox) starts from that position's
snapshot instead (`{"snapshot": Game.to_dict()}`, docs/save-format.md). A version-1 record, whose start was
the snapshot itself, is read as such.

Each move keeps the action's fields (kind, card, into, target, option, cards: what the engine's `Action`
compares) and the engine's description for a person reading the file. Replaying looks every move up among
the legal actions of the position it was made in (`Game.find`), so a record that does not fit its start
position is refused with the move number and the reason, never half-applied. Reading a record is hardened
like every user file: size-capped, parsed by pydantic, and every failure is one `RecordError` sentence.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from uu.engine.actions import Action, Target
from uu.engine.errors import GameError
from uu.engine.game import Game, new_game
from uu.i18n import language
from uu.i18n.validation import validation_message

__all__ = ["FORMAT", "MAX_RECORD_BYTES", "DealStart", "GameRecord", "GameStart", "RecordError", "RecordedAction", "RecordedMove", "record_of",
           "load_record", "parse_record", "record_for", "replay"]

FORMAT = "uu-game-record"
MAX_RECORD_BYTES = 4_000_000  # a long 8-player game is well under 1 MB
MAX_MOVES = 20_000


class RecordError(ValueError):
    """A record that cannot be read or replayed; the message says which and why."""


class RecordedTarget(BaseModel):
    model_config = ConfigDict(extra="forbid")
    card: str | None = None
    owner: int | None = None
    zone: str = "stable"
    player: int | None = None


class RecordedAction(BaseModel):
    model_config = ConfigDict(extra="forbid")
    kind: str
    card: str | None = None
    into: int | None = None
    target: list[RecordedTarget] = Field(default_factory=list, max_length=16)
    option: str | None = None
    cards: list[str] = Field(default_factory=list, max_length=64)

    @classmethod
    def of(cls, a: Action) -> RecordedAction:
        return cls(kind=a.kind, card=a.card, into=a.into, option=a.option, cards=list(a.cards),
                   target=[RecordedTarget(card=t.card, owner=t.owner, zone=t.zone, player=t.player)
                           for t in a.target])

    def action(self) -> Action:
        return Action(self.kind, card=self.card, into=self.into, option=self.option, cards=tuple(self.cards),
                      target=tuple(Target(t.card, t.owner, t.zone, t.player) for t in self.target))


class RecordedMove(BaseModel):
    model_config = ConfigDict(extra="forbid")
    player: int = Field(ge=0, le=7)
    move: str = ""  # the engine's description, for people reading the file
    action: RecordedAction


class DealStart(BaseModel):
    """A game that began with a deal: its seed and the engine options that differ from the defaults."""

    model_config = ConfigDict(extra="forbid")
    seed: int = Field(ge=0, le=2**64 - 1)
    options: dict[str, Any] = Field(default_factory=dict, max_length=64)


class GameStart(BaseModel):
    """Where a recorded game began: a deal, or a position's snapshot (exactly one of them)."""

    model_config = ConfigDict(extra="forbid")
    deal: DealStart | None = None
    snapshot: dict[str, Any] | None = None

    @model_validator(mode="after")
    def _one(self) -> GameStart:
        if (self.deal is None) == (self.snapshot is None):
            raise ValueError("a start is either a deal or a snapshot")
        return self


class GameRecord(BaseModel):
    """A game: where it started and every move made, in order."""

    model_config = ConfigDict(extra="forbid")
    format: Literal["uu-game-record"] = "uu-game-record"
    version: Literal[1, 2] = 2
    players: list[str] = Field(min_length=2, max_length=8)
    start: GameStart

    @model_validator(mode="before")
    @classmethod
    def _version_one(cls, data: Any) -> Any:
        """A version-1 record's start was the snapshot itself."""
        if isinstance(data, dict) and data.get("version") == 1 and isinstance(data.get("start"), dict):
            return {**data, "version": 2, "start": {"snapshot": data["start"]}}
        return data

    moves: list[RecordedMove] = Field(default_factory=list, max_length=MAX_MOVES)
    result: str | None = None

    def add(self, game: Game, action: Action) -> None:
        """Note `action`, about to be applied to `game` (call before `game.push`)."""
        d = game.pending
        if d is None:
            raise RecordError("the game is over: no move can be added")
        # a record is data: its words stay English whatever the learner reads (Action.describe, not Game's)
        self.moves.append(RecordedMove(player=d.player, move=action.describe(game.players),
                                       action=RecordedAction.of(action)))

    def finish(self, game: Game) -> None:
        with language("en"):
            self.result = game.result_text() if game.is_over else None

    def start_game(self) -> Game:
        try:
            deal = self.start.deal
            if deal is not None:
                return new_game(self.players, deal.seed, {**deal.options, "seed": deal.seed})
            assert self.start.snapshot is not None
            return Game.from_dict(self.start.snapshot)
        except Exception as e:  # a damaged start position is bad input, whatever the engine raised
            raise RecordError(f"the record's start position cannot be read ({type(e).__name__}: {e})") from None

    def to_json(self) -> str:
        return self.model_dump_json(indent=None, exclude_none=True)  # a start names only what it is


def record_for(game: Game) -> GameRecord:
    """An empty record that starts at `game`'s present position: its deal, when no move was made since."""
    deal = game.deal
    if deal is not None and not game.moves:
        changed = deal.model_dump(exclude_defaults=True, mode="json")
        changed.pop("seed", None)
        return GameRecord(players=list(game.players), start=GameStart(deal=DealStart(seed=deal.seed, options=changed)))
    return GameRecord(players=list(game.players), start=GameStart(snapshot=game.to_dict()))


def record_of(game: Game) -> GameRecord:
    """The record of `game` read off its move stack: the position before its first move, and every move since
    (each described as it was made)."""
    start = game.copy()
    start.pop_to(0)
    record = record_for(start)
    for action in game.moves:
        record.add(start, action)
        start.push(action)
    record.finish(game)
    return record


def replay(record: GameRecord) -> Iterator[tuple[Game, Action, int]]:
    """(the position before the move, the legal action, the move's number) for every move; the position is a
    copy the caller may keep."""
    game = record.start_game()
    if list(game.players) != record.players:
        raise RecordError(f"the players {record.players} do not match the start position's {list(game.players)}")
    for i, m in enumerate(record.moves, 1):
        d = game.pending
        if d is None:
            raise RecordError(f"move {i} ({m.move or m.action.kind}): the game was already over")
        if d.player != m.player:
            raise RecordError(f"move {i} ({m.move or m.action.kind}) is {record.players[m.player]}'s, but "
                              f"{record.players[d.player]} was to decide")
        try:
            legal = game.find(m.action.action())
        except GameError as e:
            raise RecordError(f"move {i} does not fit the game: {e}") from None
        yield game.copy(), legal, i
        game.push(legal)


def parse_record(text: str, where: str = "<text>") -> GameRecord:
    try:
        data = json.loads(text)
    except json.JSONDecodeError as e:
        raise RecordError(f"{where}: not JSON ({e.msg} at line {e.lineno}, column {e.colno})") from None
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise RecordError(f"{where}: not a game record (a JSON object with \"format\": \"{FORMAT}\" is expected)")
    try:
        return GameRecord.model_validate(data)
    except ValidationError as e:
        first = e.errors()[0]
        loc = ".".join(str(x) for x in first["loc"])
        raise RecordError(f"{where}: {loc}: {validation_message(first)}") from None


def load_record(path: str | Path) -> GameRecord:
    p = Path(path)
    try:
        if p.stat().st_size > MAX_RECORD_BYTES:
            raise RecordError(f"{p}: too large for a game record (at most {MAX_RECORD_BYTES // 1_000_000} MB)")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise RecordError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise RecordError(f"{p}: a folder, not a game record file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise RecordError(f"{p}: cannot be read ({e})") from None
    return parse_record(text, str(p))
