"""Hints: the best move of the pending decision, why, and the estimated chance to win after each candidate.

`hint(game)` asks the hint engine (`uu.bots.search`: short playouts on determinized deals with the heuristic
bot, ended by a learned position model) for the decision's candidates, and `uu.bots.explain` for one or two
sentences on why the best is best and what the main alternative risks. The result renders as text and as an
HTML table (`_repr_html_`), and its `explanation` is what a learner reads first; the table is one click away.

**Hidden cards are never read**: every playout starts from a determinization (`Game.resample`, uu/engine/resample.py), so two
positions that differ only in cards the player cannot see give the same hint for the same seed.

**Budget.** At most `deals` rounds (each plays every candidate once on the same deal) and, unless `seconds`
is None, no new round once the time would pass `seconds` (the first round always runs). The defaults are the
app's: `DEFAULT_DEALS` rounds, `DEFAULT_SECONDS` s. The seed defaults to the game's decision count, so the
same position asked twice gives the same hint, and a bot that plays the hint (`uu.bots.search.SearchBot`) plays
exactly what the app would show.
"""

from __future__ import annotations

import html
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uu.bots.explain import explain
from uu.bots.search import DEFAULT_DEALS, DEFAULT_SECONDS, DEFAULT_WIDTH, search
from uu.engine.actions import Action
from uu.engine.game import Game

__all__ = ["DEFAULT_DEALS", "DEFAULT_SECONDS", "HintResult", "HintRow", "hint"]


# ---- results ---------------------------------------------------------------------------------------------

@dataclass
class HintRow:
    action: Action
    description: str
    win_rate: float | None  # estimated chance to win after this move; None: not played out
    playouts: int
    wins: float = 0.0
    index: int = 0  # position among the decision's legal actions

    @property
    def margin(self) -> float | None:
        """Half-width of a rough 95% interval on the win rate (normal approximation)."""
        if not self.playouts or self.win_rate is None:
            return None
        p = self.win_rate
        return 1.96 * math.sqrt(max(p * (1 - p), 0.25 / self.playouts) / self.playouts)


@dataclass
class HintResult:
    player: int
    player_name: str
    kind: str
    prompt: str
    rows: list[HintRow]  # best first
    playouts: int
    seconds: float
    bot: str
    seed: int
    deals: int = 0  # rounds of playouts completed
    explanation: str = ""  # one or two plain sentences: why the best move, what the alternative risks
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def question(self) -> str:
        """The prompt without the player's name it starts with (the table's caption names them already)."""
        return self.prompt.removeprefix(f"{self.player_name}: ")

    @property
    def best(self) -> HintRow | None:
        return self.rows[0] if self.rows else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player_name, "kind": self.kind, "prompt": self.prompt, "playouts": self.playouts,
            "seconds": round(self.seconds, 3), "bot": self.bot, "seed": self.seed, "deals": self.deals,
            "explanation": self.explanation,
            "rows": [{"action": r.description, "index": r.index, "playouts": r.playouts,
                      "win_rate": None if r.win_rate is None else round(r.win_rate, 4)} for r in self.rows],
        }

    def to_table(self) -> str:
        head = (f"{self.player_name}: {self.question}\n{self.explanation}\n{self.playouts} playouts ({self.bot}) in "
                f"{self.seconds:.2f} s; win % = {self.player_name}'s estimated chance to win after the move")
        width = max([len(r.description) for r in self.rows] + [6])
        lines = [head, f"{'action':<{width}}  {'win %':>6}  {'±':>5}  {'playouts':>8}"]
        for r in self.rows:
            wr = "  -" if r.win_rate is None else f"{100 * r.win_rate:5.1f}"  # "-": not played out
            m = "" if r.margin is None else f"{100 * r.margin:4.0f}"
            lines.append(f"{r.description:<{width}}  {wr:>6}  {m:>5}  {r.playouts:>8}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_table()

    def _repr_html_(self) -> str:
        e = html.escape
        rows = []
        played = [r for r in self.rows if r.win_rate is not None]
        for i, r in enumerate(played):
            m = "" if r.margin is None else f"±{100 * r.margin:.0f}"
            style = ' style="font-weight:bold"' if i == 0 else ""
            rows.append(f"<tr{style}><td>{e(r.description)}</td>"
                        f"<td style=\"text-align:right\">{100 * (r.win_rate or 0.0):.1f}%</td>"
                        f"<td style=\"text-align:right\">{e(m)}</td>"
                        f"<td style=\"text-align:right\">{r.playouts}</td></tr>")
        others = len(self.rows) - len(played)
        if others:  # one line, not a row each: the learner wants the candidates, not the long tail
            rows.append(f"<tr class=\"uu-hint-others\"><td colspan=\"4\">and {others} other move"
                        f"{'s' if others != 1 else ''}, not played out: the rules of thumb rank "
                        f"{'them' if others != 1 else 'it'} lower</td></tr>")
        caption = (f"{e(self.player_name)}: {e(self.question)} — {self.playouts} playouts ({e(self.bot)}), "
                   f"{self.seconds:.2f} s")
        table = ("<table class=\"uu-hint\"><caption>" + caption + "</caption><thead><tr><th>move</th>"
                 "<th>chance to win</th><th>±</th><th>playouts</th></tr></thead><tbody>" + "".join(rows)
                 + "</tbody></table>")
        # the sentences first; the numbers one click away
        return (f"<div class=\"uu-hint-why\">{e(self.explanation)}</div><details class=\"uu-hint-details\">"
                f"<summary>The numbers behind this hint</summary>{table}</details>")


# ---- the analysis ----------------------------------------------------------------------------------------

def hint(game: Game, player: int | None = None, deals: int = DEFAULT_DEALS, seconds: float | None = DEFAULT_SECONDS,
         progress: Callable[[int, int], Any] | None = None, seed: int | None = None, width: int = DEFAULT_WIDTH,
         horizon: int | None = None) -> HintResult:
    """The hint for the pending decision (see the module docstring). `player` must be the pending player
    (default). `progress(done, total)` is called as playouts finish (the last call has done == total)."""
    d = game.pending
    if d is None:
        raise ValueError("the game is over: there is no decision to analyse")
    if player is None:
        player = d.player
    if player != d.player:
        raise ValueError(f"the pending decision is {game.players[d.player]}'s, not {game.players[player]}'s")
    if seed is None:
        seed = game.state.decisions
    found = search(game, deals, width, horizon, seconds, seed, progress)
    rows = [HintRow(c.action, game.describe(c.action), c.value, c.playouts, c.total, c.index)
            for c in found.candidates]
    rows += [HintRow(d.actions[i], game.describe(d.actions[i]), None, 0, 0.0, i) for i in found.skipped]
    total = sum(r.playouts for r in rows)
    h = found.settings["horizon"]
    method = f"heuristic bots for {h} turns, then the position model"
    return HintResult(player, game.players[player], d.kind, d.prompt, rows, total, found.seconds, method, seed,
                      found.deals, explain(game, found))
