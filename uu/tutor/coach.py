"""The coach of a lesson's guided game: one or two plain sentences on the learner's own decision.

`comment(before, action, learner)` is called with the game as it was when the learner decided. It compares the
learner's choice with the one the heuristic bot (`uu.bots.HeuristicBot`) would make, and adds what the table
says about the moment: who is closest to winning, and how likely an opponent is to hold a Neigh.

The coach reads only what the learner may see: the Neigh estimate counts the Instant cards not yet seen by
the learner (every copy in the game, less those in the learner's hand, the discard pile and on the table), and
spreads them over the cards the learner cannot see (the deck and the other hands), so it never peeks.
"""

from __future__ import annotations

from math import comb, prod

from uu.bots import HeuristicBot
from uu.engine.actions import Action
from uu.engine.game import Game

__all__ = ["comment", "neigh_chance", "unseen_neighs"]

INSTANTS = ("Neigh", "Super Neigh")


def unseen_neighs(game: Game, viewer: int) -> tuple[int, int]:
    """(Neigh and Super Neigh cards the viewer has not seen, cards the viewer cannot see)."""
    s = game.state
    total = sum(1 for cid in range(len(s.defs)) if s.defs[cid].name in INSTANTS and s.zone_of[cid] != "box")
    seen = sum(1 for n in game.hand(viewer) + game.discard if n in INSTANTS)
    seen += sum(1 for n, _p in game.pile if n in INSTANTS)
    hidden = game.deck_size + sum(len(s.hands[p]) for p in range(s.n) if p != viewer)
    return max(total - seen, 0), hidden


def neigh_chance(game: Game, viewer: int, holder: int) -> float:
    """The chance, from what `viewer` has seen, that `holder` has at least one Neigh or Super Neigh in hand."""
    neighs, hidden = unseen_neighs(game, viewer)
    hand = len(game.state.hands[holder])
    if hidden <= 0 or hand == 0 or neighs == 0:
        return 0.0
    hand = min(hand, hidden)
    return 1.0 - comb(hidden - neighs, hand) / comb(hidden, hand)


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
    # treated as independent hands: close enough for advice, and never more than the cards allow
    chance = 1.0 - prod(1.0 - neigh_chance(game, learner, p) for p in others)
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
    scored = HeuristicBot().score_actions(before)
    best_score = max(score for _a, score in scored)
    mine = next((score for a, score in scored if a == action), None)
    best = next(a for a, score in scored if score >= best_score - 1e-9)
    if d.kind == "respond":
        played = before.pile[-1][0] if before.pile else "that card"
        if action.kind == "pass":
            head = f"You let {played} through."
        else:
            head = f"You answered {played} with {action.card}."
        if mine is not None and mine >= best_score - 1e-9:
            return f"{head} That is what the coach would do too. {_leader(before, learner)}"
        return (f"{head} The coach would rather {before.describe(best)}. {_leader(before, learner)}")
    agree = mine is not None and mine >= best_score - 1e-9
    head = ("Good choice: the coach would make the same move." if agree else
            f"A playable move, but the coach would rather {before.describe(best)}.")
    extra = _neigh_note(before, learner) if (d.kind == "action" and action.kind == "play"
                                              and action.card not in INSTANTS) else _leader(before, learner)
    return f"{head} {extra}"
