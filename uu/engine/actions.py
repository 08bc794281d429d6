"""Decisions and actions: the only way anything changes in a game.

The engine runs until somebody must choose, then exposes exactly one `Decision`: who decides, what kind,
and the ordered list of legal `Action`s. Copies of one card in one zone are interchangeable, so actions
name cards by name; the instance id travels along (`cid`) but takes no part in equality.
"""

from __future__ import annotations

from typing import Final, Literal, TypeGuard

from uu.engine.errors import MalformedAction

DecisionKind = Literal["baby", "action", "respond", "target", "discard", "sacrifice", "use", "choose", "order"]
DECISION_KINDS: Final[tuple[DecisionKind, ...]] = (
    "baby", "action", "respond", "target", "discard", "sacrifice", "use", "choose", "order",
)
_DECISION_KINDS: Final = frozenset(DECISION_KINDS)
ACTION_KINDS: Final = (
    "play", "draw", "respond", "pass", "target", "discard", "sacrifice", "use", "decline", "choose",
    "order", "baby",
)
_ACTION_KIND_SET: Final = frozenset(ACTION_KINDS)


# Malformed input is refused where an Action or a Target is made, in both engine builds, with the engine's own
# error (uu/engine/errors.py): the compiled classes would otherwise answer a wrong type with a TypeError, and
# the Python ones would let it through to fail later with an AttributeError.
def _text(field: str, v: object) -> str | None:
    if v is None or isinstance(v, str):
        return v
    raise MalformedAction(f"{field} must be a card name (text) or None, not {type(v).__name__}: {v!r}")


def _seat(field: str, v: object) -> int | None:
    if v is None or (isinstance(v, int) and not isinstance(v, bool)):
        return v
    raise MalformedAction(f"{field} must be a seat number or None, not {type(v).__name__}: {v!r}")


def _texts(field: str, v: object) -> tuple[str, ...]:
    if isinstance(v, (tuple, list)) and all(isinstance(x, str) for x in v):
        return tuple(v)
    raise MalformedAction(f"{field} must be a tuple of card names, not {type(v).__name__}: {v!r}")


def _targets(v: object) -> tuple[Target, ...]:
    if isinstance(v, (tuple, list)) and all(isinstance(x, Target) for x in v):
        return tuple(v)
    raise MalformedAction(f"target must be a tuple of uu.engine.Target, not {type(v).__name__}: {v!r}")


def _decl(v: object) -> tuple[tuple[int, ...], ...]:
    if isinstance(v, tuple) and all(isinstance(x, tuple) and all(isinstance(i, int) for i in x) for x in v):
        return v
    if isinstance(v, (tuple, list)) and all(isinstance(x, (tuple, list)) and all(isinstance(i, int) for i in x)
                                             for x in v):
        return tuple(tuple(x) for x in v)
    raise MalformedAction(f"decl must be a tuple of tuples of ints, not {type(v).__name__}: {v!r}")


def _exact_targets(v: object) -> TypeGuard[tuple[Target, ...]]:
    """Is `v` a tuple of Targets as it is (what `_targets` would return unchanged)?"""
    if type(v) is not tuple:
        return False
    for x in v:
        if not isinstance(x, Target):
            return False
    return True


def _exact_texts(v: object) -> TypeGuard[tuple[str, ...]]:
    if type(v) is not tuple:
        return False
    for x in v:
        if not isinstance(x, str):
            return False
    return True


def _exact_decl(v: object) -> TypeGuard[tuple[tuple[int, ...], ...]]:
    if type(v) is not tuple:
        return False
    for x in v:
        if type(x) is not tuple:
            return False
        for i in x:
            if not isinstance(i, int):
                return False
    return True


def possessive(name: str) -> str:
    """"Ben's", but "your" for a player called You (the tutor's learner)."""
    return "your" if name.lower() == "you" else f"{name}'s"


class Target:
    """A card in a zone (`owner` for Stables and hands) or a player (`player`). Treat as immutable."""

    __slots__ = ("card", "owner", "zone", "player", "cid")

    def __init__(self, card: object = None, owner: object = None, zone: object = "stable", player: object = None,
                 cid: object = None):
        if not isinstance(zone, str):
            raise MalformedAction(f"a target's zone must be text (hand, stable, ...), not {zone!r}")
        self.card: str | None = _text("a target's card", card)
        self.owner: int | None = _seat("a target's owner", owner)
        self.zone: str = zone
        self.player: int | None = _seat("a target's player", player)
        self.cid: int | None = _seat("a target's cid", cid)  # the instance: no part in equality (copies are alike)

    def _key(self) -> tuple:
        return (self.card, self.owner, self.zone, self.player)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Target) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        fields = [f"{k}={getattr(self, k)!r}" for k in ("card", "owner", "player") if getattr(self, k) is not None]
        if self.zone != "stable":
            fields.append(f"zone={self.zone!r}")
        return f"Target({', '.join(fields)})"

    def describe(self, names: list[str]) -> str:
        if self.player is not None:
            return names[self.player]
        if self.zone in ("stable", "hand") and self.owner is not None:
            where = "Stable" if self.zone == "stable" else "hand"
            return f"{self.card} in {possessive(names[self.owner])} {where}"
        if self.zone == "stable":
            return str(self.card)
        return f"{self.card} from the {self.zone}"


