"""Hints: determinized Monte Carlo playouts. Never reads hidden information (positions that differ only in
hidden cards give identical output), covers every legal action, reports progress, renders as text/HTML."""

from __future__ import annotations

import random

import pytest

from uu.bots import HintResult, bench_bots, bench_hint, determinize, hint
from uu.bots.bench import typical_positions
from uu.bots.hint import fast_copy, known_to
from uu.engine import Game, new_game
from uu.engine import queries as q


def swap_hidden_card(game: Game, viewer: int) -> Game:
    """A copy where one card in another player's (hidden) hand trades places with a deck card of a
    different name."""
    g = game.copy()
    s = g.state
    other = next(p for p in range(s.n) if p != viewer and s.hands[p] and not q.hand_visible(s, p))
    i = 0
    a = s.hands[other][i]
    j = next(k for k, c in enumerate(s.deck) if s.name(c) != s.name(a))
    b = s.deck[j]
    s.hands[other][i], s.deck[j] = b, a
    s.zone_of[a], s.owner_of[a] = "deck", -1
    s.zone_of[b], s.owner_of[b] = "hand", other
    return g


def shuffle_hidden(game: Game, viewer: int, seed: int) -> Game:
    g = game.copy()
    s = g.state
    rng = random.Random(seed)
    hidden = [p for p in range(s.n) if p != viewer and not q.hand_visible(s, p)]
    zones = [s.deck] + [s.hands[p] for p in hidden]
    owners = [-1] + hidden
    pool = [c for z in zones for c in z]
    rng.shuffle(pool)
    it = iter(pool)
    for zone, owner in zip(zones, owners):
        for i in range(len(zone)):
            c = next(it)
            zone[i] = c
            s.zone_of[c] = "deck" if owner < 0 else "hand"
            s.owner_of[c] = owner
    return g


def _same(r1: HintResult, r2: HintResult) -> None:
    d1, d2 = r1.to_dict(), r2.to_dict()
    d1.pop("seconds"), d2.pop("seconds")
    assert d1 == d2


@pytest.fixture(scope="module")
def positions() -> list[Game]:
    return typical_positions(4, 3, seed=0)


def test_positions_are_action_decisions(positions: list[Game]) -> None:
    for g in positions:
        assert g.pending.kind == "action" and g.state.turn_number >= 5


def test_hidden_card_swap_does_not_change_the_hint(positions: list[Game]) -> None:
    for g in positions:
        me = g.pending.player
        other = swap_hidden_card(g, me)
        assert [g.state.name(c) for c in g.state.deck] != [other.state.name(c) for c in other.state.deck]
        _same(hint(g, playouts=40, seed=3), hint(other, playouts=40, seed=3))


def test_hint_invariant_under_shuffling_hidden_zones(positions: list[Game]) -> None:
    g = positions[0]
    base = hint(g, playouts=30, seed=1)
    for k in range(3):
        _same(base, hint(shuffle_hidden(g, g.pending.player, k), playouts=30, seed=1))


def test_determinize_keeps_known_cards_and_zone_sizes(positions: list[Game]) -> None:
    g = positions[1]
    me = g.pending.player
    s = g.state
    d = determinize(g, me, random.Random(0)).state
    assert d.hands[me] == s.hands[me] and d.stables == s.stables and d.discard == s.discard
    assert d.nursery == s.nursery
    assert [len(h) for h in d.hands] == [len(h) for h in s.hands] and len(d.deck) == len(s.deck)
    assert sorted(d.deck + sum((d.hands[p] for p in range(s.n) if p != me), [])) == \
        sorted(s.deck + sum((s.hands[p] for p in range(s.n) if p != me), []))
    for c in range(len(d.defs)):  # zone bookkeeping agrees with the zone lists
        z, o = d.zone_of[c], d.owner_of[c]
        assert c in d.zone_list(z, o)
    assert d.deck != s.deck  # really resampled
    assert g.state.deck == s.deck  # the real game is untouched


def test_known_cards_include_nanny_cam_hands() -> None:
    from uu.scenario.build import build_game
    from uu.scenario.load import parse_scenario

    text = """
name: nanny
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue), Nanny Cam], Cy: [Baby Unicorn (Pink)]}
hands: {Ana: [Basic Unicorn (Red)], Ben: [Neigh, Unicorn Poison], Cy: [Neigh]}
"""
    g = build_game(parse_scenario(text))
    known, hidden = known_to(g, 0)
    assert hidden == [2]
    assert set(g.state.hands[1]) <= known and not set(g.state.hands[2]) & known
    d = determinize(g, 0, random.Random(1))
    assert d.state.hands[1] == g.state.hands[1]


