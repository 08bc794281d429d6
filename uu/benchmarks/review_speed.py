"""`uu review` in numbers: seconds per decision graded, on seeded games of heuristic bots (reported, never
asserted). The review grades every decision of the first seat with more than one legal move (a Baby choice
aside) with the hint engine's budget (`uu.bots.search` defaults: 12 deals, more for the closest moves, 1 s cap)."""

from __future__ import annotations

import time
from typing import Any

from uu.benchmarks.stats import summary
from uu.bots.heuristic import HeuristicBot
from uu.bots.search import DEFAULT_SECONDS
from uu.engine import new_game
from uu.scenario.record import GameRecord, record_for
from uu.tutor.game_review import review


def bot_game(players: int, seed: int) -> GameRecord:
    """A finished game of heuristic bots as a record."""
    game = new_game([f"P{i + 1}" for i in range(players)], seed=seed)
    record = record_for(game)
    bots = [HeuristicBot(seed * 31 + i) for i in range(players)]
    while game.pending is not None:
        action = bots[game.pending.player].choose(game)
        record.add(game, action)
        game.push(action)
    record.finish(game)
    return record


def bench_review(players: int = 3, games: int = 1, seed: int = 0,
                 seconds: float | None = DEFAULT_SECONDS) -> dict[str, Any]:
    """Review the first seat of `games` seeded games. Returns `decisions` (graded), `seconds_per_decision`
    (whole review time over decisions), `review_seconds` per game (median, p95), `moves` per game."""
    times: list[float] = []
    graded = 0
    moves: list[int] = []
    turning = 0
    for g in range(games):
        record = bot_game(players, seed + g)
        t0 = time.perf_counter()
        r = review(record, 0, seconds=seconds)
        times.append(time.perf_counter() - t0)
        graded += len(r.decisions)
        moves.append(len(record.moves))
        turning += len(r.turning_points)
    timing = summary(times)
    return {
        "players": players, "games": games, "seed": seed, "hint_seconds": seconds,
        "decisions": graded, "seconds": round(sum(times), 2),
        "seconds_per_decision": round(sum(times) / graded, 4) if graded else None,
        "review_seconds_median": timing["median"], "review_seconds_p95": timing["p95"],
        "moves_per_game": round(sum(moves) / len(moves), 1) if moves else 0, "turning_points": turning,
    }
