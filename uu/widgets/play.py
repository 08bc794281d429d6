"""`PlayScreen`: a full game against 1-7 bots. The learner is seat 0.

The game is drawn on the table (`uu.table.widget.TableWidget`) as the learner may see it; the learner moves
by clicking the cards and places of their legal actions (the text list of moves is one toggle away on the
table), and the engine judges every move. The bots act one decision at a time with a short visible delay, or one decision per click of "Bot: next" in step
mode. Undo takes back the learner's own moves: a `game.copy()` snapshot is kept before each of them, and undo
is allowed only while no hidden card has been revealed since (`game.state.info_epoch` unchanged); otherwise
it is refused with the reason. The settings are validated (a client can set any widget value), the name is
escaped wherever it is shown, and the game lives in Python attributes, never in widget traits.

CSS classes: uu-play-screen, uu-name, uu-players, uu-targeting, uu-seed, uu-step-mode, uu-new-game,
uu-bot-next, uu-undo, uu-feedback, uu-result, uu-home, uu-prompt, uu-level, uu-hint-button, uu-hint-box, uu-table
(the table: its data-* contract is in uu/table/table.js).

The bots play at the level chosen (`uu.bots.registry.LEVELS`: Easy plays at random, Normal by rules of thumb,
Hard plays the hint engine's best move). "Hint" asks the hint engine (`uu.bots.hint`) about the learner's
decision: one or two sentences on the best move, and the numbers behind it one click away.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any, Literal

import ipywidgets as widgets
from pydantic import BaseModel, Field, ValidationError, field_validator

from uu.bots.hint import hint
from uu.bots.registry import LEVEL_WORDS, LEVELS, Bot, make_bot
from uu.engine import Game, new_game
from uu.engine.actions import Action
from uu.render import esc, result_text
from uu.table.widget import TableWidget
from uu.textcheck import MAX_PLAYER_NAME, text_problem
from uu.widgets.common import ScreenBase, make_button, safe

__all__ = ["PlayScreen", "PlaySettings"]

BOT_NAMES = ["Bramble", "Clover", "Dandelion", "Fern", "Hazel", "Juniper", "Maple", "Nettle", "Sorrel"]
BOT_STEP_CAP = 5000  # one click never runs the bots forever, whatever the engine does
HIDDEN = "none"
# shown: the default display, sent as "" (a trait set back to None never reaches the browser under the
# Pyodide kernel of the static build, docs/static-build.md)
SHOWN = ""
STALE_CLICK = ("That click was made on an older table (the screen had not caught up yet). Nothing was changed: "
               "choose again on the table shown now.")


class PlaySettings(BaseModel):
    """What the settings controls may ask for (validated: a client can set widget values to anything)."""

    name: str = Field(default="You", max_length=MAX_PLAYER_NAME)
    players: int = Field(default=3, ge=2, le=8)
    targeting: Literal["declare-first", "neigh-first"] = "declare-first"
    seed: int = Field(default=0, ge=0, le=2**31 - 1)
    level: Literal["easy", "normal", "hard"] = "easy"

    @field_validator("name")
    @classmethod
    def _name(cls, v: str) -> str:
        problem = text_problem(v, "your name", MAX_PLAYER_NAME)  # no direction overrides in a seat's header
        if problem:
            raise ValueError(problem)
        v = " ".join(v.split())
        return v or "You"


def seat_names(learner: str, players: int) -> list[str]:
    bots = [b for b in BOT_NAMES if b.casefold() != learner.casefold()]
    return [learner, *bots[: players - 1]]


class PlayScreen(ScreenBase):
    LEARNER = 0

    def __init__(self, players: int = 3, seed: int = 0, name: str = "You",
                 targeting: str = "declare-first", delay: float = 0.3, step_mode: bool = False, level: str = "easy",
                 on_home: Callable[[], Any] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-play-screen")
        self.delay = delay
        self.on_home = on_home
        self.game: Game | None = None
        self.bots: list[Bot] = []
        self.snapshots: list[Game] = []
        self.message: tuple[str, str] | None = None  # (kind, text): undo refusals and similar

        self.name_input = widgets.Text(value=name, description="Your name", layout=widgets.Layout(width="18em"))
        self.name_input.add_class("uu-name")
        self.players_input = widgets.Dropdown(options=list(range(2, 9)), value=max(2, min(8, players)),
                                              description="Players", layout=widgets.Layout(width="10em"))
        self.players_input.add_class("uu-players")
        self.targeting_input = widgets.Dropdown(
            options=[("choose targets when playing (Option 1)", "declare-first"),
                     ("choose targets on resolution (Option 2)", "neigh-first")],
            value=targeting, description="Targeting", layout=widgets.Layout(width="30em"))
        self.targeting_input.add_class("uu-targeting")
        self.seed_input = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1, description="Seed",
                                                 layout=widgets.Layout(width="12em"))
        self.seed_input.add_class("uu-seed")
        self.level_input = widgets.Dropdown(options=[(LEVEL_WORDS[k], k) for k in LEVELS],
                                            value=level if level in LEVELS else "easy", description="Bots",
                                            layout=widgets.Layout(width="30em"))
        self.level_input.add_class("uu-level")
        self.step_input = widgets.Checkbox(value=step_mode, description="Step through the bots' moves",
                                           indent=False)
        self.step_input.add_class("uu-step-mode")
        self.step_input.observe(self.on_step_mode, names="value")
        self.new_button = make_button("New game", "uu-new-game", self.on_new, style="success")
        self.home_button = make_button("Home", ("uu-home", "uu-play-home"), self.on_home_click)
        if on_home is None:
            self.home_button.layout.display = HIDDEN

        self.banner = widgets.HTML()
        self.banner.add_class("uu-result")
        self.prompt = widgets.HTML()
        self.prompt.add_class("uu-prompt")
        self.bot_button = make_button("Bot: next", "uu-bot-next", self.on_bot_next, style="info",
                                      tooltip="Let the bot whose turn it is make one decision")
        self.undo_button = make_button("Undo my last move", "uu-undo", self.on_undo, style="warning")
        self.hint_button = make_button("Hint", "uu-hint-button", self.on_hint, style="info",
                                       tooltip="What would a strong player do here, and why?")
        self.hint_box = widgets.HTML()
        self.hint_box.add_class("uu-hint-box")
        self.feedback_box = widgets.HTML()
        self.feedback_box.add_class("uu-feedback")
        self.table = TableWidget(on_choose=self.on_table_choice, on_refused=self.on_stale_choice)
        self.table.add_class("uu-table")

        self.children = [
            widgets.HTML("<h2 style='margin:4px 0'>Play a game against the bots</h2>"),
            widgets.HBox([self.name_input, self.players_input, self.seed_input, self.level_input],
                         layout=widgets.Layout(flex_flow="row wrap")),
            widgets.HBox([self.targeting_input, self.step_input, self.new_button, self.home_button],
                         layout=widgets.Layout(flex_flow="row wrap", align_items="center")),
            self.banner,
            self.prompt,
            widgets.HBox([self.bot_button, self.undo_button, self.hint_button]),
            self.hint_box,
            self.feedback_box,
            self.error_box,
            self.table,
        ]
        self._start()

    # ---- game control ------------------------------------------------------------------------------
    def settings(self) -> PlaySettings:
        try:
            return PlaySettings(name=self.name_input.value, players=self.players_input.value,
                                targeting=self.targeting_input.value, seed=self.seed_input.value,
                                level=self.level_input.value)
        except ValidationError as e:
            raise ValueError("choose 2 to 8 players, a targeting option, a seed from 0 to 2147483647, a level "
                             "(Easy, Normal or Hard) and a name of at most 40 characters without control or "
                             "text-direction characters") from e

    @safe
    def _start(self) -> None:
        self.new_game()

    def new_game(self) -> None:
        s = self.settings()
        self.game = None
        self.snapshots = []
        self.message = None
        names = seat_names(s.name, s.players)
        self.hint_box.value = ""
        self.bots = [make_bot(s.level, s.seed * 10 + p) for p in range(s.players)]
        self.game = new_game(names, seed=s.seed, options={"targeting": s.targeting})
        self.run_bots()

    @property
    def step_mode(self) -> bool:
        return bool(self.step_input.value)

    def bots_to_move(self) -> bool:
        g = self.game
        return g is not None and g.pending is not None and g.pending.player != self.LEARNER

    def bot_step(self) -> bool:
        """One bot decision; False when it is not a bot's turn to decide."""
        if not self.bots_to_move():
            return False
        g = self.game
        assert g is not None and g.pending is not None
        g.apply(self.bots[g.pending.player].choose(g))
        return True

    def run_bots(self) -> int:
        """Bots decide until the learner must (or the game ends); each decision is shown, `delay` apart.
        In step mode nothing happens: "Bot: next" moves them one decision at a time."""
        if self.step_mode:
            return 0
        n = 0
        while n < BOT_STEP_CAP and self.bot_step():
            n += 1
            if self.delay > 0 and self.bots_to_move():
                self.refresh()
                time.sleep(self.delay)
        return n

    # ---- callbacks ---------------------------------------------------------------------------------
    @safe
    def on_new(self, _b: Any = None) -> None:
        self.new_game()

    @safe
    def on_table_choice(self, index: int) -> None:
        """A move chosen on the table: `index` names one of the game's legal actions now (TableWidget has
        refused a click made on an older table)."""
        g = self.game
        if g is None or g.pending is None or g.pending.player != self.LEARNER:
            raise ValueError("it is not your decision now")
        self._move(g.legal_actions[index])

    @safe
    def on_action(self, action: Action) -> None:
        """A move given as an Action (a notebook, a test): judged exactly as a click on the table."""
        self._move(action)

    def _move(self, action: Action) -> None:
        g = self.game
        if g is None or g.pending is None or g.pending.player != self.LEARNER:
            raise ValueError("it is not your decision now")
        snapshot = g.copy()
        g.apply(action)  # the engine judges: an action that is not legal raises and changes nothing
        self.snapshots.append(snapshot)
        self.message = None
        self.hint_box.value = ""
        self.run_bots()

    @safe
    def on_hint(self, _b: Any = None) -> None:
        """The hint for the learner's decision: its sentences, and its table inside a <details> (one click)."""
        g = self.game
        if g is None or g.pending is None or g.pending.player != self.LEARNER:
            self.message = ("info", "A hint is for your own decision: wait until it is your move.")
            return
        if len(g.pending.actions) == 1:
            self.message = ("info", "Only one move is possible here, so there is nothing to weigh.")
            return
        self.hint_box.value = "<div class='uu-hint-wait' role='status'>Thinking…</div>"
        result = hint(g)
        self.hint_box.value = (f"<div class='uu-hint' role='status'><b>Hint</b> {result._repr_html_()}</div>")
        self.message = None

    @safe
    def on_stale_choice(self) -> None:
        self.message = ("info", STALE_CLICK)

    @safe
    def on_bot_next(self, _b: Any = None) -> None:
        if not self.bot_step():
            self.message = ("info", "No bot has a decision to make now.")
            return
        self.message = None

    @safe
    def on_step_mode(self, _change: Any = None) -> None:
        if not self.step_mode:
            self.run_bots()

    @safe
    def on_undo(self, _b: Any = None) -> None:
        g = self.game
        if g is None or not self.snapshots:
            self.message = ("other", "There is no move of yours to undo.")
            return
        snap = self.snapshots[-1]
        if g.state.info_epoch != snap.state.info_epoch:
            self.snapshots.clear()  # the epoch only grows: no older snapshot can be restored either
            self.message = ("illegal", "Undo refused: since your last move a hidden card was revealed (a card "
                            "was drawn, seen or passed between hands, or the deck was shuffled). Going back "
                            "would let you choose again knowing it.")
            return
        self.snapshots.pop()
        self.game = snap
        self.hint_box.value = ""
        self.message = ("right", "Your last move was taken back.")

    @safe
    def on_home_click(self, _b: Any = None) -> None:
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
            self.prompt.value = "<p>No game. Choose the settings, then press <b>New game</b>.</p>"
            self.bot_button.disabled = self.undo_button.disabled = True
            self.feedback_box.value = ""
            self.table.set_table({}, [])
            return
        d = g.pending
        self.table.show(g, self.LEARNER)
        if d is None:
            text = result_text(g, self.LEARNER)
            self.banner.value = (f"<div class='uu-banner' role='status'>Game over: {esc(text)} "
                                 f"<span style='font-weight:400'>(press New game to play again)</span></div>")
            self.prompt.value = ""
        else:
            self.banner.value = ""
            if d.player == self.LEARNER:
                prompt = d.prompt.removeprefix(f"{g.players[d.player]}: ")
                self.prompt.value = f"<b>Your move</b>: {esc(prompt)} Choose on the table below."
            else:
                hint = " Press <b>Bot: next</b>." if self.step_mode else ""
                self.prompt.value = f"Waiting for <b>{esc(g.players[d.player])}</b> ({esc(d.kind)}).{hint}"
        self.bot_button.disabled = not (self.step_mode and self.bots_to_move())
        self.bot_button.layout.display = SHOWN if self.step_mode else HIDDEN
        self.undo_button.disabled = not self.snapshots
        self.hint_button.disabled = d is None or d.player != self.LEARNER
        if self.message is None:
            self.feedback_box.value = ""
        else:
            kind, text = self.message
            self.feedback_box.value = f"<div class='uu-fb uu-fb-{esc(kind)}' role='status'>{esc(text)}</div>"
