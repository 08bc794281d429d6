"""What the pending decision asks, and who may answer a card: `WhyBase`, the words every why-not reason is
built from (who, whose, where, what the decision asks, why nobody may answer a card).
"""

from __future__ import annotations

from uu.cards.localized import card_name
from uu.engine import queries as q
from uu.engine.actions import Decision, Target, possessive
from uu.engine.game import Game
from uu.engine.state import GameState
from uu.i18n import _, ngettext
from uu.words.phrasing import Reason, cap, card_def, recent_play, working_card_with

__all__ = ["WhyBase"]


class WhyBase:
    """The reasoning for one tried move: the game, who tried it and the decision pending."""


    def __init__(self, game: Game, actor: int, d: Decision):
        self.game = game
        self.s: GameState = game.state
        self.actor = actor
        self.d = d

    # ---- words: each a whole phrase in the language in use, so a sentence never glues "your" to a noun ---

    def name(self, p: int) -> str:
        return _("you") if p == self.actor else self.game.players[p]

    def poss(self, p: int) -> str:
        """The English possessive ("your", "Bramble's"), only for the one sentence that lists owners."""
        return "your" if p == self.actor else possessive(self.game.players[p])

    def yours(self, p: int) -> bool:
        """Is seat p addressed as "you"? The actor, or a seat named You (the tutor's learner)."""
        return p == self.actor or self.game.players[p].lower() == "you"

    def stable(self, p: int) -> str:
        """p's Stable: "your Stable", "Bramble's Stable"."""
        return _("your Stable") if self.yours(p) else _("{player}'s Stable").format(player=self.game.players[p])

    def hand(self, p: int) -> str:
        return _("your hand") if self.yours(p) else _("{player}'s hand").format(player=self.game.players[p])

    def card_at(self, p: int, card: str) -> str:
        """A card with its owner: "your Narwhal", "Bramble's Narwhal"."""
        shown = card_name(card)
        if self.yours(p):
            return _("your {card}").format(card=shown)
        return _("{player}'s {card}").format(player=self.game.players[p], card=shown)

    def where(self, t: Target) -> str:
        if t.zone == "stable" and t.owner is not None and 0 <= t.owner < self.s.n:
            return self.stable(t.owner)
        if t.zone == "hand" and t.owner is not None and 0 <= t.owner < self.s.n:
            return self.hand(t.owner)
        zones = {"discard": _("the discard pile"), "deck": _("the deck"), "nursery": _("the Nursery")}
        return zones.get(t.zone, t.zone)

    def asks(self, d: Decision | None = None) -> str:
        """What the pending decision asks of its player, as a verb phrase ("DISCARD a card ...")."""
        d = d or self.d
        s = self.s
        yours = d.player == self.actor
        card = card_name(d.card) if d.card else ""
        if d.kind == "baby":
            return _("choose a Baby Unicorn for your Stable") if yours else _("choose a Baby Unicorn for their Stable")
        if d.kind == "action":
            return (_("play a card from your hand or DRAW a card (the Action phase)") if yours else
                    _("play a card from their hand or DRAW a card (the Action phase)"))
        if d.kind == "respond":
            if s.pile:
                top = s.pile[-1]
                return _("answer {card} with an Instant, or pass").format(card=self.card_at(top["p"],
                                                                                        s.name(top["cid"])))
            return _("answer with an Instant, or pass")
        if d.kind == "target":
            if d.actions and d.actions[0].target and d.actions[0].target[0].player is not None:
                return _("choose a player for {card}").format(card=card) if card else _("choose a player")
            return _("choose a card for {card}").format(card=card) if card else _("choose a card")
        if d.kind == "discard":
            if "end.hand-limit" in d.rules:
                return _("DISCARD down to the hand limit")
            return _("choose a card to DISCARD for {card}").format(card=card) if card else _("choose a card to DISCARD")
        if d.kind == "sacrifice":
            if yours:
                return (_("choose a card from your Stable to SACRIFICE for {card}").format(card=card) if card else
                        _("choose a card from your Stable to SACRIFICE"))
            return (_("choose a card from their Stable to SACRIFICE for {card}").format(card=card) if card else
                    _("choose a card from their Stable to SACRIFICE"))
        if d.kind == "use":
            return (_("decide whether to use {card}").format(card=card) if card else
                    _("decide whether to use an optional effect"))
        if d.kind == "choose":
            return _("choose one of the options for {card}").format(card=card) if card else _("choose one of the options")
        if d.kind == "order":
            return _("choose the order of the cards going back on the deck")
        return _("decide")

    def fallback(self) -> Reason:
        """The pending decision in one sentence, when no more specific reason is known."""
        n = len(self.d.actions)
        return Reason(ngettext("That is not one of your choices now: you must {task} ({count} possible choice).",
                               "That is not one of your choices now: you must {task} ({count} possible choices).",
                               n).format(task=self.asks(), count=n),
                      self.d.rules[0] if self.d.rules else None)

    # ---- whose decision --------------------------------------------------------------------------------

    def wrong_kind(self, tried: str, why: str = "") -> Reason:
        """`tried` and `why` are phrases already in the language in use (`phrasing.KIND_WORDS` ...)."""
        if why:
            text = _("You cannot {tried} now: {why}; first you must {task}.").format(tried=tried, why=why,
                                                                                      task=self.asks())
        else:
            text = _("You cannot {tried} now: first you must {task}.").format(tried=tried, task=self.asks())
        return Reason(text, self.d.rules[0] if self.d.rules else None)

    def has(self, name: str | None, zone: str, p: int | None = None) -> bool:
        p = self.actor if p is None else p
        cids = self.s.hands[p] if zone == "hand" else self.s.stables[p]
        return name is not None and any(self.s.name(c) == name for c in cids)

    def instant_not_action(self, name: str) -> Reason:
        return Reason(_("{card} is an Instant: an Instant is never your action; you play it only to answer a card "
                        "another player plays.").format(card=card_name(name)), "instant.not-an-action")

    def top_words(self) -> str:
        s = self.s
        if not s.pile:
            return _("the card being played")
        top = s.pile[-1]
        return self.card_at(top["p"], s.name(top["cid"]))

    # ---- playing a card in the Action phase ------------------------------------------------------------

    def queen_bee(self, name: str, into: int | None, allowed: list[int]) -> Reason:
        s = self.s
        bees = q.queen_bee_owners(s)
        bee = working_card_with(s, bees[0], "basics_enter_only_owner") if bees else None
        card = card_name(name)
        if not bees or bee is None:
            return Reason(_("{card} cannot go into that Stable now.").format(card=card), "action.valid-stable")
        if not allowed:
            # "your and Bramble's": a translation may leave {owners} out (its sentence need not name them)
            owners = " and ".join(self.poss(b) for b in bees)
            return Reason(_("Queen Bee Unicorns in {owners} Stables each keep Basic Unicorns out of every other "
                            "Stable, so {card} cannot enter any Stable now.").format(owners=owners, card=card),
                          "action.valid-stable")
        b = bees[0]
        if into is None:
            text = _("{bee} in {stable} lets Basic Unicorns enter only {stable}, so {card} cannot go into that "
                     "Stable.").format(bee=card_name(bee), stable=self.stable(b), card=card)
        else:
            text = _("{bee} in {stable} lets Basic Unicorns enter only {stable}, so {card} cannot go into "
                     "{into}.").format(bee=card_name(bee), stable=self.stable(b), card=card, into=self.stable(into))
        return Reason(text, "action.valid-stable")

    def unanswerable(self, by: int, card: str, resolved: bool) -> Reason | None:
        """Why nobody (or not the actor) may answer `card`, played by seat `by`, whatever the timing."""
        s = self.s
        shown = card_name(card)
        if by == self.actor:
            return Reason(_("{card} is your own card: you answer only cards other players play (you may answer a "
                            "Neigh aimed at your card).").format(card=shown), "instant.when")
        d = card_def(card)
        if d is not None and d.static.get("unneighable"):
            return Reason(_("{owned} cannot be Neighed, not even with another {card}.").format(
                owned=cap(self.card_at(by, card)), card=shown), "instant.when")
        if q.plays_unneighable(s, by):
            yay = working_card_with(s, by, "owner_plays_unneighable")
            yay_words = card_name(yay) if yay else _("A card")
            if resolved:
                text = _("{card} is in {stable}, so the cards {player} plays cannot be Neighed (it resolved at "
                         "once).")
            else:
                text = _("{card} is in {stable}, so the cards {player} plays cannot be Neighed.")
            return Reason(text.format(card=yay_words, stable=self.stable(by), player=self.name(by)), "instant.when")
        return None

    def nothing_to_answer(self) -> Reason:
        """The pile is empty: name the card the learner probably meant (the last one played or answered), if
        it was played recently, and why it can no longer be answered."""
        recent = recent_play(self.s)
        if recent is not None:
            by, card = recent
            r = self.unanswerable(by, card, resolved=True)
            if r is not None:
                return r
            return Reason(_("{card} has already resolved: once every player has passed and a card resolves, it is "
                            "too late to Neigh it.").format(card=cap(self.card_at(by, card))),
                          "pile.no-neigh-after-pass")
        return Reason(_("No card is being played right now, so there is nothing to answer: an Instant answers a "
                        "card only while another player is playing it."), "instant.when")
