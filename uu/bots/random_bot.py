"""The seeded random bot: uniform over the legal actions (OpenSpiel's uniform random policy).

It reads nothing but the pending decision's legal actions, which its seat's observation holds (`Game.observe`:
the decision is shown to its decider): `decide(observation)`. `choose(game)` takes them from `game.pending`
directly, the same decision with the same draw, because building a whole observation per move would double the
cost of the engine benchmark, which plays with this bot."""

from __future__ import annotations

import random

from uu.bots.bot import Bot
from uu.engine import rng
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.observation import Observation


class RandomBot(Bot):
    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def choose(self, game: Game) -> Action:
        """Drawn from the decision's actions even when there is one (the draw keeps seeded games as they were)."""
        d = game.pending
        if d is None:
            raise ValueError("the game is over: there is no decision to make")
        return rng.choice(self.rng, d.actions)  # random.Random.choice's draw, compiled with the engine

    def decide(self, seen: Observation) -> Action:
        """The move for the viewer's own decision in `seen`, its seat's observation."""
        return rng.choice(self.rng, seen.own_decision().actions)
