"""The review of a finished game (data): one player's decisions graded by the hint engine, and the turning points.

`review(record, player)` replays a game record (`uu.scenario.record`) and, at each of the player's decisions with
more than one legal move (a Baby choice aside: every Baby Unicorn has the same effect), asks the hint engine
(`uu.bots.search`, the move made always among the candidates) for:

- `chance_before`: the player's chance to win with the best move (what the position was worth),
- `chance_after`: the chance after the move the player made, each with its 95% interval,
- `grade`: the one judgement of "better" the hint and the coach use (`uu.bots.judge`): the loss (the best
  move's chance minus the move made's, on the same simulated deals) with its paired 95% interval, graded
  good (about as good: not surely worse, or less than 5 points), inaccuracy, mistake, blunder. Only a move
  graded worse names the better one: the review never calls noise a mistake.

The key moments (`turning_points`, three to five when the game has them) are the biggest changes in the
player's chance: a decision graded worse (its loss), or a swing between two of the player's decisions (from
`chance_after` of one to `chance_before` of the next: what the others' moves did), with the others' plays in
between. `accuracy` is the share of decisions about as good as the best move found. `uu.words.review_text` says
them in words and draws the chart.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Literal

from uu.bots.judge import GRADES, Grade
from uu.bots.search import DEFAULT_DEALS, DEFAULT_SECONDS, MAX_EXTRA_DEALS, search
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.scenario.export import NotExportable, export_position
from uu.scenario.record import GameRecord, RecordError, replay

__all__ = ["GradedDecision", "Review", "TurningPoint", "openable_position", "review"]

TURNING_POINTS = 5  # key moments at most
NOTABLE_CHANGE = 0.05  # a change in the chance to win smaller than this is not a turning point


@dataclass
class GradedDecision:
    number: int  # the move's number in the record (1-based)
    turn: int
    kind: str  # the decision kind
    action: Action
    best: Action
    chance_before: float
    chance_after: float
    grade: Grade  # the move made against the best found (`uu.bots.judge`)
    loss: float = 0.0  # the best's chance minus the move made's, on the deals both were played on
    loss_low: float = 0.0  # its 95% interval (paired)
    loss_high: float = 0.0
    before_interval: tuple[float, float] = (0.0, 1.0)  # the best move's chance, 95% interval
    after_interval: tuple[float, float] = (0.0, 1.0)  # the move made's
    verb: str | None = None  # the decision's verb (a card chosen for an effect: destroy, steal, ...)

    @property
    def worse(self) -> bool:
        """Graded worse than the best found (an inaccuracy or more): only then is the better move named."""
        return self.grade in ("inaccuracy", "mistake", "blunder")


@dataclass
class TurningPoint:
    kind: Literal["missed", "swing"]
    turn: int  # the turn it happened in (for a swing: the turn of the later decision)
    before: float
    after: float
    decision: int  # index into Review.decisions (for a swing: the later decision)
    since_turn: int = 0  # a swing: the turn of the earlier decision
    plays: list[tuple[str, str]] = field(default_factory=list)  # a swing: (player, card played) in between


@dataclass
class Review:
    player: int
    players: list[str]
    decisions: list[GradedDecision]
    turning_points: list[TurningPoint]
    result: str | None
    won: bool | None  # None: the record ends before the game does
    seconds: float
    winner: str | None = None  # the winner's name; None: nobody won (everyone loses) or the game goes on

    @property
    def player_name(self) -> str:
        return self.players[self.player]

    @property
    def counts(self) -> dict[str, int]:
        """Decisions per grade, "best" and "good" together as "good" (about as good as the best found)."""
        out: dict[str, int] = {g: 0 for g in GRADES if g != "best"}
        for d in self.decisions:
            out["good" if d.grade == "best" else d.grade] += 1
        return out

    @property
    def accuracy(self) -> float | None:
        """The share of decisions about as good as the best move found (None: no decision graded)."""
        if not self.decisions:
            return None
        return sum(1 for d in self.decisions if not d.worse) / len(self.decisions)


def _turning_points(decisions: list[GradedDecision], between: list[list[tuple[str, str]]]) -> list[TurningPoint]:
    points: list[tuple[float, TurningPoint]] = []
    for i, d in enumerate(decisions):
        if d.worse:
            points.append((d.loss, TurningPoint("missed", d.turn, d.chance_before, d.chance_after, i)))
        if i:
            prev = decisions[i - 1]
            change = d.chance_before - prev.chance_after
            points.append((abs(change), TurningPoint("swing", d.turn, prev.chance_after, d.chance_before, i,
                                                     prev.turn, between[i])))
    points = [p for p in points if p[0] >= NOTABLE_CHANGE]
    top = sorted(points, key=lambda p: -p[0])[:TURNING_POINTS]
    return [p for _, p in sorted(top, key=lambda p: (p[1].decision, p[1].kind == "swing"))]


def review(record: GameRecord, player: int | None = None, deals: int = DEFAULT_DEALS,
           seconds: float | None = DEFAULT_SECONDS, progress: Callable[[int, int], object] | None = None,
           extra: int = MAX_EXTRA_DEALS) -> Review:
    """Grade `player`'s decisions in `record` (default: the first seat). Raises RecordError for a record that
    does not replay. `progress(done, total)` after each graded decision. `deals`, `extra`, `seconds`: the
    search's budget per decision (`uu.bots.search.search`)."""
    start = time.perf_counter()
    p = 0 if player is None else player
    if not 0 <= p < len(record.players):
        raise RecordError(f"there is no seat {p} in this game")
    positions = [(g, a, i) for g, a, i in replay(record)]
    mine = [(g, a, i) for g, a, i in positions
            if g.pending is not None and g.pending.player == p and len(g.pending.actions) > 1
            and g.pending.kind != "baby"]
    decisions: list[GradedDecision] = []
    between: list[list[tuple[str, str]]] = []
    plays: list[tuple[str, str]] = []
    mine_numbers = {i for _, _, i in mine}
    for g, a, i in positions:
        if i in mine_numbers:
            between.append(plays)
            plays = []
            found = search(g, deals=deals, seconds=seconds, seed=g.state.decisions, include=a, extra=extra)
            best = found.best
            made = next(c for c in found.candidates if c.action == a)
            v = found.verdict(made)
            decisions.append(GradedDecision(
                i, g.state.turn_number, g.pending.kind if g.pending else "", a, best.action, best.value or 0.0,
                made.value or 0.0, v.grade, v.loss, v.low, v.high, best.interval, made.interval,
                g.pending.verb if g.pending else None))
            if progress:
                progress(len(decisions), len(mine))
        elif g.pending is not None and g.pending.player != p and a.kind in ("play", "respond") and a.card:
            plays.append((g.players[g.pending.player], a.card))
    if positions:
        end = positions[-1][0]  # a copy: replaying its last move gives the end of the record
        end.push(positions[-1][1])
    else:
        end = record.start_game()
    won = None if not end.is_over else end.winner == p
    w = end.winner
    winner = record.players[w] if end.is_over and isinstance(w, int) else None
    return Review(p, list(record.players), decisions, _turning_points(decisions, between),
                  end.result_text() if end.is_over else None, won, time.perf_counter() - start, winner)


def openable_position(record: GameRecord, number: int) -> tuple[str, int, Game]:
    """The position before move `number` as scenario YAML (for the sandbox), or when that position cannot be
    written down (an effect half-resolved, a card on the Neigh pile), the latest one before it that can:
    (the YAML, the move number it stands before, that position)."""
    before: list[tuple[Game, int]] = []
    for g, _a, i in replay(record):
        if i > number:
            break
        before.append((g, i))
    for g, i in reversed(before):  # the nearest first: most positions between two effects can be written down
        try:
            return export_position(g, name=f"move {i} of a recorded game"), i, g
        except NotExportable:
            continue
    raise RecordError("no position up to this move can be opened in the sandbox")
