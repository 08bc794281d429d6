"""A step: one decision as it was made, kept by the session so that every screen can play it back.

A step holds whose decision it was, the move, the version of the session it made, the log lines it wrote
(their range) and every card it moved, from where to where. It holds no card names and says nothing of what
any seat may see: it is the game's record, and a screen renders it for one viewer (uu/table/replay.py,
`step_view`), hiding what that viewer may not see. Recording a step is done as the move is made, so nothing is
ever made again on a copy to find out what a move did.
"""

from __future__ import annotations

from dataclasses import dataclass

from uu.engine.actions import Action
from uu.engine.game import Game

__all__ = ["Place", "Step", "places", "step_of"]

Place = tuple[str, int]  # (zone, owner): "" for a card not placed yet; owner -1 where the zone has none


@dataclass(frozen=True)
class Step:
    version: int  # the session's version once this move was made
    seat: int  # who decided
    action: Action
    log_from: int  # the log lines it wrote: game.log[log_from:log_to]
    log_to: int
    moved: tuple[tuple[int, Place, Place], ...]  # (card instance, where it was, where it went)


def places(game: Game) -> list[Place]:
    """Where every card is, by instance id."""
    s = game.state
    return list(zip(s.zone_of, s.owner_of))


def step_of(game: Game, before: list[Place], log_from: int, seat: int, action: Action, version: int) -> Step:
    """The step of the move just made on `game`, given where the cards were and the log's length before it."""
    moved = tuple((cid, was, now) for cid, (was, now) in enumerate(zip(before, places(game))) if was != now)
    return Step(version=version, seat=seat, action=action, log_from=log_from, log_to=len(game.state.log),
                moved=moved)
