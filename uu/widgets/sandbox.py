"""`SandboxScreen`: the "what if" sandbox — build any legal position, play on from it with undo, redo and
branches, preview every option, ask for a hint, and share the position as scenario YAML or a link.

    screen = SandboxScreen()                          # 3 seats, a Baby in every Stable, building
    screen = SandboxScreen(players=["Ana", "Ben"], hint_seconds=1.0, auto=True)
    screen.load_yaml(text)                            # pasted scenario YAML (errors show with line numbers)
    screen.start()                                    # "Play from here": the built position goes live
    screen.refresh()                                  # (the two above change the session; a click redraws)
    screen.builder, screen.timeline, screen.game, screen.mode   # "build" | "play"
    screen.moves, screen.click_move(action)           # the moves the table offers; a click on one of them
    screen.page_href = href                           # the page's address, for "Link to this position"
    screen.take_state(old)                            # carry on from another sandbox screen (a new language)

**What it is, and what shows it.** The sandbox itself is `screen.session`, a `uu.tutor.sandbox_session.SandboxSession`
(plain Python, no widgets): the `PositionBuilder` being built, the mode, the `Timeline` game tree, who plays
each seat, the bots, the field errors, the last message, the hint, the export; every change goes through its
operations. Four panels show it, each owning its widgets and talking only to the session and to the screen's
`changed(problem)` (show the problem, if any, and redraw every panel from the session), never to each other:

- `screen.build` (`uu.widgets.sandbox_build.BuildPanel`): players and names, a card picker showing the copies
  left, a zone picker (a player's Stable or hand, the deck's top, bottom or a position, the discard pile, the
  Nursery), Place / Remove / Move, whose turn and which phase, the engine options, where unplaced cards go, the
  position and "Play from here". A refused change shows the builder's message inline, next to the control it
  concerns (keyed by the builder's field names), never as a traceback.
- `screen.share` (`uu.widgets.sandbox_share.SharePanel`): a scenario loaded from a file (FileUpload) or pasted,
  its errors with their line numbers (these controls are placed inside the build panel); the export box with
  the position on show as scenario YAML, a download link and "Link to this position", or why the position
  cannot be written (`NotExportable`).
- `screen.play` (`uu.widgets.sandbox_play.PlayPanel`): each seat is "you" or a bot (at the start, the seat that
  must decide is yours and new seats are random bots; other seats keep what you chose); a user seat's decision
  is made on the table (`uu.table.widget.TableWidget`: the cards and places of its legal actions light up, the
  text list of moves is one toggle away on the table), drawn as the deciding seat sees it, or with every hand
  open when "View as" is "everything"; bots move on "Bot: next" or by themselves with "Auto-play bots" (each
  of their decisions played back on the table); "Show what each move would do" previews every legal action on
  a copy (`uu.tutor.preview.preview_all`) as the viewing seat may see it; "Hint" runs `uu.bots.hint.hint` with
  a progress bar and shows why its move is best, with every move's estimated chance to win one click away.
- `screen.tree` (`uu.widgets.sandbox_timeline.TimelinePanel`): Undo / Redo (with auto-play on, undo goes back
  to the last decision of a user seat) and the tree of moves with the current node highlighted (click a node
  to jump there; another move after an undo makes a branch); its widgets are placed inside the play panel.

Everything shown as HTML is escaped (names are user text); the game and the builder live in the session, never
in widget traits, and every widget value is validated by the session, the builder or the engine.

CSS classes (for browser tests): uu-sandbox-screen; build panel uu-sandbox-build: uu-sb-players-count,
uu-sb-player-name, uu-sb-players-apply, uu-sb-name, uu-sb-card, uu-sb-zone, uu-sb-index, uu-sb-to-zone,
uu-sb-place, uu-sb-remove, uu-sb-move, uu-sb-clear, uu-sb-turn-player, uu-sb-turn-phase, uu-sb-turn-number,
uu-sb-option-<name>, uu-sb-rest, uu-sb-upload, uu-sb-yaml, uu-sb-load, uu-sb-start, uu-sb-position,
inline messages uu-field-msg + uu-msg-<group> (groups: players name cards turn options rest load start), each
error inside a `div.uu-field-error[data-field=<builder field>]`; play panel uu-sandbox-play: uu-sb-controller
(+ uu-sb-controller-<seat>), uu-sb-viewer, uu-sb-prompt, uu-sb-table (the table: its data-* contract is in
uu/table/table.js), uu-sb-bot-next, uu-sb-auto, uu-sb-undo, uu-sb-redo, uu-sb-hint, uu-sb-hint-progress,
uu-sb-hint-table, uu-sb-preview-toggle, uu-sb-preview, uu-sb-timeline with uu-tl-node (+ uu-tl-node-<id>,
uu-tl-current on the current node), uu-sb-edit, uu-sb-back, uu-sb-feedback; export uu-sb-export: uu-sb-export-text,
uu-sb-download (an anchor `a.uu-download` inside), uu-sb-export-msg, uu-sb-link, uu-sb-link-note.
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import ipywidgets as widgets

from uu.bots.hint import DEFAULT_DEALS, DEFAULT_SECONDS
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import _
from uu.render import esc
from uu.scenario.builder import PositionBuilder
from uu.tutor.sandbox_session import SandboxSession
from uu.tutor.timeline import Timeline
from uu.widgets.common import ScreenBase, readable
from uu.widgets.sandbox_build import BuildPanel
from uu.widgets.sandbox_panel import HIDDEN, SHOWN
from uu.widgets.sandbox_play import PlayPanel, table_view
from uu.widgets.sandbox_share import SharePanel
from uu.widgets.sandbox_timeline import TimelinePanel

log = logging.getLogger(__name__)

__all__ = ["SandboxScreen", "table_view"]


SANDBOX_STYLE = """<style>
.uu-sandbox-screen h3 { margin:10px 0 4px; }
.uu-field-msg .uu-field-error { color:#8a1c1c; background:#fdecea; border:1px solid #f5c2c0; padding:3px 8px;
  border-radius:6px; margin:2px 0; white-space:pre-wrap; }
