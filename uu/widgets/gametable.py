"""`GameTable`: the one table component every screen (lesson, game, sandbox) draws its game with.

It owns the `TableWidget` and what the screens used to repeat: a click on the table becomes the index of a
legal action (`on_move`), a click made on an older table is refused in plain words (`on_stale`), a click on
an element that is not lit is answered with why (uu/table/clickwhy.py), the browser's request for the whole
log is answered, and the bots play until a person must decide through the one loop
(`uu.table.replay.play_until_person`). Each decision the bots make is recorded as a step, so that the next
table plays them back one at a time; a stretch nobody recorded (a lesson's scripted bots, the learner's own
move and what it set off) becomes one step of everything that moved.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import N_
from uu.table.clickwhy import click_reason
from uu.table.observation import legal_actions, log_lines, observe
from uu.table.replay import BOT_MOVES_AT_ONCE, Chooser, Positions, changes_since, play_until_person, positions
from uu.table.widget import TableWidget

__all__ = ["GameTable", "STALE_CLICK"]

STALE_CLICK = N_("That click was made on an older table (the screen had not caught up with your previous move "
                 "yet). Nothing was changed: choose again on the table shown now.")


class GameTable:
    def __init__(self, on_move: Callable[[int], Any], on_stale: Callable[[], Any] | None = None,
                 css: tuple[str, ...] = ("uu-table",), prompt_here: bool = True):
        self.widget = TableWidget(on_choose=on_move, on_refused=on_stale, prompt_here=prompt_here)
        for c in css:
            self.widget.add_class(c)
        self.game: Game | None = None  # the game on show (what the browser reads the log of, clicks are about)
        self.viewer: int | None = None
        self.steps: list[dict[str, Any]] = []  # recorded since the table on show
        self.going_on = False  # the bots played on from the table on show (its steps are recorded)
        self._before: Positions | None = None
        self._log_at = 0
        self.widget.on_why = self._why
        self.widget.on_log = self._log

    def _why(self, key: str, name: str) -> str:
        return click_reason(self.game, self.viewer, key, name)

    def _log(self, start: int) -> list[dict[str, Any]]:
        return [] if self.game is None else log_lines(self.game, start)

    def _catch_up(self, game: Game, viewer: int | None) -> None:
        """A step for what changed since the table on show and was not recorded (a person's move)."""
        step = changes_since(game, self._before, self._log_at, viewer)
        if step is not None:
            step["yours"] = True  # not a bot's decision: the person's own move and what it set off
            self.steps.append(step)
        self._before, self._log_at = positions(game), len(game.state.log)

    def play_bots(self, game: Game | Callable[[], Game], choose: Chooser, is_person: Callable[[int], bool],
                  viewer: int | None, limit: int = BOT_MOVES_AT_ONCE, apply: Callable[[Action], Any] | None = None,
                  continues: bool | None = None) -> int:
        """Let the bots decide until a person must (the one loop), recording each decision as a step;
        `limit` 1: one decision (step mode). `game` and `apply`: see `play_until_person`. `continues`: the
        position goes on from the table on show (default: it is the same game object)."""
        now = game() if callable(game) else game
        going_on = (now is self.game) if continues is None else continues
        if going_on:
            self._catch_up(now, viewer)
        n = play_until_person(game, choose, is_person, self.steps if going_on else None, viewer, limit, apply)
        if going_on:
            self.going_on = True
            end = game() if callable(game) else game
            self._before, self._log_at = positions(end), len(end.state.log)
        return n

    def show(self, game: Game | None, viewer: int | None, actions: list[dict[str, Any]] | None = None,
             observation: dict[str, Any] | None = None, continues: bool | None = None) -> None:
        """Draw `game` as `viewer` sees it with `actions` (default: the viewer's legal actions), playing back
        the steps since the table on show when the game goes on from it (`continues`; default: it is the
        same game object)."""
        if game is None:
            self.widget.set_table({}, [])
            self.game, self.steps, self._before = None, [], None
            return
        going_on = (game is self.game or self.going_on) if continues is None else continues
        if going_on and self._before is not None:
            self._catch_up(game, viewer)
            steps = self.steps
        else:
            steps = []  # another game (new, undone, a preview): nothing to play back
        obs = observation if observation is not None else observe(game, viewer)
        acts = actions if actions is not None else legal_actions(game, viewer)
        self.widget.set_table(obs, acts, steps)
        self.game, self.viewer, self.steps, self.going_on = game, viewer, [], False
        self._before, self._log_at = positions(game), len(game.state.log)

    @property
    def actions(self) -> list[dict[str, Any]]:
        return list(self.widget.actions)

    def click(self, action_id: int) -> bool:
        """What a click on the table does for the action with this id (tests, notebooks)."""
        return self.widget.choose(action_id, self.widget.version)
