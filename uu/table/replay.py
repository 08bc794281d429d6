"""What a recorded step shows one viewer: the table plays each decision back one at a time.

A session (`uu.session`) records every move as a `Step` while it is made: whose decision, the log lines it
wrote, the cards it moved. `step_view(game, step, viewer)` is that step as the table plays it back to `viewer`
(uu/table/table.js): its caption (the log lines, which every player may read) and the cards it moved, each from
where it was to where it went. A card the viewer could not see at either end is sent without its name or id
(it went from one hidden hand to another, or from the deck): the table moves a card back, it never learns which
card it was. Pure Python: no ipywidgets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import cast

from uu.engine import queries as q
from uu.engine.game import Game
from uu.render import second_person
from uu.session.steps import Step
from uu.table.messages import MovedCard, StepView, Zone
from uu.table.seat_view import card_at  # the one place a card becomes JSON

__all__ = ["MAX_STEPS", "step_view", "steps_view"]

MAX_STEPS = 60  # steps kept for one playback; older ones are folded into the first (a very long bot turn)

_OPEN_ZONES = {"stable", "discard", "nursery", "pile", "limbo"}


def _seen(game: Game, viewer: int | None, zone: str, owner: int) -> bool:
    if zone in _OPEN_ZONES:
        return True
    if zone == "hand":
        return viewer is None or owner == viewer or q.hand_visible(game.state, owner)
    return False  # deck, box, not placed


def _caption(game: Game, log_at: int, log_to: int) -> list[str]:
    return [second_person(e.text) for e in game.state.log[log_at:log_to]]


def step_view(game: Game, step: Step, viewer: int | None, person: Callable[[int], bool] | None = None) -> StepView:
    """A session's recorded step as `viewer` is shown it: the log lines it wrote as its caption, and the cards
    it moved, each without its name or id where the viewer could see it at neither end. `person`: whose moves
    count as the viewer's own (default: the viewer's seat)."""
    moved: list[MovedCard] = []
    for cid, was, now in step.moved:
        if _seen(game, viewer, *was) or _seen(game, viewer, *now):
            zone: Zone = cast(Zone, now[0] or "box")
            shown = {k: v for k, v in card_at(game, cid, zone, now[1]).items() if k != "text"}
        else:
            shown = {"id": None, "name": None}
        moved.append(cast(MovedCard, {"from": list(was), "to": list(now), **shown}))
    mine = person(step.seat) if person is not None else step.seat == viewer
    return {"seat": step.seat, "yours": mine, "lines": _caption(game, step.log_from, step.log_to), "moved": moved}


def steps_view(game: Game, steps: list[Step], viewer: int | None,
               person: Callable[[int], bool] | None = None) -> list[StepView]:
    """A session's steps as `viewer` is shown them, one a decision (at most MAX_STEPS: older ones folded)."""
    out = [step_view(game, st, viewer, person) for st in steps]
    out = [v for v in out if v["lines"] or v["moved"]]  # a decision that showed nothing has nothing to play back
    if len(out) > MAX_STEPS:
        _fold(out)
    return out


def _fold(steps: list[StepView]) -> None:
    """Keep the last MAX_STEPS - 1 steps and fold the older ones into one (their captions and moves)."""
    old = steps[: len(steps) - MAX_STEPS + 1]
    first: StepView = {"seat": None, "yours": False, "lines": [line for s in old for line in s["lines"]][-6:],
                       "moved": [m for s in old for m in s["moved"]]}
    steps[:] = [first, *steps[len(old):]]
