"""The messages between Python and the table in the browser (uu/table/table.js), as types.

Python builds what the table draws (`uu.table.seat_view`, `uu.table.replay`) as these TypedDicts, so mypy
checks every place that makes or reads one; `MESSAGE_SCHEMA` is their JSON Schema (pydantic's
`TypeAdapter`), shipped beside table.js as `messages.schema.json`. A test checks that file is current, that
every table of random games validates against it exactly (no key missing, none extra), and table.js is
tested in Chromium against tables that validate (tests/test_table_messages.py).

What the browser sends back is checked on arrival by `BrowserMessage` (a pydantic model per kind of message):
anything else is dropped, so no message from a page can reach the game but the index of a legal action.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator, with_config
from typing_extensions import (  # pydantic reads TypedDicts from typing_extensions before 3.12
    NotRequired,
    TypedDict,
)

__all__ = ["ActionView", "BannerMessage", "BrowserMessage", "ChooseMessage", "LogRequest", "WhyMessage", "CardView", "ChainEffectView", "ChainLinkView", "DecisionView",
           "LogLineView", "MESSAGE_SCHEMA", "MiddlePart", "MovedCard", "PileEntryView", "SCHEMA_FILE", "SeatView",
           "SeatsPart", "StatePart", "StepView", "TableView", "TurnView", "parse_browser_message", "schema_text"]

SCHEMA_FILE = Path(__file__).with_name("messages.schema.json")
_STRICT = ConfigDict(extra="forbid")
Zone = Literal["hand", "stable", "pile", "discard", "nursery", "deck", "limbo", "box"]


@with_config(_STRICT)
class CardFacts(TypedDict):
    """What is the same for every copy of a card: sent once per table (`facts`), by the card's English name."""

    label: str  # its name in the learner's language
    type: str | None  # None: a hidden card
    type_label: str
    icon: str
    text: str


@with_config(_STRICT)
class CardView(TypedDict):
    """A card where it lies. `name` is the catalog's English name, None for a card the viewer may not see.
    The facts (label, type, type_label, icon, text) travel once per table and the browser puts them back."""

    id: str  # "c<instance>" for a card seen; "h<owner>-<position>" for a card back in a hand
    key: str  # the element key the gestures name (uu.table.seat_view)
    name: str | None
    zone: Zone
    owner: int  # -1 in a zone nobody owns
    label: NotRequired[str]
    type: NotRequired[str | None]
    type_label: NotRequired[str]
    icon: NotRequired[str]
    text: NotRequired[str]


@with_config(_STRICT)
class SeatView(TypedDict):
    seat: int
    name: str
    is_viewer: bool
    unicorns: int
    hand_size: int
    hand_open: bool
    hand: list[CardView]
    stable: list[CardView]


@with_config(_STRICT)
class PileEntryView(TypedDict):
    card: CardView
    player: str
    seat: int


@with_config(_STRICT)
class ChainEffectView(TypedDict):
    card: CardView
    player: str
    seat: int
    kind: str
    text: NotRequired[str]  # only where it differs from the card's own text once sent


@with_config(_STRICT)
class ChainLinkView(TypedDict):
    current: bool  # the link resolving now
    effects: list[ChainEffectView]


@with_config(_STRICT)
class TurnView(TypedDict):
    player: int
    name: str
    phase: str
    phase_label: str
    number: int


@with_config(_STRICT)
class DecisionView(TypedDict):
    player: int
    name: str
    kind: str | None
    yours: bool
    prompt: str


@with_config(_STRICT)
class LogLineView(TypedDict):
    index: int
    text: str
    why: list[str]  # the rules behind the line, in plain words
    turn: NotRequired[int]  # the line opens this turn


@with_config(_STRICT)
class TableView(TypedDict):
    """The table as one seat may see it (`uu.table.seat_view.observe`)."""

    viewer: int | None  # None: an analyst who sees everything
    players: list[SeatView]
    deck_size: int
    discard: list[CardView]  # the last is the top
    nursery: list[CardView]
    pile: list[PileEntryView]  # bottom first
    chain: list[ChainLinkView]  # the first link resolves first
    turn: TurnView
    decision: DecisionView | None
    over: bool
    result: str | None
    log: list[LogLineView]  # the newest lines, newest first


class SeatsPart(TypedDict):
    """The `seats` part of a table as sent: whose view it is, and every seat (cards lean)."""

    viewer: int | None
    players: list[SeatView]


