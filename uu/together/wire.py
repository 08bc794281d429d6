"""A seat's screen as JSON: what the server sends a learner's kernel, which hands it to the table widget.

The table, its actions and the steps to play back are the table widget's own messages (uu/table/seat_view.py,
uu/table/replay.py), made on the server for that seat only, so no hidden card ever leaves the server for a
screen that may not see it. In a Neigh moment a seat asked to answer is given its answers as actions even when
the engine has not reached it yet (uu/together/answers.py), and no seat is told who else is asked.
"""

from __future__ import annotations

import functools
from typing import Literal

from pydantic import ConfigDict, TypeAdapter, with_config
from typing_extensions import TypedDict  # pydantic reads TypedDicts from typing_extensions before 3.12

from uu.i18n import _
from uu.table.messages import ActionView, StepView
from uu.table.messages import TableView as TableJSON
from uu.table.seat_view import action_view, legal_actions, observe
from uu.together.table import Phase, SharedTable, TableView

__all__ = ["CHECKS", "HintAnswer", "OptionsJSON", "SeatEntry", "SeatScreen",
           "SeatedScreen", "seat_json"]

_STRICT = ConfigDict(extra="forbid")  # a key the kernel does not know is refused, as the table's messages are


@with_config(_STRICT)
class OptionsJSON(TypedDict):
    """The maker's choices (`uu.together.table.TableOptions`) as sent."""

    players: int
    bot_level: Literal["easy", "normal", "hard"]
    coach: bool
    targeting: Literal["declare-first", "neigh-first"]
    answer_s: Literal[0, 20, 40, 60]


@with_config(_STRICT)
class SeatEntry(TypedDict):
    """One seat as every player may see it (`uu.together.table.SeatInfo`)."""

    seat: int
    name: str
    kind: Literal["person", "bot", "empty"]
    away: bool
    level: str | None


@with_config(_STRICT)
class SeatScreen(TypedDict):
    """A seat's screen: what every table request but the hint, why and record answers with."""

    code: str
    phase: Phase
    seat: int
    maker: bool
    version: int
    revision: int
    options: OptionsJSON
    seats: list[SeatEntry]
    answering: bool
    table: TableJSON | None  # None before the start
    actions: list[ActionView]
    steps: list[StepView] | None
    answer_left: float | None


@with_config(_STRICT)
class SeatedScreen(SeatScreen):
    """The answer to making or joining a table: the screen and the seat's token."""

    token: str


@with_config(_STRICT)
class HintAnswer(TypedDict):
    hint: str  # its words as HTML
    lit: list[int]  # the indexes of the hinted moves
    version: int  # the table the hint is about


class _Checks:
    """What a kernel checks each answer against before a screen reads it (a server of another version, a proxy's
    error page: refused in one place, never a KeyError half-way through drawing). Built on first use: building
    them costs a tenth of a second or more, which the app's start (and the static build's) need not pay."""

    @functools.cached_property
    def screen(self) -> TypeAdapter[SeatScreen]:
        return TypeAdapter(SeatScreen)

    @functools.cached_property
    def seated(self) -> TypeAdapter[SeatedScreen]:
        return TypeAdapter(SeatedScreen)

    @functools.cached_property
    def hint(self) -> TypeAdapter[HintAnswer]:
        return TypeAdapter(HintAnswer)


CHECKS = _Checks()


def _answers(table: SharedTable, view: TableView) -> list[ActionView]:
    assert table.session is not None
    game = table.session.game
    return [action_view(game, view.seat, a, i) for i, a in enumerate(view.legal)]


def seat_json(table: SharedTable, view: TableView) -> SeatScreen:
    """`view` (made by `table.view` for one seat) as the JSON its screen is sent."""
    o = view.options
    out: SeatScreen = {
        "code": table.code, "phase": view.phase, "seat": view.seat, "maker": view.maker, "version": view.version,
        "revision": view.revision,
        "options": {"players": o.players, "bot_level": o.bot_level, "coach": o.coach, "targeting": o.targeting,
                    "answer_s": o.answer_s},
        "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "away": s.away, "level": s.level}
                  for s in view.seats],
        "answering": view.answering, "table": None, "actions": [], "steps": view.steps,
        "answer_left": table.answer_left(),  # the countdown of a Neigh moment, when the maker set one
    }
    session = table.session
    if session is None:
        return out
    game = session.game
    shown = observe(game, view.seat)
    if view.observation is not None and view.observation.decider is None and shown["decision"] is not None:
        # a Neigh moment: who the engine asks first is not said (it would tell who holds an Instant)
        prompt = (_("Answer the top card of the Neigh pile, or pass.") if view.answering
                  else _("Waiting for answers to the top card of the Neigh pile."))
        if view.options.answer_s and view.answering:
            prompt += " " + _("Answer within {seconds} s of the card being played, or you pass.").format(
                seconds=view.options.answer_s)
        shown["decision"] = {"player": -1, "name": "", "kind": "respond", "yours": view.answering, "prompt": prompt}
    out["table"] = shown
    if view.answering:
        out["actions"] = _answers(table, view)
    elif view.legal:
        out["actions"] = legal_actions(game, view.seat)
    return out