def test_rows_cover_every_legal_action(positions: list[Game]) -> None:
    g = positions[2]
    r = hint(g, playouts=2 * len(g.pending.actions) + 5, seed=0)
    assert sorted(row.index for row in r.rows) == list(range(len(g.pending.actions)))
    assert [row.action for row in sorted(r.rows, key=lambda x: x.index)] == list(g.pending.actions)
    assert all(row.playouts >= 2 and 0.0 <= row.win_rate <= 1.0 for row in r.rows)
    assert sum(row.playouts for row in r.rows) == r.playouts
    assert r.best is r.rows[0] and r.best.win_rate == max(row.win_rate for row in r.rows)
    text = str(r)
    assert r.best.description in text and "win %" in text and text == r.to_table()
    name = g.players[g.pending.player]
    assert f"{name}: {name}:" not in text and f"{name}: {name}:" not in r._repr_html_()  # named once


def test_time_budget_gives_every_action_a_playout(positions: list[Game]) -> None:
    g = positions[0]
    r = hint(g, seconds=0.05)
    assert all(row.playouts >= 1 for row in r.rows)


def test_progress_callback() -> None:
    g = typical_positions(3, 1, seed=5)[0]
    calls: list[tuple[int, int]] = []
    hint(g, playouts=12, progress=lambda done, total: calls.append((done, total)))
    assert calls[0] == (0, 12) and calls[-1] == (12, 12)
    assert all(0 <= d <= t for d, t in calls)
    calls.clear()
    hint(g, seconds=0.05, progress=lambda done, total: calls.append((done, total)))
    assert calls and calls[-1][0] == calls[-1][1] > 0


def test_html_escapes_text(positions: list[Game]) -> None:
    g = positions[0].copy()
    g.state.players[g.pending.player] = "<b>Ana & co</b>"
    r = hint(g, playouts=len(g.pending.actions))
    h = r._repr_html_()
    assert "<table" in h and "&lt;b&gt;Ana &amp; co&lt;/b&gt;" in h and "<b>Ana" not in h


def test_other_decisions_and_heuristic_playouts() -> None:
    """Hints work on any decision (responses, targets, ...), and with heuristic bots in the playouts."""
    from uu.bots import RandomBot

    g = new_game(["A", "B", "C", "D"], seed=2)
    bot = RandomBot(2)
    kinds = set()
    while g.pending is not None and len(kinds) < 4:
        if g.pending.kind not in kinds and g.state.turn_number >= 2 and len(g.pending.actions) > 1:
            kinds.add(g.pending.kind)
            r = hint(g, playouts=len(g.pending.actions), bot="heuristic" if len(kinds) % 2 else "random")
            assert len(r.rows) == len(g.pending.actions)
        g.apply(bot.choose(g))
    assert len(kinds) >= 3


def test_wrong_player_and_game_over() -> None:
    g = new_game(["A", "B"], seed=0)
    with pytest.raises(ValueError):
        hint(g, player=1 - g.pending.player, playouts=1)
    with pytest.raises(ValueError):
        hint(g, bot="nope", playouts=1)


def test_fast_copy_is_independent(positions: list[Game]) -> None:
    g = positions[0]
    before = g.to_dict()
    c = fast_copy(g)
    bot = __import__("uu.bots", fromlist=["RandomBot"]).RandomBot(0)
    while c.pending is not None:
        c.apply(bot.choose(c))
    assert g.to_dict() == before


def test_bench_bots_keys() -> None:
    r = bench_bots(["heuristic", "random", "random"], 6, seed=0)
    assert {"games", "players", "bots", "win_rates", "seconds"} <= set(r)
    assert r["games"] == 6 and r["players"] == 3 and r["bots"] == ["heuristic", "random", "random"]
    assert set(r["win_rates"]) == {"0", "1", "2", "none"}
    assert abs(sum(r["win_rates"].values()) - 1.0) < 1e-6


def test_bench_hint_keys() -> None:
    r = bench_hint(players=3, positions=2, seed=0, seconds=0.05)
    assert {"positions", "hint_seconds_median", "hint_seconds_p95", "playouts_per_s",
            "playouts_per_hint"} <= set(r)
    assert r["positions"] == 2 and r["playouts_per_hint"] > 0
