"""Random playouts (OpenSpiel style): hundreds of seeded games with 2–8 players, every action checked.

Invariants: cards conserved across all zones, Babies only in Stables or the Nursery, hands within the limit
after End of Turn, no win declared mid-chain (win.after-chain), every game ends, same seed ⇒ same game, and
a save/load round-trip of the full state at random points continues identically.
"""

from __future__ import annotations

import random

import pytest

from uu.benchmarks.engine import play_random_game
from uu.bots import RandomBot
from uu.engine import Game, new_game

SEEDS_PER_COUNT = 40  # 7 player counts × 40 = 280 games


@pytest.mark.parametrize("players", range(2, 9))
def test_random_games_keep_every_invariant(players: int) -> None:
    for seed in range(SEEDS_PER_COUNT):
        result = play_random_game(players, seed * 101 + players, check=True)
        assert result["errors"] == [], (players, seed, result["errors"][:5])
        assert result["over"], f"game {players}p seed {seed} did not end after {result['decisions']} decisions"


def _play(players: int, seed: int) -> list[str]:
    g = new_game([f"P{i}" for i in range(players)], seed=seed)
    bot = RandomBot(seed)
    while g.pending:
        g.push(bot.choose(g))
    return [e.text for e in g.log]


@pytest.mark.parametrize("players", [2, 4, 8])
def test_same_seed_same_game(players: int) -> None:
    assert _play(players, 11) == _play(players, 11)
    assert _play(players, 11) != _play(players, 12)


@pytest.mark.parametrize("seed", range(12))
def test_save_load_round_trip_at_random_points(seed: int) -> None:
    players = 2 + seed % 7
    g = new_game([f"P{i}" for i in range(players)], seed=seed)
    r = random.Random(seed)
    checkpoints = 0
    while g.pending:
        if r.random() < 0.05:
            data = g.to_dict()
            loaded = Game.from_dict(data)
            assert loaded.to_dict() == data
            assert loaded.pending == g.pending
            # both continue identically for a while
            r1, r2 = random.Random(seed + 1), random.Random(seed + 1)
            a, b = g.copy(), loaded
            for _ in range(30):
                if a.pending is None:
                    break
                a.push(r1.choice(a.pending.actions))
                b.push(r2.choice(b.pending.actions))
            assert a.to_dict() == b.to_dict()
            checkpoints += 1
        g.push(r.choice(g.pending.actions))
    assert checkpoints > 0


def test_the_checker_catches_broken_states() -> None:
    """The invariant checker itself can fail: a card in two zones, a Baby in a hand, a hand over the limit."""
    from uu.engine.invariants import Checker

    g = new_game(["A", "B", "C"], seed=1)
    checker = Checker(g)
    s = g.state
    s.hands[0].append(s.deck[0])  # the same card in a hand and in the deck
    checker.after_apply()
    assert any("both" in e or "recorded" in e for e in checker.errors)

    g = new_game(["A", "B", "C"], seed=1)
    checker = Checker(g)
    baby = g.state.nursery[0]
    g.state.place(baby, "hand", 1)
    checker.after_apply()
    assert any("Baby" in e for e in checker.errors)

    g = new_game(["A", "B", "C"], seed=1)
    checker = Checker(g)
    g.state.last_end = [3, 0, 9]
    checker.after_apply()
    assert any("ended turn 3 with 9 cards" in e for e in checker.errors)
