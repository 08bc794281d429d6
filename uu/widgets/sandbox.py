"""`SandboxScreen`: the "what if" sandbox — build any legal position, play on from it with undo, redo and
branches, preview every option, ask for a hint, and share the position as scenario YAML.

    screen = SandboxScreen()                          # 3 seats, a Baby in every Stable, building
    screen = SandboxScreen(players=["Ana", "Ben"], hint_seconds=0.8, auto=True)
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
each seat is "you" or a bot (at the start, the seat that must decide is yours and new seats are random
bots; other seats keep what you chose); a user seat's decision is one button per legal action; bots move on "Bot: next"
or by themselves with "Auto-play bots"; Undo / Redo (with auto-play on, undo goes back to the last decision
of a user seat); the tree of moves with the current node highlighted (click a node to jump there; trying
another move after an undo makes a branch). "Show what each move would do" previews every legal action on a
copy (`uu.tutor.preview.preview_all`) as the viewing seat may see it. "Hint" runs `uu.bots.hint.hint` with a
progress bar and shows the win rate of every action. The export box holds the current position as scenario
YAML with a download link, or says why the position cannot be written (`NotExportable`).

Everything shown as HTML is escaped (names are user text); the game and the builder live in Python
attributes, never in widget traits, and every widget value is validated by the builder or the engine.

CSS classes (for browser tests): uu-sandbox-screen; build panel uu-sandbox-build: uu-sb-players-count,
uu-sb-player-name, uu-sb-players-apply, uu-sb-name, uu-sb-card, uu-sb-zone, uu-sb-index, uu-sb-to-zone,
uu-sb-place, uu-sb-remove, uu-sb-move, uu-sb-clear, uu-sb-turn-player, uu-sb-turn-phase, uu-sb-turn-number,
uu-sb-option-<name>, uu-sb-rest, uu-sb-upload, uu-sb-yaml, uu-sb-load, uu-sb-start, uu-sb-position,
inline messages uu-field-msg + uu-msg-<group> (groups: players name cards turn options rest load start), each
error inside a `div.uu-field-error[data-field=<builder field>]`; play panel uu-sandbox-play: uu-sb-controller
(+ uu-sb-controller-<seat>), uu-sb-viewer, uu-sb-prompt, uu-sb-actions with uu-action buttons (also
uu-sb-action), uu-sb-bot-next, uu-sb-auto, uu-sb-undo, uu-sb-redo, uu-sb-hint, uu-sb-hint-progress, uu-sb-hint-table,
uu-sb-preview-toggle, uu-sb-preview, uu-sb-timeline with uu-tl-node (+ uu-tl-node-<id>, uu-tl-current on the
current node), uu-sb-edit, uu-sb-back, uu-sb-feedback; export uu-sb-export: uu-sb-export-text,
uu-sb-download (an anchor `a.uu-download` inside), uu-sb-export-msg; board uu-board, uu-log.
"""

from __future__ import annotations

import logging
import re
import urllib.parse
from collections.abc import Callable
from typing import Any, Literal, get_args, get_origin

import ipywidgets as widgets

from uu.bots import RandomBot
from uu.bots.hint import HintResult, hint
from uu.cards import catalog
from uu.cards.schema import CardType
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.options import Options
from uu.engine.state import PHASES
from uu.render import PHASE_LABELS, cards_html, esc, plural, result_text
from uu.scenario.builder import BuilderError, PositionBuilder
from uu.scenario.export import NotExportable, export_position
from uu.scenario.load import ScenarioFileError
from uu.tutor.preview import preview_all
from uu.tutor.timeline import Timeline
from uu.widgets.board import BoardView
from uu.widgets.common import ScreenBase, make_button, safe
from uu.yamlfile import MAX_BYTES, YamlInputError, decode

try:  # the heuristic bot is optional: without it the seats offer the random bot only
    from uu.bots import HeuristicBot
except ImportError:  # pragma: no cover - depends on the installed bots
    HeuristicBot = None

log = logging.getLogger(__name__)

# The full width of a panel for a text box: a widget's own margins come on top of a width of 100%, which pushed
# the paste and export boxes a few pixels past the panel's right edge
FULL_WIDTH = "calc(100% - 2 * var(--jp-widgets-margin))"
__all__ = ["SandboxScreen"]

DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
BOT_STEP_CAP = 3000  # one click never runs the bots forever
TIMELINE_ROWS = 120  # the tree shows at most this many nodes (a window around the current one)
MAX_UPLOAD = MAX_BYTES  # bytes of YAML a file upload or the paste box may hold (the loaders' own limit)
HIDDEN = "none"
GROUPS = ("players", "name", "cards", "turn", "options", "rest", "load", "start")

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
    kinds = [("you", "you"), ("random bot", "random")]
    if HeuristicBot is not None:
        kinds.append(("heuristic bot", "heuristic"))
    return kinds


