"""The card catalog (uu/cards/catalog.yaml) against the card facts of docs/cards.md (totals, two players, the
card list). Rule ids: setup.components (card counts), two-player.removals, win.letters."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from uu.cards import CardType, catalog
from uu.engine.game import build_defs

EXPECTED = {  # docs/cards.md "Totals": (distinct cards, copies)
    CardType.BABY: (13, 13),
    CardType.BASIC: (8, 22),
    CardType.MAGICAL: (30, 30),
    CardType.MAGIC: (15, 25),
    CardType.UPGRADE: (8, 14),
    CardType.DOWNGRADE: (8, 8),
    CardType.INSTANT: (2, 15),
}


def test_distinct_cards_and_copies():
    """setup.components: 84 distinct cards; 114 black-backed copies + 13 Babies = 127."""
    cards = list(catalog())
    assert len(cards) == 84 == len({c.name for c in cards})
    assert sum(c.copies for c in cards) == 127
    assert sum(c.copies for c in cards if c.type is not CardType.BABY) == 114
    assert len(build_defs(False)[0]) == 127


@pytest.mark.parametrize("kind", list(EXPECTED))
def test_counts_per_type(kind):
    """setup.components: per-type distinct cards and copies (docs/cards.md, "Totals")."""
    cards = [c for c in catalog() if c.type is kind]
    assert (len(cards), sum(c.copies for c in cards)) == EXPECTED[kind]


def test_two_player_removals():
    """two-player.removals: all Basic Unicorns, Queen Bee, Seductive, Rainbow Unicorn, Nanny Cam, Sadistic
    Ritual, Slowdown, Yay (both), Mother Goose and Necromancer: 32 copies."""
    removed = [c for c in catalog() if c.two_player_removed]
    assert sum(c.copies for c in removed) == 32
    names = {c.name for c in removed}
    basics = {c.name for c in catalog() if c.type is CardType.BASIC}
    assert names == basics | {"Queen Bee Unicorn", "Seductive Unicorn", "Rainbow Unicorn", "Nanny Cam",
                              "Sadistic Ritual", "Slowdown", "Yay", "Mother Goose Unicorn",
                              "Necromancer Unicorn"}
    defs, removed_cids = build_defs(True)
    assert len(removed_cids) == 32
    assert 114 - 32 == 82


def test_every_card_has_own_text():
    """Every card has a text in our own words (non-empty; no printed wording flags such as quotes of the
    card's rules box)."""
    for c in catalog():
        assert c.text and len(c.text) > 10, c.name
        assert c.text.strip() == c.text


def test_effect_cards_have_behaviour():
    """Every non-Basic, non-Baby card other than Neigh-like Instants carries effect data (a card the engine
    cannot express would silently do nothing)."""
    for c in catalog():
        if c.type in (CardType.BABY, CardType.BASIC):
            continue
        has = c.play or c.enter or c.leave or c.turn_start or c.static or c.would or c.watch or c.hook
        if c.name == "Neigh":
            continue  # Neigh's behaviour is the pile's own rule
        assert has, c.name


def test_letters_counted_from_printed_title():
    """win.letters: letters come from the printed title, not the catalog name's colour label."""
    by = {c.name: c for c in catalog()}
    assert by["Baby Unicorn (Red)"].letters == len("BabyUnicorn") == 11
    assert by["Basic Unicorn (Indigo)"].letters == 12
    assert by["Narwhal"].letters == 7
    assert by["Rhinocorn"].letters == 9
    assert by["Stabby the Unicorn"].letters == len("StabbytheUnicorn")
    for c in catalog():
        assert c.letters == sum(ch.isalpha() for ch in c.title), c.name
        assert re.sub(r" \(.*\)$", "", c.name) == c.title or c.name == c.title


def test_unicorn_flag():
    """card.unicorn-kinds: Babies, Basics and Magical Unicorns are Unicorn cards; nothing else is."""
    for c in catalog():
        assert c.is_unicorn == (c.type in (CardType.BABY, CardType.BASIC, CardType.MAGICAL)), c.name


def test_card_numbers_unique():
    nos = Counter(c.no for c in catalog())
    assert all(n == 1 for n in nos.values())


def test_unknown_name_suggests():
    with pytest.raises(KeyError) as e:
        catalog()["Rhinocorm"]
    assert "Rhinocorn" in str(e.value)


def test_docs_card_list_matches_the_catalog():
    """docs/cards.md "The card list" is the catalog's card facts, row by row and in the catalog's order
    (number, name, printed title, type, copies, removed with 2 players)."""
    text = (Path(__file__).resolve().parents[1] / "docs" / "cards.md").read_text(encoding="utf-8")
    rows = [
        [cell.strip() for cell in line.strip().strip("|").split("|")]
        for line in text.splitlines()
        if re.match(r"\|\s*\d{3}\s*\|", line)
    ]
    expected = [
        [c.no, c.name, c.title, c.type.value, str(c.copies), "removed" if c.two_player_removed else ""]
        for c in catalog()
    ]
    assert rows == expected
