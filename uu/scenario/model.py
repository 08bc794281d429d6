"""The scenario file format (docs/scenario-format.md), validated with pydantic.

A scenario is a position (players, zones, whose turn and phase, options), optional steps (each must match
exactly one legal action) and expectations. Lessons are scenarios with a script, so they share this model.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

from uu.engine.options import Options
from uu.i18n import _

DO = Literal["play", "draw", "respond", "pass", "target", "discard", "sacrifice", "use", "decline", "choose",
             "order", "baby"]
PENDING_KINDS = Literal["baby", "action", "respond", "target", "discard", "sacrifice", "use", "choose", "order"]


# Natural bounds of the game, so a file cannot ask for millions of cards or steps: every card of the game is
# 127 cards (a scenario may name a card more often than it has copies, so twice that), and a game is a few
# hundred actions.
MAX_CARDS = 256
MAX_STEPS = 2000
Cards = Annotated[list[str], Field(max_length=MAX_CARDS)]


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
            raise ValueError(_("a target names either a card (with owner or zone) or a player, not both"))
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
    stables: dict[str, Cards] | None = None
    stables_has: dict[str, Cards] | None = None
    hands: dict[str, Cards] | None = None
    hands_has: dict[str, Cards] | None = None
    hand_sizes: dict[str, int] | None = None
    unicorns: dict[str, int] | None = None
    discard: Cards | None = None
    discard_has: Cards | None = None
    nursery: Cards | None = None
    nursery_has: Cards | None = None
    deck_size: int | None = None
    turn: TurnExpect | None = None
    pile: Cards | None = None
    winner: str | None = None
    pending: PendingSpec | None = None


class Move(Strict):
    """The fields that name one move, shared by a scenario step (`Step`, which adds who makes it) and a
    lesson's asked move (`uu.tutor.lesson_model.Ask`, always the learner's)."""

    do: DO
    card: str | None = None
    into: str | None = None
    target: TargetSpec | Annotated[list[TargetSpec], Field(max_length=MAX_CARDS)] | None = None
    to: str | None = None
    option: str | None = None
    cards: Cards | None = None
    owner: str | None = None
    zone: Literal["stable", "hand", "deck", "discard", "nursery"] | None = None
    player: str | None = None


class Step(Move):
    as_: str = Field(alias="as")
    illegal: bool = False
    then: Expect | None = None


class Scenario(Strict):
    name: str
    description: str | None = None
    rules: list[str] = Field(default_factory=list, max_length=MAX_CARDS, description="Rule ids (uu.engine.rules) this file checks.")
    players: list[str] = Field(min_length=2, max_length=8)
    options: Options = Field(default_factory=lambda: Options.model_validate({}))
    turn: TurnSpec | None = None
    stables: dict[str, Cards] | None = None
    hands: dict[str, Cards] | None = None
    deck: list[str] = Field(default_factory=list, max_length=MAX_CARDS)
    discard: list[str] = Field(default_factory=list, max_length=MAX_CARDS)
    nursery: Literal["auto"] | Cards = "auto"
    rest: Literal["deck", "box"] = "deck"
    steps: list[Step] = Field(default_factory=list, max_length=MAX_STEPS)
    expect: Expect | None = None
    lesson: dict[str, Any] | None = Field(
        None, description="A lesson's script (validated by uu.tutor); scenario runs ignore it, so every lesson "
        "file is also a valid scenario.")

    @field_validator("players")
    @classmethod
    def _unique(cls, v: list[str]) -> list[str]:
        if len(set(v)) != len(v):
            raise ValueError(_("player names must be different: {names}").format(names=v))
        return v

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, v: list[str]) -> list[str]:
        return known_rules(v)


def known_rules(v: list[str]) -> list[str]:
    """The `rules:` field of a scenario or a lesson step: every id must name a rule of the registry."""
    from uu.engine.rules import UnknownRuleError, rule

    for r in v:
        try:
            rule(r)
        except UnknownRuleError as e:  # a KeyError: pydantic reports only ValueErrors as field errors
            raise ValueError(str(e).strip("'\"")) from None
    return v


def name_problems(sc: Scenario) -> list[tuple[tuple[str | int, ...], str]]:
    """Unknown player and card names, each with the path of the field that holds it (for line numbers)."""
    import difflib

    from uu.cards import catalog

    cat = catalog()
    known = set(sc.players)
    out: list[tuple[tuple[str | int, ...], str]] = []

    def player(name: str | None, loc: tuple[str | int, ...]) -> None:
        if name is not None and name not in known:
            out.append((loc, _("{name} is not one of the players {players}").format(name=repr(name),
                                                                                    players=sc.players)))

    def card(name: str | None, loc: tuple[str | int, ...]) -> None:
        if name is not None and name not in cat:
            close = difflib.get_close_matches(name, [c.name for c in cat], n=2)
            if not close:
                problem = _("no card named {card} in the catalog").format(card=repr(name))
            elif len(close) == 1:
                problem = _("no card named {card} in the catalog; did you mean {name}?").format(
                    card=repr(name), name=repr(close[0]))
            else:
                problem = _("no card named {card} in the catalog; did you mean {name} or {other}?").format(
                    card=repr(name), name=repr(close[0]), other=repr(close[1]))
            out.append((loc, problem))

    def cards(names: list[str] | None, loc: tuple[str | int, ...]) -> None:
        for i, n in enumerate(names or []):
            card(n, (*loc, i))

    for key in ("stables", "hands"):
        for p, names in (getattr(sc, key) or {}).items():
            player(p, (key, p))
            cards(names, (key, p))
    cards(sc.deck, ("deck",))
    cards(sc.discard, ("discard",))
    if sc.nursery != "auto":
        cards(sc.nursery, ("nursery",))
    if sc.turn:
        player(sc.turn.player, ("turn", "player"))

    def expectation(ex: Expect | None, loc: tuple[str | int, ...]) -> None:
        if ex is None:
            return
        for key in ("stables", "stables_has", "hands", "hands_has", "hand_sizes", "unicorns"):
            for p, v in (getattr(ex, key) or {}).items():
                player(p, (*loc, key, p))
                if isinstance(v, list):
                    cards(v, (*loc, key, p))
        for key in ("discard", "discard_has", "nursery", "nursery_has", "pile"):
            cards(getattr(ex, key), (*loc, key))
        if ex.turn:
            player(ex.turn.player, (*loc, "turn", "player"))
        if ex.pending:
            player(ex.pending.player, (*loc, "pending", "player"))
        if ex.winner not in (None, "none", "everyone-loses"):
            player(ex.winner, (*loc, "winner"))

    for i, st in enumerate(sc.steps):
        loc = ("steps", i)
        for key in ("as", "into", "owner", "player"):
            player(getattr(st, "as_" if key == "as" else key), (*loc, key))
        if st.do != "choose":
            card(st.card, (*loc, "card"))
        card(st.to, (*loc, "to"))
        cards(st.cards, (*loc, "cards"))
        targets = st.target if isinstance(st.target, list) else [st.target] if st.target else []
        for j, t in enumerate(targets):
            tloc = (*loc, "target", j) if isinstance(st.target, list) else (*loc, "target")
            player(t.owner, (*tloc, "owner"))
            player(t.player, (*tloc, "player"))
            card(t.card, (*tloc, "card"))
        expectation(st.then, (*loc, "then"))
    expectation(sc.expect, ("expect",))
    return out