def _make_bot(kind: str, seed: int) -> Any:
    if kind == "heuristic" and HeuristicBot is not None:
        return HeuristicBot(seed)
    return RandomBot(seed)


def _group_of(field: str) -> str:
    head = field.split(".", 1)[0]
    if head in ("players", "name", "rest"):
        return head
    if head == "turn":
        return "turn"
    if head == "options":
        return "options"
    return "cards"  # stables.X, hands.X, deck, discard, nursery, zone, card


def _upload_content(value: Any) -> tuple[str, bytes] | None:
    """(file name, bytes) of the first uploaded file, for ipywidgets 8 (a tuple of dicts) and 7 (a dict)."""
    if not value:
        return None
    items = list(value.values()) if isinstance(value, dict) else list(value)
    first = items[0]
    name = first.get("name") or (first.get("metadata") or {}).get("name") or "uploaded file"
    content = first.get("content", b"")
    return str(name), bytes(content)


def _option_tip(key: str, description: str) -> str:
    """The option's meaning in a learner's words: the rule that documents it, else its description without ids."""
    from uu.tutor.rulewords import learner_rules, plain

    rules = learner_rules([f"option.{key.replace('_', '-')}"])
    return rules[0].text if rules else plain(description).removeprefix(": ")


class SandboxScreen(ScreenBase):
    def __init__(self, players: list[str] | None = None, seed: int = 0, auto: bool = True,
                 hint_seconds: float = 0.8, hint_playouts: int | None = None, hint_bot: str = "random",
                 **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-sandbox-screen")
        self.seed = seed
        self.hint_seconds = hint_seconds
        self.hint_playouts = hint_playouts
        self.hint_bot = hint_bot
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
        self.action_buttons: list[tuple[widgets.Button, Action]] = []
        self.node_buttons: dict[int, widgets.Button] = {}
        self._syncing = False

        self.style_html = widgets.HTML(SANDBOX_STYLE)
        self.style_html.add_class("uu-sandbox-style")
        self.title = widgets.HTML("<h2 style='margin:4px 0'>What-if sandbox</h2>"
                                  "<p>Build any position, play on from it, undo and branch, see what each option "
                                  "would do, and share the position as text.</p>")
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

    # ================================================================================================
    # construction
    # ================================================================================================
    def _build_build_panel(self) -> None:
        n = len(self.builder.players)
        self.players_count = widgets.Dropdown(options=list(range(2, 9)), value=n, description="Players",
                                              layout=widgets.Layout(width="10em"))
        self.players_count.add_class("uu-sb-players-count")
        self.name_inputs: list[widgets.Text] = []
        for i in range(8):
            t = widgets.Text(value=DEFAULT_NAMES[i], placeholder=f"seat {i + 1}",
                             layout=widgets.Layout(width="9em"))
            t.add_class("uu-sb-player-name")
            t.add_class(f"uu-sb-player-name-{i}")
            self.name_inputs.append(t)
        self.players_count.observe(self._on_players_count, names="value")
        self.players_apply = make_button("Set players", "uu-sb-players-apply", self.on_players,
                                         tooltip="Rename, add or drop seats (seat order is clockwise)")
        self.name_input = widgets.Text(value=self.builder.name, description="Position",
                                       continuous_update=False, layout=widgets.Layout(width="26em"))
        self.name_input.add_class("uu-sb-name")
        self.name_input.observe(self.on_name, names="value")

        self.card_input = widgets.Dropdown(description="Card", layout=widgets.Layout(width="30em"))
        self.card_input.add_class("uu-sb-card")
        self.card_view = widgets.HTML()
        self.card_view.add_class("uu-sb-card-view")
        self.card_input.observe(lambda _c: self._show_card(), names="value")
        self.zone_input = widgets.Dropdown(description="Zone", layout=widgets.Layout(width="20em"))
        self.zone_input.add_class("uu-sb-zone")
        self.index_input = widgets.BoundedIntText(value=0, min=0, max=999, description="Deck pos.",
                                                  tooltip="0 = the top of the deck",
                                                  layout=widgets.Layout(width="11em"))
        self.index_input.add_class("uu-sb-index")
        self.to_zone_input = widgets.Dropdown(description="Move to", layout=widgets.Layout(width="20em"))
        self.to_zone_input.add_class("uu-sb-to-zone")
        self.place_button = make_button("Place", "uu-sb-place", self.on_place, style="primary",
                                        tooltip="Put a copy of the card into the zone")
        self.remove_button = make_button("Remove", "uu-sb-remove", self.on_remove,
                                         tooltip="Take one copy of the card out of the zone")
        self.move_button = make_button("Move", "uu-sb-move", self.on_move,
                                       tooltip="Move one copy of the card from the zone to 'Move to'")
        self.clear_button = make_button("Empty zone", "uu-sb-clear", self.on_clear,
                                        tooltip="Take every card out of the zone")

        self.turn_player_input = widgets.Dropdown(description="Turn of", layout=widgets.Layout(width="16em"))
        self.turn_player_input.add_class("uu-sb-turn-player")
        self.turn_phase_input = widgets.Dropdown(options=[(PHASE_LABELS[p], p) for p in PHASES],
                                                 description="Phase", layout=widgets.Layout(width="18em"))
        self.turn_phase_input.add_class("uu-sb-turn-phase")
        self.turn_number_input = widgets.BoundedIntText(value=1, min=1, max=10_000, description="Turn no.",
                                                        layout=widgets.Layout(width="10em"))
        self.turn_number_input.add_class("uu-sb-turn-number")
        for w in (self.turn_player_input, self.turn_phase_input, self.turn_number_input):
            w.observe(self.on_turn, names="value")

        self.option_inputs: dict[str, widgets.Widget] = {}
        for key, f in Options.model_fields.items():
            ann = f.annotation
            if get_origin(ann) is Literal:
                w = widgets.Dropdown(options=list(get_args(ann)), description=key)
            elif ann is bool:
                w = widgets.Checkbox(description=key, indent=False)
            elif ann is int:
                w = widgets.IntText(description=key)
            else:  # int | None (win_threshold): empty means "the rules' default"
                w = widgets.Text(description=key, placeholder="default", continuous_update=False)
            w.layout.width = "20em"
            w.tooltip = _option_tip(key, f.description or key)
            w.style.description_width = "9em"
            w.add_class("uu-sb-option")
            w.add_class(f"uu-sb-option-{key.replace('_', '-')}")
            w.observe(lambda c, k=key: self.on_option(k, c), names="value")
            self.option_inputs[key] = w
        self.rest_input = widgets.Dropdown(
            options=[("shuffled into the deck, under the listed cards", "deck"), ("out of the game", "box")],
            description="Other cards", layout=widgets.Layout(width="30em"), style={"description_width": "7em"})
        self.rest_input.add_class("uu-sb-rest")
        self.rest_input.observe(self.on_rest, names="value")

        self.upload = widgets.FileUpload(accept=".yaml,.yml,.txt", multiple=False, description="Open file")
        self.upload.add_class("uu-sb-upload")
        self.upload.observe(self.on_upload, names="value")
        self.yaml_input = widgets.Textarea(placeholder="Paste a scenario (YAML) here, then press Load",
                                           layout=widgets.Layout(width=FULL_WIDTH, height="10em"))
        self.yaml_input.add_class("uu-sb-yaml")
        self.load_button = make_button("Load", "uu-sb-load", self.on_load,
                                       tooltip="Load the pasted scenario's position (its steps are not run)")
        self.start_button = make_button("Play from here", "uu-sb-start", self.on_start, style="success",
                                        tooltip="Make the position live and play on from it")
        self.position_view = widgets.HTML()
        self.position_view.add_class("uu-sb-position")

        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.build_panel = widgets.VBox([
            widgets.HTML("<h3>1. Players</h3>"),
            widgets.HBox([self.players_count, *self.name_inputs, self.players_apply], layout=row),
            self.field_msgs["players"],
            widgets.HBox([self.name_input], layout=row), self.field_msgs["name"],
            widgets.HTML("<h3>2. Cards</h3><p class='uu-why'>Pick a card and a zone, then Place, Remove or Move. "
                         "Babies live in Stables and the Nursery; the deck's position 0 is its top.</p>"),
            widgets.HBox([self.card_input, self.zone_input, self.index_input], layout=row),
            widgets.HBox([self.place_button, self.remove_button, self.clear_button, self.to_zone_input,
                          self.move_button], layout=row),
            self.field_msgs["cards"],
            self.card_view,
            widgets.HTML("<h3>3. Whose turn</h3>"),
            widgets.HBox([self.turn_player_input, self.turn_phase_input, self.turn_number_input], layout=row),
            self.field_msgs["turn"],
            widgets.HTML("<h3>4. Options</h3>"),
            widgets.HBox(list(self.option_inputs.values()), layout=row),
            self.field_msgs["options"],
            widgets.HBox([self.rest_input], layout=row), self.field_msgs["rest"],
            widgets.HTML("<h3>Load a scenario</h3>"),
            widgets.HBox([self.upload, self.load_button], layout=row),
            self.yaml_input,
            self.field_msgs["load"],
            widgets.HTML("<h3>The position</h3>"),
            self.position_view,
            self.field_msgs["start"],
            self.start_button,
        ])
        self.build_panel.add_class("uu-sandbox-build")

    def _build_play_panel(self) -> None:
        self.controllers_box = widgets.HBox(layout=widgets.Layout(flex_flow="row wrap"))
        self.controllers_box.add_class("uu-sb-controllers")
        self.controller_inputs: list[widgets.Dropdown] = []
        self.viewer_input = widgets.Dropdown(description="View as", layout=widgets.Layout(width="24em"))
        self.viewer_input.add_class("uu-sb-viewer")
        self.viewer_input.observe(self.on_viewer, names="value")
        self.prompt = widgets.HTML()
        self.prompt.add_class("uu-sb-prompt")
        self.actions_box = widgets.Box(layout=widgets.Layout(flex_flow="row wrap", align_items="center"))
        self.actions_box.add_class("uu-sb-actions")
        self.actions_box.add_class("uu-actions")
        self.bot_button = make_button("Bot: next", "uu-sb-bot-next", self.on_bot_next, style="info",
                                      tooltip="Let the bot that must decide make one decision")
        self.auto_input = widgets.ToggleButton(value=True, description="Auto-play bots", icon="play",
                                               tooltip="Bots decide by themselves until a seat of yours must")
        self.auto_input.add_class("uu-sb-auto")
        self.auto_input.observe(self.on_auto, names="value")
        self.undo_button = make_button("Undo", "uu-sb-undo", self.on_undo, style="warning",
                                       tooltip="Go back one decision (with auto-play: to your last decision)")
        self.redo_button = make_button("Redo", "uu-sb-redo", self.on_redo,
                                       tooltip="Go forward again along the line you came back from")
        self.hint_button = make_button("Hint", "uu-sb-hint", self.on_hint,
                                       tooltip="Play every option forward many times and compare win rates")
        self.hint_progress = widgets.IntProgress(value=0, min=0, max=1, description="Thinking",
                                                 layout=widgets.Layout(width="24em", display=HIDDEN))
        self.hint_progress.add_class("uu-sb-hint-progress")
        self.hint_box = widgets.HTML()
        self.hint_box.add_class("uu-sb-hint-table")
        self.preview_input = widgets.Checkbox(value=False, description="Show what each move would do",
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
        self.edit_button = make_button("Edit this position", "uu-sb-edit", self.on_edit,
                                       tooltip="Back to building, starting from the position on the table")
        self.back_button = make_button("Back to building", "uu-sb-back", self.on_back,
                                       tooltip="Back to the position you built (the game tree is dropped)")
        self.board_view = BoardView()
        row = widgets.Layout(flex_flow="row wrap", align_items="center")
        self.play_panel = widgets.VBox([
            widgets.HTML("<h3>Who plays each seat</h3>"),
            widgets.HBox([self.controllers_box, self.viewer_input], layout=row),
            self.prompt,
            self.actions_box,
            widgets.HBox([self.bot_button, self.auto_input, self.undo_button, self.redo_button, self.hint_button,
                          self.edit_button, self.back_button], layout=row),
            self.feedback_box,
            self.hint_progress,
            self.hint_box,
            self.preview_input,
            self.preview_box,
            widgets.HTML("<h3>Game tree</h3><p class='uu-why'>Every decision so far; the current one is "
                         "highlighted. Click one to go back to it; a different move from there starts a "
                         "new branch.</p>"),
            self.timeline_note,
            self.timeline_box,
            self.board_view,
        ])
        self.play_panel.add_class("uu-sandbox-play")

    def _build_export_panel(self) -> None:
        self.export_area = widgets.Textarea(disabled=True, layout=widgets.Layout(width=FULL_WIDTH, height="12em"))
        self.export_area.add_class("uu-sb-export-text")
        self.export_link = widgets.HTML()
        self.export_link.add_class("uu-sb-download")
        self.export_msg = widgets.HTML()
        self.export_msg.add_class("uu-sb-export-msg")
        self.export_panel = widgets.VBox([
            widgets.HTML("<h3>Share this position</h3><p class='uu-why'>Scenario YAML: copy it, or download "
                         "it, and load it here or with <code>uu scenario check</code>.</p>"),
            self.export_msg, self.export_area, self.export_link])
        self.export_panel.add_class("uu-sb-export")

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

    def zone_options(self, with_positions: bool = True) -> list[tuple[str, str]]:
        out = []
        for i, p in enumerate(self.builder.players):
            out.append((f"{p}'s Stable", f"stable:{i}"))
            out.append((f"{p}'s hand", f"hand:{i}"))
        out += [("Deck: top", "deck-top"), ("Deck: bottom", "deck-bottom")]
        if with_positions:
            out.append(("Deck: at position…", "deck-at"))
        out += [("Discard pile", "discard"), ("Nursery", "nursery")]
        return out

    def _zone(self, key: Any, as_destination: bool) -> tuple[str, str | None, int | None]:
        """(zone, player, index) for a zone picker value (validated: a client can send anything)."""
        if not isinstance(key, str):
            raise BuilderError("zone", "choose a zone")
        m = re.fullmatch(r"(stable|hand):(\d+)", key)
        if m:
            seat = int(m.group(2))
            if seat >= len(self.builder.players):
                raise BuilderError("zone", "that seat is not in the game; choose another zone")
            return m.group(1), self.builder.players[seat], None
        if key == "deck-top":
            return "deck", None, 0 if as_destination else None
        if key == "deck-bottom":
            return "deck", None, None
        if key == "deck-at":
            return "deck", None, int(self.index_input.value) if as_destination else None
        if key in ("discard", "nursery"):
            return key, None, None
        raise BuilderError("zone", f"{key!r} is not a zone")

    # ================================================================================================
    # build callbacks
    # ================================================================================================
    def _builder_change(self, fn: Callable[[], Any], group: str | None = None) -> bool:
        """Run a builder change; a BuilderError becomes an inline message next to its control."""
        try:
            fn()
        except BuilderError as e:
            field = e.field if group is None or _group_of(e.field) == group else group
            self.field_errors = {field: e.message}
            return False
        self.field_errors = {}
        return True

    def _card(self) -> str:
        card = self.card_input.value
        if not isinstance(card, str) or card not in catalog():
            raise BuilderError("card", "choose a card from the list")
        return card

    @safe
    def on_place(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, index = self._zone(self.zone_input.value, as_destination=True)
            self.builder.place(self._card(), zone, player, index)
        self._builder_change(change)

    @safe
    def on_remove(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, _ = self._zone(self.zone_input.value, as_destination=False)
            self.builder.remove(self._card(), zone, player)
        self._builder_change(change)

    @safe
    def on_move(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, _ = self._zone(self.zone_input.value, as_destination=False)
            to_zone, to_player, index = self._zone(self.to_zone_input.value, as_destination=True)
            self.builder.move(self._card(), zone, to_zone, player, to_player, index)
        self._builder_change(change)

    @safe
    def on_clear(self, _b: Any = None) -> None:
        def change() -> None:
            zone, player, _ = self._zone(self.zone_input.value, as_destination=False)
            self.builder.clear(zone, player)
        self._builder_change(change)

    def _on_players_count(self, _change: Any = None) -> None:
        n = self.players_count.value
        for i, t in enumerate(self.name_inputs):
            t.layout.display = None if i < n else HIDDEN

    @safe
    def on_players(self, _b: Any = None) -> None:
        n = self.players_count.value
        if not isinstance(n, int) or not 2 <= n <= 8:
            self.field_errors = {"players": "choose 2 to 8 players"}
            return
        names = [str(t.value) for t in self.name_inputs[:n]]
        if self._builder_change(lambda: self.builder.set_players(names), "players"):
            self._sync_build_widgets()

    @safe
    def on_name(self, _change: Any = None) -> None:
        if self._syncing:
            return
        self._builder_change(lambda: self.builder.set_name(str(self.name_input.value)), "name")

    @safe
    def on_turn(self, _change: Any = None) -> None:
        if self._syncing:
            return
        self._builder_change(lambda: self.builder.set_turn(
            player=self.turn_player_input.value, phase=self.turn_phase_input.value,
            number=self.turn_number_input.value), "turn")

    @safe
    def on_option(self, key: str, _change: Any = None) -> None:
        if self._syncing:
            return
        value = self.option_inputs[key].value
        if isinstance(self.option_inputs[key], widgets.Text):  # int | None
            text = str(value).strip()
            if not text:
                value = None
            else:
                try:
                    value = int(text)
                except ValueError:
                    self.field_errors = {f"options.{key}": f"{text!r}: a whole number, or empty for the default"}
                    return
        self._builder_change(lambda: self.builder.set_option(key, value), "options")

    @safe
    def on_rest(self, _change: Any = None) -> None:
        if self._syncing:
            return
        self._builder_change(lambda: self.builder.set_rest(self.rest_input.value), "rest")

    def load_yaml(self, text: str, path: str = "pasted YAML") -> bool:
        """Load a scenario's position into the builder; on an error the message (with its line numbers) shows
        next to the load controls and the builder is unchanged. Returns whether it loaded."""
        if len(text.encode("utf-8", "replace")) > MAX_UPLOAD:
            self.load_message = f"{path}: the text is too long (at most {MAX_UPLOAD // 1024} KB)"
            return False
        try:
            b = PositionBuilder.from_yaml(text, path)
        except (ScenarioFileError, BuilderError) as e:
            self.load_message = str(e)
            return False
        self.builder = b
        self.field_errors = {}
        self.load_message = None
        self.mode = "build"
        self.timeline = None
        self.message = None
        self._sync_build_widgets()
        return True

    @safe
    def on_load(self, _b: Any = None) -> None:
        self.load_yaml(str(self.yaml_input.value or ""))

    @safe
    def on_upload(self, _change: Any = None) -> None:
        got = _upload_content(self.upload.value)
        if got is None:
            return
        name, data = got
        self.upload.value = ()  # forget the bytes; uploading the same file again loads it again
        if len(data) > MAX_UPLOAD:
            self.load_message = f"{name}: the file is too large (at most {MAX_UPLOAD // 1024} KB)"
            return
        try:
            text = decode(data, name)
        except YamlInputError as e:
            self.load_message = str(e)
            return
        self.yaml_input.value = text
        self.load_yaml(text, name)

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
            self.field_errors.setdefault("start", "fix the problems marked above, then press Play from here")
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
            raise ValueError("there is no game yet: build a position and press Play from here")
        self.timeline.apply(action)
        self.message = None
        if self.auto_input.value:
            self.run_bots()

    def bot_step(self) -> bool:
        if not self.bot_to_decide():
            return False
        g = self.game
        assert g is not None and g.pending is not None and self.timeline is not None
        self.timeline.apply(self._bot(g.pending.player).choose(g))
        return True

    def run_bots(self) -> int:
        n = 0
        while n < BOT_STEP_CAP and self.bot_step():
            n += 1
        return n

    @safe
    def on_action(self, action: Action) -> None:
        if not self.user_to_decide():
            raise ValueError("it is not a decision of one of your seats now")
        self.apply(action)

    @safe
    def on_bot_next(self, _b: Any = None) -> None:
        if not self.bot_step():
            self.message = ("info", "No bot has a decision to make now.")
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
            raise ValueError("choose you or a bot for each seat")
        self.controllers[seat] = value
        if self.auto_input.value:
            self.run_bots()

    @safe
    def on_viewer(self, _change: Any = None) -> None:
        pass  # redrawn by @safe

    def undo(self) -> None:
        tl = self.timeline
        if tl is None or not tl.can_undo:
            self.message = ("other", "Nothing to undo: this is the starting position.")
            return
        tl.undo()
        if self.auto_input.value:  # back to the last decision of one of your seats
            while self.bot_to_decide() and tl.can_undo:
                tl.undo()
        self.message = None

    def redo(self) -> None:
        tl = self.timeline
        if tl is None or not tl.can_redo:
            self.message = ("other", "Nothing to redo from here.")
            return
        tl.redo()
        if self.auto_input.value:
            while self.bot_to_decide() and tl.can_redo:
                tl.redo()
        self.message = None

    def jump(self, node_id: int) -> None:
        if self.timeline is None:
            raise ValueError("there is no game yet")
        self.timeline.jump(node_id)
        self.message = None

    @safe
    def on_undo(self, _b: Any = None) -> None:
        self.undo()

    @safe
    def on_redo(self, _b: Any = None) -> None:
        self.redo()

    @safe
    def on_jump(self, node_id: int) -> None:
        self.jump(node_id)

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
            self.message = ("other", "A hint is for a decision of one of your seats.")
            return
        self.hint_result = None
        self.hint_box.value = ""
        self.hint_progress.value = 0
        self.hint_progress.layout.display = None
        try:
            self.hint_result = hint(g, playouts=self.hint_playouts, seconds=self.hint_seconds,
                                    progress=self._hint_progress, bot=self.hint_bot, seed=self.seed)
            self.hint_node = self.timeline.current_id if self.timeline is not None else None
        finally:
            self.hint_progress.layout.display = HIDDEN

    # ================================================================================================
    # drawing
    # ================================================================================================
    def _sync_build_widgets(self) -> None:
        """Set the build controls from the builder (without triggering their callbacks)."""
        b = self.builder
        self._syncing = True
        try:
            n = len(b.players)
            self.players_count.value = n
            for i, t in enumerate(self.name_inputs):
                if i < n:
                    t.value = b.players[i]
                elif t.value in b.players or not t.value.strip():
                    t.value = next(x for x in DEFAULT_NAMES + [f"Player {i + 1}"] if x not in b.players)
            self._on_players_count()
            self.name_input.value = b.name
            self.turn_player_input.options = list(b.players)
            self.turn_player_input.value = b.turn.get("player") if b.turn.get("player") in b.players \
                else b.players[0]
            self.turn_phase_input.value = b.turn.get("phase") if b.turn.get("phase") in PHASES else "action"
            self.turn_number_input.value = int(b.turn.get("number") or 1)
            defaults = Options()
            for key, w in self.option_inputs.items():
                v = b.options.get(key, getattr(defaults, key))
                if isinstance(w, widgets.Text):
                    w.value = "" if v is None else str(v)
                else:
                    w.value = v
            self.rest_input.value = b.rest
            zones = self.zone_options()
            for w, opts in ((self.zone_input, zones), (self.to_zone_input, zones)):
                old = w.value
                w.options = opts
                keys = [k for _, k in opts]
                w.value = old if old in keys else keys[0]
            if self.to_zone_input.value == self.zone_input.value and len(zones) > 1:
                self.to_zone_input.value = zones[1][1]
        finally:
            self._syncing = False

    def _sync_card_options(self) -> None:
        b = self.builder
        old = self.card_input.value
        opts = []
        for d in catalog():
            left = b.available(d.name)
            # " · " rather than parentheses: many names end in one already ("Baby Unicorn (Red)")
            if d.type is CardType.BABY:
                n = b.nursery.count(d.name)
                label = f"{d.name} · {'in the Nursery' if n == 1 else f'{n} in the Nursery'}"
            else:
                label = f"{d.name} · {left} of {d.copies} left"
            opts.append((label, d.name))
        self._syncing = True
        try:
            if list(self.card_input.options) != opts:
                self.card_input.options = opts
            names = [v for _, v in opts]
            self.card_input.value = old if old in names else names[0]
        finally:
            self._syncing = False
        self._show_card()

    def _show_card(self) -> None:
        card = self.card_input.value
        self.card_view.value = "" if not isinstance(card, str) or card not in catalog() else \
            f"<div class='uu-why'>Selected:</div>{cards_html([card])}"

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
            opts = [("the seat deciding (yours)", "auto"), ("everything (all hands open)", "all")]
            opts += [(p, f"seat:{i}") for i, p in enumerate(g.players)]
            self.viewer_input.options = opts
            self.viewer_input.value = old if old in [v for _, v in opts] else "auto"
        finally:
            self._syncing = False

    def _msg_html(self, group: str) -> str:
        parts = []
        for field, msg in self.field_errors.items():
            g = "start" if field == "start" else _group_of(field)
            if g != group:
                continue
            name = "" if field == "start" else f"<span class='uu-field-name'>{esc(field)}</span>"
            parts.append(f"<div class='uu-field-error' role='alert' data-field='{esc(field)}'>{name}{esc(msg)}"
                         f"</div>")
        if group == "load" and self.load_message:
            parts.append(f"<div class='uu-field-error' role='alert' data-field='load'>{esc(self.load_message)}"
                         f"</div>")
        if group == "start" and not self.field_errors:
            for field, msg in self.builder.warnings():
                parts.append(f"<div class='uu-field-warning' data-field='{esc(field)}'>"
                             f"<span class='uu-field-name'>{esc(field)}</span>{esc(msg)}</div>")
        return "".join(parts)

    def _position_html(self) -> str:
        b = self.builder
        t = b.turn
        rows = [f"<div><b>{esc(b.name)}</b> · turn {esc(t.get('number'))}, "
                f"<b>{esc(t.get('player'))}</b>'s {esc(PHASE_LABELS.get(t.get('phase'), t.get('phase')))} phase"
                f"</div>"]
        for p in b.players:
            cur = " uu-current" if p == t.get("player") else ""
            rows.append(f"<div class='uu-seat{cur}'><div class='uu-player-head'><b>{esc(p)}</b></div>"
                        f"<div><span class='uu-zone-label'>Stable:</span>{cards_html(b.stables[p])}</div>"
                        f"<div><span class='uu-zone-label'>Hand:</span>{cards_html(b.hands[p])}</div></div>")
        rest = ("the other cards are shuffled under them" if b.rest == "deck"
                else "the other cards are out of the game")
        rows.append(f"<div><span class='uu-zone-label'>Deck, top first:</span>"
                    f"{cards_html(b.deck, 'no cards listed')} <i>({esc(rest)})</i></div>")
        rows.append(f"<div><span class='uu-zone-label'>Discard pile:</span>{cards_html(b.discard)}</div>")
        rows.append(f"<details class='uu-nursery'><summary><span class='uu-zone-label'>Nursery:</span>"
                    f"{plural(len(b.nursery), 'Baby', 'Babies')}</summary>{cards_html(b.nursery)}</details>")
        return "<div class='uu-table'>" + "".join(rows) + "</div>"

    def _tree_rows(self) -> list[tuple[int, int]]:
        """(node id, indent level) in reading order: a node's first child continues its line, later children
        (branches) are indented one more step."""
        tl = self.timeline
        assert tl is not None
        nodes = tl.nodes
        out: list[tuple[int, int]] = []
        stack = [(0, 0)]
        while stack:
            nid, level = stack.pop()
            out.append((nid, level))
            kids = nodes[nid].children
            # LIFO: the first child (the line itself) is pushed last, so its whole line is listed before the
            # branches, which follow it, indented
            for k in reversed(kids[1:]):
                stack.append((k, level + 1))
            if kids:
                stack.append((kids[0], level))
        return out

    def _node_button(self, nid: int) -> widgets.Button:
        b = self.node_buttons.get(nid)
        if b is None:
            assert self.timeline is not None
            n = self.timeline.node(nid)
            if n.parent is None:
                text = "Start: the built position"
            else:
                text = f"{n.depth}. {n.actor}: {n.description}"
                if n.result:
                    text += f" — {n.result}"
            t = n.turn
            tip = f"{text} (turn {t.get('number')}, {t.get('player')}, {t.get('phase')} phase)"
            b = make_button(text, ("uu-tl-node", f"uu-tl-node-{nid}"), tooltip=tip)
            b.layout.width = "auto"
            b.layout.max_width = "100%"
            b.on_click(lambda _b, nid=nid: self.on_jump(nid))
            self.node_buttons[nid] = b
        return b

    def _refresh_timeline(self) -> None:
        tl = self.timeline
        if tl is None:
            self.timeline_box.children = []
            self.timeline_note.value = ""
            return
        rows = self._tree_rows()
        cur = tl.current_id
        pos = next(i for i, (nid, _) in enumerate(rows) if nid == cur)
        lo = max(0, min(pos - TIMELINE_ROWS // 2, len(rows) - TIMELINE_ROWS))
        shown = rows[lo:lo + TIMELINE_ROWS]
        children: list[widgets.Widget] = []
        if lo > 0:
            children.append(widgets.HTML(f"<i>… {plural(lo, 'earlier node')} not shown</i>"))
        for nid, level in shown:
            b = self._node_button(nid)
            if nid == cur:
                b.add_class("uu-tl-current")
                b.button_style = "info"
            else:
                b.remove_class("uu-tl-current")
                b.button_style = ""
            b.layout.margin = f"1px 0 1px {1.5 * level}em"
            children.append(b)
        after = len(rows) - lo - len(shown)
        if after > 0:
            children.append(widgets.HTML(f"<i>… {plural(after, 'later node')} not shown</i>"))
        self.timeline_box.children = children
        branches = tl.branches()
        self.timeline_note.value = (f"<div class='uu-why'>{plural(len(tl), 'node')}, "
                                    f"{plural(len(branches), 'line')} of play; at node {cur} "
                                    f"(move {tl.current.depth}).</div>")

    def _refresh_export(self) -> None:
        text: str | None = None
        error: str | None = None
        if self.mode == "play" and self.game is not None:
            try:
                text = export_position(self.game)
            except NotExportable as e:
                error = str(e)
        else:
            try:
                text = self.builder.to_yaml()
            except BuilderError as e:
                error = f"cannot write this position yet: {e}"
        self.export_text, self.export_error = text, error
        self.export_area.value = text or ""
        self.export_area.layout.display = None if text else HIDDEN
        self.export_msg.value = "" if not error else f"<div class='uu-fb uu-fb-other' role='status'>{esc(error)}</div>"
        if text:
            href = "data:text/yaml;charset=utf-8," + urllib.parse.quote(text, safe="")
            self.export_link.value = (f"<a class='uu-download' download='position.yaml' href='{esc(href)}' "
                                      f"target='_blank'>Download position.yaml</a>")
        else:
            self.export_link.value = ""

    def refresh(self) -> None:
        building = self.mode == "build" or self.timeline is None
        self.build_panel.layout.display = None if building else HIDDEN
        self.play_panel.layout.display = HIDDEN if building else None
        for g in GROUPS:
            self.field_msgs[g].value = self._msg_html(g)
        if building:
            self._sync_card_options()
            self.position_view.value = self._position_html()
            self.action_buttons = []
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
            self.prompt.value = (f"<div class='uu-banner uu-result' role='status'>Game over: "
                                 f"{esc(result_text(g, viewer))}</div>")
        elif self.is_user(d.player):
            prompt = d.prompt.removeprefix(f"{g.players[d.player]}: ")
            self.prompt.value = f"<b>{esc(g.players[d.player])}</b> (you) decides: {esc(prompt)}"
        else:
            how = "" if self.auto_input.value else " Press <b>Bot: next</b>."
            self.prompt.value = (f"Waiting for <b>{esc(g.players[d.player])}</b> (bot, {esc(d.kind)}).{how}")
        self.action_buttons = []
        buttons = []
        if d is not None and self.is_user(d.player):
            for a in d.actions:
                text = g.describe(a)
                b = make_button(text, ("uu-action", "uu-sb-action"), tooltip=text)
                b.layout.width = "auto"
                b.layout.max_width = "100%"
                b.on_click(lambda _b, a=a: self.on_action(a))
                self.action_buttons.append((b, a))
                buttons.append(b)
        self.actions_box.children = buttons
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
            self.hint_box.value = self.hint_result._repr_html_()
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
        self.board_view.show(g, viewer)