.uu-field-msg .uu-field-warning { color:#6d4c00; background:#fff8e1; border:1px solid #ffe082; padding:3px 8px;
  border-radius:6px; margin:2px 0; }
.uu-field-msg .uu-field-name { font-family:monospace; font-size:0.9em; margin-right:6px; }
.uu-field-msg .uu-field-ok { color:#2e7d32; }
.uu-sb-timeline { border:1px solid #ddd; border-radius:6px; padding:4px; }
.uu-tl-node button, button.uu-tl-node { height:auto; min-height:22px; white-space:normal; text-align:left;
  font-size:0.85em; }
button.uu-tl-current { font-weight:700; outline:2px solid #3949ab; }
.uu-sb-preview .uu-preview { border-left:3px solid #3949ab; padding-left:8px; margin:4px 0; }
.uu-sb-position .uu-zone-label { min-width:8em; display:inline-block; }
</style>"""


class SandboxScreen(ScreenBase):
    def __init__(self, players: list[str] | None = None, seed: int = 0, auto: bool = True,
                 hint_seconds: float | None = DEFAULT_SECONDS, hint_deals: int = DEFAULT_DEALS, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-sandbox-screen")
        self.session = SandboxSession(players, seed=seed, auto=auto, hint_seconds=hint_seconds,
                                      hint_deals=hint_deals)
        self.style_html = widgets.HTML(SANDBOX_STYLE)
        self.style_html.add_class("uu-sandbox-style")
        self.title = widgets.HTML("<h2 style='margin:4px 0'>" + esc(_("What-if sandbox")) + "</h2><p>"
                                  + esc(_("Build any position, play on from it, undo and branch, see what each "
                                          "option would do, and share the position as text.")) + "</p>")
        self.share = SharePanel(self.session, self.changed)
        self.build = BuildPanel(self.session, self.changed, loader=self.share.load_controls)
        self.tree = TimelinePanel(self.session, self.changed)
        self.play = PlayPanel(self.session, self.changed, tree_controls=self.tree.controls,
                              tree_view=self.tree.view)
        self.children = [self.style_html, self.title, self.error_box, self.build.box, self.play.box, self.share.box]
        self.refresh()

    def take_state(self, old: SandboxScreen) -> None:
        """Carry on from `old` (the same sandbox built in another language: uu/widgets/relanguage.py): the same
        position being built, the same game tree and node, the same seats and settings, the same page address."""
        self.session.take_state(old.session)
        self.play.carry_over(old.play)
        self.share.set_page_href(old.page_href)
        self.refresh()

    # ---- the screen's API: the session's state, read-only ----------------------------------------------------
    @property
    def builder(self) -> PositionBuilder:
        return self.session.builder

    @property
    def timeline(self) -> Timeline | None:
        return self.session.timeline

    @property
    def game(self) -> Game | None:
        """The position on the table (play mode): the timeline's current node. Change it only through the
        session (or a click)."""
        return self.session.game

    @property
    def mode(self) -> Literal["build", "play"]:
        return self.session.mode

    def load_yaml(self, text: str, path: str = "pasted YAML") -> bool:
        """Load a scenario's position to build on (`SandboxSession.load_yaml`); `refresh()` shows it, or the
        error next to the load controls."""
        return self.session.load_yaml(text, path)

    def start(self) -> bool:
        """"Play from here" (`SandboxSession.start`); `refresh()` shows the table, or the problems inline."""
        return self.session.start()

    @property
    def moves(self) -> list[Action]:
        """The moves the table offers now (`PlayPanel.moves`)."""
        return self.play.moves

    def click_move(self, action: Action | None) -> bool:
        """What a click on the table does for `action` (`PlayPanel.click_move`)."""
        return self.play.click_move(action)

    @property
    def page_href(self) -> str | None:
        """The page's address, which the App learns from the browser: the position's link is built on it."""
        return self.share.page_href

    @page_href.setter
    def page_href(self, href: str | None) -> None:
        self.share.set_page_href(href)

    # ---- drawing -----------------------------------------------------------------------------------------------
    def changed(self, problem: Exception | None = None) -> None:
        """A panel's callback ran: show its problem as one readable line (None: clear the last one) and redraw;
        a failure while drawing leaves a message, never a blank or half-drawn screen."""
        self._set_error(None if problem is None else readable(problem))
        try:
            self.refresh()
        except Exception:  # a broken render must not hide the message above
            log.exception("error while redrawing the sandbox")
            if not self.error:
                self._set_error(_("Something went wrong while drawing this screen."))

    def refresh(self) -> None:
        s = self.session
        building = s.mode == "build" or s.timeline is None
        self.build.box.layout.display = SHOWN if building else HIDDEN
        self.play.box.layout.display = HIDDEN if building else SHOWN
        self.build.refresh(building)
        if not building:
            self.play.refresh()
            self.tree.refresh()
        self.share.refresh()