class Action:
    """One legal move. Built by the engine (with instance ids) or by hand (names only): equality and hashing
    use the names, so a hand-built action finds its legal twin. Treat as immutable."""

    __slots__ = ("kind", "card", "into", "target", "option", "cards", "cid", "decl")

    def __init__(self, kind: object, card: object = None, into: object = None, target: object = (),
                 option: object = None, cards: object = (), cid: object = None, decl: object = ()):
        # The engine makes actions at every step, so what it passes (a tuple of the right items) is checked
        # here with type tests and loops that compile to a few C instructions; anything else (a list, a wrong
        # type) goes to the helpers, which convert or refuse it.
        if not (isinstance(kind, str) and kind in _ACTION_KIND_SET):
            raise MalformedAction(f"unknown action kind {kind!r}; kinds are: {', '.join(ACTION_KINDS)}")
        self.kind: str = kind
        self.card: str | None = card if card is None or isinstance(card, str) else _text("card", card)
        self.into: int | None = into if into is None or type(into) is int else _seat("into", into)
        self.target: tuple[Target, ...] = (
            target if type(target) is tuple and (not target or _exact_targets(target)) else _targets(target))
        self.option: str | None = option if option is None or isinstance(option, str) else _text("option", option)
        self.cards: tuple[str, ...] = (
            cards if type(cards) is tuple and (not cards or _exact_texts(cards)) else _texts("cards", cards))
        self.cid: int | None = cid if cid is None or type(cid) is int else _seat("cid", cid)
        # declared targets as instance ids / seats, aligned with the declarable ops
        self.decl: tuple[tuple[int, ...], ...] = (
            decl if type(decl) is tuple and (not decl or _exact_decl(decl)) else _decl(decl))

    def _key(self) -> tuple:
        return (self.kind, self.card, self.into, self.target, self.option, self.cards)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Action) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __repr__(self) -> str:
        parts = [repr(self.kind)]
        for k in ("card", "into", "option"):
            v = getattr(self, k)
            if v is not None:
                parts.append(f"{k}={v!r}")
        if self.target:
            parts.append(f"target={self.target!r}")
        if self.cards:
            parts.append(f"cards={self.cards!r}")
        return f"Action({', '.join(parts)})"

    def describe(self, names: list[str]) -> str:
        parts = [self.kind]
        if self.card:
            parts.append(self.card)
        if self.into is not None:
            parts.append(f"into {possessive(names[self.into])} Stable")
        if self.target:
            parts.append("→ " + ", ".join(t.describe(names) for t in self.target))
        if self.option:
            parts.append(repr(self.option))
        if self.cards:
            parts.append(", ".join(self.cards))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.describe([f"seat {i}" for i in range(8)])


class Decision:
    """Who must decide, what kind of decision, the legal actions in order, and the prompt. Treat as immutable.

    A plain class rather than a frozen dataclass: the compiled engine (uu.native) builds it natively, while
    a dataclass's generated __init__ stays interpreted (and Decisions are built at every step).
    """

    __slots__ = ("player", "kind", "actions", "prompt", "rules", "card", "verb")

    def __init__(self, player: int, kind: DecisionKind, actions: tuple[Action, ...], prompt: str,
                 rules: tuple[str, ...] = (), card: str | None = None, verb: str | None = None):
        assert kind in _DECISION_KINDS, kind
        assert actions, f"a decision needs at least one legal action: {prompt}"
        self.player = player
        self.kind = kind
        self.actions = actions
        self.prompt = prompt
        self.rules = rules
        self.card = card  # the card whose effect asks, if any
        self.verb = verb  # the verb (uu.cards.verbs) whose choice this is, if any: nobody reads it from the prompt

    def _key(self) -> tuple:
        return (self.player, self.kind, self.actions, self.prompt, self.rules, self.card, self.verb)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Decision) and self._key() == other._key()

    def __hash__(self) -> int:
        return hash(self._key())

    def __reduce__(self) -> tuple:  # copy and pickle through __init__ (a compiled class has no other way)
        return (Decision, self._key())

    def __repr__(self) -> str:
        return (f"Decision(player={self.player!r}, kind={self.kind!r}, actions={self.actions!r}, "
                f"prompt={self.prompt!r}, rules={self.rules!r}, card={self.card!r}, verb={self.verb!r})")
