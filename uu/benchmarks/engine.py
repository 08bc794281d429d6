"""`uu bench`: full games between random bots, timed; `--check` also checks every invariant after every
action. Numbers are reported, never asserted."""

from __future__ import annotations

import time
from typing import Any

from uu import native
from uu.bots import RandomBot
from uu.engine import new_game
from uu.engine.invariants import Checker


def play_random_game(players: int, seed: int, check: bool = False, max_decisions: int = 50_000) -> dict[str, Any]:
    game = new_game([f"P{i + 1}" for i in range(players)], seed=seed)
    bot = RandomBot(seed)
    checker = Checker(game) if check else None
    decisions = 0
    while game.pending is not None and decisions < max_decisions:
        game.push_legal(bot.choose(game))  # the bot picks from the legal actions: no need to validate
        decisions += 1
        if checker:
            checker.after_apply()
    return {"decisions": decisions, "over": game.is_over, "winner": game.winner,
            "errors": checker.errors if checker else []}


def bench(players: list[int], games: int, seed: int, check: bool = False) -> dict[str, Any]:
    total_decisions = 0
    stuck = 0
    violations: list[str] = []
    per_players: dict[int, dict[str, float]] = {}
    start = time.perf_counter()
    for n in players:
        t0 = time.perf_counter()
        d0 = total_decisions
        for i in range(games):
            r = play_random_game(n, seed + i, check)
            total_decisions += r["decisions"]
            stuck += 0 if r["over"] else 1
            violations.extend(f"players={n} seed={seed + i}: {e}" for e in r["errors"][:3])
        dt = time.perf_counter() - t0
        per_players[n] = {"games_per_s": round(games / dt, 1),
                          "decisions_per_s": round((total_decisions - d0) / dt, 1),
                          "mean_decisions": round((total_decisions - d0) / games, 1)}
    seconds = time.perf_counter() - start
    played = games * len(players)
    out: dict[str, Any] = {
        "games": played,
        "players": players[0] if len(players) == 1 else players,
        "seconds": round(seconds, 3),
        "games_per_s": round(played / seconds, 1),
        "decisions_per_s": round(total_decisions / seconds, 1),
        "mean_decisions": round(total_decisions / played, 1),
        "seed": seed,
        "by_players": per_players,
        "engine": native.engine,  # "compiled" (mypyc, see uu.native) or "python"
    }
    if check:
        out["checked"] = True
        out["invariant_violations"] = len(violations)
        out["violations_sample"] = violations[:20]
        out["stuck_games"] = stuck
    return out
