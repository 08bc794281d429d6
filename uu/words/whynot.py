"""Why a move the learner tried is not allowed here: one plain sentence, plus the rule id behind it.

The engine's own error lists every legal move, which tells a beginner nothing about their mistake. `why_not`
looks at the position instead: the pending decision (who decides, what kind, which actions are legal), the
cards in play and the Neigh pile, and names the one thing that makes this move wrong and what is allowed.

    >>> from uu.engine import new_game
    >>> game = new_game(["Ana", "Ben"], seed=1)
    >>> while game.pending.kind == "baby": game.push(game.pending.actions[0])
    >>> reason = why_not(game, Action("play", card="Neigh"))
    >>> reason.text
    'Neigh is an Instant: an Instant is never your action; you play it only to answer a card another player plays.'
    >>> reason.rule
    'instant.not-an-action'

The sentence never contains rule ids (the learner reads it); the id goes to data and logs, and
`uu.words.rulewords` turns it into learner words. Nothing here changes the game: it only reads the state
and asks the engine's own questions (`uu.engine.queries`, `uu.engine.targets`), so the reasons follow the
same rules that decide what is legal.
"""

from __future__ import annotations

import logging

from uu.cards.carddef import CardType
from uu.cards.localized import card_name
from uu.engine import queries as q
from uu.engine.actions import ACTION_KINDS, Action, Decision
from uu.engine.errors import AmbiguousAction, GameError
from uu.engine.game import Game
from uu.engine.pile import response_actions
from uu.i18n import _
from uu.words.cardwhy import CardWhy
from uu.words.phrasing import (
    KIND_WORDS,
    Reason,
    a_kind,
    card_def,
    is_instant,
    type_rule,
    working_card_with,
)

__all__ = ["Reason", "why_not"]

log = logging.getLogger(__name__)


def _game_over(game: Game) -> Reason:
    # the rule that ended the game is on the last log line that cites a win rule
    rule = "win.threshold"
    for entry in reversed(game.log):
        wins = [r for r in entry.rules if r.startswith("win.")]
        if wins:
            rule = "win.everyone-loses" if "win.everyone-loses" in wins else wins[0]
            break
    w = game.winner
    if isinstance(w, str) or w is None:
        return Reason(_("The game is over and everyone lost, so no more moves can be made."), rule)
    name = game.players[w]
    if name.lower() == "you":
        return Reason(_("The game is over: you have won, so no more moves can be made."), rule)
    return Reason(_("The game is over: {player} has won, so no more moves can be made.").format(player=name), rule)


def _fits(partial: Action, a: Action) -> bool:
    # as Game.find matches a move with empty fields (kept private there)
    return (partial.kind == a.kind and (partial.card is None or partial.card == a.card)
            and (partial.into is None or partial.into == a.into)
            and (not partial.target or partial.target == a.target)
            and (partial.option is None or partial.option == a.option)
            and (not partial.cards or partial.cards == a.cards))


def _ambiguous(game: Game, action: Action, d: Decision) -> Reason:
    fits = [a for a in d.actions if _fits(action, a)]
    card = card_name(action.card) if action.card else _("that card")
    if len({a.into for a in fits}) > 1:
        d0 = card_def(action.card)
        rule = type_rule(d0) if d0 else "action.valid-stable"
        return Reason(_("Say which player's Stable {card} should go into: it may go into more than one.").format(
            card=card), rule)
    if len({a.target for a in fits}) > 1:
        return Reason(_("Say what {card} should aim at: you name its target as you play it, and there is more "
                        "than one choice.").format(card=card), "option.targeting")
    return Reason(_("Say which of the possible moves you mean: that could be more than one."), None)


def why_not(game: Game, action: Action, player: int | None = None) -> Reason | None:
    """Why `action` is not legal now, or None if it is legal (and the actor may take it).

    `player` is the seat of whoever tried the move; by default the player who must decide now, so the
    question is "why is this not one of their choices?". Never raises and never changes the game."""
    try:
        return _why_not(game, action, player)
    except Exception:  # a learner must never see a traceback: log it, and say the plainest true sentence
        log.exception("why_not failed for %r", action)
        d = game.pending
        if d is None:
            return Reason(_("The game is over, so no more moves can be made."), None)
        return Reason(_("That move is not one of the choices right now."), d.rules[0] if d.rules else None)


def _why_not(game: Game, action: Action, player: int | None) -> Reason | None:
    if not isinstance(action, Action) or action.kind not in ACTION_KINDS:
        return Reason(_("That is not a move in this game."), None)
    d = game.pending
    if d is None:
        return _game_over(game)
    actor = d.player if player is None else player
    seats = [action.into] + [x for t in action.target for x in (t.owner, t.player)]
    if any(x is not None and not 0 <= x < len(game.players) for x in seats):
        # checked first: Game.find cannot describe a seat that does not exist (it raises IndexError)
        return Reason(_("There is no such player at this table."), "target.players")
    try:
        game.find(action)
    except AmbiguousAction:
        if actor == d.player:
            return _ambiguous(game, action, d)
    except GameError:
        pass
    else:
        if actor == d.player:
            return None
    w = _Why(game, actor, d)
    if actor != d.player:
        return w.not_yours(action)
    return w.illegal(action) or w.fallback()


