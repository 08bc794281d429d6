"""Does the hint's 1 s tell moves apart? `bench_separation` (`uu bench --separation`) measures, over decisions
from games of heuristic bots, the fraction of decisions with a real gap of 5 points or more between the best move
and the next where the hint, within its time cap, names the best move and calls it the best.

The real gap comes from a long search of the same decision: `long_deals` deals for every candidate the hint
plays out (the same candidates, no time cap, seeds of its own so its noise is not the hint's). Those long
searches cost about 10 times a hint each or more; `truth_file` keeps them (JSON, keyed by the decisions' seed) so a run
after a change of the hint reuses them. Numbers are reported, never asserted.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from pathlib import Path
from typing import Any

from uu.bots.heuristic import HeuristicBot
from uu.bots.hint import hint
from uu.bots.search import DEFAULT_DEALS, DEFAULT_SECONDS, search
from uu.engine import Game, new_game

GAP = 0.05  # the gap that matters: 5 points of chance to win
LONG_DEALS = 10 * DEFAULT_DEALS  # every candidate on 120 deals: 10 to 30 times the playouts of a hint
TRUTH_SEED = 1_000_000  # the long searches' seeds start here: never the hint's own (the decision count)


def decisions_of(players: int, count: int, seed: int, share: float = 0.25) -> list[Game]:
    """`count` decisions with more than one legal move (a Baby choice aside) from seeded games of heuristic
    bots, each kept with chance `share` so they spread over whole games."""
    out: list[Game] = []
    g_seed = seed
    rng = random.Random(f"uu-separation:{seed}")
    while len(out) < count:
        g = new_game([f"P{i + 1}" for i in range(players)], seed=g_seed)
        bots = [HeuristicBot(g_seed * 31 + p) for p in range(players)]
        g_seed += 1
        while g.pending is not None and len(out) < count:
            d = g.pending
            if len(d.actions) > 1 and d.kind != "baby" and rng.random() < share:
                out.append(g.copy())
            g.push(bots[d.player].choose(g))
    return out


def truth(game: Game, index: int, long_deals: int = LONG_DEALS) -> dict[str, float]:
    """The long search's chance to win per candidate, keyed by the action's index among the legal ones."""
    found = search(game, deals=long_deals, seconds=None, extra=0, seed=TRUTH_SEED + index)
    return {str(c.index): c.value or 0.0 for c in found.candidates if c.playouts}


def bench_separation(players: int = 4, decisions: int = 200, seed: int = 7, seconds: float | None = DEFAULT_SECONDS,
                     long_deals: int = LONG_DEALS, truth_file: str | Path | None = None) -> dict[str, Any]:
    """See the module docstring. Returns a JSON-able dict: `decisions`, `gap5` (decisions whose real gap is 5
    points or more), `separated` (of those, the hint called its move the best and it is the real best),
    `fraction`, `wrong_best` (decisions where the hint called a move the best that the long search puts 5 points
    or more below another), `hint_seconds_median`, `truth_seconds` (spent on long searches this run)."""
    games = decisions_of(players, decisions, seed)
    key = f"{players}:{seed}:{long_deals}"  # the decisions of a seed are the same whatever their count
    cache: dict[str, Any] = {}
    path = Path(truth_file) if truth_file else None
    if path is not None and path.exists():
        cache = json.loads(path.read_text(encoding="utf-8"))
    truths: list[dict[str, float]] = cache.get(key, [])[:len(games)]
    t0 = time.perf_counter()
    for i in range(len(truths), len(games)):
        truths.append(truth(games[i], i, long_deals))
        if path is not None and (i % 10 == 9 or i == len(games) - 1):
            cache[key] = truths if len(truths) >= len(cache.get(key, [])) else cache[key]
            path.write_text(json.dumps(cache), encoding="utf-8")
    truth_seconds = time.perf_counter() - t0
    gap5 = separated = wrong = 0
    times: list[float] = []
    for g, real in zip(games, truths):
        ranked = sorted(real.items(), key=lambda kv: -kv[1])
        gap = ranked[0][1] - ranked[1][1] if len(ranked) > 1 else 0.0
        t = time.perf_counter()
        h = hint(g, seconds=seconds)
        times.append(time.perf_counter() - t)
        named = str(h.best.index)
        if h.clear and named in real and real[named] < ranked[0][1] - GAP:
            wrong += 1
        if gap >= GAP:
            gap5 += 1
            separated += h.clear and named == ranked[0][0]
    return {
        "players": players, "decisions": len(games), "seed": seed, "hint_seconds": seconds,
        "long_deals": long_deals, "gap5": gap5, "separated": separated,
        "fraction": round(separated / gap5, 3) if gap5 else None, "wrong_best": wrong,
        "hint_seconds_median": round(statistics.median(times), 3) if times else None,
        "truth_seconds": round(truth_seconds, 1),
    }
