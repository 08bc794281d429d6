"""A live game between random bots that you step through: the board, whose turn, and the narrated log.

Every string that reaches a `widgets.HTML` goes through `html.escape` (player names are user text, and the log
repeats them). Callbacks never raise into the page: an error is logged and shown as a readable message.
Widget values are validated before use (a client can set any synced trait), and the game itself lives in
plain Python attributes, never in widget traits.
"""

from __future__ import annotations

import html
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from pydantic import BaseModel, Field, ValidationError

from uu.bots import RandomBot
from uu.engine import Action, Game, new_game
from uu.render import STYLE, board_html, log_html, plural, result_text
from uu.session import Session
from uu.widgets.common import safe

log = logging.getLogger(__name__)

DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
LOG_LINES = 15


class NewGameSettings(BaseModel):
    """What the "New game" controls may ask for (validated: a client can set widget values to anything)."""

    players: int = Field(ge=2, le=8)
    seed: int = Field(ge=0, le=2**31 - 1)


def describe_action(game: Game, action: Action) -> str:
    """One readable line for an action, with the players' names."""
    return game.describe(action)


class BotGameView(widgets.VBox):
    """Random bots play a full game; "Next decision" advances it by one decision."""

    def __init__(self, players: list[str] | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-botgame")
        self.game: Game | None = None
        self.session: Session | None = None  # every seat a bot: the session's loop moves them
        self._turn: int | None = None  # while playing to the end of a turn: that turn (the bots stop after it)
        self.bot: RandomBot | None = None
        self.decisions = 0
        self.last_action: str | None = None
        self.error: str | None = None

        names = list(players) if players else DEFAULT_NAMES[:3]
        self.players_input = widgets.Dropdown(options=list(range(2, 9)), value=max(2, min(8, len(names))),
                                              description="Players", layout=widgets.Layout(width="10em"))
        self.players_input.add_class("uu-players")
        self.seed_input = widgets.BoundedIntText(value=seed, min=0, max=2**31 - 1, description="Seed",
                                                 layout=widgets.Layout(width="14em"))
        self.seed_input.add_class("uu-seed")
        self.new_button = self._button("New game", "uu-new", "", self.on_new)
        self.next_button = self._button("Next decision", "uu-next", "primary", self.on_next)
        self.turn_button = self._button("Play to end of turn", "uu-turn", "", self.on_turn)

        self.status = widgets.HTML()
        self.status.add_class("uu-status")
        self.error_box = widgets.HTML()
        self.error_box.add_class("uu-error")
        self.board = widgets.HTML()
        self.board.add_class("uu-board")
        self.log_view = widgets.HTML()
        self.log_view.add_class("uu-log")

        self.children = [
            widgets.HTML(STYLE + "<h2>Unstable Unicorns: watch the bots play</h2>"),
            widgets.HBox([self.players_input, self.seed_input, self.new_button]),
            widgets.HBox([self.next_button, self.turn_button]),
            self.status, self.error_box, self.board,
            widgets.HTML("<h3>Log</h3><p class='uu-why'>Newest first. "
                         "Click a line to see the rules behind it.</p>"),
            self.log_view,
        ]
        self._start(names, seed)

    def _button(self, text: str, css: str, style: str, handler: Callable[[widgets.Button], object]) -> widgets.Button:
        b = widgets.Button(description=text, button_style=style)
        b.add_class(css)
        b.on_click(handler)
        return b

    # ---- actions -------------------------------------------------------------------------------------
    @safe
    def _start(self, names: list[str], seed: int) -> None:
        self._new_game(names, seed)

    def _new_game(self, names: list[str], seed: int) -> None:
        self.game = None
        self.decisions = 0
        self.last_action = None
        self.bot = RandomBot(seed)
        self.game = new_game(names, seed=seed)
        self.session = Session(self.game, {seat: self._choose for seat in range(len(names))}, undo=False)

    def step(self) -> bool:
        """Let the bot take the pending decision and redraw. False when there is no game or it is over."""
        moved = self._step()
        self.refresh()
        return moved

    def _choose(self, game: Game, seat: int) -> Action | None:
        """The bot's decision at `seat`, or None once the turn being played to its end is over."""
        if self.bot is None or (self._turn is not None and game.turn[2] != self._turn):
            return None
        action = self.bot.choose(game)
        self.decisions += 1
        self.last_action = f"{game.players[seat]}: {describe_action(game, action)}"
        return action

    def _step(self) -> bool:
        return self.session is not None and self.session.run_bots(limit=1) == 1

    def play_to_end_of_turn(self) -> int:
        """Step until the turn number changes or the game ends; returns the number of decisions taken."""
        if self.game is None or self.session is None:
            return 0
        self._turn = self.game.turn[2]
        try:
            return self.session.run_bots()  # the one loop: every seat is a bot, and they stop when the turn changes
        finally:
            self._turn = None

    @safe
    def on_next(self, _button: object = None) -> None:
        self._step()

    @safe
    def on_turn(self, _button: object = None) -> None:
        self.play_to_end_of_turn()

    @safe
    def on_new(self, _button: object = None) -> None:
        try:
            settings = NewGameSettings(players=self.players_input.value, seed=self.seed_input.value)
        except ValidationError as e:
            raise ValueError("choose 2 to 8 players and a seed from 0 to 2147483647") from e
        self._new_game(DEFAULT_NAMES[:settings.players], settings.seed)

    # ---- drawing -------------------------------------------------------------------------------------
    def _set_error(self, message: str | None) -> None:
        self.error = message
        self.error_box.value = ("" if message is None else
                                f"<div class='uu-error-box'>{html.escape(message)}</div>")

    def refresh(self) -> None:
        g = self.game
        if g is None:
            self.status.value = "<p>No game. Choose the players and a seed, then press <b>New game</b>.</p>"
            self.board.value = ""
            self.log_view.value = ""
            self.next_button.disabled = self.turn_button.disabled = True
            return
        esc = html.escape
        names = g.players
        current, phase, number = g.turn
        over = g.pending is None
        self.next_button.disabled = self.turn_button.disabled = over
        if over:
            head = f"<b>Game over</b>: {esc(result_text(g))} after {plural(self.decisions, 'decision')}."
        else:
            d = g.pending
            assert d is not None  # the game is not over
            who = names[d.player]
            prompt = d.prompt.removeprefix(f"{who}: ")  # the engine's prompts may start with the name
            head = (f"Turn {number}: <b>{esc(names[current])}</b>, {esc(phase)} phase. "
                    f"Waiting for <b>{esc(who)}</b> ({esc(d.kind)}): {esc(prompt)} "
                    f"<i>({plural(len(d.actions), 'legal action')})</i>")
        last = f"<br>Last decision: {esc(self.last_action)}" if self.last_action else ""
        self.status.value = f"<p>{head}{last}</p>"
        self.board.value = board_html(g, None)  # bots only: every hand is shown
        self.log_view.value = log_html(g.log, limit=LOG_LINES)
