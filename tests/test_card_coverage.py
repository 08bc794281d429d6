"""Every distinct card of the base deck has its own scenario file in tests/scenarios/cards/, every card is
implemented (`uu cards --missing` is empty) and names the rules it relies on."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from uu.cards import catalog
from uu.engine.card_support import card_rules, missing_cards
from uu.engine.rules import RULES

CARDS = Path(__file__).resolve().parent / "scenarios" / "cards"


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


@pytest.mark.parametrize("name", [d.name for d in catalog()])
def test_card_has_a_scenario_file(name: str) -> None:
    slug = _slug(name)
    files = [p for p in CARDS.rglob("*.yaml") if p.stem == slug or p.stem.startswith(slug + "-")]
    assert files, f"no scenario file tests/scenarios/cards/**/{slug}*.yaml for {name}"


def test_no_card_is_missing() -> None:
    assert missing_cards() == {}


@pytest.mark.parametrize("name", [d.name for d in catalog()])
def test_card_rules_are_known(name: str) -> None:
    rules = card_rules(name)
    assert rules and all(r in RULES for r in rules), rules
