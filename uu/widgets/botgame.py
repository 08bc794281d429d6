"""A live game between random bots that you step through: the board, whose turn, and the narrated log.

Every string that reaches a `widgets.HTML` goes through `html.escape` (player names are user text, and the log
repeats them). Callbacks never raise into the page: an error is logged and shown as a readable message.
Widget values are validated before use (a client can set any synced trait), and the game itself lives in
plain Python attributes, never in widget traits.
"""

from __future__ import annotations

import functools
import html
import logging
from collections.abc import Callable
from typing import Any

import ipywidgets as widgets
from pydantic import BaseModel, Field, ValidationError

from uu.bots import RandomBot
from uu.engine import Game, GameError, new_game
from uu.engine.rules import explain

log = logging.getLogger(__name__)

DEFAULT_NAMES = ["Ana", "Ben", "Cy", "Dee", "Eli", "Fay", "Gus", "Hal"]
LOG_LINES = 15
TURN_STEP_CAP = 2000  # "play to end of turn" never loops forever, whatever the engine does
# Card colours by type, as the rulebooks describe them.
TYPE_COLOURS = {
    "baby": "#9b59b6", "basic": "#3f51b5", "magical": "#2196f3", "magic": "#2e9d4f",
    "upgrade": "#f08c00", "downgrade": "#d4b000", "instant": "#d32f2f",
}
CSS = """<style>
.uu-botgame .uu-card { display:inline-block; margin:1px 3px 1px 0; padding:1px 6px; border-radius:4px;
  color:#fff; font-size:0.85em; white-space:nowrap; }
.uu-botgame .uu-seat { border:1px solid #ddd; border-radius:6px; padding:4px 8px; margin:4px 0; }
.uu-botgame .uu-seat.uu-current { border-color:#3f51b5; background:#f3f4fd; }
.uu-botgame .uu-log-line summary { cursor:pointer; }
.uu-botgame .uu-why { color:#555; font-size:0.85em; margin:2px 0 4px 1.5em; }
.uu-botgame .uu-error-box { color:#8a1c1c; background:#fdecea; border:1px solid #f5c2c0; padding:6px 10px;
  border-radius:6px; }
</style>"""


class NewGameSettings(BaseModel):
    """What the "New game" controls may ask for (validated: a client can set widget values to anything)."""

    players: int = Field(ge=2, le=8)
    seed: int = Field(ge=0, le=2**31 - 1)


def _card_info() -> dict[str, tuple[str, str]]:
    """Card name -> (type value, effect text in our words); empty if the catalog cannot be read."""
    try:
        from uu.cards import catalog

        return {d.name: (getattr(d.type, "value", str(d.type)), d.text) for d in catalog()}
    except Exception:  # the board still works without colours
        log.exception("could not read the card catalog")
        return {}


def describe_action(game: Game, action: Any) -> str:
    """One readable line for an action, with player names when the engine can give them."""
    describe = getattr(game, "describe", None)
    return describe(action) if callable(describe) else str(action)


def _plural(n: int, word: str, words: str | None = None) -> str:
    return f"{n} {word if n == 1 else (words or word + 's')}"


def _safe(method: Callable[..., Any]) -> Callable[..., Any]:
    """Run a callback; on any error, log it and show a readable message instead of a traceback."""

    @functools.wraps(method)
    def wrapper(self: BotGameView, *args: Any, **kwargs: Any) -> Any:
        try:
            self._set_error(None)
            return method(self, *args, **kwargs)
        except Exception as e:  # shown to the user, logged with the traceback
            log.exception("error in %s", method.__name__)
            kind = "The game refused that" if isinstance(e, GameError) else "Something went wrong"
            self._set_error(f"{kind}: {e}" if str(e) else f"{kind} ({type(e).__name__}).")
            return None
        finally:
            try:
                self.refresh()
            except Exception:  # a broken render must not hide the message above
                log.exception("error while drawing the board")

    return wrapper


