"""What the pending decision asks, and who may answer a card: `WhyBase`, the words every why-not reason is
built from (who, whose, where, what the decision asks, why nobody may answer a card).
"""

from __future__ import annotations

from uu.engine import queries as q
from uu.engine.actions import Decision, Target, possessive
from uu.engine.game import Game
from uu.engine.state import GameState
from uu.words.phrasing import Reason, cap, card_def, recent_play, working_card_with

__all__ = ["WhyBase"]


class WhyBase:
    """The reasoning for one tried move: the game, who tried it and the decision pending."""


    def __init__(self, game: Game, actor: int, d: Decision):
        self.game = game
        self.s: GameState = game.state
        self.actor = actor
        self.d = d

    # ---- words -----------------------------------------------------------------------------------------

    def name(self, p: int) -> str:
        return "you" if p == self.actor else self.game.players[p]

    def poss(self, p: int) -> str:
        return "your" if p == self.actor else possessive(self.game.players[p])

    def where(self, t: Target) -> str:
        if t.zone == "stable" and t.owner is not None and 0 <= t.owner < self.s.n:
            return f"{self.poss(t.owner)} Stable"
        if t.zone == "hand" and t.owner is not None and 0 <= t.owner < self.s.n:
            return f"{self.poss(t.owner)} hand"
        return {"discard": "the discard pile", "deck": "the deck", "nursery": "the Nursery"}.get(t.zone, t.zone)

    def asks(self, d: Decision | None = None) -> str:
        """What the pending decision asks of its player, as a verb phrase ("DISCARD a card ...")."""
        d = d or self.d
        s = self.s
        their = "your" if d.player == self.actor else "their"
        if d.kind == "baby":
            return f"choose a Baby Unicorn for {their} Stable"
        if d.kind == "action":
            return f"play a card from {their} hand or DRAW a card (the Action phase)"
        if d.kind == "respond":
            if s.pile:
                top = s.pile[-1]
                return f"answer {self.poss(top['p'])} {s.name(top['cid'])} with an Instant, or pass"
            return "answer with an Instant, or pass"
        of = f" for {d.card}" if d.card else ""
        if d.kind == "target":
            if d.actions and d.actions[0].target and d.actions[0].target[0].player is not None:
                return f"choose a player{of}"
            return f"choose a card{of}"
        if d.kind == "discard":
            if "end.hand-limit" in d.rules:
                return "DISCARD down to the hand limit"
            return f"choose a card to DISCARD{of}"
        if d.kind == "sacrifice":
            return f"choose a card from {their} Stable to SACRIFICE{of}"
        if d.kind == "use":
            return f"decide whether to use {d.card}" if d.card else "decide whether to use an optional effect"
        if d.kind == "choose":
            return f"choose one of the options{of}"
        if d.kind == "order":
            return "choose the order of the cards going back on the deck"
        return "decide"

    def fallback(self) -> Reason:
        """The pending decision in one sentence, when no more specific reason is known."""
        n = len(self.d.actions)
        choices = "1 possible choice" if n == 1 else f"{n} possible choices"
        return Reason(f"That is not one of your choices now: you must {self.asks()} ({choices}).",
                      self.d.rules[0] if self.d.rules else None)

    # ---- whose decision --------------------------------------------------------------------------------

    def wrong_kind(self, tried: str, why: str = "") -> Reason:
        why = f" {why};" if why else ""
        return Reason(f"You cannot {tried} now:{why} first you must {self.asks()}.",
                      self.d.rules[0] if self.d.rules else None)

    def has(self, name: str | None, zone: str, p: int | None = None) -> bool:
        p = self.actor if p is None else p
        cids = self.s.hands[p] if zone == "hand" else self.s.stables[p]
        return name is not None and any(self.s.name(c) == name for c in cids)

    def instant_not_action(self, name: str) -> Reason:
        return Reason(f"{name} is an Instant: an Instant is never your action; you play it only to answer a "
                      f"card another player plays.", "instant.not-an-action")

    def top_words(self) -> str:
        s = self.s
        if not s.pile:
            return "the card being played"
        top = s.pile[-1]
        return f"{self.poss(top['p'])} {s.name(top['cid'])}"

    # ---- playing a card in the Action phase ------------------------------------------------------------

    def queen_bee(self, name: str, into: int | None, allowed: list[int]) -> Reason:
        s = self.s
        bees = q.queen_bee_owners(s)
        bee = working_card_with(s, bees[0], "basics_enter_only_owner") if bees else None
        if not bees or bee is None:
            return Reason(f"{name} cannot go into that Stable now.", "action.valid-stable")
        if not allowed:
            owners = " and ".join(self.poss(b) for b in bees)
            return Reason(f"Queen Bee Unicorns in {owners} Stables each keep Basic Unicorns out of every other "
                          f"Stable, so {name} cannot enter any Stable now.", "action.valid-stable")
        b = bees[0]
        into_words = "your" if into == self.actor else (self.poss(into) if into is not None else "that")
        return Reason(f"{bee} in {self.poss(b)} Stable lets Basic Unicorns enter only {self.poss(b)} Stable, so "
                      f"{name} cannot go into {into_words} Stable.", "action.valid-stable")

    def unanswerable(self, by: int, card: str, resolved: bool) -> Reason | None:
        """Why nobody (or not the actor) may answer `card`, played by seat `by`, whatever the timing."""
        s = self.s
        if by == self.actor:
            return Reason(f"{card} is your own card: you answer only cards other players play (you may answer a "
                          f"Neigh aimed at your card).", "instant.when")
        d = card_def(card)
        if d is not None and d.static.get("unneighable"):
            return Reason(f"{cap(self.poss(by))} {card} cannot be Neighed, not even with another {card}.",
                          "instant.when")
        if q.plays_unneighable(s, by):
            yay = working_card_with(s, by, "owner_plays_unneighable") or "A card"
            return Reason(f"{yay} is in {self.poss(by)} Stable, so the cards {self.name(by)} plays cannot be "
                          f"Neighed{' (it resolved at once)' if resolved else ''}.", "instant.when")
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
            return Reason(f"{cap(self.poss(by))} {card} has already resolved: once every player has "
                          f"passed and a card resolves, it is too late to Neigh it.", "pile.no-neigh-after-pass")
        return Reason("No card is being played right now, so there is nothing to answer: an Instant answers a "
                      "card only while another player is playing it.", "instant.when")
