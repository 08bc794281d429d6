"""`GameTable`: the one table component every screen (lesson, game, sandbox) draws its game with.

It owns the `TableWidget` and what the screens used to repeat: a click on the table becomes the index of a
legal action (`on_move`), a click made on an older table is refused in plain words (`on_stale`), a click on
an element that is not lit is answered with why (uu/table/clickwhy.py), the browser's request for the whole
log is answered, and the bots play until a person must decide through the one loop
(`uu.table.replay.play_until_person`). Each decision the bots make is recorded as a step, so that the next
table plays them back one at a time. A stretch made elsewhere (the person's own move; a lesson, whose runner
plays its scripted bots and settles the rest itself) is caught up from the game's move stack: one decision is
one step; more are made again one at a time on a copy (`uu.table.replay.replay_moves`), so a lesson shows each
of the others' decisions as the game does. When a new position replaces the game on show after moves were
made on it (a lesson step with its own position), those moves are played back on the table on show first.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import N_
from uu.session import Session
from uu.table.clickwhy import click_reason
from uu.table.messages import ActionView, LogLineView, StepView, TableView
from uu.table.observation import legal_actions, log_lines, observe
from uu.table.replay import (
    BOT_MOVES_AT_ONCE,
    Chooser,
    Positions,
    changes_since,
    play_until_person,
    positions,
    replay_moves,
    steps_view,
)
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
        self.steps: list[StepView] = []  # recorded since the table on show
        self.going_on = False  # the bots played on from the table on show (its steps are recorded)
        # where the stretch not recorded yet starts: that game, its cards' places, log length and moves, its
        # last move (the line the stretch must go on from) and who was deciding then
        self._marked: Game | None = None
        self._before: Positions | None = None
        self._log_at = 0
        self._moves_at = 0
        self._last: Action | None = None
        self._decider: int | None = None
        self._is_person: Callable[[int], bool] | None = None  # the persons of `play_bots` (default: the viewer)
        self.widget.on_why = self._why
        self.widget.on_log = self._log
        self._session: Session | None = None  # the session the table on show was drawn from, at drawn_version
        self.drawn_version = -1

    def _why(self, key: str, name: str) -> str:
        return click_reason(self.game, self.viewer, key, name)

    def _log(self, start: int) -> list[LogLineView]:
        return [] if self.game is None else log_lines(self.game, start)

    def _mark(self, game: Game) -> None:
        moves = game.moves
        self._marked, self._before, self._log_at = game, positions(game), len(game.state.log)
        self._moves_at, self._last = len(moves), (moves[-1] if moves else None)
        self._decider = game.pending.player if game.pending is not None else None

    def _made_since(self, game: Game) -> int | None:
        """How many moves were made on `game` since the mark, or None when they are not known to go on from it
        (another game object, moves taken back)."""
        if game is not self._marked:
            return None
        moves = game.moves
        n = len(moves) - self._moves_at
        if n < 0 or (self._moves_at and moves[self._moves_at - 1] is not self._last):
            return None
        return n

    def _catch_up(self, game: Game, viewer: int | None, known_only: bool = False) -> None:
        """Steps for what changed since the mark and was not recorded: one decision is one step (the person's
        move, or a lone bot decision a lesson made), several are made again one at a time. Without a known
        line of moves (`known_only` False), one step of everything that moved, as the person's."""
        n = self._made_since(game)
        # the persons: those of `play_bots`, else the viewer (every seat, on a table that shows everything)
        person = self._is_person if self._is_person is not None else (lambda seat: viewer is None or seat == viewer)
        if n is not None and n >= 2:
            replay_moves(game, self._moves_at, viewer, self.steps, person)
        elif n == 1 or not known_only:
            step = changes_since(game, self._before, self._log_at, viewer,
                                 self._decider if n == 1 else None)
            if step is not None:
                # without a known decider: not a bot's decision, the person's own move and what it set off
                step["yours"] = person(self._decider) if n == 1 and self._decider is not None else True
                self.steps.append(step)
        self._mark(game)

    def play_bots(self, game: Game | Callable[[], Game], choose: Chooser, is_person: Callable[[int], bool],
                  viewer: int | None, limit: int = BOT_MOVES_AT_ONCE, apply: Callable[[Action], Any] | None = None,
                  continues: bool | None = None) -> int:
        """Let the bots decide until a person must (the one loop), recording each decision as a step;
        `limit` 1: one decision (step mode). `game` and `apply`: see `play_until_person`. `continues`: the
        position goes on from the table on show (default: it is the same game object)."""
        now = game() if callable(game) else game
        going_on = (now is self.game) if continues is None else continues
        self._is_person = is_person
        if going_on:
            self._catch_up(now, viewer)
        n = play_until_person(game, choose, is_person, self.steps if going_on else None, viewer, limit, apply)
        if going_on:
            self.going_on = True
            self._mark(game() if callable(game) else game)
        return n

    def show(self, game: Game | None, viewer: int | None, actions: list[ActionView] | None = None,
             observation: TableView | None = None, continues: bool | None = None) -> None:
        """Draw `game` as `viewer` sees it with `actions` (default: the viewer's legal actions), playing back
        the steps since the table on show when the game goes on from it (`continues`; default: it is the
        same game object)."""
        self._session = None  # drawn from a game, not a session: the next session table starts afresh
        if game is None:
            self.widget.set_table(None, [])
            self.game, self.steps, self._before, self._marked = None, [], None, None
            return
        going_on = (game is self.game or self.going_on) if continues is None else continues
        if going_on and self._before is not None:
            self._catch_up(game, viewer)
            steps = self.steps
        elif continues is None and self.game is not None and self.game is self._marked:
            # another game: a new position that replaced the one on show after moves were made on it (a lesson
            # step with its own position) has those moves played back first; a new or undone game has none
            self._catch_up(self.game, self.viewer, known_only=True)
            steps = self.steps
        else:
            steps = []  # a position reached otherwise (the sandbox's tree): nothing to play back
        obs = observation if observation is not None else observe(game, viewer)
        acts = actions if actions is not None else legal_actions(game, viewer)
        self.widget.set_table(obs, acts, steps)
        self.game, self.viewer, self.steps, self.going_on = game, viewer, [], False
        self._mark(game)

    def show_session(self, session: Session, viewer: int | None, actions: list[ActionView] | None = None,
                     observation: TableView | None = None, person: Callable[[int], bool] | None = None) -> None:
        """Draw the session's game as `viewer` sees it with `actions` (default: the viewer's legal actions),
        playing back the steps made since the table on show was drawn from this session (none for another
        session, or after an undo). `observation`: the table to draw instead of the viewer's (the sandbox's
        analyst view). `person`: whose steps count as the viewer's own (default: the viewer's)."""
        game = session.game
        steps = session.steps_since(self.drawn_version) if session is self._session else None
        views = steps_view(game, steps or [], viewer, person)
        acts = actions if actions is not None else legal_actions(game, viewer)
        self.widget.set_table(observation if observation is not None else observe(game, viewer), acts, views)
        self._session, self.drawn_version = session, session.version
        self.game, self.viewer, self.steps, self.going_on = game, viewer, [], False
        self._mark(game)

    @property
    def actions(self) -> list[ActionView]:
        return list(self.widget.actions)

    def click(self, action_id: int) -> bool:
        """What a click on the table does for the action with this id (tests, notebooks)."""
        return self.widget.choose(action_id, self.widget.version)
