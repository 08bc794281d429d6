"""The hint's names for the engine's playout copies and resampling (`Game.playout_copy`, `Game.resample`;
uu/engine/resample.py says which cards a player knows and how the others are dealt anew)."""

from __future__ import annotations

import random

from uu.engine import resample
from uu.engine.game import Game

__all__ = ["determinize", "fast_copy", "known_to"]


def fast_copy(game: Game) -> Game:
    return game.playout_copy()


def known_to(game: Game, player: int) -> tuple[set[int], list[int]]:
    """(cards `player` knows the place of, the seats whose hands are hidden from them)."""
    return resample.known_to(game.state, game.pending, player)


def determinize(game: Game, player: int, rng: random.Random) -> Game:
    return game.resample(player, rng)
