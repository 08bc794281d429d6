"""`SandboxScreen`: the "what if" sandbox — build any legal position, play on from it with undo, redo and
branches, preview every option, ask for a hint, and share the position as scenario YAML.

    screen = SandboxScreen()                          # 3 seats, a Baby in every Stable, building
    screen = SandboxScreen(players=["Ana", "Ben"], hint_seconds=1.0, auto=True)
    screen.load_yaml(text)                            # pasted scenario YAML (errors show with line numbers)
    screen.start()                                    # "Play from here": the built position goes live
    screen.builder, screen.timeline, screen.game, screen.mode   # "build" | "play"

**Build** (a `uu.scenario.builder.PositionBuilder` underneath, which keeps every rule of a legal position):
players and names, a card picker showing the copies left, a zone picker (a player's Stable or hand, the deck's
top, bottom or a position, the discard pile, the Nursery), Place / Remove / Move, whose turn and which phase,
the engine options, where unplaced cards go. A refused change shows the builder's message inline, next to the
control it concerns (keyed by the builder's field names, `field_errors`), never as a traceback. A scenario
can be loaded from a file (FileUpload) or pasted; its errors show with their line numbers.

**Play** (a `uu.tutor.timeline.Timeline`, so every decision — yours and the bots' — is a node of a game tree):
each seat is "you" or a bot (at the start, the seat that must decide is yours and new seats are random bots;
other seats keep what you chose); a user seat's decision is made on the table (`uu.table.widget.TableWidget`:
the cards and places of its legal actions light up, the text list of moves is one toggle away on the table),
drawn as the deciding seat sees it, or with every hand open when "View as" is "everything" (the analyst's view,
`observe(game, None)`, with that seat's moves; the element keys of a move name the card's owner, never the
viewer, so they match either way); bots move on "Bot: next" or by themselves with "Auto-play bots"; Undo / Redo
(with auto-play on, undo goes back to the last decision of a user seat); the tree of moves with the current node
highlighted (click a node to jump there; trying another move after an undo makes a branch). "Show what each move
would do" previews every legal action on a copy (`uu.tutor.preview.preview_all`) as the viewing seat may see it.
"Hint" runs `uu.bots.hint.hint` with a progress bar and shows why its move is best, with every move's estimated
chance to win one click away. The export box holds
the current position as scenario YAML with a download link, or says why the position cannot be written
(`NotExportable`).

Everything shown as HTML is escaped (names are user text); the game and the builder live in Python
attributes, never in widget traits, and every widget value is validated by the builder or the engine.

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
uu-sb-download (an anchor `a.uu-download` inside), uu-sb-export-msg.

The build panel is in `uu.widgets.sandbox_build`, loading and export in `uu.widgets.sandbox_share`, the game
tree in `uu.widgets.sandbox_timeline` (mixins: their controls stay attributes of the screen).
"""

from __future__ import annotations

import logging
from typing import Any, Literal

import ipywidgets as widgets

from uu.bots.hint import DEFAULT_DEALS, DEFAULT_SECONDS, HintResult, hint
from uu.bots.registry import make_bot
from uu.cards import catalog
from uu.cards.schema import CardType
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import _
from uu.render import esc, result_text
from uu.scenario.builder import PositionBuilder
from uu.scenario.export import NotExportable
from uu.table.observation import legal_actions, observe
from uu.tutor.preview import preview_all
from uu.tutor.timeline import Timeline
from uu.widgets.common import ScreenBase, make_button, safe
from uu.widgets.gametable import STALE_CLICK, GameTable
from uu.widgets.sandbox_build import DEFAULT_NAMES, GROUPS, HIDDEN, SHOWN, BuildPanel
from uu.widgets.sandbox_share import SharePanel
from uu.widgets.sandbox_timeline import TimelinePanel
from uu.words.hint import hint_html

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


def _bot_kinds() -> list[tuple[str, str]]:
    return [(_("You"), "you"), (_("Easy bot (random)"), "random"), (_("Normal bot (heuristic)"), "heuristic"),
            (_("Hard bot (plays the hint)"), "hint")]


def _make_bot(kind: str, seed: int) -> Any:
    return make_bot(kind, seed)


def table_view(game: Game, viewer: int | None, mover: int | None) -> tuple[dict[str, Any], list[dict[str, Any]]]:
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
    if obs.get("decision"):
        # the analyst's table with a decision to make: the browser's prompt and the Neigh pile's "pass" follow
        # this flag (a user seat's choice is the user's own here)
        obs["decision"] = {**obs["decision"], "yours": True}
    return obs, legal_actions(game, mover)


