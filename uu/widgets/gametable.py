"""`GameTable`: the one table component every screen (lesson, game, sandbox) draws its game with.

It owns the `TableWidget` and what the screens used to repeat: a click on the table becomes the index of a
legal action (`on_move`), a click made on an older table is refused in plain words (`on_stale`), a click on
an element that is not lit is answered with why (uu/table/clickwhy.py), and the browser's request for the whole
log is answered. It draws a `uu.session.Session` (`show_session`): the steps the session recorded since the
table on show, each decision as it was made, are played back one at a time before the new table, and when a
new session follows the one on show (a lesson step with a position of its own) the last steps of the old one are
played back first. `show` draws a game that is no session's (a wrong move's preview): a picture, with nothing to
play back.
"""

from __future__ import annotations

from collections.abc import Callable

from uu.engine.game import Game
from uu.i18n import N_
from uu.session import Session
from uu.table.clickwhy import click_reason
from uu.table.messages import ActionView, LogLineView, TableView
from uu.table.replay import steps_view
from uu.table.seat_view import legal_actions, log_lines, observe
from uu.table.widget import TableWidget

__all__ = ["GameTable", "STALE_CLICK"]

STALE_CLICK = N_("That click was made on an older table (the screen had not caught up with your previous move "
                 "yet). Nothing was changed: choose again on the table shown now.")


class GameTable:
    def __init__(self, on_move: Callable[[int], object], on_stale: Callable[[], object] | None = None,
                 css: tuple[str, ...] = ("uu-table",), prompt_here: bool = True):
        self.widget = TableWidget(on_choose=on_move, on_refused=on_stale, prompt_here=prompt_here)
        for c in css:
            self.widget.add_class(c)
        self.game: Game | None = None  # the game on show (what the browser reads the log of, clicks are about)
        self.viewer: int | None = None
        self._session: Session | None = None  # the session the table on show was drawn from, at drawn_version
        self.drawn_version = -1
        self.widget.on_why = self._why
        self.widget.on_log = self._log

    def _why(self, key: str, name: str) -> str:
        return click_reason(self.game, self.viewer, key, name)

    def _log(self, start: int) -> list[LogLineView]:
        return [] if self.game is None else log_lines(self.game, start)

    def show_session(self, session: Session, viewer: int | None, actions: list[ActionView] | None = None,
                     observation: TableView | None = None, person: Callable[[int], bool] | None = None) -> None:
        """Draw the session's game as `viewer` sees it with `actions` (default: the viewer's legal actions),
        playing back the steps made since the table on show was drawn from this session, or from the session
        this one follows (none for another session, or after an undo). `observation`: the table to draw instead
        of the viewer's (the sandbox's analyst view). `person`: whose steps count as the viewer's own (default:
        the viewer's)."""
        game = session.game
        drawn = self._session
        if session is drawn:
            views = steps_view(game, session.steps_since(self.drawn_version) or [], viewer, person)
        elif drawn is not None and session.follows is drawn:
            # a new position that goes on from the one on show (a lesson step with its own position): what was
            # done on the old one is played back first, on the old game
            views = steps_view(drawn.game, drawn.steps_since(self.drawn_version) or [], viewer, person)
        else:
            views = []
        acts = actions if actions is not None else legal_actions(game, viewer)
        self.widget.set_table(observation if observation is not None else observe(game, viewer), acts, views)
        self._session, self.drawn_version = session, session.version
        self.game, self.viewer = game, viewer

    def show(self, game: Game | None, viewer: int | None, actions: list[ActionView] | None = None) -> None:
        """Draw `game` as `viewer` sees it with `actions` (default: the viewer's legal actions), with nothing to
        play back: a game that is no session's (a wrong move's preview), or no game at all."""
        self._session = None  # the next session drawn starts afresh
        if game is None:
            self.widget.set_table(None, [])
            self.game = None
            return
        acts = actions if actions is not None else legal_actions(game, viewer)
        self.widget.set_table(observe(game, viewer), acts)
        self.game, self.viewer = game, viewer

    @property
    def actions(self) -> list[ActionView]:
        return list(self.widget.actions)

    def click(self, action_id: int) -> bool:
        """What a click on the table does for the action with this id (tests, notebooks)."""
        return self.widget.choose(action_id, self.widget.version)
