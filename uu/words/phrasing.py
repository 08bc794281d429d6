"""Shared phrasing of the why-not sentences: the reason type, how a learner reads card kinds, op filters,
zones and an op's action, and small questions about the position that those sentences name (which card in
a Stable does something, the card a player just played).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any, Final

from uu.cards import catalog
from uu.cards.carddef import CardDef, CardType
from uu.engine import queries as q
from uu.engine.state import GameState
from uu.engine.targets import (
    op_possible,
)

__all__ = ['A_PLURAL', 'A_TYPE', 'FROM_WORDS', 'KIND_WORDS', 'Op', 'Reason', 'UNICORN_WORDS', 'WHAT', 'a_kind', 'any_instance', 'cap', 'card_def', 'first_impossible', 'is_instant', 'op_words', 'printed_match', 'recent_play', 'type_rule', 'working_card_with']

log = logging.getLogger(__name__)

Op = dict[str, Any]

A_TYPE: Final = {
    CardType.BABY: "a Baby Unicorn card", CardType.BASIC: "a Basic Unicorn card",
    CardType.MAGICAL: "a Magical Unicorn card", CardType.MAGIC: "a Magic card", CardType.UPGRADE: "an Upgrade card",
    CardType.DOWNGRADE: "a Downgrade card", CardType.INSTANT: "an Instant card",
}
# The filter words of ops (uu.cards.schema.FILTERS) as a learner reads them.
WHAT: Final = {
    None: "a card", "card": "a card", "unicorn": "a Unicorn card", "basic_unicorn": "a Basic Unicorn card",
    "baby_unicorn": "a Baby Unicorn", "magical_unicorn": "a Magical Unicorn card", "upgrade": "an Upgrade card",
    "downgrade": "a Downgrade card", "upgrade_or_downgrade": "an Upgrade or Downgrade card",
    "magic": "a Magic card", "neigh": "a Neigh card", "narwhal": "a card with Narwhal in its name",
    "this": "this card",
}
UNICORN_WORDS: Final = {"unicorn": None, "basic_unicorn": CardType.BASIC, "baby_unicorn": CardType.BABY,
                         "magical_unicorn": CardType.MAGICAL}



@dataclass(frozen=True, slots=True)
class Reason:
    """Why a move is not allowed: one sentence for the learner, and the rule id behind it (data and logs)."""

    text: str
    rule: str | None

def card_def(name: str | None) -> CardDef | None:
    cat = catalog()
    return cat[name] if name is not None and name in cat else None


def type_rule(d: CardDef) -> str:
    return {CardType.MAGIC: "card.magic-one-shot", CardType.UPGRADE: "card.upgrade-any-stable",
            CardType.DOWNGRADE: "card.downgrade-any-stable", CardType.INSTANT: "instant.when"}.get(
                d.type, "card.unicorn-any-stable")


def a_kind(d: CardDef) -> str:
    return A_TYPE[d.type]


def printed_match(d: CardDef, what: str | None) -> bool:
    """Does the printed card match the op's filter word (before Pandamonium or Blinding Light)?"""
    if what is None or what in ("card", "this"):
        return True
    if what in UNICORN_WORDS:
        sub = UNICORN_WORDS[what]
        return d.is_unicorn and (sub is None or d.type is sub)
    return what in d.kinds


def working_card_with(s: GameState, p: int, key: str, value: str | None = None) -> str | None:
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


FROM_WORDS: Final = {"hand": "your hand", "discard": "the discard pile", "nursery": "the Nursery", "deck": "the deck"}
A_PLURAL: Final = {"magic": "Magic", "upgrade": "Upgrade", "downgrade": "Downgrade", "instant": "Instant"}
KIND_WORDS: Final = {"target": "choose a target", "discard": "DISCARD a card", "sacrifice": "SACRIFICE a card",
                      "use": "use an optional effect", "decline": "decline an optional effect",
                      "choose": "choose an option", "order": "put cards back in order",
                      "baby": "choose a Baby Unicorn"}


def _card_names_longest_first() -> list[str]:
    return sorted((c.name for c in catalog()), key=len, reverse=True)


def recent_play(s: GameState) -> tuple[int, str] | None:
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


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def is_instant(name: str | None) -> bool:
    d = card_def(name)
    return d is not None and d.type is CardType.INSTANT


def any_instance(s: GameState, name: str, p: int) -> int | None:
    """An instance of `name` in p's hand (copies are interchangeable), else any instance at all."""
    for c in s.hands[p]:
        if s.name(c) == name:
            return c
    return next((c for c in range(len(s.defs)) if s.defs[c].name == name), None)


def first_impossible(s: GameState, ops: list[Op], you: int, src: int | None) -> Op | None:
    """The first mandatory op that makes a card unplayable, walked as `uu.engine.targets.playable` walks."""
    for op in ops:
        if op.get("may") or op["do"] in ("discard", "draw"):
            continue
        if not op_possible(s, op, you, src):
            return op
        if op.get("then"):
            inner = first_impossible(s, op["then"], you, src)
            if inner is not None:
                return inner
    return None


def op_words(op: Op) -> str:
    """An op as the words of the rule it applies ("DESTROY a Unicorn card in another player's Stable")."""
    verb = op["do"]
    n = int(op.get("n", 1))
    what = WHAT.get(op.get("what"), "a card")
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
        return f"put {what} from {FROM_WORDS[op.get('from', 'hand')]} into your Stable"
    if verb == "take":
        return f"take {what} from the discard pile"
    if verb in ("pull", "look_take"):
        return "take a card from another player's hand"
    if verb == "swap_hands":
        return "trade hands with another player"
    if verb == "choose_one":  # the options' names are already in words ("DESTROY an Upgrade")
        return "either " + " or ".join(o["name"] for o in op["options"])
    return "do something impossible right now"
