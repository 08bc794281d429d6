"""The one loop that lets the bots play until a person must decide, and what each decision showed.

Every screen (lesson, game, sandbox) and the bot-game view call `play_until_person`: the bots choose
until the pending decision is a person's (or the game ends), never more than `BOT_MOVES_AT_ONCE` decisions
at once (a guard against a stuck loop, far above any real turn). Given a `steps` list, each decision appends
a *step* the table plays back to the learner one at a time (uu/table/table.js): its caption (the log lines
the decision wrote, which every player may read) and the cards it moved, each from where it was to where it
went. A card the viewer could not see at either end is sent without its name or id (it went from one hidden
hand to another, or from the deck): the table moves a card back, it never learns which card it was.

`changes_since(game, before, log_at, viewer)` is one step with everything that moved since `before` (a
person's own move). `replay_moves(game, start, ...)` records the steps of a stretch somebody else played (a
lesson's runner makes the scripted bots' moves and settles the rest itself): the moves made since the game
had `start` moves are made again on a copy popped back to that point, one decision at a time, so the learner
sees the same steps as after a game's bots. Pure Python: no ipywidgets.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.render import second_person
from uu.session.steps import Step
from uu.table.messages import MovedCard, StepView, Zone
from uu.table.observation import card_at, card_summary  # the one place a card becomes JSON

__all__ = ["BOT_MOVES_AT_ONCE", "MAX_STEPS", "Positions", "changes_since", "play_until_person", "positions",
           "replay_moves", "step_view", "steps_view"]

BOT_MOVES_AT_ONCE = 5000  # a stuck-loop guard: no real game asks the bots this many decisions in a row
MAX_STEPS = 60  # steps kept for one playback; older ones are folded into the first (a very long bot turn)

Positions = list[tuple[str, int]]
Chooser = Callable[[Game, int], Action]

_OPEN_ZONES = {"stable", "discard", "nursery", "pile", "limbo"}


def positions(game: Game) -> Positions:
    """(zone, owner) of every card, by card id: what a step compares."""
    s = game.state
    return list(zip(s.zone_of, s.owner_of))


def _seen(game: Game, viewer: int | None, zone: str, owner: int) -> bool:
    if zone in _OPEN_ZONES:
        return True
    if zone == "hand":
        return viewer is None or owner == viewer or q.hand_visible(game.state, owner)
    return False  # deck, box, not placed


def _moved(game: Game, before: Positions, viewer: int | None) -> list[MovedCard]:
    out: list[MovedCard] = []
    for cid, (was, now) in enumerate(zip(before, positions(game))):
        if was == now:
            continue
        seen = _seen(game, viewer, *was) or _seen(game, viewer, *now)
        # the card's text stays out (the table after the move shows it): a step is a few dozen bytes
        shown = {k: v for k, v in card_summary(game, cid).items() if k != "text"} if seen else {"id": None, "name": None}
        out.append(cast(MovedCard, {"from": list(was), "to": list(now), **shown}))
    return out


def _caption(game: Game, log_at: int, log_to: int | None = None) -> list[str]:
    return [second_person(e.text) for e in game.state.log[log_at:log_to]]


def changes_since(game: Game, before: Positions | None, log_at: int, viewer: int | None,
                  seat: int | None = None) -> StepView | None:
    """One step: what moved since `before` and the log lines from `log_at` on; None when nothing did."""
    if before is None or len(before) != len(game.state.zone_of) or log_at > len(game.state.log):
        return None
    lines = _caption(game, log_at)
    moved = _moved(game, before, viewer)
    if not lines and not moved:
        return None
    return {"seat": seat, "yours": seat is not None and seat == viewer, "lines": lines, "moved": moved}


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


def play_until_person(game: Game | Callable[[], Game], choose: Chooser, is_person: Callable[[int], bool],
                      steps: list[StepView] | None = None, viewer: int | None = None,
                      limit: int = BOT_MOVES_AT_ONCE, apply: Callable[[Action], Any] | None = None) -> int:
    """Bots decide (`choose(game, seat)`) until a person must or the game is over; returns how many decisions
    they made. With `steps`, one step per decision is appended (see the module doc). A screen whose moves go
    through something else (the sandbox's game tree, where each move makes a new position) passes `game` as
    a function returning the position now and `apply` making a move."""
    current = game if callable(game) else (lambda: game)
    n = 0
    while n < limit:
        g = current()
        d = g.pending
        if d is None or is_person(d.player):
            break
        before = positions(g) if steps is not None else None
        log_at = len(g.state.log)
        action = choose(g, d.player)
        if apply is None:
            g.apply(action)
        else:
            apply(action)
        n += 1
        game_now = current()
        if steps is not None:
            step = changes_since(game_now, before, log_at, viewer, d.player)
            if step is not None:
                steps.append(step)
    if steps is not None and len(steps) > MAX_STEPS:
        _fold(steps)
    return n


def replay_moves(game: Game, start: int, viewer: int | None, steps: list[StepView],
                 is_person: Callable[[int], bool] | None = None) -> int:
    """Append the steps of the moves made on `game` after its first `start` (a stretch nobody recorded), as
    `play_until_person` records them: a bot's decision is a step of its own, consecutive decisions of a person
    (`is_person`; default: the viewer's seat) are one step, theirs (their move and what it set off). Returns
    how many moves were made again. `game` itself is not touched: they are made on a copy popped back to
    `start`, and the engine is deterministic, so each does exactly what it did."""
    person = is_person if is_person is not None else (lambda seat: seat == viewer)
    made = game.moves[start:]
    if not made:
        return 0
    again = game.copy()
    again.pop_to(start)
    opened: tuple[Positions, int, int, bool] | None = None  # the step under way: before, log_at, seat, a person's

    def close() -> None:
        if opened is not None:
            step = changes_since(again, opened[0], opened[1], viewer, opened[2])
            if step is not None:
                step["yours"] = step["yours"] or opened[3]  # a bot's: as `play_until_person` says
                steps.append(step)

    for action in made:
        d = again.pending
        assert d is not None  # a move was made from here on the game itself
        mine = person(d.player)
        if opened is None or not (mine and opened[3]):
            close()
            opened = (positions(again), len(again.state.log), d.player, mine)
        again.push_legal(action)  # `action` is the legal action the game had at this very decision
    close()
    if len(steps) > MAX_STEPS:
        _fold(steps)
    return len(made)


def _fold(steps: list[StepView]) -> None:
    """Keep the last MAX_STEPS - 1 steps and fold the older ones into one (their captions and moves)."""
    old = steps[: len(steps) - MAX_STEPS + 1]
    first: StepView = {"seat": None, "yours": False, "lines": [line for s in old for line in s["lines"]][-6:],
             "moved": [m for s in old for m in s["moved"]]}
    steps[:] = [first, *steps[len(old):]]
