"""`BoardView`: the table (uu.render.board_html) and the narrated log with a "why?" on every line.

A view, not a controller: the screen that owns it calls `show(game, viewer)` after every change. The discard
pile is browsable inside the board (it opens to show every card, top first); the log is newest first, and
each line opens to show the statements of the rules that caused it (uu.engine.rules.explain).
"""

from __future__ import annotations

from typing import Any

import ipywidgets as widgets

from uu.render import board_html, log_html

__all__ = ["BoardView"]


class BoardView(widgets.VBox):
    def __init__(self, log_lines: int = 40, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-board-view")
        self.log_lines = log_lines
        self.board = widgets.HTML()
        self.board.add_class("uu-board")
        self.log_view = widgets.HTML()
        self.log_view.add_class("uu-log")
        self.log_title = widgets.HTML("<h4 style='margin:6px 0 2px'>What happened</h4>"
                                      "<div class='uu-why'>Newest first. Click a line to see why.</div>")
        self.children = [self.board, self.log_title, self.log_view]

    def show(self, game: Any | None, viewer: int | None = None, new_from: int | None = None) -> None:
        """Draw `game` as `viewer` may see it (None: everything); log entries from `new_from` on are marked."""
        if game is None:
            self.board.value = "<p><i>No game.</i></p>"
            self.log_view.value = ""
            return
        self.board.value = board_html(game, viewer)
        self.log_view.value = log_html(game.log, limit=self.log_lines, new_from=new_from)
