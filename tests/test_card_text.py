"""Card text shown to players is checked against the card's behaviour data (our own words, same mechanics).

For every card: each game verb its data uses appears in its text in capitals, each capital verb in the text
is used by its data (or by a core rule), and optional effects say "may" while mandatory ones do not.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest

from uu.cards import catalog
from uu.cards.schema import CardType

VERB_WORDS = {"draw": "DRAW", "discard": "DISCARD", "sacrifice": "SACRIFICE", "destroy": "DESTROY",
              "steal": "STEAL"}


def _ops(x: Any) -> Iterator[dict[str, Any]]:
    if isinstance(x, dict):
        if "do" in x:
            yield x
        for v in x.values():
            yield from _ops(v)
    elif isinstance(x, list):
        for v in x:
            yield from _ops(v)


def _behaviour(d) -> list[Any]:
    return [d.play, d.enter, d.leave, d.turn_start, d.would, d.watch]


@pytest.mark.parametrize("card", [d.name for d in catalog()])
def test_text_names_the_verbs_the_data_uses(card: str) -> None:
    d = catalog()[card]
    used = {op["do"] for op in _ops(_behaviour(d))}
    if any(op["do"] == "steal_after_move" for op in _ops(_behaviour(d))):
        used.add("steal")
    for verb, word in VERB_WORDS.items():
        in_text = re.search(rf"\b{word}", d.text) is not None
        if verb in used:
            assert in_text, f"{card}: data uses {verb} but the text never says {word}: {d.text!r}"
        elif in_text and verb != "draw" and d.type is not CardType.BABY:  # Babies: a core rule (Nursery)
            # the text may name a verb the data gets through another verb (a Flying Unicorn's "when
            # SACRIFICED or DESTROYED" is its leave trigger; Tiny Stable's SACRIFICE is a state check)
            triggers = {"sacrifice": d.leave or d.would or d.static.get("max_unicorns") or d.watch,
                        "destroy": d.leave or d.would or d.static, "steal": d.watch,
                        "discard": d.would}
            assert triggers.get(verb), f"{card}: text says {word} but the data never does: {d.text!r}"


@pytest.mark.parametrize("card", [d.name for d in catalog()])
def test_optional_effects_say_may(card: str) -> None:
    d = catalog()[card]
    for eff in (d.enter, d.turn_start, d.leave, d.play):
        if eff and eff.get("may"):
            assert re.search(r"\bmay\b", d.text), f"{card}: optional effect but no 'may' in {d.text!r}"
    mandatory = [e for e in (d.enter, d.turn_start) if e and not e.get("may")]
    if mandatory and not any(e and e.get("may") for e in (d.enter, d.turn_start, d.leave)):
        assert not re.search(r"\byou may\b", d.text), f"{card}: mandatory effect but text says 'you may'"


def test_every_card_has_text_in_our_words() -> None:
    for d in catalog():
        assert d.text and len(d.text) > 10, d.name


# Cards whose printed text joins two actions with "then" (the second needs the first really done) and the
# one base-deck card that prints "If you do" (the second needs only the choice to do the first): the
# 2nd-edition rulebook ("Card Effects with Multiple Actions", "Getting Rid of Downgrade Cards") quotes Glitter
# Bomb with "then", and lessons 11, 14, 17 and 20 teach the difference with these very cards.
PRINTED_THEN = ("Seductive Unicorn", "Shark With a Horn", "Necromancer Unicorn", "Dark Angel Unicorn",
                "Glitter Bomb", "Claw Machine", "Stable Artillery", "Rainbow Lasso", "Caffeine Overload")
PRINTED_IF_YOU_DO = ("Rhinocorn",)


@pytest.mark.parametrize("card", PRINTED_THEN)
def test_then_stays_then(card: str) -> None:
    text = catalog()[card].text
    assert ", then " in text, text
    assert "if you do" not in text.lower(), f"{card} prints 'then', not 'if you do': {text!r}"


def test_only_cards_that_print_if_you_do_say_it() -> None:
    saying = {d.name for d in catalog() if "if you do" in d.text.lower()}
    assert saying == set(PRINTED_IF_YOU_DO)


def test_pandamonium_says_unicorn_effects_pass_its_pandas_by() -> None:
    """Lesson 13 relies on it: cards that affect Unicorn cards do not affect Pandas (option.pandas default)."""
    text = catalog()["Pandamonium"].text
    assert "cards that affect Unicorn cards do not affect them" in text