class MiddlePart(TypedDict):
    """The `middle` part of a table as sent (cards lean; an effect's text only where it is not its card's)."""

    deck_size: int
    discard: list[CardView]
    nursery: list[CardView]
    pile: list[PileEntryView]
    chain: list[ChainLinkView]


class StatePart(TypedDict):
    """The `state` part of a table as sent."""

    turn: TurnView
    decision: DecisionView | None
    over: bool
    result: str | None


@with_config(_STRICT)
class ActionView(TypedDict):
    """One legal action of the viewer's decision and the gesture that chooses it (element keys in order)."""

    id: int  # its index in the decision's legal actions: all the browser ever sends back
    kind: str
    description: str
    gesture: list[str]
    option: str | None  # the words of a choice shown as a button, where the action has no card to click
    card: str | None


# A card a step moved, from (zone, owner) to (zone, owner) ("" for a card not placed yet); a card hidden from
# the viewer at both ends goes without its id and name. `from` is a Python keyword: hence the functional form.
MovedCard = TypedDict("MovedCard", {
    "from": list[str | int], "to": list[str | int], "id": str | None, "name": str | None,
    "key": NotRequired[str], "zone": NotRequired[Zone], "owner": NotRequired[int], "label": NotRequired[str],
    "type": NotRequired[str | None], "type_label": NotRequired[str], "icon": NotRequired[str],
})
MovedCard.__pydantic_config__ = _STRICT  # type: ignore[attr-defined]  # what with_config sets on a class


@with_config(_STRICT)
class StepView(TypedDict):
    """One decision played back on the table: whose, the log lines it wrote (its caption) and what moved."""

    seat: int | None
    yours: bool
    lines: list[str]
    moved: list[MovedCard]




class ChooseMessage(BaseModel):
    """A click that completes a gesture: the action's index in the table of `version`."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["choose"]
    id: int = Field(ge=0, le=10_000)
    version: int = -1  # without one: never the table's (made on no table the server knows)


class WhyMessage(BaseModel):
    """A click on an element that is not lit: answered with one sentence."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["why"]
    key: str = Field(max_length=200)
    name: str = ""  # the card's name as drawn; a longer one than a card's is dropped, not refused

    @field_validator("name", mode="before")
    @classmethod
    def _short_name(cls, v: object) -> object:
        return v if isinstance(v, str) and len(v) <= 80 else ""


class LogRequest(BaseModel):
    """A newcomer's table asking for the log lines from `from` on."""

    model_config = ConfigDict(extra="forbid", strict=True, populate_by_name=True)
    type: Literal["log"]
    start: int = Field(alias="from", ge=0)


class BannerMessage(BaseModel):
    """The button of the note on the table (a wrong move's preview: "Try again")."""

    model_config = ConfigDict(extra="forbid", strict=True)
    type: Literal["banner"]
    version: int


BrowserMessage = Annotated[ChooseMessage | WhyMessage | LogRequest | BannerMessage, Field(discriminator="type")]
_BROWSER = TypeAdapter(BrowserMessage)


def parse_browser_message(content: object) -> ChooseMessage | WhyMessage | LogRequest | BannerMessage | None:
    """What the browser sent, checked; None for anything that is not one of the four messages."""
    try:
        return _BROWSER.validate_python(content)
    except ValidationError:
        return None


def _schema() -> dict[str, Any]:
    return {"$schema": "https://json-schema.org/draft/2020-12/schema",
            "title": "uu table messages",
            "description": "What uu/table sends the browser (table, actions, steps, facts) and what it sends back.",
            "table": TypeAdapter(TableView).json_schema(),
            "actions": TypeAdapter(list[ActionView]).json_schema(),
            "steps": TypeAdapter(list[StepView]).json_schema(),
            "facts": TypeAdapter(dict[str, CardFacts]).json_schema(),
            "from_browser": _BROWSER.json_schema(by_alias=True)}


def schema_text() -> str:
    """The JSON Schema of every message, as `messages.schema.json` holds it (`python -m uu.table.messages`
    writes it again)."""
    return json.dumps(_schema(), indent=1, sort_keys=True) + "\n"


MESSAGE_SCHEMA: dict[str, Any] = _schema()

if __name__ == "__main__":
    SCHEMA_FILE.write_text(schema_text(), encoding="utf-8")
