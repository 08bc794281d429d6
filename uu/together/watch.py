"""A table as the teacher sees it: a row for the list of tables, and a spectator's view of its game.

A spectator sees what every player at the table sees: the Stables, the piles, the Neigh pile, how many cards
each hand holds, and a hand only while it is face up for all (Nanny Cam). No hidden card, no seat's decision
(its prompt may name cards only its player sees), and in a Neigh moment not whom the engine asks now (that
would say whose answers are in). Pure Python: the class view (uu/server/tablewatch.py) renders it.
"""

from __future__ import annotations

import dataclasses
from typing import TypedDict

from uu.engine import queries as q
from uu.engine.observation import Observation
from uu.together.table import Phase, SharedTable
from uu.together.wire import SeatEntry

__all__ = ["TableRow", "TurnRow", "spectator_observation", "table_row"]


class TurnRow(TypedDict):
    seat: int
    name: str
    phase: str
    number: int


class TableRow(TypedDict):
    """One table in the teacher's list (the class view's page and JSON)."""

    code: str
    phase: Phase
    seats: list[SeatEntry]
    turn: TurnRow | None  # while the game is on
    moves: int
    started_at: float | None
    ended_at: float | None
    coach: bool


def spectator_observation(table: SharedTable) -> Observation | None:
    """The table's game as a spectator may see it; None before the start."""
    with table.lock:
        session = table.session
        if session is None:
            return None
        game = session.game
        s = game.state
        seen = game.observe(None)  # the analyst's view, then every hidden thing taken out of it
        seats = tuple(dataclasses.replace(sv, hand=sv.hand if q.hand_visible(s, sv.seat) else None,
                                          hand_open=q.hand_visible(s, sv.seat)) for sv in seen.seats)
        in_moment = table.in_neigh_moment()
        return dataclasses.replace(seen, seats=seats, decision=None, box=(),
                                   decider=None if in_moment else seen.decider)


def table_row(table: SharedTable) -> TableRow:
    """One table for the teacher's list, as plain data (the JSON and the page): its code, who sits where (a
    bot with its level), whose turn it is, the phase, when it started and ended."""
    turn: TurnRow | None = None
    with table.lock:
        if table.session is not None and table.phase == "playing":
            s = table.session.game.state
            turn = {"seat": s.current, "name": s.players[s.current], "phase": s.phase, "number": s.turn_number}
    return {"code": table.code, "phase": table.phase,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "level": s.level, "away": s.away}
                      for s in table.seats()],
            "turn": turn, "moves": len(table.moves), "started_at": table.started_at, "ended_at": table.ended_at,
            "coach": table.options.coach}
