"""The scenario file format (DESIGN.md Contracts), validated with pydantic.

A scenario is a position (players, zones, whose turn and phase, options), optional steps (each must match
exactly one legal action) and expectations. Lessons are scenarios with a script, so they share this model.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from uu.engine.options import Options

DO = Literal["play", "draw", "respond", "pass", "target", "discard", "sacrifice", "use", "decline", "choose",
             "order", "baby"]
PENDING_KINDS = Literal["baby", "action", "respond", "target", "discard", "sacrifice", "use", "choose", "order"]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)


class TargetSpec(Strict):
    card: str | None = None
    owner: str | None = None
    zone: Literal["stable", "hand", "deck", "discard", "nursery"] | None = None
    player: str | None = None

    @model_validator(mode="after")
    def _card_or_player(self) -> TargetSpec:
        if (self.card is None) == (self.player is None):
            raise ValueError("a target names either a card (with owner or zone) or a player, not both")
        return self


class TurnSpec(Strict):
    player: str | None = None
    phase: Literal["beginning", "draw", "action", "end"] = "beginning"
    number: int = Field(1, ge=1)


class PendingSpec(Strict):
    player: str | None = None
    kind: PENDING_KINDS | None = None


class TurnExpect(Strict):
    """Expected turn: any subset of player, phase, number."""

    player: str | None = None
    phase: Literal["beginning", "draw", "action", "end"] | None = None
    number: int | None = None


class Expect(Strict):
    stables: dict[str, list[str]] | None = None
    stables_has: dict[str, list[str]] | None = None
    hands: dict[str, list[str]] | None = None
    hands_has: dict[str, list[str]] | None = None
    hand_sizes: dict[str, int] | None = None
    unicorns: dict[str, int] | None = None
    discard: list[str] | None = None
    discard_has: list[str] | None = None
    nursery: list[str] | None = None
    nursery_has: list[str] | None = None
    deck_size: int | None = None
    turn: TurnExpect | None = None
    pile: list[str] | None = None
    winner: str | None = None
    pending: PendingSpec | None = None


class Step(Strict):
    as_: str = Field(alias="as")
    do: DO
    card: str | None = None
    into: str | None = None
    target: TargetSpec | list[TargetSpec] | None = None
    to: str | None = None
    option: str | None = None
    cards: list[str] | None = None
    owner: str | None = None
    zone: Literal["stable", "hand", "deck", "discard", "nursery"] | None = None
    player: str | None = None
    illegal: bool = False
    then: Expect | None = None


class Scenario(Strict):
    name: str
    description: str | None = None
    rules: list[str] = Field(default_factory=list, description="Rule ids (uu.engine.rules) this file checks.")
    players: list[str] = Field(min_length=2, max_length=8)
    options: Options = Field(default_factory=Options)
    turn: TurnSpec | None = None
    stables: dict[str, list[str]] | None = None
    hands: dict[str, list[str]] | None = None
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    nursery: Literal["auto"] | list[str] = "auto"
    rest: Literal["deck", "box"] = "deck"
    steps: list[Step] = Field(default_factory=list)
    expect: Expect | None = None
    lesson: dict[str, Any] | None = Field(
        None, description="A lesson's script (validated by uu.tutor); scenario runs ignore it, so every lesson "
        "file is also a valid scenario.")

    @field_validator("players")
    @classmethod
    def _unique(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(f"player names must be different: {v}")
        return v

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, v: list[str]) -> list[str]:
        from uu.engine.rules import rule

        for r in v:
            rule(r)
        return v

    @model_validator(mode="after")
    def _names(self) -> Scenario:
        known = set(self.players)

        def check(name: str | None, where: str) -> None:
            if name is not None and name not in known:
                raise ValueError(f"{where}: {name!r} is not one of the players {self.players}")

        for key in ("stables", "hands"):
            for p in (getattr(self, key) or {}):
                check(p, key)
        if self.turn:
            check(self.turn.player, "turn.player")
        for i, st in enumerate(self.steps, 1):
            check(st.as_, f"steps[{i}].as")
            check(st.into, f"steps[{i}].into")
            check(st.owner, f"steps[{i}].owner")
            check(st.player, f"steps[{i}].player")
            targets = st.target if isinstance(st.target, list) else [st.target] if st.target else []
            for t in targets:
                check(t.owner, f"steps[{i}].target.owner")
                check(t.player, f"steps[{i}].target.player")
        return self
