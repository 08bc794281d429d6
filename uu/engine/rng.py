"""Shuffles and random picks drawn from a game's own seeded generator, in compiled code.

`random.Random.shuffle` and `.choice` are written in Python; the compiled engine (uu.native) shuffles the
deck and pulls cards at random in its hot loop, and bots pick among legal actions, so these run as compiled
code instead. They ask the generator for exactly the bits `random.Random` asks for (Fisher–Yates from the
last position down; a uniform index below n by rejection from n.bit_length() random bits), so every seed
deals and plays the same game as before (tests/test_rng.py compares them with the standard library).
"""

from __future__ import annotations

from random import Random
from typing import TypeVar

T = TypeVar("T")


def below(rng: Random, n: int) -> int:
    """A uniform random int in [0, n), n > 0."""
    k = n.bit_length()
    r: int = rng.getrandbits(k)
    while r >= n:
        r = rng.getrandbits(k)
    return r


def shuffle(rng: Random, x: list) -> None:
    """Shuffle list x in place."""
    # `below` inlined with the generator's method looked up once: a shuffle draws once or more per card
    getrandbits = rng.getrandbits
    i = len(x) - 1
    while i > 0:
        n = i + 1
        k = n.bit_length()
        j: int = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]
        i -= 1


def choice(rng: Random, seq: tuple[T, ...] | list[T]) -> T:
    """One element of a non-empty sequence."""
    if not seq:
        raise IndexError("cannot choose from an empty sequence")
    return seq[below(rng, len(seq))]
