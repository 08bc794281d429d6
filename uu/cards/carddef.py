"""The light card objects the engine reads: `CardType` and `CardDef` (the pydantic models that check the
catalog file live in uu.cards.schema, which builds these once per catalog).

A module of its own so that the compiled engine (uu.native) compiles it with the engine: the engine reads a
card's type, name and effects tens of thousands of times per second, and a compiled class's attributes are
read directly instead of through Python's attribute lookup.
"""

from __future__ import annotations

from enum import Enum
from typing import Any, Final


class CardType(str, Enum):
    BABY = "baby"
    BASIC = "basic"
    MAGICAL = "magical"
    MAGIC = "magic"
    UPGRADE = "upgrade"
    DOWNGRADE = "downgrade"
    INSTANT = "instant"


UNICORN_TYPES: Final = frozenset({CardType.BABY, CardType.BASIC, CardType.MAGICAL})
TYPE_NAMES: Final = {
    CardType.BABY: "Baby Unicorn", CardType.BASIC: "Basic Unicorn", CardType.MAGICAL: "Magical Unicorn",
    CardType.MAGIC: "Magic", CardType.UPGRADE: "Upgrade", CardType.DOWNGRADE: "Downgrade",
    CardType.INSTANT: "Instant",
}


class CardDef:
    """One distinct card, as the engine reads it (plain data, JSON-able effect dicts). Treat as immutable:
    every game shares the catalog's CardDefs. Compared by identity (one object per distinct card)."""

    __slots__ = ("no", "name", "title", "type", "copies", "text", "two_player_removed", "play", "enter", "leave",
                 "turn_start", "static", "would", "watch", "hook", "notes", "rules", "is_unicorn", "letters", "kinds")

    def __init__(self, no: str, name: str, title: str, type: CardType, copies: int, text: str,
                 two_player_removed: bool = False, play: dict[str, Any] | None = None,
                 enter: dict[str, Any] | None = None, leave: dict[str, Any] | None = None,
                 turn_start: dict[str, Any] | None = None, static: dict[str, Any] | None = None,
                 would: list[dict[str, Any]] | None = None, watch: list[dict[str, Any]] | None = None,
                 hook: str | None = None, notes: str | None = None, rules: tuple[str, ...] = (),
                 is_unicorn: bool = False, letters: int = 0, kinds: frozenset[str] = frozenset()):
        self.no = no
        self.name = name
        self.title = title
        self.type = type
        self.copies = copies
        self.text = text
        self.two_player_removed = two_player_removed
        self.play = play
        self.enter = enter
        self.leave = leave
        self.turn_start = turn_start  # the effect at the beginning of its owner's turn (catalog key turn_start)
        self.static: dict[str, Any] = {} if static is None else static
        self.would: list[dict[str, Any]] = [] if would is None else would
        self.watch: list[dict[str, Any]] = [] if watch is None else watch
        self.hook = hook
        self.notes = notes
        self.rules = rules
        self.is_unicorn = is_unicorn
        self.letters = letters
        self.kinds = kinds  # the filter words (uu.cards.schema.FILTERS) this card always matches

    @property
    def type_name(self) -> str:
        return TYPE_NAMES[self.type]

    def __repr__(self) -> str:
        return f"CardDef({self.name!r}, {self.type.value})"

    def __reduce__(self) -> tuple:  # copy and pickle through __init__ (a compiled class has no other way)
        return (CardDef, (self.no, self.name, self.title, self.type, self.copies, self.text,
                          self.two_player_removed, self.play, self.enter, self.leave, self.turn_start, self.static,
                          self.would, self.watch, self.hook, self.notes, self.rules, self.is_unicorn,
                          self.letters, self.kinds))
