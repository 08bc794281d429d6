"""Bots against bots: `bench_bots` plays seeded games between named bots and reports win rates;
`bench_hint` times `uu.bots.hint.hint` on typical positions.

Seat bias: the engine's first player is always physical seat 0, so game g seats bot j at physical seat
(j + g) % n — over n consecutive games every bot plays from every seat (and goes first) once. Win rates are
keyed by the bot's index in `bots` (not by the physical seat). Numbers are reported, never asserted.
"""

from __future__ import annotations

import math
import random
import statistics
import time
from typing import Any

from uu.bots.heuristic import HeuristicBot
from uu.bots.random_bot import RandomBot
from uu.engine import Game, new_game

BOTS = {"random": RandomBot, "heuristic": HeuristicBot}


def make_bot(name: str, seed: int):
    try:
        return BOTS[name](seed)
    except KeyError:
        raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(sorted(BOTS))}") from None


def bench_bots(bots: list[str], games: int, seed: int, players: int | None = None,
               max_decisions: int = 50_000) -> dict[str, Any]:
    """Play `games` games, one bot per seat (`bots`, e.g. ["heuristic", "random", "random", "random"]).

    Returns a JSON-able dict: `games`, `players`, `bots`, `win_rates` ("0".."n-1" by index in `bots`, plus
    "none" for games nobody won: everyone-loses or unfinished after `max_decisions`), `wins`, `seconds`,
    `games_per_s`, `mean_decisions`, `unfinished`, `seed`, `seating`."""
    bots = list(bots)
    n = len(bots)
    if players is not None and players != n:
        raise ValueError(f"players={players} but {n} bots were given (one per seat)")
    for b in bots:
        make_bot(b, 0)  # validate names early
    wins = {str(i): 0 for i in range(n)}
    wins["none"] = 0
    unfinished = 0
    decisions = 0
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed + g
        shift = g % n
        # physical seat -> bot index
        seat_bot = [(seat - shift) % n for seat in range(n)]
        seat_players = [make_bot(bots[j], game_seed * 31 + j) for j in seat_bot]
        game = new_game([f"P{i + 1}" for i in range(n)], seed=game_seed)
        k = 0
        while game.pending is not None and k < max_decisions:
            game.apply(seat_players[game.pending.player].choose(game))
            k += 1
        decisions += k
        w = game.winner
        if not game.is_over:
            unfinished += 1
        if isinstance(w, int):
            wins[str(seat_bot[w])] += 1
        else:
            wins["none"] += 1
    seconds = time.perf_counter() - start
    return {
        "games": games,
        "players": n,
        "bots": bots,
        "win_rates": {k: round(v / games, 4) if games else 0.0 for k, v in wins.items()},
        "wins": wins,
        "unfinished": unfinished,
        "seconds": round(seconds, 3),
        "games_per_s": round(games / seconds, 1) if seconds > 0 else None,
        "mean_decisions": round(decisions / games, 1) if games else 0.0,
        "seed": seed,
        "seating": "rotated: game g seats bot j at physical seat (j + g) % players (seat 0 goes first)",
    }


# ---- hint benchmark ------------------------------------------------------------------------------------

def typical_positions(players: int = 4, positions: int = 20, seed: int = 0, min_turn: int = 5) -> list[Game]:
    """Action-phase decisions from seeded random games: random moves until an Action decision of turn
    `min_turn` + (0..3) (a fresh game when one ends first)."""
    out: list[Game] = []
    g_seed = seed
    while len(out) < positions:
        rng = random.Random(g_seed)
        target_turn = min_turn + rng.randrange(4)
        g = new_game([f"P{i + 1}" for i in range(players)], seed=g_seed)
        bot = RandomBot(g_seed)
        g_seed += 1
        while g.pending is not None:
            if g.pending.kind == "action" and g.state.turn_number >= target_turn:
                out.append(g)
                break
            g.apply(bot.choose(g))
    return out


def bench_hint(players: int = 4, positions: int = 20, seed: int = 0, seconds: float = 0.8,
               playouts: int | None = None, bot: str = "random") -> dict[str, Any]:
    """Time `hint` on typical Action-phase positions. Returns a JSON-able dict with `positions`,
    `hint_seconds_median`, `hint_seconds_p95`, `playouts_per_s`, `playouts_per_hint` and more."""
    from uu.bots.hint import hint

    games = typical_positions(players, positions, seed)
    times: list[float] = []
    counts: list[int] = []
    n_actions: list[int] = []
    capped = 0
    for i, g in enumerate(games):
        t0 = time.perf_counter()
        r = hint(g, playouts=playouts, seconds=seconds, bot=bot, seed=seed + i)
        times.append(time.perf_counter() - t0)
        counts.append(r.playouts)
        n_actions.append(len(r.rows))
        capped += r.capped
    times_sorted = sorted(times)
    p95 = times_sorted[min(len(times_sorted) - 1, math.ceil(0.95 * len(times_sorted)) - 1)]
    return {
        "players": players,
        "positions": len(games),
        "seed": seed,
        "bot": bot,
        "budget": f"{playouts} playouts" if playouts is not None else f"{seconds} s",
        "hint_seconds_median": round(statistics.median(times), 3),
        "hint_seconds_p95": round(p95, 3),
        "playouts_per_s": round(sum(counts) / sum(times), 1),
        "playouts_per_hint": round(statistics.mean(counts), 1),
        "actions_per_position": round(statistics.mean(n_actions), 1),
        "playouts_per_action": round(sum(counts) / sum(n_actions), 2),
        "capped_playouts": capped,
    }
