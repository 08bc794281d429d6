"""`TableGame`: a game drawn on a `TableWidget`, the viewer against bots. The viewer's choice (an action
index from the browser) is applied, then the bots make every decision that is not the viewer's, then the
table is drawn again. The smallest wiring of the table to a game; the screens build theirs the same way.

    >>> t = TableGame(["You", "Ben"], seed=5)
    >>> t.widget.observation["decision"]["yours"]
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uu.bots import HeuristicBot
from uu.engine import new_game
from uu.table.replay import play_until_person
from uu.table.widget import TableWidget

__all__ = ["TableGame"]



class TableGame:
    def __init__(self, players: Sequence[str] = ("You", "Ben"), seed: int = 0, viewer: int = 0,
                 bots: dict[int, Any] | None = None):
        self.game = new_game(list(players), seed=seed)
        self.viewer = viewer
        self.bots = bots if bots is not None else {
            p: HeuristicBot(seed + p) for p in range(len(self.game.players)) if p != viewer}
        self.moves = 0  # the viewer's decisions applied
        self.widget = TableWidget(on_choose=self.choose)
        self.run_bots()
        self.widget.show(self.game, viewer)

    def run_bots(self) -> None:
        play_until_person(self.game, lambda g, seat: self.bots[seat].choose(g), lambda seat: seat == self.viewer)

    def choose(self, index: int) -> None:
        self.game.apply(self.game.legal_actions[index])
        self.moves += 1
        self.run_bots()
        self.widget.show(self.game, self.viewer)
