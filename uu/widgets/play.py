"""`PlayScreen`: a full game against 1-7 bots. The learner is seat 0.

The game is a `uu.session.Session`: the learner's seat is a person's, the others bots. It is drawn on the table
(`uu.widgets.gametable.GameTable`) as the learner may see it; the learner moves by clicking the cards and
places of their legal actions (the text list of moves is one toggle away on the table), and the session checks
the choice once and pushes it. The bots play until the learner must decide (the session's one loop), and the
table plays back each of their decisions as the session recorded it, at the pace the learner picks there (or
skips); in step mode they make one decision per click of "Bot: next". Undo is the session's: the learner's
last move and the bots' after it, allowed only while no hidden card has been revealed since; otherwise it is
refused with the reason. Every game is a new deal unless a seed is fixed under "More settings" (with the targeting option and
step mode). The settings are validated (a client can set any widget value), the name is escaped wherever it
is shown, and the game lives in Python attributes, never in widget traits. The learner's moves since the deal
(`history`, read off the session) are what a reload replays to reopen the game in progress (uu/widgets/tutor_app.py).

Layout (uu/widgets/screen.css): the table, and the panel beside it (a bottom sheet on a phone) with the result,
feedback, hint, the game's buttons and the settings. The table's prompt line is the screen's prompt
(data-role="prompt"); the feedback carries data-role="feedback", "New game" data-role="next" once the game
is over. CSS classes: uu-play-screen, uu-name, uu-players, uu-targeting, uu-seed, uu-fixed-seed,
uu-step-mode, uu-more-settings, uu-new-game, uu-bot-next, uu-undo, uu-feedback, uu-result, uu-home,
uu-prompt, uu-level, uu-hint-button, uu-hint-box, uu-table (the table: its data-* contract is in
uu/table/table.js), uu-save-game, uu-save-link, uu-review-game.

"Save this game" offers the game record (`uu.scenario.record.record_of`: the deal and every move, read off the
game's move stack) as a JSON download, and once the game is over "Review my game" opens the review
(`on_review`, or in the panel when the screen stands alone). The hint's move lights up on the table (its
`hint` trait).

The bots play at the level chosen (`uu.bots.roster.LEVELS`: Easy plays at random, Normal by rules of thumb,
the default, Hard plays the hint engine's best move). "Hint" asks the hint engine (`uu.bots.hint`) about the
learner's decision: one or two sentences on the best move, and the numbers behind it one click away.
"""

from __future__ import annotations

import base64
import random
import time
from collections.abc import Callable
from typing import Any, Literal

import ipywidgets as widgets
from pydantic import BaseModel, Field, ValidationError, field_validator

from uu.bots.roster import LEVEL_WORDS, LEVELS, Bot, make_bot
from uu.engine import Game, new_game
from uu.engine.actions import Action
from uu.i18n import N_, _
from uu.render import esc
from uu.scenario.record import GameRecord, record_of
from uu.session import ChoiceRefused, Session, UndoRefused
from uu.session.session import BOT_MOVES_AT_ONCE, NOTHING_TO_UNDO
from uu.textcheck import MAX_PLAYER_NAME, text_problem
from uu.widgets.common import ScreenBase, make_button, safe
from uu.widgets.endgame import end_card_html
from uu.widgets.gametable import STALE_CLICK, GameTable
from uu.widgets.review import ReviewScreen
from uu.words.hint_text import hint_html

__all__ = ["BOT_NAMES", "PlayScreen", "PlaySettings", "seat_names"]

# after this long without a table, what the bots did so far is drawn while they go on thinking (a Hard bot at
# a table of six can take twenty seconds for the others' moves in all)
SHOW_BOTS_AFTER_S = 1.0

# the bot levels as the play screen words them (marked here, translated when the screen is made)
LEVEL_LABELS = {"easy": N_("Easy: plays any legal move at random"),
                "normal": N_("Normal: plays by rules of thumb"),
                "hard": N_("Hard: thinks ahead like the hint")}
BOT_NAMES = ["Bramble", "Clover", "Dandelion", "Fern", "Hazel", "Juniper", "Maple", "Nettle", "Sorrel"]
HIDDEN = "none"
# shown: the default display, sent as "" (a trait set back to None never reaches the browser under the
# Pyodide kernel of the static build, docs/static-build.md)
SHOWN = ""
MAX_SEED = 2**31 - 1
DEFAULT_NAME = "You"  # the engine's name for the learner's seat (uu.engine.movetext); shown translated


