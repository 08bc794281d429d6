"""What every computer player is (`Bot`): it decides from its seat's observation, never from the game.

OpenSpiel gives a bot its seat's information state; here `decide(observation)` is the decision, and
`choose(game)` only observes the deciding seat for it (a decision with one legal action is taken without
building an observation: there is nothing to weigh). A bot that looks ahead deals the hidden cards from the
observation (`Observation.resample`), so no bot can read a card its seat cannot see (tests/test_observation.py).
"""

from __future__ import annotations

from abc import ABC, abstractmethod

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.observation import Observation

__all__ = ["Bot"]


class Bot(ABC):
    def choose(self, game: Game) -> Action:
        """The move for the pending decision of `game`, decided from its decider's observation only."""
        d = game.pending
        if d is None:
            raise ValueError("the game is over: there is no decision to make")
        if len(d.actions) == 1:
            return d.actions[0]
        return self.decide(game.observe(d.player))

    @abstractmethod
    def decide(self, seen: Observation) -> Action:
        """The move for the viewer's own decision in `seen`, its seat's observation."""
