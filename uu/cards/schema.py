"""Pydantic models of the catalog file; they build the light `CardDef`s the engine uses (uu.cards.carddef).

Card behaviour is data (see docs/architecture.md, "Cards are data"): an *effect* is a list of *ops*,
each naming a verb the engine implements in `uu.engine.verb_handlers`. The models below check the vocabulary, so a
typo in the catalog fails at load time with the card's name, never in the middle of a game.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from uu.cards.carddef import UNICORN_TYPES, CardDef, CardType  # noqa: F401  (also imported from here)
from uu.cards.verbs import VERBS as VERB_TABLE
from uu.yamlfile import LOADER, data_read_before

CATALOG_PATH = Path(__file__).with_name("catalog.yaml")

VERBS = frozenset(VERB_TABLE)  # the names the catalog may use, from the one registry (uu.cards.verbs)
FILTERS = frozenset({
    "card", "unicorn", "basic_unicorn", "baby_unicorn", "magical_unicorn", "upgrade", "downgrade",
    "upgrade_or_downgrade", "magic", "neigh", "narwhal", "this",
})
STATIC_KEYS = frozenset({
    "unicorn_value", "owner_cannot_play", "owner_plays_unneighable", "unneighable",
    "owner_unicorns_indestructible", "indestructible_by", "basics_enter_only_owner", "hand_visible",
    "owner_unicorns_blank", "owner_unicorns_are_pandas", "max_unicorns",
})


class OpModel(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    do: str
    n: int | None = Field(default=None, ge=1)
    all: bool | None = None
    what: str | None = None
    who: Literal["you", "each", "other", "target"] | None = None  # target: the player hit by the last op
    from_: str | None = Field(default=None, alias="from")
    to: Literal["other", "different", "you"] | None = None
    with_: Literal["other"] | None = Field(default=None, alias="with")
    keep: int | None = None
    exclude: Literal["this"] | None = None  # never pick this card itself (Dark Angel cannot bring itself back)
    may: bool | None = None
    name: str | None = None
    phase: str | None = None
    options: list[OptionModel] | None = None
    then: list[OpModel] | None = None
    if_you_do: list[OpModel] | None = None

    @field_validator("do")
    @classmethod
    def _known_verb(cls, v: str) -> str:
        if v not in VERBS:
            raise ValueError(f"unknown verb {v!r}; known verbs: {', '.join(sorted(VERBS))}")
        return v

    @field_validator("what")
    @classmethod
    def _known_filter(cls, v: str | None) -> str | None:
        if v is not None and v not in FILTERS:
            raise ValueError(f"unknown card filter {v!r}; known: {', '.join(sorted(FILTERS))}")
        return v


class OptionModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str
    ops: list[OpModel]


OpModel.model_rebuild()


class EffectModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    may: bool = False
    ops: list[OpModel]


class WouldModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    event: str | list[str]
    of: Literal["this", "unicorn_in_your_stable"]
    may: bool = True
    instead: list[OpModel]


class WatchModel(BaseModel):
    model_config = ConfigDict(extra="forbid")
    event: Literal["unicorn_enters_your_stable", "unicorn_leaves_your_stable"]
    may: bool = False
    ops: list[OpModel]


class CardModel(BaseModel):
    model_config = ConfigDict(extra="forbid")

    no: str
    name: str
    title: str
    type: CardType
    copies: int = Field(ge=1)
    two_player: Literal["removed"] | None = None
    text: str
    notes: str | None = None
    rules: list[str] = []
    play: EffectModel | None = None
    enter: EffectModel | None = None
    leave: EffectModel | None = None
    turn_start: EffectModel | None = None  # the effect at the beginning of its owner's turn
    static: dict[str, Any] = {}
    would: list[WouldModel] = []
    watch: list[WatchModel] = []
    hook: str | None = None

    @field_validator("static")
    @classmethod
    def _known_static(cls, v: dict[str, Any]) -> dict[str, Any]:
        unknown = set(v) - STATIC_KEYS
        if unknown:
            raise ValueError(f"unknown static keys {sorted(unknown)}; known: {', '.join(sorted(STATIC_KEYS))}")
        return v


def _dump_effect(effect: EffectModel | None) -> dict[str, Any] | None:
    if effect is None:
        return None
    return effect.model_dump(by_alias=True, exclude_none=True)


class Catalog:
    """All distinct cards by name, in catalog order."""

    def __init__(self, cards: list[CardDef]):
        self.cards = cards
        self.by_name = {c.name: c for c in cards}

    def __getitem__(self, name: str) -> CardDef:
        try:
            return self.by_name[name]
        except KeyError:
            import difflib

            close = difflib.get_close_matches(name, list(self.by_name), n=3)
            hint = f"; did you mean {' or '.join(repr(c) for c in close)}?" if close else ""
            raise KeyError(f"no card named {name!r} in the catalog{hint}") from None

    def __contains__(self, name: object) -> bool:
        return name in self.by_name

    def __iter__(self) -> Iterator[CardDef]:
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)


class CatalogError(ValueError):
    pass


def to_def(model: CardModel) -> CardDef:
    return CardDef(
        no=model.no, name=model.name, title=model.title, type=model.type, copies=model.copies,
        text=model.text, two_player_removed=model.two_player == "removed",
        play=_dump_effect(model.play), enter=_dump_effect(model.enter), leave=_dump_effect(model.leave),
        turn_start=_dump_effect(model.turn_start), static=dict(model.static),
        would=[w.model_dump(by_alias=True, exclude_none=True) for w in model.would],
        watch=[w.model_dump(by_alias=True, exclude_none=True) for w in model.watch],
        hook=model.hook, notes=model.notes, rules=tuple(model.rules),
        is_unicorn=model.type in UNICORN_TYPES,
        letters=sum(ch.isalpha() for ch in model.title),
        kinds=_kinds(model),
    )


def _kinds(model: CardModel) -> frozenset[str]:
    t = model.type
    out = {"card"}
    if t is CardType.UPGRADE:
        out |= {"upgrade", "upgrade_or_downgrade"}
    if t is CardType.DOWNGRADE:
        out |= {"downgrade", "upgrade_or_downgrade"}
    if t is CardType.MAGIC:
        out.add("magic")
    if t is CardType.INSTANT:
        out.add("neigh")
    if "Narwhal" in model.name:
        out.add("narwhal")
    return frozenset(out)


@functools.cache
def load_catalog(path: Path = CATALOG_PATH) -> Catalog:
    text = path.read_text(encoding="utf-8")
    raw = data_read_before(text)
    if raw is None:
        raw = yaml.load(text, Loader=LOADER)
    if not isinstance(raw, list):
        raise CatalogError(f"{path}: expected a list of cards")
    cards = []
    for i, entry in enumerate(raw):
        try:
            cards.append(to_def(CardModel.model_validate(entry)))
        except ValidationError as e:
            name = entry.get("name", f"entry {i}") if isinstance(entry, dict) else f"entry {i}"
            raise CatalogError(f"{path}: card {name}: {e}") from None
    names = [c.name for c in cards]
    dupes = {n for n in names if names.count(n) > 1}
    if dupes:
        raise CatalogError(f"{path}: duplicate card names {sorted(dupes)}")
    return Catalog(cards)
