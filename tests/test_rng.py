"""uu.engine.rng draws exactly what random.Random's own shuffle and choice draw, so compiled or not, a seed
deals the same cards and the random bot plays the same moves (setup.deal-five: the deck is shuffled)."""

from __future__ import annotations

import random

import pytest

from uu.engine import rng


@pytest.mark.parametrize("seed", range(40))
def test_shuffle_matches_the_standard_library(seed: int) -> None:
    for size in (0, 1, 2, 3, 7, 64, 129):
        ours, theirs = list(range(size)), list(range(size))
        a, b = random.Random(seed), random.Random(seed)
        rng.shuffle(a, ours)
        b.shuffle(theirs)
        assert ours == theirs
        assert a.getstate() == b.getstate()  # and left the generator in the same state


@pytest.mark.parametrize("seed", range(40))
def test_choice_matches_the_standard_library(seed: int) -> None:
    a, b = random.Random(seed), random.Random(seed)
    for size in (1, 2, 3, 5, 8, 17, 100, 1000):
        seq = tuple(range(size))
        assert rng.choice(a, seq) == b.choice(seq)
    assert a.getstate() == b.getstate()


def test_choice_of_nothing_is_an_error() -> None:
    with pytest.raises(IndexError):
        rng.choice(random.Random(0), [])


def test_shuffle_moves_cards() -> None:
    x = list(range(50))
    rng.shuffle(random.Random(1), x)
    assert sorted(x) == list(range(50)) and x != list(range(50))
