"""The sandbox's play panel (`PlayPanel`): who plays each seat, "View as", the prompt, the table the user's seats
move on, Bot: next, Auto-play bots, Hint (with its progress bar), the previews of every move, Edit this position
and Back to building. What is played is the session's (`uu.tutor.sandbox_session.SandboxSession`, whose `play` records
every move forward for the browser to play back); this panel owns the widgets and the table
(`uu.widgets.gametable.GameTable`). The game tree's widgets (`uu.widgets.sandbox_timeline`) are
given to it to place: its buttons in the row of buttons, its view at the end.

The table is drawn as the "View as" seat sees it, or with every hand open ("everything": the analyst's view,
`observe(game, None)`, with the deciding seat's moves; the element keys of a move name the card's owner, never
the viewer, so they match either way); `table_view` says which moves are offered.
"""

from __future__ import annotations

from collections.abc import Sequence

import ipywidgets as widgets

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import _
from uu.render import esc, result_text
from uu.table.messages import ActionView, TableView
from uu.table.seat_view import legal_actions, observe
from uu.tutor.preview import preview_all
from uu.tutor.sandbox_session import SandboxSession
from uu.widgets.common import make_button
from uu.widgets.gametable import STALE_CLICK, GameTable
from uu.widgets.sandbox_panel import HIDDEN, SHOWN, Changed, Panel, handler
from uu.words.hint_text import hint_html

__all__ = ["PlayPanel", "table_view"]


def _bot_kinds() -> list[tuple[str, str]]:
    return [(_("You"), "you"), (_("Easy bot (random)"), "random"), (_("Normal bot (heuristic)"), "heuristic"),
            (_("Hard bot (plays the hint)"), "hint")]


def table_view(game: Game, viewer: int | None, mover: int | None) -> tuple[TableView, list[ActionView]]:
    """The table's (observation, actions) for the sandbox: `game` as `viewer` sees it (None: everything), with
    the legal actions of `mover` (the user seat deciding now; None when a bot or nobody decides).

    The moves are offered when the table is drawn as the mover sees it, or as the analyst sees it (every hand
    open: the mover's cards are face up there with the keys their gestures name, since a hand card's key holds
    its owner, not the viewer). Drawn as another seat, the mover's hand is backs: no move is offered there."""
    if mover is None or (viewer is not None and viewer != mover):
        return observe(game, viewer), []
    if viewer == mover:
        return observe(game, mover), legal_actions(game, mover)
    obs = observe(game, None)
    if obs["decision"] is not None:
        # the analyst's table with a decision to make: the browser's prompt and the Neigh pile's "pass" follow
        # this flag (a user seat's choice is the user's own here)
        obs["decision"] = {**obs["decision"], "yours": True}
    return obs, legal_actions(game, mover)


