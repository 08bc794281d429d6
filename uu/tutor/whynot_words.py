"""The vocabulary of `uu.tutor.whynot`: the reason type, how a learner reads card kinds and filters, small
questions about the position, and `WhyBase`, the words every reason is built from (who, whose, where, what
the pending decision asks)."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

from uu.cards import catalog
from uu.cards.carddef import CardDef, CardType
from uu.engine import queries as q
from uu.engine.actions import Action, Decision, Target, possessive
from uu.engine.game import Game
from uu.engine.state import GameState
from uu.engine.targets import (
    op_possible,
)

__all__ = ["Op", "Reason", "WhyBase"]

log = logging.getLogger(__name__)

Op = dict[str, Any]

_A_TYPE: Final = {
    CardType.BABY: "a Baby Unicorn card", CardType.BASIC: "a Basic Unicorn card",
    CardType.MAGICAL: "a Magical Unicorn card", CardType.MAGIC: "a Magic card", CardType.UPGRADE: "an Upgrade card",
    CardType.DOWNGRADE: "a Downgrade card", CardType.INSTANT: "an Instant card",
}
# The filter words of ops (uu.cards.schema.FILTERS) as a learner reads them.
_WHAT: Final = {
    None: "a card", "card": "a card", "unicorn": "a Unicorn card", "basic_unicorn": "a Basic Unicorn card",
    "baby_unicorn": "a Baby Unicorn", "magical_unicorn": "a Magical Unicorn card", "upgrade": "an Upgrade card",
    "downgrade": "a Downgrade card", "upgrade_or_downgrade": "an Upgrade or Downgrade card",
    "magic": "a Magic card", "neigh": "a Neigh card", "narwhal": "a card with Narwhal in its name",
    "this": "this card",
}
_UNICORN_WORDS: Final = {"unicorn": None, "basic_unicorn": CardType.BASIC, "baby_unicorn": CardType.BABY,
                         "magical_unicorn": CardType.MAGICAL}



@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is not allowed: one sentence for the learner, and the rule id behind it (data and logs)."""

    text: str
    rule: str | None


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
        return Reason("The game is over and everyone lost, so no more moves can be made.", rule)
    name = game.players[w]
    who = "you have" if name.lower() == "you" else f"{name} has"
    return Reason(f"The game is over: {who} won, so no more moves can be made.", rule)


def _fits(partial: Action, a: Action) -> bool:
    # as Game.find matches a move with empty fields (kept private there)
    return (partial.kind == a.kind and (partial.card is None or partial.card == a.card)
            and (partial.into is None or partial.into == a.into)
            and (not partial.target or partial.target == a.target)
            and (partial.option is None or partial.option == a.option)
            and (not partial.cards or partial.cards == a.cards))


def _ambiguous(game: Game, action: Action, d: Decision) -> Reason:
    fits = [a for a in d.actions if _fits(action, a)]
    card = action.card or "that card"
    if len({a.into for a in fits}) > 1:
        d0 = _card(card)
        rule = _type_rule(d0) if d0 else "action.valid-stable"
        return Reason(f"Say which player's Stable {card} should go into: it may go into more than one.", rule)
    if len({a.target for a in fits}) > 1:
        return Reason(f"Say what {card} should aim at: you name its target as you play it, and there is more "
                      f"than one choice.", "option.targeting")
    return Reason("Say which of the possible moves you mean: that could be more than one.", None)


def _card(name: str | None) -> CardDef | None:
    cat = catalog()
    return cat[name] if name is not None and name in cat else None


def _type_rule(d: CardDef) -> str:
    return {CardType.MAGIC: "card.magic-one-shot", CardType.UPGRADE: "card.upgrade-any-stable",
            CardType.DOWNGRADE: "card.downgrade-any-stable", CardType.INSTANT: "instant.when"}.get(
                d.type, "card.unicorn-any-stable")


def _a(d: CardDef) -> str:
    return _A_TYPE[d.type]


def _printed_match(d: CardDef, what: str | None) -> bool:
    """Does the printed card match the op's filter word (before Pandamonium or Blinding Light)?"""
    if what is None or what in ("card", "this"):
        return True
    if what in _UNICORN_WORDS:
        sub = _UNICORN_WORDS[what]
        return d.is_unicorn and (sub is None or d.type is sub)
    return what in d.kinds


def _with_static(s: GameState, p: int, key: str, value: str | None = None) -> str | None:
    """The name of a working card in p's Stable with static `key` (and `value` in it, for lists). A Unicorn's
    static does not work under Blinding Light, as in `uu.engine.queries.summary`."""
    blank = q.summary(s, p)["_blank"]
    for c in s.stables[p]:
        d = s.defs[c]
        v = d.static.get(key)
        if v is None or (blank and d.is_unicorn):
            continue
        if value is None or (isinstance(v, list) and value in v):
            return d.name
    return None


