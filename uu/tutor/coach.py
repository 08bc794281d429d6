"""The coach of a lesson's guided game: one or two plain sentences on the learner's own decision.

`comment(before, action, learner)` is called with the game as it was when the learner decided. It compares the
learner's choice with the hint engine's (`uu.bots.search`, the Hard bot's and the hint's choice, here with a
fixed number of deals and no time cap, so a lesson replays the same way on any machine), and adds what the table
says about the moment: who is closest to winning, and how likely an opponent is to hold a Neigh.

The coach reads only what the learner may see: the Neigh estimate counts the Instant cards not yet seen by
the learner (every copy in the game, less those in the learner's hand, the discard pile and on the table), and
spreads them over the cards the learner cannot see (the deck and the other hands), so it never peeks.
"""

from __future__ import annotations

from uu.bots.explain import INSTANTS, neigh_chance, someone_neighs, unseen_neighs
from uu.bots.search import search
from uu.engine.actions import Action
from uu.engine.game import Game

__all__ = ["comment", "neigh_chance", "unseen_neighs"]

COACH_DEALS = 8
CLOSE_ENOUGH = 0.01  # a move whose estimated chance to win is this close to the best is as good


def _leader(game: Game, learner: int) -> str:
    """A sentence about the opponent closest to winning, when one is close."""
    need = game.state.threshold()
    others = [p for p in range(len(game.players)) if p != learner]
    best = max(others, key=game.unicorns)
    have = game.unicorns(best)
    if have >= need - 2:
        return (f"{game.players[best]} has {have} of the {need} Unicorns needed to win: slowing them down "
                f"matters more than anything else now.")
    mine = game.unicorns(learner)
    return f"You have {mine} of the {need} Unicorns needed; the closest opponent, {game.players[best]}, has {have}."


def _neigh_note(game: Game, learner: int) -> str:
    others = [p for p in range(len(game.players)) if p != learner and game.state.hands[p]]
    if not others:
        return "Nobody else holds a card, so nobody can answer it with a Neigh."
    chance = someone_neighs(game, learner)
    neighs, hidden = unseen_neighs(game, learner)
    return (f"{neighs} of the {hidden} cards you cannot see are Neigh cards, so the chance that someone "
            f"answers a card with a Neigh is about {round(chance * 100)}%.")


def comment(before: Game, action: Action, learner: int) -> str:
    """The coach on the learner's decision `action`, taken in position `before` (not changed)."""
    d = before.pending
    if d is None or d.player != learner:
        return ""
    if len(d.actions) == 1:
        return "Only one move was possible here."
    if d.kind == "baby":  # every Baby is as good as another: nothing to coach yet
        return "Any Baby is as good as another: they have no effects of their own."
    found = search(before, deals=COACH_DEALS, seconds=None, seed=before.state.decisions)
    best = found.best.action
    top = found.best.value or 0.0
    mine = next((c.value for c in found.candidates if c.action == action), None)
    agrees = action == best or (mine is not None and mine >= top - CLOSE_ENOUGH)
    if d.kind == "respond":
        played = before.pile[-1][0] if before.pile else "that card"
        if action.kind == "pass":
            head = f"You let {played} through."
        else:
            head = f"You answered {played} with {action.card}."
        if agrees:
            return f"{head} That is what the coach would do too. {_leader(before, learner)}"
        return (f"{head} The coach would rather {before.describe(best)}. {_leader(before, learner)}")
    head = ("Good choice: the coach would make the same move." if agrees else
            f"A playable move, but the coach would rather {before.describe(best)}.")
    extra = _neigh_note(before, learner) if (d.kind == "action" and action.kind == "play"
                                              and action.card not in INSTANTS) else _leader(before, learner)
    return f"{head} {extra}"