class PlayPanel(Panel):
    """The play controls and the table (`box`, CSS class uu-sandbox-play). `tree_controls` go in the row of
    buttons after Auto-play, `tree_view` at the end."""

    def __init__(self, session: SandboxSession, changed: Changed, tree_controls: Sequence[widgets.Widget] = (),
                 tree_view: Sequence[widgets.Widget] = ()):
        super().__init__(session, changed)
        self._syncing = False
        self.controllers_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.controllers_box.add_class("uu-sb-controllers")
        self.controller_inputs: list[widgets.Dropdown] = []
        self.viewer_input = widgets.Dropdown(description=_("View as"), layout=widgets.Layout(width="auto"),
                                             style={"description_width": "initial"})
        self.viewer_input.add_class("uu-sb-wide-choice")  # sized to its words (screen.css)
        self.viewer_input.add_class("uu-sb-viewer")
        self.viewer_input.observe(self.on_viewer, names="value")
        self.prompt = widgets.HTML()
        self.prompt.add_class("uu-sb-prompt")
        # the play surface: the seat deciding moves by clicking its lit cards and places
        self.game_table = GameTable(self.on_table_choice, self.on_stale_choice, css=("uu-table", "uu-sb-table"))
        self.table = self.game_table.widget
        self.bot_button = make_button(_("Bot: next"), "uu-sb-bot-next", self.on_bot_next, style="info",
                                      tooltip=_("Let the bot that must decide make one decision"))
        self.auto_input = widgets.ToggleButton(value=session.auto, description=_("Auto-play bots"), icon="play",
                                               tooltip=_("Bots decide by themselves until a seat of yours must"))
        self.auto_input.add_class("uu-sb-auto")
        self.auto_input.observe(self.on_auto, names="value")
        self.hint_button = make_button(_("Hint"), "uu-sb-hint", self.on_hint,
                                       tooltip=_("Play every option forward many times and compare win rates"))
        self.hint_progress = widgets.IntProgress(value=0, min=0, max=1, description=_("Thinking"),
                                                 layout=widgets.Layout(width="24em", display=HIDDEN))
        self.hint_progress.add_class("uu-sb-hint-progress")
        self.hint_box = widgets.HTML()
        self.hint_box.add_class("uu-sb-hint-table")
        self.preview_input = widgets.Checkbox(value=False, description=_("Show what each move would do"),
                                              indent=False)
        self.preview_input.add_class("uu-sb-preview-toggle")
        self.preview_input.observe(self.on_preview_toggle, names="value")
        self.preview_box = widgets.HTML()
        self.preview_box.add_class("uu-sb-preview")
        self.feedback_box = widgets.HTML()
        self.feedback_box.add_class("uu-sb-feedback")
        self.edit_button = make_button(_("Edit this position"), "uu-sb-edit", self.on_edit,
                                       tooltip=_("Back to building, starting from the position on the table"))
        self.back_button = make_button(_("Back to building"), "uu-sb-back", self.on_back,
                                       tooltip=_("Back to the position you built (the game tree is dropped)"))
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.box = widgets.VBox([
            widgets.HTML("<h3>" + esc(_("Who plays each seat")) + "</h3>"),
            widgets.HBox([self.controllers_box, self.viewer_input], layout=row),
            self.prompt,
            widgets.HBox([self.bot_button, self.auto_input, *tree_controls, self.hint_button, self.edit_button,
                          self.back_button], layout=row),
            self.feedback_box,
            self.hint_progress,
            self.hint_box,
            self.table,  # before the previews and the tree: the lit cards are the first thing to act on
            self.preview_input,
            self.preview_box,
            *tree_view,
        ])
        self.box.add_class("uu-sandbox-play")

    def carry_over(self, old: PlayPanel) -> None:
        """The view settings of the panel this one replaces (the screen built anew in another language)."""
        self._syncing = True
        try:
            self.preview_input.value = old.preview_input.value
        finally:
            self._syncing = False

    # ---- reading ------------------------------------------------------------------------------------------
    def viewer(self) -> int | None:
        """The seat whose view is shown (None: everything)."""
        return self.session.viewer(self.viewer_input.value)

    @property
    def moves(self) -> list[Action]:
        """The moves the table offers now, in the order of their ids (none while a bot decides, in build
        mode, or while the table is drawn as a seat other than the one deciding)."""
        g = self.session.game
        if g is None or self.session.mode != "play":
            return []
        legal = g.legal_actions
        return [legal[a["id"]] for a in self.table.actions]

    def click_move(self, action: Action | None) -> bool:
        """What a click on the table does for `action` (equal by names): True if the table offered it."""
        g = self.session.game
        for a in self.table.actions:
            if g is not None and action is not None and g.legal_actions[a["id"]] == action:
                return self.table.choose(a["id"], self.table.version)
        return False

    # ---- callbacks ----------------------------------------------------------------------------------------
    @handler
    def on_table_choice(self, index: int) -> None:
        """A move chosen on the table: `index` names one of the current node's legal actions (TableWidget has
        checked it against the actions on show and refused a click made on an older table)."""
        g = self.session.game
        if g is None:
            raise ValueError(_("it is not a decision of one of your seats now"))
        self.session.user_move(g.legal_actions[index])

    @handler
    def on_stale_choice(self) -> None:
        self.session.say("info", _(STALE_CLICK))

    @handler
    def on_bot_next(self, _b: object = None) -> None:
        self.session.bot_step()

    @handler
    def on_auto(self, _change: object = None) -> None:
        if not self._syncing:
            self.session.set_auto(bool(self.auto_input.value))

    @handler
    def on_controller(self, seat: int, _change: object = None) -> None:
        if not self._syncing:
            self.session.set_controller(seat, self.controller_inputs[seat].value)

    @handler
    def on_viewer(self, _change: object = None) -> None:
        pass  # redrawn by the screen

    @handler
    def on_preview_toggle(self, _change: object = None) -> None:
        pass  # redrawn by the screen

    @handler
    def on_edit(self, _b: object = None) -> None:
        self.session.edit()

    @handler
    def on_back(self, _b: object = None) -> None:
        self.session.back_to_building()

    def _hint_progress(self, done: int, total: int) -> None:
        self.hint_progress.max = max(1, int(total))
        self.hint_progress.value = max(0, min(int(done), self.hint_progress.max))

    @handler
    def on_hint(self, _b: object = None) -> None:
        if not self.session.user_to_decide():
            self.session.ask_hint()  # refused, with the message why
            return
        self.hint_box.value = ""
        self.hint_progress.value = 0
        self.hint_progress.layout.display = SHOWN
        try:
            self.session.ask_hint(self._hint_progress)
        finally:
            self.hint_progress.layout.display = HIDDEN

    # ---- drawing ------------------------------------------------------------------------------------------
    def _sync_widgets(self) -> None:
        """The seat and view pickers for the game's seats (without triggering their callbacks)."""
        s = self.session
        g = s.game
        if g is None:
            return
        self._syncing = True
        try:
            if len(self.controller_inputs) != len(g.players) or [w.description for w in self.controller_inputs] \
                    != list(g.players):
                self.controller_inputs = []
                for i, p in enumerate(g.players):
                    w = widgets.Dropdown(options=_bot_kinds(), description=p, layout=widgets.Layout(width="auto"),
                                         style={"description_width": "initial"})
                    w.add_class("uu-sb-wide-choice")  # sized to its words (screen.css)
                    w.add_class("uu-sb-controller")
                    w.add_class(f"uu-sb-controller-{i}")
                    w.observe(lambda c, seat=i: self.on_controller(seat, c), names="value")
                    self.controller_inputs.append(w)
                self.controllers_box.children = self.controller_inputs
            for i, w in enumerate(self.controller_inputs):
                w.value = s.controllers[i]
            old = self.viewer_input.value
            opts = [(_("the seat deciding (yours)"), "auto"), (_("everything (all hands open)"), "all")]
            opts += [(p, f"seat:{i}") for i, p in enumerate(g.players)]
            self.viewer_input.options = opts
            self.viewer_input.value = old if old in [v for _, v in opts] else "auto"
            self.auto_input.value = s.auto
        finally:
            self._syncing = False

    def refresh(self) -> None:
        """Redraw from the session (play mode): the pickers, the prompt, the table, the buttons, the feedback,
        the hint and the previews."""
        s = self.session
        tl = s.timeline
        assert tl is not None
        g = tl.game
        self._sync_widgets()
        viewer = self.viewer()
        d = g.pending
        if d is None:
            self.prompt.value = ("<div class='uu-banner uu-result' role='status'>"
                                 + esc(_("Game over: {result}").format(result=result_text(g, viewer))) + "</div>")
        elif s.is_user(d.player):
            prompt = d.prompt.removeprefix(f"{g.players[d.player]}: ")
            where = " " + esc(_("Choose on the table below."))
            if viewer is not None and viewer != d.player:
                # the table is drawn as another seat sees it: the decider's cards are backs there, so no move
                # can be offered on it without showing what that seat may not see
                where = " " + esc(_("The table shows what {name} sees: to move, set View as to the seat deciding "
                                    "or to everything.").format(name=g.players[viewer]))
            self.prompt.value = esc(_("{name} (you) decides: {prompt}")).format(
                name=f"<b>{esc(g.players[d.player])}</b>", prompt=esc(prompt)) + where
        else:
            how = "" if s.auto else " " + esc(_("Press Bot: next."))
            self.prompt.value = esc(_("Waiting for {name} (bot, {kind}).")).format(
                name=f"<b>{esc(g.players[d.player])}</b>", kind=esc(d.kind)) + how
        mover = d.player if d is not None and s.is_user(d.player) else None
        obs, actions = table_view(g, viewer, mover)
        # the moves made forward since the table on show are played back (after an undo, redo or jump, none)
        assert s.play is not None
        self.game_table.show_session(s.play, viewer, actions, observation=obs,
                                     person=lambda seat: s.is_user(seat) or seat == viewer)
        self.bot_button.disabled = not s.bot_to_decide()
        self.hint_button.disabled = not s.user_to_decide()
        if s.message is None:
            self.feedback_box.value = ""
        else:
            kind, text = s.message
            self.feedback_box.value = f"<div class='uu-fb uu-fb-{esc(kind)}' role='status'>{esc(text)}</div>"
        found = s.hint_here()
        self.hint_box.value = "" if found is None else hint_html(found)
        if self.preview_input.value and d is not None:
            previews = preview_all(g, viewer)
            head = (_("What each option would do, up to the next decision (shown: everything):") if viewer is None
                    else _("What each option would do, up to the next decision (shown: what {player} may see):")
                    .format(player=g.players[viewer]))
            self.preview_box.value = f"<div class='uu-why'>{esc(head)}</div>" + "".join(p.html() for p in previews)
        else:
            self.preview_box.value = ""