class _Why(CardWhy):
    """The reasons for one tried move: whose decision it is, what it asks, answering with an Instant."""

    def not_yours(self, action: Action) -> Reason:
        d = self.d
        if action.kind == "respond" or (action.kind == "play" and is_instant(action.card)):
            r = self.no_answer(action)
            if r is not None:
                return r
        who = self.game.players[d.player]
        return Reason(_("It is {player}'s decision now, not yours: {player} must {task}.").format(
                          player=who, task=self.asks()),
                      d.rules[0] if d.rules else "turn.phases")

    # ---- the move itself -------------------------------------------------------------------------------

    def illegal(self, action: Action) -> Reason | None:
        d, kind = self.d, action.kind
        if kind == "respond":
            return self.no_answer(action)
        if kind == "pass":
            return self.wrong_kind(_("pass"), _("there is no card waiting for your answer"))
        if kind == "play":
            if d.kind == "action":
                return self.play(action)
            if d.kind == "respond" and is_instant(action.card) and self.has(action.card, "hand"):
                return Reason(_("Use your {card} to answer {top}: an Instant is only ever played as an answer, "
                                "never on its own.").format(card=card_name(action.card or ""), top=self.top_words()),
                              "instant.not-an-action")
            return self.wrong_kind(_("play a card"))
        if kind == "draw":
            return Reason(_("You may DRAW instead of playing a card only in your own Action phase; now you must "
                            "{task}.").format(task=self.asks()), "action.draw-instead")
        if kind in ("use", "decline") and d.kind != "use" and d.card:
            said = (_("This effect of {card} is not optional, so there is nothing to use: you must {task}.")
                    if kind == "use" else
                    _("This effect of {card} is not optional, so there is nothing to decline: you must {task}."))
            return Reason(said.format(card=card_name(d.card), task=self.asks()), "effect.may")
        if kind != d.kind and not (kind in ("use", "decline") and d.kind == "use"):
            return self.wrong_kind(_(KIND_WORDS[kind]) if kind in KIND_WORDS else _("do that"))
        if kind in ("discard", "sacrifice"):
            return self.discard_or_sacrifice(action)
        if kind == "target":
            return self.target(action)
        if kind == "baby":
            return self.baby(action)
        if kind in ("use", "decline") and d.card and action.card not in (None, d.card):
            return Reason(_("The question is about {card}: decide whether to use it.").format(card=card_name(d.card)),
                          "effect.may")
        return None

    def no_answer(self, action: Action) -> Reason | None:
        """Why the actor may not answer now with an Instant (Neigh), checked in the order the engine asks."""
        s, p = self.s, self.actor
        name = action.card
        d = card_def(name)
        if name is not None and d is None:
            return Reason(_("There is no card called {card} in this game.").format(card=name), None)
        if d is not None and d.type is not CardType.INSTANT:
            return Reason(_("Only an Instant card such as Neigh can answer a card, and {card} is {kind}.").format(
                card=card_name(name or ""), kind=a_kind(d)), "instant.when")
        instants = [c for c in s.hands[p] if s.defs[c].type is CardType.INSTANT]
        if name is not None and not self.has(name, "hand"):
            return Reason(_("You have no {card} in your hand.").format(card=card_name(name)), "instant.when")
        if not instants:
            return Reason(_("You have no Instant card such as Neigh in your hand to answer with."), "instant.when")
        if q.cannot_play(s, p, "neigh"):
            by = working_card_with(s, p, "owner_cannot_play", "neigh")
            return Reason(_("While {card} is in your Stable you cannot play Neigh cards.").format(
                card=card_name(by) if by else _("A card")), "instant.when")
        if not s.pile:
            return self.nothing_to_answer()
        top = s.pile[-1]
        r = self.unanswerable(top["p"], s.name(top["cid"]), resolved=False)
        if r is not None:
            return r
        top_p, top_name = top["p"], s.name(top["cid"])
        if not response_actions(s, p):  # no answer allowed, for a reason not named above: the caller falls back
            return None
        frame = next((f for f in reversed(s.stack) if f.get("kind") == "pile"), None)
        asking = frame.get("ask") if frame and frame.get("step") == "window" else None
        if asking is not None and p not in asking:
            return Reason(_("You have already passed on {card}: you may answer again only when a different card "
                            "is the top card of the pile.").format(card=self.card_at(top_p, top_name)),
                          "pile.no-neigh-after-pass")
        if self.d.kind == "respond" and self.d.player != p:
            who = self.game.players[self.d.player]
            ahead = [self.game.players[x] for x in asking[:asking.index(p)]] if asking else [who]
            names = ahead[0]
            for other in ahead[1:]:
                names = _("{first} and {last}").format(first=names, last=other)
            said = (_("{player} is asked first. In this tutor players answer one at a time in seat order, starting "
                      "after whoever played the top card, so you are asked only if {players} pass.")
                    if len(ahead) > 1 else
                    _("{player} is asked first. In this tutor players answer one at a time in seat order, starting "
                      "after whoever played the top card, so you are asked only if {players} passes."))
            return Reason(said.format(player=who, players=names), "option.responder-order")
        return None
