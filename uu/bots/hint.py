"""Hints as data: the candidates of the pending decision with their estimated chance to win and its 95% interval,
whether the estimate separates the best, and the reason a player would give (`uu.bots.explain`).

`hint(game)` asks the hint engine (`uu.bots.search`: short simulated games on determinized deals with the
heuristic bot, ended by a learned position model) for the decision's candidates. The words a learner reads
(the reason first, the numbers one click away) are made from this result by `uu.words.hint`: the bots layer
never speaks.

**Honest about doubt.** `clear` is true exactly when the best candidate's interval lies above the second's
(`low > high`); before giving up on separating them the search spends more simulated games on the closest
candidates while the time cap allows. When it is not clear, `thumb` names a rule of thumb to choose.

**Hidden cards are never read**: every simulated game starts from a determinization (`Game.resample`), so two
positions that differ only in cards the player cannot see give the same hint for the same seed.

**Budget.** At most `deals` rounds, then at most `extra` more deals for the closest candidates, and unless
`seconds` is None, nothing new once the time would pass `seconds` (the first round always runs). The seed
defaults to the game's decision count, so the same position asked twice gives the same hint, and a bot that
plays the hint (`uu.bots.search.SearchBot`) plays exactly what the app shows first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from uu.bots.explain import Reason, Thumb, reason, rule_of_thumb
from uu.bots.search import DEFAULT_DEALS, DEFAULT_SECONDS, DEFAULT_WIDTH, MAX_EXTRA_DEALS, Search, search
from uu.engine.actions import Action
from uu.engine.game import Game

__all__ = ["DEFAULT_DEALS", "DEFAULT_SECONDS", "HintResult", "HintRow", "hint", "hint_from_search"]


@dataclass
class HintRow:
    """One legal action: its estimated chance to win after it, with a 95% interval (None: not simulated)."""

    action: Action
    move: str  # the engine's description of the move
    chance: float | None
    low: float | None
    high: float | None
    games: int  # simulated games
    index: int  # position among the decision's legal actions
    wins: int = 0


@dataclass
class HintResult:
    player: int
    players: list[str]  # the seat names, as the table shows them
    decision: str  # the decision kind
    prompt: str
    rows: list[HintRow]  # best first; the actions not simulated last
    clear: bool  # the best's interval lies above the second's
    reason: Reason  # why the best
    alt: Reason | None  # why the runner-up (what it would do instead)
    thumb: Thumb | None  # when not clear: a rule of thumb to choose
    games: int  # simulated games in all
    seconds: float
    seed: int
    deals: int
    horizon: int

    @property
    def player_name(self) -> str:
        return self.players[self.player]

    @property
    def best(self) -> HintRow:
        return self.rows[0]

    @property
    def simulated(self) -> list[HintRow]:
        return [r for r in self.rows if r.games]

    def to_dict(self) -> dict[str, Any]:
        """The numbers, JSON-able (the words are `uu.words.hint.hint_json`)."""
        return {
            "player": self.player_name, "decision": self.decision, "clear": self.clear, "games": self.games,
            "seconds": round(self.seconds, 3), "seed": self.seed, "deals": self.deals, "reason": self.reason.kind,
            "thumb": self.thumb,
            "candidates": [{"move": r.move, "index": r.index, "games": r.games,
                            "chance": None if r.chance is None else round(r.chance, 4),
                            "low": None if r.low is None else round(r.low, 4),
                            "high": None if r.high is None else round(r.high, 4)} for r in self.rows],
        }


def hint_from_search(game: Game, found: Search) -> HintResult:
    """The hint's data from a finished search of `game`'s pending decision."""
    d = game.pending
    assert d is not None
    rows = []
    for c in found.candidates:
        lo, hi = c.interval if c.playouts else (None, None)
        rows.append(HintRow(c.action, game.describe(c.action), c.value, lo, hi, c.playouts, c.index, c.wins))
    rows += [HintRow(d.actions[i], game.describe(d.actions[i]), None, None, None, 0, i) for i in found.skipped]
    best = reason(game, found, found.best)
    runner = next((c for c in found.candidates[1:] if c.playouts), None)
    alt = reason(game, found, runner) if runner is not None else None
    clear = found.clear
    thumb = rule_of_thumb(best, alt) if (alt is not None and not clear) else None
    return HintResult(found.player, list(game.players), d.kind, d.prompt, rows, clear, best, alt, thumb,
                      sum(r.games for r in rows), found.seconds, found.settings["seed"], found.deals,
                      found.settings["horizon"])


def hint(game: Game, player: int | None = None, deals: int = DEFAULT_DEALS, seconds: float | None = DEFAULT_SECONDS,
         progress: Callable[[int, int], Any] | None = None, seed: int | None = None, width: int = DEFAULT_WIDTH,
         horizon: int | None = None, extra: int = MAX_EXTRA_DEALS) -> HintResult:
    """The hint for the pending decision (see the module docstring). `player` must be the pending player
    (default). `progress(done, total)` is called as simulated games finish (the last call has done == total)."""
    d = game.pending
    if d is None:
        raise ValueError("the game is over: there is no decision to analyse")
    if player is None:
        player = d.player
    if player != d.player:
        raise ValueError(f"the pending decision is {game.players[d.player]}'s, not {game.players[player]}'s")
    if seed is None:
        seed = game.state.decisions
    found = search(game, deals, width, horizon, seconds, seed, progress, extra)
    return hint_from_search(game, found)
