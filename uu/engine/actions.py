"""Decisions and actions: the only way anything changes in a game.

The engine runs until somebody must choose, then exposes exactly one `Decision`: who decides, what kind,
and the ordered list of legal `Action`s. Copies of one card in one zone are interchangeable, so actions
name cards by name; the instance id travels along (`cid`) but takes no part in equality.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DECISION_KINDS = ("baby", "action", "respond", "target", "discard", "sacrifice", "use", "choose", "order")
ACTION_KINDS = (
    "play", "draw", "respond", "pass", "target", "discard", "sacrifice", "use", "decline", "choose",
    "order", "baby",
)


@dataclass(frozen=True, slots=True)
class Target:
    """A card in a zone (`owner` for Stables and hands) or a player (`player`)."""

    card: str | None = None
    owner: int | None = None
    zone: str = "stable"
    player: int | None = None
    cid: int | None = field(default=None, compare=False)

    def describe(self, names: list[str]) -> str:
        if self.player is not None:
            return names[self.player]
        if self.zone in ("stable", "hand") and self.owner is not None:
            where = "Stable" if self.zone == "stable" else "hand"
            return f"{self.card} in {names[self.owner]}'s {where}"
        if self.zone == "stable":
            return str(self.card)
        return f"{self.card} from the {self.zone}"


@dataclass(frozen=True, slots=True)
class Action:
    kind: str
    card: str | None = None
    into: int | None = None
    target: tuple[Target, ...] = ()
    option: str | None = None
    cards: tuple[str, ...] = ()
    cid: int | None = field(default=None, compare=False)
    decl: tuple[tuple[int, ...], ...] = field(default=(), compare=False)  # declared targets, as cids/seats

    def describe(self, names: list[str]) -> str:
        parts = [self.kind]
        if self.card:
            parts.append(self.card)
        if self.into is not None:
            parts.append(f"into {names[self.into]}'s Stable")
        if self.target:
            parts.append("→ " + ", ".join(t.describe(names) for t in self.target))
        if self.option:
            parts.append(repr(self.option))
        if self.cards:
            parts.append(", ".join(self.cards))
        return " ".join(parts)

    def __str__(self) -> str:
        return self.describe([f"seat {i}" for i in range(8)])


@dataclass(frozen=True, slots=True)
class Decision:
    player: int
    kind: str
    actions: tuple[Action, ...]
    prompt: str
    rules: tuple[str, ...] = ()
    card: str | None = None  # the card whose effect asks, if any

    def __post_init__(self) -> None:
        assert self.kind in DECISION_KINDS, self.kind
        assert self.actions, f"a decision needs at least one legal action: {self.prompt}"