class SandboxScreen(BuildPanel, SharePanel, TimelinePanel, ScreenBase):
    def __init__(self, players: list[str] | None = None, seed: int = 0, auto: bool = True,
                 hint_seconds: float | None = DEFAULT_SECONDS, hint_deals: int = DEFAULT_DEALS, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-sandbox-screen")
        self.seed = seed
        self.hint_seconds = hint_seconds
        self.hint_deals = hint_deals
        names = list(players) if players else DEFAULT_NAMES[:3]
        self.builder = PositionBuilder(names)
        if not players:  # like the start of a game: a Baby in every Stable
            babies = [d.name for d in catalog() if d.type is CardType.BABY]
            for p, baby in zip(self.builder.players, babies):
                self.builder.place(baby, "stable", p)
        self.mode: Literal["build", "play"] = "build"
        self.timeline: Timeline | None = None
        self.controllers: list[str] = []
        self.bots: dict[tuple[int, str], Any] = {}
        self.field_errors: dict[str, str] = {}  # builder field -> message, shown inline
        self.load_message: str | None = None
        self.message: tuple[str, str] | None = None  # (kind, text) feedback in play mode
        self.hint_result: HintResult | None = None
        self.hint_node: int | None = None
        self.export_text: str | None = None
        self.export_error: str | None = None
        self.node_buttons: dict[int, widgets.Button] = {}
        self._syncing = False

        self.style_html = widgets.HTML(SANDBOX_STYLE)
        self.style_html.add_class("uu-sandbox-style")
        self.title = widgets.HTML("<h2 style='margin:4px 0'>" + esc(_("What-if sandbox")) + "</h2><p>"
                                  + esc(_("Build any position, play on from it, undo and branch, see what each "
                                          "option would do, and share the position as text.")) + "</p>")
        self.field_msgs: dict[str, widgets.HTML] = {}
        for g in GROUPS:
            w = widgets.HTML()
            w.add_class("uu-field-msg")
            w.add_class(f"uu-msg-{g}")
            self.field_msgs[g] = w
        self._build_build_panel()
        self._build_play_panel()
        self._build_export_panel()
        self.children = [self.style_html, self.title, self.error_box, self.build_panel, self.play_panel,
                         self.export_panel]
        self.auto_input.value = auto
        self._sync_build_widgets()
        self.refresh()

    def take_state(self, old: SandboxScreen) -> None:
        """Carry on from `old` (the same sandbox built in another language: uu/widgets/app.py `set_lang`):
        the same position being built, the same game tree and node, the same seats and settings."""
        self.builder = old.builder
        self.mode = old.mode
        self.timeline = old.timeline
        self.controllers = list(old.controllers)
        self.bots = old.bots
        self.export_text, self.export_error = old.export_text, old.export_error
        self.page_href = getattr(old, "page_href", None)
        self._syncing = True
        try:
            self.auto_input.value = old.auto_input.value
            self.preview_input.value = old.preview_input.value
        finally:
            self._syncing = False
        self._sync_build_widgets()
        self.refresh()
        if self.mode == "play":
            self._sync_play_widgets()
            self.refresh()

    # ================================================================================================
    # construction
    # ================================================================================================
    def _build_play_panel(self) -> None:
        self.controllers_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.controllers_box.add_class("uu-sb-controllers")
        self.controller_inputs: list[widgets.Dropdown] = []
        self.viewer_input = widgets.Dropdown(description=_("View as"), layout=widgets.Layout(width="24em"))
        self.viewer_input.add_class("uu-sb-viewer")
        self.viewer_input.observe(self.on_viewer, names="value")
        self.prompt = widgets.HTML()
        self.prompt.add_class("uu-sb-prompt")
        # the play surface: the seat deciding moves by clicking its lit cards and places
        self.game_table = GameTable(self.on_table_choice, self.on_stale_choice, css=("uu-table", "uu-sb-table"))
        self.table = self.game_table.widget
        self.line_goes_on = False  # the position on the table was reached by moves from the one shown before
        self.bot_button = make_button(_("Bot: next"), "uu-sb-bot-next", self.on_bot_next, style="info",
                                      tooltip=_("Let the bot that must decide make one decision"))
        self.auto_input = widgets.ToggleButton(value=True, description=_("Auto-play bots"), icon="play",
                                               tooltip=_("Bots decide by themselves until a seat of yours must"))
        self.auto_input.add_class("uu-sb-auto")
        self.auto_input.observe(self.on_auto, names="value")
        self.undo_button = make_button(_("Undo"), "uu-sb-undo", self.on_undo, style="warning",
                                       tooltip=_("Go back one decision (with auto-play: to your last decision)"))
        self.redo_button = make_button(_("Redo"), "uu-sb-redo", self.on_redo,
                                       tooltip=_("Go forward again along the line you came back from"))
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
        self.timeline_box = widgets.VBox(layout=widgets.Layout(max_height="22em", overflow="auto"))
        self.timeline_box.add_class("uu-sb-timeline")
        self.timeline_note = widgets.HTML()
        self.edit_button = make_button(_("Edit this position"), "uu-sb-edit", self.on_edit,
                                       tooltip=_("Back to building, starting from the position on the table"))
        self.back_button = make_button(_("Back to building"), "uu-sb-back", self.on_back,
                                       tooltip=_("Back to the position you built (the game tree is dropped)"))
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.play_panel = widgets.VBox([
            widgets.HTML("<h3>" + esc(_("Who plays each seat")) + "</h3>"),
            widgets.HBox([self.controllers_box, self.viewer_input], layout=row),
            self.prompt,
            widgets.HBox([self.bot_button, self.auto_input, self.undo_button, self.redo_button, self.hint_button,
                          self.edit_button, self.back_button], layout=row),
            self.feedback_box,
            self.hint_progress,
            self.hint_box,
            self.table,  # before the previews and the tree: the lit cards are the first thing to act on
            self.preview_input,
            self.preview_box,
            widgets.HTML("<h3>" + esc(_("Game tree")) + "</h3><p class='uu-why'>"
                         + esc(_("Every decision so far; the current one is highlighted. Click one to go back to "
                                 "it; a different move from there starts a new branch.")) + "</p>"),
            self.timeline_note,
            self.timeline_box,
        ])
        self.play_panel.add_class("uu-sandbox-play")

    # ================================================================================================
    # reading
    # ================================================================================================
    @property
    def game(self) -> Game | None:
        """The position on the table (play mode): the timeline's current node. Change it only through the
        screen's buttons (or `timeline.apply`)."""
        return None if self.timeline is None else self.timeline.game

    def user_seats(self) -> list[int]:
        return [i for i, c in enumerate(self.controllers) if c == "you"]

    def is_user(self, seat: int) -> bool:
        return 0 <= seat < len(self.controllers) and self.controllers[seat] == "you"

    def user_to_decide(self) -> bool:
        g = self.game
        return g is not None and g.pending is not None and self.is_user(g.pending.player)

    def bot_to_decide(self) -> bool:
        g = self.game
        return g is not None and g.pending is not None and not self.is_user(g.pending.player)

    def viewer(self) -> int | None:
        """The seat whose view is shown (None: everything)."""
        v = self.viewer_input.value
        g = self.game
        if g is None:
            return None
        if v == "all":
            return None
        if isinstance(v, str) and v.startswith("seat:"):
            seat = int(v[5:])
            return seat if 0 <= seat < len(g.players) else None
        if self.user_to_decide():
            return g.pending.player  # type: ignore[union-attr]
        users = self.user_seats()
        return users[0] if users else None

    # ================================================================================================
    # play: start, moves, bots, tree
    # ================================================================================================
    def start(self) -> bool:
        """"Play from here": the built position goes live (problems are shown inline and nothing starts)."""
        errs = self.builder.errors()
        if errs:
            self.field_errors = {}
            for field, msg in errs:
                self.field_errors.setdefault(field, msg)
            self.field_errors.setdefault("start", _("fix the problems marked above, then press Play from here"))
            return False
        game = self.builder.build()
        self._go_live(game)
        return True

    def _go_live(self, game: Game) -> None:
        self.timeline = Timeline(game)
        self.node_buttons = {}
        n = len(game.players)
        if len(self.controllers) != n:
            self.controllers = ["random"] * n
        if game.pending is not None:  # the decision you set up is yours; other seats keep their players
            self.controllers[game.pending.player] = "you"
        self.bots = {}
        self.field_errors = {}
        self.message = None
        self.hint_result = None
        self.hint_node = None
        self.mode = "play"
        self._sync_play_widgets()
        if self.auto_input.value:
            self.run_bots()

    @safe
    def on_start(self, _b: Any = None) -> None:
        self.start()

    def _bot(self, seat: int) -> Any:
        kind = self.controllers[seat]
        key = (seat, kind)
        if key not in self.bots:
            self.bots[key] = _make_bot(kind, self.seed * 10 + seat)
        return self.bots[key]

    def apply(self, action: Action) -> None:
        """Make a move at the current node (the engine judges it); bots then play on when auto is on."""
        if self.timeline is None:
            raise ValueError(_("there is no game yet: build a position and press Play from here"))
        self.timeline.apply(action)
        self.line_goes_on = True
        self.message = None
        if self.auto_input.value:
            self.run_bots()

    def _play_bots(self, limit: int | None = None) -> int:
        """The one loop (uu.table.replay): bots decide on the game tree until a user seat must."""
        tl = self.timeline
        if tl is None:
            return 0
        n = self.game_table.play_bots(lambda: tl.game, lambda g, seat: self._bot(seat).choose(g), self.is_user,
                                      self.viewer(), apply=tl.apply, continues=True,
                                      **({} if limit is None else {"limit": limit}))
        if n:
            self.line_goes_on = True
        return n

    def bot_step(self) -> bool:
        if not self.bot_to_decide():
            return False
        return self._play_bots(limit=1) == 1

    def run_bots(self) -> int:
        return self._play_bots()

    @safe
    def on_action(self, action: Action) -> None:
        """A move given as an Action (a notebook, a test): judged exactly as a click on the table."""
        if not self.user_to_decide():
            raise ValueError(_("it is not a decision of one of your seats now"))
        self.apply(action)

    @safe
    def on_table_choice(self, index: int) -> None:
        """A move chosen on the table: `index` names one of the current node's legal actions (TableWidget has
        checked it against the actions on show and refused a click made on an older table)."""
        g = self.game
        if g is None or not self.user_to_decide():
            raise ValueError(_("it is not a decision of one of your seats now"))
        self.apply(g.legal_actions[index])

    @safe
    def on_stale_choice(self) -> None:
        self.message = ("info", _(STALE_CLICK))

    # ---- driving it from Python (tests, notebooks) ---------------------------------------------------
    @property
    def moves(self) -> list[Action]:
        """The moves the table offers now, in the order of their ids (none while a bot decides, in build
        mode, or while the table is drawn as a seat other than the one deciding)."""
        g = self.game
        if g is None or self.mode != "play":
            return []
        legal = g.legal_actions
        return [legal[a["id"]] for a in self.table.actions]

    def click_move(self, action: Action | None) -> bool:
        """What a click on the table does for `action` (equal by names): True if the table offered it."""
        g = self.game
        for a in self.table.actions:
            if g is not None and action is not None and g.legal_actions[a["id"]] == action:
                return self.table.choose(a["id"], self.table.version)
        return False

    @safe
    def on_bot_next(self, _b: Any = None) -> None:
        if not self.bot_step():
            self.message = ("info", _("No bot has a decision to make now."))
        else:
            self.message = None

    @safe
    def on_auto(self, _change: Any = None) -> None:
        if self.auto_input.value and self.timeline is not None:
            self.run_bots()

    @safe
    def on_controller(self, seat: int, _change: Any = None) -> None:
        if self._syncing:
            return
        value = self.controller_inputs[seat].value
        if value not in dict((v, k) for k, v in _bot_kinds()):
            raise ValueError(_("choose you or a bot for each seat"))
        self.controllers[seat] = value
        if self.auto_input.value:
            self.run_bots()

    @safe
    def on_viewer(self, _change: Any = None) -> None:
        pass  # redrawn by @safe

    @safe
    def on_preview_toggle(self, _change: Any = None) -> None:
        pass  # redrawn by @safe

    @safe
    def on_edit(self, _b: Any = None) -> None:
        g = self.game
        if g is None:
            return
        try:
            b = PositionBuilder.from_game(g)
        except NotExportable as e:
            self.message = ("illegal", f"This position cannot be edited: {e}")
            return
        self.builder = b
        self.mode = "build"
        self.field_errors = {}
        self._sync_build_widgets()

    @safe
    def on_back(self, _b: Any = None) -> None:
        self.mode = "build"
        self.field_errors = {}
        self._sync_build_widgets()

    # ---- hint ----------------------------------------------------------------------------------------
    def _hint_progress(self, done: int, total: int) -> None:
        self.hint_progress.max = max(1, int(total))
        self.hint_progress.value = max(0, min(int(done), self.hint_progress.max))

    @safe
    def on_hint(self, _b: Any = None) -> None:
        g = self.game
        if g is None or not self.user_to_decide():
            self.message = ("other", _("A hint is for a decision of one of your seats."))
            return
        self.hint_result = None
        self.hint_box.value = ""
        self.hint_progress.value = 0
        self.hint_progress.layout.display = SHOWN
        try:
            self.hint_result = hint(g, deals=self.hint_deals, seconds=self.hint_seconds,
                                    progress=self._hint_progress)
            self.hint_node = self.timeline.current_id if self.timeline is not None else None
        finally:
            self.hint_progress.layout.display = HIDDEN

    # ================================================================================================
    # drawing
    # ================================================================================================

    def _sync_play_widgets(self) -> None:
        g = self.game
        if g is None:
            return
        self._syncing = True
        try:
            if len(self.controller_inputs) != len(g.players) or [w.description for w in self.controller_inputs] \
                    != list(g.players):
                self.controller_inputs = []
                for i, p in enumerate(g.players):
                    w = widgets.Dropdown(options=_bot_kinds(), description=p,
                                         layout=widgets.Layout(width="16em"))
                    w.add_class("uu-sb-controller")
                    w.add_class(f"uu-sb-controller-{i}")
                    w.observe(lambda c, seat=i: self.on_controller(seat, c), names="value")
                    self.controller_inputs.append(w)
                self.controllers_box.children = self.controller_inputs
            kinds = [v for _, v in _bot_kinds()]
            for i, w in enumerate(self.controller_inputs):
                if self.controllers[i] not in kinds:
                    self.controllers[i] = "random"
                w.value = self.controllers[i]
            old = self.viewer_input.value
            opts = [(_("the seat deciding (yours)"), "auto"), (_("everything (all hands open)"), "all")]
            opts += [(p, f"seat:{i}") for i, p in enumerate(g.players)]
            self.viewer_input.options = opts
            self.viewer_input.value = old if old in [v for _, v in opts] else "auto"
        finally:
            self._syncing = False


    def refresh(self) -> None:
        building = self.mode == "build" or self.timeline is None
        self.build_panel.layout.display = SHOWN if building else HIDDEN
        self.play_panel.layout.display = HIDDEN if building else SHOWN
        for g in GROUPS:
            self.field_msgs[g].value = self._msg_html(g)
        if building:
            self._sync_card_options()
            self.position_view.value = self._position_html()
        else:
            self._refresh_play()
        self._refresh_export()

    def _refresh_play(self) -> None:
        tl = self.timeline
        assert tl is not None
        g = tl.game
        self._sync_play_widgets()
        viewer = self.viewer()
        d = g.pending
        if d is None:
            self.prompt.value = ("<div class='uu-banner uu-result' role='status'>"
                                 + esc(_("Game over: {result}").format(result=result_text(g, viewer))) + "</div>")
        elif self.is_user(d.player):
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
            how = "" if self.auto_input.value else " " + esc(_("Press Bot: next."))
            self.prompt.value = esc(_("Waiting for {name} (bot, {kind}).")).format(
                name=f"<b>{esc(g.players[d.player])}</b>", kind=esc(d.kind)) + how
        mover = d.player if d is not None and self.is_user(d.player) else None
        obs, actions = table_view(g, viewer, mover)
        self.game_table.show(g, viewer, actions, obs, continues=self.line_goes_on)
        self.line_goes_on = False
        self.bot_button.disabled = not self.bot_to_decide()
        self.undo_button.disabled = not tl.can_undo
        self.redo_button.disabled = not tl.can_redo
        self.hint_button.disabled = not self.user_to_decide()
        if self.message is None:
            self.feedback_box.value = ""
        else:
            kind, text = self.message
            self.feedback_box.value = f"<div class='uu-fb uu-fb-{esc(kind)}' role='status'>{esc(text)}</div>"
        if self.hint_result is not None and self.hint_node == tl.current_id:
            self.hint_box.value = hint_html(self.hint_result)
        else:
            self.hint_box.value = ""
        if self.preview_input.value and d is not None:
            previews = preview_all(g, viewer)
            who = "everything" if viewer is None else f"what {g.players[viewer]} may see"
            self.preview_box.value = (f"<div class='uu-why'>What each option would do, up to the next decision "
                                      f"(shown: {esc(who)}):</div>" + "".join(p.html() for p in previews))
        else:
            self.preview_box.value = ""
        self._refresh_timeline()
