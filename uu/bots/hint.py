"""Hints as data: the candidates of the pending decision with their estimated chance to win and its 95% interval,
whether the estimate separates the best, and the reason a player would give (`uu.bots.explain`).

`hint(game)` asks the hint engine (`uu.bots.search`: short simulated games on determinized deals with the
heuristic bot, ended by a learned position model) for the decision's candidates. The words a learner reads
(the reason first, the numbers one click away) are made from this result by `uu.words.hint_text`: the bots layer
never speaks.

**Honest about doubt.** One judgement of "better" (`uu.bots.judge`): `clear` is true exactly when the best
estimate is better than every other move played out (the paired interval of the loss above zero, and a loss
of at least 5 points). Otherwise several moves are "about as good", and a rule of thumb (`thumb`) chooses
among them: the hint's first move (`best`, the headline) is then the move the rule of thumb points at, never
another. Each row carries its grade against the best estimate (`grade`, `loss` and its interval).

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
from uu.bots.search import (
    DEFAULT_DEALS,
    DEFAULT_SECONDS,
    DEFAULT_WIDTH,
    MAX_EXTRA_DEALS,
    Candidate,
    Search,
    search,
)
from uu.engine.actions import Action
from uu.engine.game import Game

__all__ = ["DEFAULT_DEALS", "DEFAULT_SECONDS", "HintResult", "HintRow", "headline", "hint", "hint_from_search"]


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
    grade: str | None = None  # against the best estimate (`uu.bots.judge`: best, good, inaccuracy, ...)
    loss: float | None = None  # the best estimate's chance minus this move's, on the same deals
    loss_low: float | None = None  # its 95% interval
    loss_high: float | None = None


@dataclass
class HintResult:
    player: int
    players: list[str]  # the seat names, as the table shows them
    decision: str  # the decision kind
    prompt: str
    rows: list[HintRow]  # the headline move first, then the runner-up the verdict names; not simulated last
    clear: bool  # the best estimate is better than every other move (`uu.bots.judge`)
    reason: Reason  # why the headline move (rows[0])
    alt: Reason | None  # why the runner-up (what it would do instead)
    thumb: Thumb | None  # when not clear: the rule of thumb that chose the headline among moves about as good
    games: int  # simulated games in all
    seconds: float
    seed: int
    deals: int
    horizon: int
    verb: str | None = None  # the decision's verb (a card chosen for an effect: destroy, steal, ...)

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
        """The numbers, JSON-able (the words are `uu.words.hint_text.hint_json`)."""
        return {
            "player": self.player_name, "decision": self.decision, "clear": self.clear, "games": self.games,
            "seconds": round(self.seconds, 3), "seed": self.seed, "deals": self.deals, "reason": self.reason.kind,
            "thumb": self.thumb,
            "candidates": [{"move": r.move, "index": r.index, "games": r.games,
                            "chance": None if r.chance is None else round(r.chance, 4),
                            "low": None if r.low is None else round(r.low, 4),
                            "high": None if r.high is None else round(r.high, 4), "grade": r.grade,
                            "loss": None if r.loss is None else round(r.loss, 4)} for r in self.rows],
        }


def headline(game: Game, found: Search) -> tuple[Candidate, Thumb | None]:
    """The move the hint shows first, and the rule of thumb that chose it: the best estimate when it is called
    better than every other move, else the rule of thumb's pick among the moves about as good (the best
    estimate when no rule tells them apart)."""
    about = found.about_as_good()
    if len(about) > 1:
        picked = rule_of_thumb([reason(game.observe(found.player), found, c) for c in about])
        if picked is not None:
            return about[picked[1]], picked[0]
    return found.best, None


def hint_from_search(game: Game, found: Search) -> HintResult:
    """The hint's data from a finished search of `game`'s pending decision."""
    d = game.pending
    assert d is not None
    played = [c for c in found.candidates if c.playouts]
    about = found.about_as_good()
    head, thumb = headline(game, found)
    # the runner-up the verdict names: a move about as good when there is one (so "about as good" is true)
    runner = next((c for c in about if c is not head), None) or next(
        (c for c in found.candidates if c is not head and c.playouts), None)
    order = [head, *([runner] if runner is not None else []),
             *[c for c in found.candidates if c is not head and c is not runner]]
    rows = []
    for c in order:
        lo, hi = c.interval if c.playouts else (None, None)
        row = HintRow(c.action, game.describe(c.action), c.value, lo, hi, c.playouts, c.index, c.wins)
        if c.playouts and played:
            v = found.verdict(c)
            row.grade, row.loss, row.loss_low, row.loss_high = v.grade, v.loss, v.low, v.high
        rows.append(row)
    rows += [HintRow(d.actions[i], game.describe(d.actions[i]), None, None, None, 0, i) for i in found.skipped]
    seen = game.observe(found.player)  # the explanations read only what the deciding seat may see
    best = reason(seen, found, head)
    alt = reason(seen, found, runner) if runner is not None else None
    return HintResult(found.player, list(game.players), d.kind, d.prompt, rows, found.clear, best, alt, thumb,
                      sum(r.games for r in rows), found.seconds, found.settings["seed"], found.deals,
                      found.settings["horizon"], d.verb)


def hint(game: Game, player: int | None = None, deals: int = DEFAULT_DEALS, seconds: float | None = DEFAULT_SECONDS,
         progress: Callable[[int, int], object] | None = None, seed: int | None = None, width: int = DEFAULT_WIDTH,
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
