"""Bots against bots: `bench_bots` plays seeded games between named bots (`uu.bots.roster`) and reports win
rates with their 95% intervals (and, with a hint seat, how long its decisions took); `bench_hint` times
`uu.bots.hint.hint` on typical positions.

Seat bias: the engine's first player is always physical seat 0, so game g seats bot j at physical seat
(j + g) % n — over n consecutive games every bot plays from every seat (and goes first) once. Win rates are
keyed by the bot's index in `bots` (not by the physical seat). Numbers are reported, never asserted.
"""

from __future__ import annotations

import random
import statistics
import time
from pathlib import Path
from typing import Any

from uu.benchmarks.stats import summary, wilson
from uu.bots.hint import hint
from uu.bots.random_bot import RandomBot
from uu.bots.roster import make_bot
from uu.bots.search import DEFAULT_DEALS, DEFAULT_SECONDS, SearchBot
from uu.engine import Game, new_game
from uu.scenario.record import record_for


def seat_names(bots: list[str], seat_bot: list[int]) -> list[str]:
    """Seat names for a saved game: the bot's name and its index ("hint 1", "normal 2", ...)."""
    return [f"{bots[j]} {j + 1}" for j in seat_bot]


def bench_bots(bots: list[str], games: int, seed: int, players: int | None = None,
               max_decisions: int = 50_000, hint_seconds: float | None = DEFAULT_SECONDS,
               save_games: str | Path | None = None) -> dict[str, Any]:
    """Play `games` games, one bot per seat (`bots`, e.g. ["heuristic", "random", "random", "random"]).

    Returns a JSON-able dict: `games`, `players`, `bots`, `win_rates` ("0".."n-1" by index in `bots`, plus
    "none" for games nobody won: everyone-loses or unfinished after `max_decisions`), `wins`, `seconds`,
    `games_per_s`, `mean_decisions`, `unfinished`, `seed`, `seating`, `interval_95` (Wilson, per bot index);
    with a `hint` (or `hard`) seat also `hint_seconds_median`, `hint_seconds_p95` (per decision with more than
    one legal action), `hint_decisions` and `hint_seconds` (the time cap used). `save_games`: a folder to write
    each game into as a game record (`uu.scenario.record`), `game-<seed>.json`, seats named after their bots."""
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
    hint_times: list[float] = []
    start = time.perf_counter()
    for g in range(games):
        game_seed = seed + g
        shift = g % n
        # physical seat -> bot index
        seat_bot = [(seat - shift) % n for seat in range(n)]
        seat_players = [make_bot(bots[j], game_seed * 31 + j, hint_seconds) for j in seat_bot]
        game = new_game(seat_names(bots, seat_bot) if save_games else [f"P{i + 1}" for i in range(n)],
                        seed=game_seed)
        record = record_for(game) if save_games else None
        k = 0
        while game.pending is not None and k < max_decisions:
            action = seat_players[game.pending.player].choose(game)
            if record is not None:
                record.add(game, action)
            game.push(action)
            k += 1
        if record is not None and save_games:
            record.finish(game)
            folder = Path(save_games)
            folder.mkdir(parents=True, exist_ok=True)
            (folder / f"game-{game_seed}.json").write_text(record.to_json(), encoding="utf-8")
        decisions += k
        hint_times += [t for b in seat_players if isinstance(b, SearchBot) for t in b.times]
        w = game.winner
        if not game.is_over:
            unfinished += 1
        if isinstance(w, int):
            wins[str(seat_bot[w])] += 1
        else:
            wins["none"] += 1
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {
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
        "interval_95": {str(i): [round(x, 4) for x in wilson(wins[str(i)], games)] for i in range(n)},
    }
    if hint_times:
        timing = summary(hint_times, digits=4)
        out.update(hint_seconds=hint_seconds, hint_decisions=len(hint_times),
                   hint_seconds_median=timing["median"], hint_seconds_p95=timing["p95"])
    return out


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
            g.push(bot.choose(g))
    return out


def bench_hint(players: int = 4, positions: int = 20, seed: int = 0,
               seconds: float | None = DEFAULT_SECONDS) -> dict[str, Any]:
    """Time `hint` on typical Action-phase positions. Returns a JSON-able dict with `positions`,
    `hint_seconds_median`, `hint_seconds_p95`, `playouts_per_s`, `playouts_per_hint` and more."""
    games = typical_positions(players, positions, seed)
    times: list[float] = []
    counts: list[int] = []
    n_actions: list[int] = []
    for i, g in enumerate(games):
        t0 = time.perf_counter()
        r = hint(g, seconds=seconds, seed=seed + i)
        times.append(time.perf_counter() - t0)
        counts.append(r.games)
        n_actions.append(len(r.rows))
    timing = summary(times)
    return {
        "players": players,
        "positions": len(games),
        "seed": seed,
        "budget": f"at most {DEFAULT_DEALS} deals" + (f" and {seconds} s" if seconds is not None else ""),
        "hint_seconds_median": timing["median"],
        "hint_seconds_p95": timing["p95"],
        "playouts_per_s": round(sum(counts) / sum(times), 1),
        "playouts_per_hint": round(statistics.mean(counts), 1),
        "actions_per_position": round(statistics.mean(n_actions), 1),
        "playouts_per_action": round(sum(counts) / sum(n_actions), 2),
    }
