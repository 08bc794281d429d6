"""The coach of a lesson's guided game: one or two plain sentences on the learner's own decision.

`comment(before, action, learner)` is called with the game as it was when the learner decided. It compares the
learner's choice with the hint engine's (`uu.bots.search`, the Hard bot's and the hint's choice, here with a
fixed number of deals and no time cap, so a lesson replays the same way on any machine). A move is "as good"
unless the one judgement of "better" the hint and the review use (`uu.bots.judge`: the paired interval of the
loss above zero, and a loss of at least 5 points) calls it worse: the coach never calls noise a mistake. Then it adds what the table says about the moment: who is closest to winning, and who
may answer a card with a Neigh (only players who may: `uu.bots.explain.neigh_odds` follows Yay, Slowdown,
Ginormous Unicorn and Super Neigh through the engine's queries).

The coach reads only what the learner may see: the Neigh estimate counts the Instant cards the learner has not
seen and spreads them over the cards the learner cannot see (the deck and the other hands), so it never peeks.
"""

from __future__ import annotations

from uu.bots.explain import neigh_chance, neigh_odds, unseen_neighs
from uu.bots.search import search
from uu.cards.localized import card_name
from uu.cards.schema import CardType
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import _, ngettext
from uu.tutor.movewords import card_of, move_words

__all__ = ["comment", "neigh_chance", "unseen_neighs"]

COACH_DEALS = 8
COACH_EXTRA = 16  # more deals for the moves the first ones cannot tell apart (no time cap: replays the same)


def _leader(game: Game, learner: int) -> str:
    """A sentence about the opponent closest to winning, when one is close."""
    need = game.state.threshold()
    others = [p for p in range(len(game.players)) if p != learner]
    best = max(others, key=game.unicorns)
    have = game.unicorns(best)
    mine = game.unicorns(learner)
    if have >= need - 2 and have > mine:  # not when the learner is as close: then their own win may come first
        return _("{player} has {have} of the {need} Unicorns needed to win, more than your {mine}: holding them "
                 "back matters now.").format(player=game.players[best], have=have, need=need, mine=mine)
    return _("You have {mine} of the {need} Unicorns needed; the closest opponent, {player}, has {have}.").format(
        mine=mine, need=need, player=game.players[best], have=have)


def _neigh_note(game: Game, learner: int, card: str) -> str:
    """Who may answer the learner's card with a Neigh, and how likely that is."""
    odds = neigh_odds(game.observe(learner), learner, card)
    if odds.unanswerable:
        why = (_("it cannot be Neigh'd") if odds.unanswerable == card
               else _("{card} in your Stable keeps your cards from being Neigh'd").format(
                   card=card_name(odds.unanswerable)))
        return _("Nobody could answer it with a Neigh: {why}.").format(why=why)
    barred = "".join(" " + _("{player} cannot play Neigh cards ({card}).").format(player=name, card=card_name(bar))
                     for name, bar in odds.barred)
    if not odds.may:
        return _("Nobody else could answer it with a Neigh.") + barred
    neighs, hidden = unseen_neighs(game.observe(learner))
    return ngettext("{neighs} of the {hidden} cards you cannot see are Neigh cards, so the chance that someone "
                    "who may answers it with a Neigh is about {percent}%.",
                    "{neighs} of the {hidden} cards you cannot see are Neigh cards, so the chance that someone "
                    "who may answers it with a Neigh is about {percent}%.", neighs).format(
                        neighs=neighs, hidden=hidden, percent=round(odds.chance * 100)) + barred


def comment(before: Game, action: Action, learner: int) -> str:
    """The coach on the learner's decision `action`, taken in position `before` (not changed)."""
    d = before.pending
    if d is None or d.player != learner:
        return ""
    if len(d.actions) == 1:
        return _("Only one move was possible here.")
    if d.kind == "baby":  # every Baby Unicorn has the same effect: nothing to coach yet
        return _("Every Baby Unicorn has the same effect (if it would be SACRIFICED, DESTROYED or sent back to a "
                 "hand, it goes back to the Nursery instead), so any of them will do.")
    legal = before.find(action)
    found = search(before, deals=COACH_DEALS, seconds=None, seed=before.state.decisions, extra=COACH_EXTRA,
                   include=legal)
    best = found.best
    mine = next(c for c in found.candidates if c.action == legal)
    agrees = not found.verdict(mine).worse
    names = list(before.players)
    better = move_words(best.action, names, learner, verb=d.verb)
    if d.kind == "respond":
        # the card answered, with its owner ("Bramble's Basic Unicorn (Yellow)"), one phrase in each language
        played = (card_of(names[before.pile[-1][1]], names[learner], before.pile[-1][0]) if before.pile
                  else _("that card"))
        head = (_("You let {card} through.").format(card=played) if action.kind == "pass" else
                _("You answered {card} with {answer}.").format(card=played, answer=card_name(action.card or "")))
        if agrees:
            same = _("That is as good as the coach's choice.")
            return f"{head} {same} {_leader(before, learner)}"
        rather = _("The coach would rather {move}.").format(move=better)
        return f"{head} {rather} {_leader(before, learner)}"
    head = (_("Good choice: the coach finds no better move.") if agrees else
            _("A playable move, but the coach would rather {move}.").format(move=better))
    card = next((x for x in before.state.defs if x.name == action.card), None) if action.kind == "play" else None
    if d.kind == "action" and card is not None and card.type is not CardType.INSTANT:
        return f"{head} {_neigh_note(before, learner, card.name)}"
    return f"{head} {_leader(before, learner)}"