class PlaySettings(BaseModel):
    """What the settings controls may ask for (validated: a client can set widget values to anything).
    `seed` None: a new deal every game."""

    name: str = Field(default=DEFAULT_NAME, max_length=MAX_PLAYER_NAME)
    players: int = Field(default=3, ge=2, le=8)
    targeting: Literal["declare-first", "neigh-first"] = "declare-first"
    seed: int | None = Field(default=None, ge=0, le=MAX_SEED)
    level: Literal["easy", "normal", "hard"] = "normal"

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        problem = text_problem(v, "your name", MAX_PLAYER_NAME)  # no direction overrides in a seat's header
        if problem:
            raise ValueError(problem)
        v = " ".join(v.split())
        return v or DEFAULT_NAME


def seat_names(learner: str, players: int) -> list[str]:
    bots = [b for b in BOT_NAMES if b.casefold() != learner.casefold()]
    return [learner, *bots[: players - 1]]


class PlayScreen(ScreenBase):
    LEARNER = 0

    def __init__(self, players: int = 3, seed: int | None = None, name: str = DEFAULT_NAME,
                 targeting: str = "declare-first", delay: float = 0.9, step_mode: bool = False,
                 level: str = "normal", on_home: Callable[[], object] | None = None,
                 on_review: Callable[[GameRecord, int], object] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-play-screen")
        self.add_class("uu-game-screen")
        self.on_home = on_home
        self.on_review = on_review
        self.session: Session | None = None
        self.bots: list[Bot] = []
        self.deal_seed = 0  # the seed of the game on the table
        self.message: tuple[str, str] | None = None  # (kind, text): undo refusals and similar

        # the default seat name is a word of the interface: shown in the learner's language ("Toi", "Du")
        self.name_input = widgets.Text(value=_(DEFAULT_NAME) if name == DEFAULT_NAME else name,
                                       description=_("Your name"), layout=widgets.Layout(width="16em"))
        self.name_input.add_class("uu-name")
        self.players_input = widgets.Dropdown(options=list(range(2, 9)), value=max(2, min(8, players)),
                                              description=_("Players"), layout=widgets.Layout(width="10em"))
        self.players_input.add_class("uu-players")
        self.level_input = widgets.Dropdown(options=[(_(LEVEL_LABELS[k]) if k in LEVEL_LABELS else LEVEL_WORDS[k], k) for k in LEVELS],
                                            value=level if level in LEVELS else "normal", description=_("Bots"),
                                            layout=widgets.Layout(width="100%", max_width="26em"))
        self.level_input.add_class("uu-level")
        self.targeting_input = widgets.Dropdown(
            options=[(_("choose targets when playing (Option 1)"), "declare-first"),
                     (_("choose targets on resolution (Option 2)"), "neigh-first")],
            value=targeting, description=_("Targeting"), layout=widgets.Layout(width="100%", max_width="26em"))
        self.targeting_input.add_class("uu-targeting")
        self.fixed_seed_input = widgets.Checkbox(value=seed is not None, description=_("Same deal every game"),
                                                 indent=False)
        self.fixed_seed_input.add_class("uu-fixed-seed")
        self.seed_input = widgets.BoundedIntText(value=seed or 0, min=0, max=MAX_SEED, description=_("Seed"),
                                                 layout=widgets.Layout(width="12em"))
        self.seed_input.add_class("uu-seed")
        self.step_input = widgets.Checkbox(value=step_mode, description=_("Step through the bots' moves"),
                                           indent=False)
        self.step_input.add_class("uu-step-mode")
        self.step_input.observe(self.on_step_mode, names="value")
        self.new_button = make_button(_("New game"), "uu-new-game", self.on_new, style="success")
        self.home_button = make_button(_("Home"), ("uu-home", "uu-play-home"), self.on_home_click)
        if on_home is None:
            self.home_button.layout.display = HIDDEN
        self.more_button = widgets.ToggleButton(value=False, description=_("More settings"),
                                                tooltip=_("Seed, targeting option and step mode"))
        self.more_button.add_class("uu-more-settings")
        self.more_box = widgets.VBox([self.fixed_seed_input, self.seed_input, self.targeting_input, self.step_input],
                                     layout=widgets.Layout(display=HIDDEN))
        self.more_box.add_class("uu-more-box")
        self.more_button.observe(self._on_more, names="value")

        self.banner = widgets.HTML()
        self.banner.add_class("uu-result")
        self.prompt = widgets.HTML()
        self.prompt.add_class("uu-prompt")
        self.bot_button = make_button(_("Bot: next"), "uu-bot-next", self.on_bot_next, style="info",
                                      tooltip=_("Let the bot whose turn it is make one decision"))
        self.undo_button = make_button(_("Undo my last move"), "uu-undo", self.on_undo, style="warning")
        self.hint_button = make_button(_("Hint"), "uu-hint-button", self.on_hint, style="info",
                                       tooltip=_("What would a strong player do here, and why?"))
        self.hint_box = widgets.HTML()
        self.hint_box.add_class("uu-hint-box")
        self.save_button = make_button(_("Save this game"), "uu-save-game", self.on_save,
                                       tooltip=_("Download this game (its start and every move) to review it later"))
        self.save_link = widgets.HTML()
        self.save_link.add_class("uu-save-link")
        self.review_button = make_button(_("Review my game"), "uu-review-game", self.on_review_click, style="success",
                                         tooltip=_("Grade each of your decisions and find the turning points"))
        self.review_box = widgets.VBox()
        self.feedback_box = widgets.HTML()
        self.feedback_box.add_class("uu-feedback")
        self.game_table = GameTable(self.on_table_choice, self.on_stale_choice)
        self.table = self.game_table.widget
        self.table.pace = max(0, int(delay * 1000))

        head = widgets.HTML("<h2 class='uu-lesson-h'>" + esc(_("Play a game")) + "</h2>")
        buttons = widgets.HBox([self.bot_button, self.undo_button, self.hint_button, self.review_button,
                                self.new_button, self.save_button, self.home_button])
        buttons.add_class("uu-panel-buttons")
        settings = widgets.VBox([self.name_input, self.players_input, self.level_input, self.more_button,
                                 self.more_box])
        settings.add_class("uu-settings")
        self.panel = widgets.VBox([head, self.banner, self.prompt, self.feedback_box, self.hint_box,
                                   self.error_box, buttons, self.save_link, self.review_box, settings])
        self.panel.add_class("uu-panel")
        self.children = [self.panel, self.table]
        self._start()

    # ---- game control ------------------------------------------------------------------------------
    def settings(self) -> PlaySettings:
        try:
            # the translated default ("Toi") is the engine's "You" again, so a change of language follows it
            name = DEFAULT_NAME if self.name_input.value.strip() == _(DEFAULT_NAME) else self.name_input.value
            return PlaySettings(name=name, players=self.players_input.value,
                                targeting=self.targeting_input.value,
                                seed=self.seed_input.value if self.fixed_seed_input.value else None,
                                level=self.level_input.value)
        except ValidationError as e:
            raise ValueError(_("choose 2 to 8 players, a targeting option, a seed from 0 to 2147483647, a level "
                               "(Easy, Normal or Hard) and a name of at most 40 characters without control or "
                               "text-direction characters")) from e

    @safe
    def _start(self) -> None:
        self.new_game()

    def new_game(self, seed: int | None = None, run: bool = True) -> None:
        """A new game with the settings: the fixed seed, else `seed`, else a new deal (`run`: the bots then
        move until the learner is asked)."""
        s = self.settings()
        if s.seed is not None:
            seed = s.seed
        elif seed is None:
            seed = random.SystemRandom().randrange(MAX_SEED)
        self.session = None
        self.message = None
        self.deal_seed = seed
        names = seat_names(s.name, s.players)
        self._clear_hint()
        self.save_link.value = ""
        self.review_box.children = ()
        self.bots = [make_bot(s.level, seed * 10 + p) for p in range(s.players)]
        game = new_game(names, seed=seed, options={"targeting": s.targeting})
        self.session = Session(game, {p: self._choose for p in range(1, s.players)})
        if run:
            self.run_bots()

    def resume(self, seed: int, moves: list[Action], every_seat: bool = False) -> bool:
        """The game with this deal replayed through `moves` (a reload); False, and a fresh deal of the same
        seed, when they no longer fit. `every_seat`: the moves are every seat's answers in order, the bots'
        included, as the browser keeps them now (a Hard bot thinks against the clock, so asked again it may
        answer otherwise: the learner came back to a game they had not seen); else the learner's only, the bots
        asked again (what saves made before kept)."""
        self.new_game(seed, run=not every_seat)
        try:
            for action in moves:
                if every_seat:
                    assert self.session is not None
                    self.session.push(action)
                    continue
                while self.bot_step():
                    pass
                self._move(action, run=False)
            self.run_bots()
            return True
        except Exception:
            self.new_game(seed)
            return False

    @property
    def game(self) -> Game | None:
        return None if self.session is None else self.session.game

    @property
    def history(self) -> list[Action]:
        """The learner's moves since the deal (undone ones not counted): what a reload replays."""
        return [] if self.session is None else self.session.moves_of(self.LEARNER)

    @property
    def undo_marks(self) -> list[tuple[int, int]]:
        """Before each of the learner's moves that undo may still take back: (move count, epoch)."""
        return [] if self.session is None else self.session.undo_marks(self.LEARNER)

    @property
    def step_mode(self) -> bool:
        return bool(self.step_input.value)

    def bots_to_move(self) -> bool:
        g = self.game
        return g is not None and g.pending is not None and g.pending.player != self.LEARNER

    def _choose(self, game: Game, seat: int) -> Action:
        return self.bots[seat].choose(game)

    def bot_step(self) -> bool:
        """One bot decision; False when it is not a bot's turn to decide."""
        if not self.bots_to_move() or self.session is None:
            return False
        self.session.run_bots(limit=1)
        return True

    def run_bots(self) -> int:
        """Bots decide until the learner must (or the game ends); the table plays their moves back. In step
        mode nothing happens: "Bot: next" moves them one decision at a time."""
        if self.step_mode or self.session is None:
            return 0
        made = 0
        shown = time.monotonic()
        while made < BOT_MOVES_AT_ONCE and self.session.run_bots(limit=1):
            made += 1
            # Hard bots at a table of five or six think for many seconds in all: what they did so far goes to
            # the browser, which plays it back while they go on, instead of a still table until the last one
            if time.monotonic() - shown > SHOW_BOTS_AFTER_S and self.bots_to_move():
                self.game_table.show_session(self.session, self.LEARNER)
                shown = time.monotonic()
        return made

    # ---- callbacks ---------------------------------------------------------------------------------
    @safe
    def on_new(self, _b: object = None) -> None:
        self.new_game()

    def _on_more(self, change: dict[str, Any]) -> None:
        self.more_box.layout.display = SHOWN if change["new"] else HIDDEN

    @safe
    def on_table_choice(self, index: int) -> None:
        """A move chosen on the table: `index` names one of the game's legal actions now (TableWidget has
        refused a click made on an older table)."""
        if self.session is None:
            raise ValueError("there is no game")
        try:
            self.session.choose(self.LEARNER, index, self.game_table.drawn_version)
        except ChoiceRefused as e:  # made on a table the game has moved on from: said, nothing changed
            self.message = ("info", _(str(e)))
            return
        self._after_move()

    @safe
    def on_action(self, action: Action) -> None:
        """A move given as an Action (a notebook, a test): judged exactly as a click on the table."""
        self._move(action)

    def _move(self, action: Action, run: bool = True) -> None:
        if self.session is None or self.session.decider != self.LEARNER:
            raise ValueError("it is not your decision now")
        self.session.push(action)  # the engine judges: an action that is not legal raises and changes nothing
        self._after_move(run)

    def _after_move(self, run: bool = True) -> None:
        self.message = None
        self._clear_hint()
        if run:
            self.run_bots()

    @safe
    def on_hint(self, _b: object = None) -> None:
        """The hint for the learner's decision: its sentences, and its table inside a <details> (one click)."""
        g = self.game
        if g is None or g.pending is None or g.pending.player != self.LEARNER:
            self.message = ("info", _("A hint is for your own decision: wait until it is your move."))
            return
        if len(g.pending.actions) == 1:
            self.message = ("info", _("Only one move is possible here, so there is nothing to weigh."))
            return
        self.hint_box.value = "<div class='uu-hint-wait' role='status'>" + esc(_("Thinking…")) + "</div>"
        assert self.session is not None
        result = self.session.hint(self.LEARNER)
        self.hint_box.value = ("<div class='uu-hint' role='status'><b>" + esc(_("Hint")) + f"</b> {hint_html(result)}</div>")
        # light the hinted move on the table (with the other when the estimate cannot tell them apart)
        lit = [result.best] if result.clear else result.simulated[:2]
        self.table.hint = [r.index for r in lit]
        self.message = None

    @property
    def record(self) -> GameRecord | None:
        """The game on the table as a game record (its deal and every move since, undone moves not counted)."""
        return None if self.game is None else record_of(self.game)

    def _clear_hint(self) -> None:
        self.hint_box.value = ""
        self.table.hint = []

    @safe
    def on_save(self, _b: object = None) -> None:
        """Offer the game record as a download (a data: link; nothing is stored on the server)."""
        if self.game is None:
            self.message = ("info", _("There is no game to save yet: press New game."))
            return
        record = record_of(self.game)
        data = base64.b64encode(record.to_json().encode("utf-8")).decode("ascii")
        name = f"uu-game-{self.deal_seed}-{len(record.moves)}-moves.json"
        self.save_link.value = (f"<a class='uu-save-download' download='{esc(name)}' "
                                f"href='data:application/json;base64,{data}'>"
                                + esc(_("Download {file}").format(file=name)) + "</a> <span class='uu-why'>"
                                + esc(_("(a game record: open it later with the command {command})")).format(
                                    command="<code>uu review FILE</code>") + "</span>")

    @safe
    def on_review_click(self, _b: object = None) -> None:
        """The review of the learner's game (when it is over)."""
        if self.game is None or not self.game.is_over:
            self.message = ("info", _("The review is for a finished game: play it to the end first."))
            return
        record = record_of(self.game)
        if self.on_review is not None:
            self.on_review(record, self.LEARNER)
            return
        self.review_box.children = (ReviewScreen(record, self.LEARNER),)

    @safe
    def on_stale_choice(self) -> None:
        self.message = ("info", _(STALE_CLICK))

    @safe
    def on_bot_next(self, _b: object = None) -> None:
        if not self.bot_step():
            self.message = ("info", _("No bot has a decision to make now."))
            return
        self.message = None

    @safe
    def on_step_mode(self, _change: object = None) -> None:
        if not self.step_mode:
            self.run_bots()

    @safe
    def on_undo(self, _b: object = None) -> None:
        if self.session is None:
            self.message = ("other", _(NOTHING_TO_UNDO))
            return
        try:
            self.session.undo(self.LEARNER)  # the learner's move and the bots' after it, taken back exactly
        except UndoRefused as e:
            self.message = ("illegal" if e.revealed else "other", _(str(e)))
            return
        self._clear_hint()
        self.message = ("right", _("Your last move was taken back."))

    @safe
    def on_home_click(self, _b: object = None) -> None:
        if self.on_home is not None:
            self.on_home()

    # ---- driving it from Python (tests, notebooks) ---------------------------------------------------
    @property
    def moves(self) -> list[Action]:
        """The moves the table offers now, in the order of their ids (none while a bot decides)."""
        if self.game is None:
            return []
        legal = self.game.legal_actions
        return [legal[a["id"]] for a in self.table.actions]

    def click_move(self, action: Action | None) -> bool:
        """What a click on the table does for `action` (equal by names): True if the table offered it."""
        for a in self.table.actions:
            if self.game is not None and action is not None and self.game.legal_actions[a["id"]] == action:
                return self.table.choose(a["id"], self.table.version)
        return False

    # ---- drawing -----------------------------------------------------------------------------------
    def refresh(self) -> None:
        """Redraw from the game. Only what changed is sent (a widget value set to what it already is sends
        nothing); the table is one message with the observation and the learner's moves together."""
        g = self.game
        if g is None:
            self.banner.value = ""
            self.prompt.value = "<p>" + esc(_("No game. Choose the settings, then press New game.")) + "</p>"
            self.bot_button.disabled = self.undo_button.disabled = True
            self.feedback_box.value = ""
            self.game_table.show(None, self.LEARNER)
            return
        d = g.pending
        assert self.session is not None
        self.game_table.show_session(self.session, self.LEARNER)
        if d is None:
            self.banner.value = end_card_html(g, self.LEARNER, self.history)
            self.prompt.value = ""
        else:
            self.banner.value = ""
            if d.player == self.LEARNER or not self.step_mode:
                self.prompt.value = ""  # the table's prompt line says it
            else:
                self.prompt.value = esc(_("Waiting for {name}. Press Bot: next.")).format(
                    name=f"<b>{esc(g.players[d.player])}</b>")
        self.bot_button.disabled = not (self.step_mode and self.bots_to_move())
        self.bot_button.layout.display = SHOWN if self.step_mode else HIDDEN
        self.undo_button.disabled = not self.undo_marks
        self.undo_button.layout.display = HIDDEN if d is None else SHOWN
        self.hint_button.disabled = d is None or d.player != self.LEARNER
        self.hint_button.layout.display = HIDDEN if d is None else SHOWN
        self.review_button.layout.display = SHOWN if d is None else HIDDEN
        over = d is None
        self.new_button.button_style = "success"
        if over:
            self.new_button.add_class("uu-role-next")
        else:
            self.new_button.remove_class("uu-role-next")
        if self.message is None:
            self.feedback_box.value = ""
        else:
            kind, text = self.message
            self.feedback_box.value = (f"<div class='uu-fb uu-fb-{esc(kind)}' role='status' data-role='feedback' "
                                       "tabindex='0'>"
                                       f"{esc(text)}</div>")