class BotGameView(widgets.VBox):
    """Random bots play a full game; "Next decision" advances it by one decision."""

    def __init__(self, players: list[str] | None = None, seed: int = 0, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-botgame")
        self.game: Game | None = None
        self.bot: RandomBot | None = None
        self.decisions = 0
        self.last_action: str | None = None
        self.error: str | None = None
        self._cards = _card_info()

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
            widgets.HTML(CSS + "<h2>Unstable Unicorns: watch the bots play</h2>"),
            widgets.HBox([self.players_input, self.seed_input, self.new_button]),
            widgets.HBox([self.next_button, self.turn_button]),
            self.status, self.error_box, self.board,
            widgets.HTML("<h3>Log</h3><p class='uu-why'>Newest first. "
                         "Click a line to see the rules behind it.</p>"),
            self.log_view,
        ]
        self._start(names, seed)

    def _button(self, text: str, css: str, style: str, handler: Callable[[Any], Any]) -> widgets.Button:
        b = widgets.Button(description=text, button_style=style)
        b.add_class(css)
        b.on_click(handler)
        return b

    # ---- actions -------------------------------------------------------------------------------------
    @_safe
    def _start(self, names: list[str], seed: int) -> None:
        self._new_game(names, seed)

    def _new_game(self, names: list[str], seed: int) -> None:
        self.game = None
        self.decisions = 0
        self.last_action = None
        self.bot = RandomBot(seed)
        self.game = new_game(names, seed=seed)

    def step(self) -> bool:
        """Let the bot take the pending decision and redraw. False when there is no game or it is over."""
        moved = self._step()
        self.refresh()
        return moved

    def _step(self) -> bool:
        g = self.game
        if g is None or g.pending is None or self.bot is None:
            return False
        d = g.pending
        action = self.bot.choose(g)
        text = f"{g.players[d.player]}: {describe_action(g, action)}"
        g.apply(action)
        self.decisions += 1
        self.last_action = text
        return True

    def play_to_end_of_turn(self) -> int:
        """Step until the turn number changes or the game ends; returns the number of decisions taken."""
        g = self.game
        if g is None:
            return 0
        start = g.turn[2]
        n = 0
        while n < TURN_STEP_CAP and self._step():
            n += 1
            if g.turn[2] != start:
                break
        return n

    @_safe
    def on_next(self, _button: Any = None) -> None:
        self._step()

    @_safe
    def on_turn(self, _button: Any = None) -> None:
        self.play_to_end_of_turn()

    @_safe
    def on_new(self, _button: Any = None) -> None:
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

    def _chip(self, name: str) -> str:
        kind, text = self._cards.get(name, ("", ""))
        colour = TYPE_COLOURS.get(kind, "#607d8b")
        return (f"<span class='uu-card' style='background:{colour}' title='{html.escape(text, quote=True)}'>"
                f"{html.escape(name)}</span>")

    def _chips(self, names: list[str]) -> str:
        return "".join(self._chip(n) for n in names) or "<i>empty</i>"

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
            w = g.winner
            result = ("everyone loses" if w == "everyone-loses" else
                      "no winner" if w is None else f"{esc(names[w])} wins")
            head = f"<b>Game over</b>: {result} after {self.decisions} decisions."
        else:
            d = g.pending
            who = names[d.player]
            prompt = d.prompt.removeprefix(f"{who}: ")  # the engine's prompts may start with the name
            head = (f"Turn {number}: <b>{esc(names[current])}</b>, {esc(phase)} phase. "
                    f"Waiting for <b>{esc(who)}</b> ({esc(d.kind)}): {esc(prompt)} "
                    f"<i>({_plural(len(d.actions), 'legal action')})</i>")
        last = f"<br>Last decision: {esc(self.last_action)}" if self.last_action else ""
        self.status.value = f"<p>{head}{last}</p>"

        seats = []
        for p, name in enumerate(names):
            cls = "uu-seat uu-current" if p == current and not over else "uu-seat"
            seats.append(
                f"<div class='{cls}'><b>{esc(name)}</b> · {_plural(g.unicorns(p), 'Unicorn')} · "
                f"{_plural(len(g.hand(p)), 'card')} in hand<br>Stable: {self._chips(g.stable(p))}</div>")
        pile = g.pile
        pile_html = ("<i>empty</i>" if not pile else
                     " → ".join(f"{self._chip(card)} by {esc(names[seat])}" for card, seat in pile))
        self.board.value = (
            "".join(seats)
            + f"<p>Deck: {_plural(g.deck_size, 'card')} · Discard pile: {_plural(len(g.discard), 'card')} · "
              f"Nursery: {_plural(len(g.nursery), 'Baby', 'Babies')}</p>"
            + f"<p>Neigh pile (bottom first): {pile_html}</p>"
        )
        self.log_view.value = "".join(self._log_line(e) for e in reversed(g.log[-LOG_LINES:]))

    def _log_line(self, entry: Any) -> str:
        text = html.escape(entry.text)
        rules = tuple(getattr(entry, "rules", ()) or ())
        if not rules:
            return f"<div class='uu-log-line'>{text}</div>"
        try:
            lines = explain(rules)
        except Exception:  # an unknown id must not hide the log
            log.exception("cannot explain rules %s", rules)
            lines = [f"{r}: (no statement found)" for r in rules]
        why = "".join(f"<div class='uu-why'>{html.escape(line)}</div>" for line in lines)
        ids = html.escape(", ".join(rules))
        return (f"<details class='uu-log-line'><summary>{text} <span class='uu-why'>[{ids}]</span></summary>"
                f"{why}</details>")