_FROM: Final = {"hand": "your hand", "discard": "the discard pile", "nursery": "the Nursery", "deck": "the deck"}
_A_PLURAL: Final = {"magic": "Magic", "upgrade": "Upgrade", "downgrade": "Downgrade", "instant": "Instant"}
_KIND_WORDS: Final = {"target": "choose a target", "discard": "DISCARD a card", "sacrifice": "SACRIFICE a card",
                      "use": "use an optional effect", "decline": "decline an optional effect",
                      "choose": "choose an option", "order": "put cards back in order",
                      "baby": "choose a Baby Unicorn"}


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
        bee = _with_static(s, bees[0], "basics_enter_only_owner") if bees else None
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
        d = _card(card)
        if d is not None and d.static.get("unneighable"):
            return Reason(f"{_cap(self.poss(by))} {card} cannot be Neighed, not even with another {card}.",
                          "instant.when")
        if q.plays_unneighable(s, by):
            yay = _with_static(s, by, "owner_plays_unneighable") or "A card"
            return Reason(f"{yay} is in {self.poss(by)} Stable, so the cards {self.name(by)} plays cannot be "
                          f"Neighed{' (it resolved at once)' if resolved else ''}.", "instant.when")
        return None

    def nothing_to_answer(self) -> Reason:
        """The pile is empty: name the card the learner probably meant (the last one played or answered), if
        it was played recently, and why it can no longer be answered."""
        recent = _recent_play(self.s)
        if recent is not None:
            by, card = recent
            r = self.unanswerable(by, card, resolved=True)
            if r is not None:
                return r
            return Reason(f"{_cap(self.poss(by))} {card} has already resolved: once every player has "
                          f"passed and a card resolves, it is too late to Neigh it.", "pile.no-neigh-after-pass")
        return Reason("No card is being played right now, so there is nothing to answer: an Instant answers a "
                      "card only while another player is playing it.", "instant.when")


def _card_names_longest_first() -> list[str]:
    return sorted((c.name for c in catalog()), key=len, reverse=True)


def _recent_play(s: GameState) -> tuple[int, str] | None:
    """(seat, card) of the last card played or answered with, in this turn or the one before; None if there
    is none. Read from the log's rule ids and players; the card's name is found in the engine's own line
    ("Ana plays Unicorn Poison", "Ben responds with Neigh to ...")."""
    turns = 0
    for entry in reversed(s.log):
        rules = entry.rules
        if "turn.phases" in rules:
            turns += 1
            if turns == 2:
                return None
            continue
        if entry.player is None:
            continue
        played = rules[:1] == ("action.one",) and len(rules) > 1  # a play names its card type's rule too
        answered = rules[:1] == ("instant.when",) and "instant.chain" in rules
        if not (played or answered):
            continue
        marker = " plays " if played else " responds with "
        at = entry.text.find(marker)
        if at < 0:
            continue
        rest = entry.text[at + len(marker):]
        for name in _card_names_longest_first():
            if rest.startswith(name):
                return entry.player, name
    return None


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def _is_instant(name: str | None) -> bool:
    d = _card(name)
    return d is not None and d.type is CardType.INSTANT


def _any_cid(s: GameState, name: str, p: int) -> int | None:
    """An instance of `name` in p's hand (copies are interchangeable), else any instance at all."""
    for c in s.hands[p]:
        if s.name(c) == name:
            return c
    return next((c for c in range(len(s.defs)) if s.defs[c].name == name), None)


def _first_impossible(s: GameState, ops: list[Op], you: int, src: int | None) -> Op | None:
    """The first mandatory op that makes a card unplayable, walked as `uu.engine.targets.playable` walks."""
    for op in ops:
        if op.get("may") or op["do"] in ("discard", "draw"):
            continue
        if not op_possible(s, op, you, src):
            return op
        if op.get("then"):
            inner = _first_impossible(s, op["then"], you, src)
            if inner is not None:
                return inner
    return None


def _op_words(op: Op) -> str:
    """An op as the words of the rule it applies ("DESTROY a Unicorn card in another player's Stable")."""
    verb = op["do"]
    n = int(op.get("n", 1))
    what = _WHAT.get(op.get("what"), "a card")
    if n > 1:
        what = f"{n} " + what.split(" ", 1)[1].replace("card", "cards")
    if verb == "destroy":
        return f"DESTROY {what} in another player's Stable"
    if verb == "steal":
        return f"STEAL {what} from another player's Stable"
    if verb == "sacrifice":
        return f"SACRIFICE {what} from your Stable"
    if verb == "return":
        if op.get("from") == "each":
            return "send back a card from every Stable to its owner's hand"
        return f"send {what} in another player's Stable back to their hand"
    if verb == "move":
        if op.get("from", "you") == "you":
            return f"move {what} from your Stable into another player's Stable"
        return f"move {what} from one Stable into another"
    if verb == "bring":
        return f"put {what} from {_FROM[op.get('from', 'hand')]} into your Stable"
    if verb == "take":
        return f"take {what} from the discard pile"
    if verb in ("pull", "look_take"):
        return "take a card from another player's hand"
    if verb == "swap_hands":
        return "trade hands with another player"
    if verb == "choose_one":  # the options' names are already in words ("DESTROY an Upgrade")
        return "either " + " or ".join(o["name"] for o in op["options"])
    return "do something impossible right now"
