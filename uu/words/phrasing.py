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
from uu.i18n import N_, _

__all__ = ['A_PLURAL', 'A_TYPE', 'WHAT_MANY', 'FROM_WORDS', 'KIND_WORDS', 'Op', 'Reason', 'UNICORN_WORDS', 'WHAT', 'a_kind', 'any_instance', 'cap', 'card_def', 'first_impossible', 'is_instant', 'op_words', 'printed_match', 'recent_play', 'type_rule', 'what_words', 'working_card_with']

log = logging.getLogger(__name__)

Op = dict[str, Any]

# The tables below hold English marked with N_: a sentence translates them with _() where it uses them, so
# they follow the language in use. Each is a whole noun phrase ("a Magic card"), never an article alone.
A_TYPE: Final = {
    CardType.BABY: N_("a Baby Unicorn card"), CardType.BASIC: N_("a Basic Unicorn card"),
    CardType.MAGICAL: N_("a Magical Unicorn card"), CardType.MAGIC: N_("a Magic card"),
    CardType.UPGRADE: N_("an Upgrade card"), CardType.DOWNGRADE: N_("a Downgrade card"),
    CardType.INSTANT: N_("an Instant card"),
}
# The filter words of ops (uu.cards.schema.FILTERS) as a learner reads them.
WHAT: Final = {
    None: N_("a card"), "card": N_("a card"), "unicorn": N_("a Unicorn card"),
    "basic_unicorn": N_("a Basic Unicorn card"), "baby_unicorn": N_("a Baby Unicorn"),
    "magical_unicorn": N_("a Magical Unicorn card"), "upgrade": N_("an Upgrade card"),
    "downgrade": N_("a Downgrade card"), "upgrade_or_downgrade": N_("an Upgrade or Downgrade card"),
    "magic": N_("a Magic card"), "neigh": N_("a Neigh card"), "narwhal": N_("a card with Narwhal in its name"),
    "this": N_("this card"),
}
# The same for a count above one ("DESTROY 2 Unicorn cards"); French and German count 2 and more as plural.
WHAT_MANY: Final = {
    None: N_("{count} cards"), "card": N_("{count} cards"), "unicorn": N_("{count} Unicorn cards"),
    "basic_unicorn": N_("{count} Basic Unicorn cards"), "baby_unicorn": N_("{count} Baby Unicorn"),
    "magical_unicorn": N_("{count} Magical Unicorn cards"), "upgrade": N_("{count} Upgrade cards"),
    "downgrade": N_("{count} Downgrade cards"), "upgrade_or_downgrade": N_("{count} Upgrade or Downgrade cards"),
    "magic": N_("{count} Magic cards"), "neigh": N_("{count} Neigh cards"),
    "narwhal": N_("{count} cards with Narwhal in its name"), "this": N_("{count} cards"),
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
    """The card's type with its article, in the language in use ("a Magic card")."""
    return _(A_TYPE[d.type])


def what_words(what: str | None, n: int = 1) -> str:
    """An op's filter word as a noun phrase in the language in use ("a Unicorn card", "2 Unicorn cards")."""
    if n > 1:
        return _(WHAT_MANY.get(what, WHAT_MANY[None])).format(count=n)
    return _(WHAT.get(what, WHAT[None]))


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


FROM_WORDS: Final = {"hand": N_("your hand"), "discard": N_("the discard pile"), "nursery": N_("the Nursery"),
                     "deck": N_("the deck")}
# "{kind} cards cannot DESTROY ...": the whole sentence per type (see cardwhy.protection)
A_PLURAL: Final = {"magic": "Magic", "upgrade": "Upgrade", "downgrade": "Downgrade", "instant": "Instant"}
KIND_WORDS: Final = {"target": N_("choose a target"), "discard": N_("DISCARD a card"),
                     "sacrifice": N_("SACRIFICE a card"), "use": N_("use an optional effect"),
                     "decline": N_("decline an optional effect"), "choose": N_("choose an option"),
                     "order": N_("put cards back in order"), "baby": N_("choose a Baby Unicorn")}


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
    """An op as the words of the rule it applies ("DESTROY a Unicorn card in another player's Stable"), in the
    language in use: one whole phrase per verb, the card kind filled in."""
    verb = op["do"]
    n = int(op.get("n", 1))
    what = what_words(op.get("what"), n)
    if verb == "destroy":
        return _("DESTROY {what} in another player's Stable").format(what=what)
    if verb == "steal":
        return _("STEAL {what} from another player's Stable").format(what=what)
    if verb == "sacrifice":
        return _("SACRIFICE {what} from your Stable").format(what=what)
    if verb == "return":
        if op.get("from") == "each":
            return _("send back a card from every Stable to its owner's hand")
        return _("send {what} in another player's Stable back to their hand").format(what=what)
    if verb == "move":
        if op.get("from", "you") == "you":
            return _("move {what} from your Stable into another player's Stable").format(what=what)
        return _("move {what} from one Stable into another").format(what=what)
    if verb == "bring":
        return _("put {what} from {place} into your Stable").format(what=what,
                                                                   place=_(FROM_WORDS[op.get("from", "hand")]))
    if verb == "take":
        return _("take {what} from the discard pile").format(what=what)
    if verb in ("pull", "look_take"):
        return _("take a card from another player's hand")
    if verb == "swap_hands":
        return _("trade hands with another player")
    if verb == "choose_one":  # the options' names are already in words ("DESTROY an Upgrade")
        names = [str(o["name"]) for o in op["options"]]
        options = names[0] if names else ""
        for name in names[1:]:
            options = _("{first} or {last}").format(first=options, last=name)
        return _("either {options}").format(options=options)
    return _("do something impossible right now")
