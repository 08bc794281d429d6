"""One observation (`Game.observe`, uu/engine/observation.py): what a seat sees, read by the table and the
bots. No bot's choice may change when the cards its seat cannot see are dealt anew."""

from __future__ import annotations

import json
import random
from collections.abc import Callable

import pytest

from uu.bots import HeuristicBot, RandomBot
from uu.engine import Action, Game, MalformedAction, new_game
from uu.engine import queries as q
from uu.scenario import build_game, parse_scenario
from uu.table.seat_view import observe as table_observe

NANNY = """
name: t
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue), Nanny Cam], Cy: [Baby Unicorn (Green)]}
hands: {Ana: [Neigh], Ben: [Yay, Rhinocorn], Cy: [Super Neigh]}
deck: [Neigh, Unicorn Poison, Basic Unicorn (Red)]
"""


def _ints(x: object, out: set[int]) -> set[int]:
    if isinstance(x, bool):
        return out
    if isinstance(x, int):
        out.add(x)
    elif isinstance(x, (tuple, list, frozenset, set)):
        for v in x:
            _ints(v, out)
    return out


def test_nanny_cam_hand_is_seen_by_every_seat_and_the_table_agrees() -> None:
    g = build_game(parse_scenario(NANNY))
    for viewer in (0, 2):
        seen = g.observe(viewer)
        ben = seen.seats[1]
        assert ben.hand_open and [seen.name(c) for c in ben.hand] == ["Yay", "Rhinocorn"]
        other = seen.seats[2 if viewer == 0 else 0]
        assert other.hand is None and other.hand_size == 1
        table = table_observe(g, viewer)
        assert [c["name"] for c in table["players"][1]["hand"]] == ["Yay", "Rhinocorn"]
        assert table["players"][1]["hand_open"]
        hidden = table["players"][2 if viewer == 0 else 0]
        assert [c["name"] for c in hidden["hand"]] == [None] and not hidden["hand_open"]


def test_no_hidden_card_id_and_no_deck_order_in_an_observation() -> None:
    g = new_game(["Ana", "Ben", "Cy", "Dee"], seed=5)
    bot = RandomBot(5)
    for _ in range(120):
        g.push(bot.choose(g))
    s = g.state
    for viewer in range(4):
        seen = g.observe(viewer)
        shown_hands = {p for p in range(4) if q.hand_visible(s, p)}  # Nanny Cam
        if g.pending.player == viewer:  # a hand its own decision picks from
            shown_hands |= {t.owner for a in g.pending.actions for t in a.target if t.zone == "hand"}
        hidden = set(s.deck) | {c for p in range(4) if p != viewer and p not in shown_hands for c in s.hands[p]}
        fields = [getattr(seen, f) for f in ("seats", "discard", "nursery", "limbo", "box", "counted_unicorns",
                                               "destroyable")]
        shown = _ints([(sv.hand, sv.stable) for sv in seen.seats], set()) | _ints(fields[1:], set())
        shown |= {e.cid for e in seen.pile}
        assert not shown & hidden
        assert seen.deck_size == len(s.deck) and not hasattr(seen, "deck")
        assert (seen.decision is not None) == (g.pending is not None and g.pending.player == viewer)


def test_the_analyst_sees_every_hand_and_a_bad_seat_is_refused() -> None:
    g = new_game(["Ana", "Ben"], seed=2)
    seen = g.observe(None)
    assert all(sv.hand is not None for sv in seen.seats) and seen.decision is g.pending
    with pytest.raises(MalformedAction):
        g.observe(5)
    json.dumps(table_observe(g, None))


def _decisions(n: int, seed: int, count: int) -> list[Game]:
    """Positions with a decision of several actions, from random games."""
    g = new_game([f"P{i}" for i in range(n)], seed=seed)
    bot = RandomBot(seed)
    out = []
    while g.pending is not None and len(out) < count:
        if len(g.pending.actions) > 1 and g.turn[2] > 0:
            out.append(g.copy())
        g.push(bot.choose(g))
    return out


Chooser = Callable[[Game], Action]


def _changed_by_redealing(make: Callable[[], Chooser], positions: list[Game]) -> int:
    """How many positions where the bot, fresh each time, chooses otherwise once the hidden cards of its seat
    (the deck order, the other hands) are dealt anew."""
    changed = 0
    for i, g in enumerate(positions):
        seat = g.pending.player
        first = make()(g)
        for k in range(3):
            other = g.resample(seat, random.Random(i * 10 + k))
            if make()(other) != first:
                changed += 1
                break
    return changed


POSITIONS = [g for n, seed in ((2, 1), (3, 2), (4, 3), (6, 4)) for g in _decisions(n, seed, 40)]


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_no_bot_choice_depends_on_cards_its_seat_cannot_see(bot: str) -> None:
    cls = HeuristicBot if bot == "heuristic" else RandomBot
    assert len(POSITIONS) > 120
    assert _changed_by_redealing(lambda: cls(7).choose, POSITIONS) == 0


def test_the_redealing_check_catches_a_bot_that_peeks() -> None:
    """The check above can fail: a bot that looks at the next seat's hand is caught."""

    def peeking() -> Chooser:
        def choose(g: Game) -> Action:
            d = g.pending
            nxt = g.state.hands[(d.player + 1) % len(g.players)]
            return d.actions[sum(nxt) % len(d.actions)]
        return choose

    assert _changed_by_redealing(peeking, POSITIONS) > 10


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_a_bot_decides_from_its_seats_observation_alone(bot: str) -> None:
    """`decide(observation)` is what the bot plays (`choose(game)` only observes for it), and it cannot depend
    on a hidden card: the observation holds none."""
    cls = HeuristicBot if bot == "heuristic" else RandomBot
    for g in POSITIONS:
        seen = g.observe(g.pending.player)
        assert cls(7).decide(seen) == cls(7).choose(g)
    assert _changed_by_redealing(lambda: lambda g: cls(7).decide(g.observe(g.pending.player)), POSITIONS) == 0


@pytest.mark.parametrize("bot", ["heuristic", "random"])
def test_a_bot_refuses_an_observation_with_no_decision_of_its_viewer(bot: str) -> None:
    cls = HeuristicBot if bot == "heuristic" else RandomBot
    g = POSITIONS[0]
    other = (g.pending.player + 1) % len(g.players)
    with pytest.raises(ValueError, match="no decision of its viewer"):
        cls(7).decide(g.observe(other))
