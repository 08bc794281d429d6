"""The move stack (python-chess's push / pop / move_stack): `pop` takes back exactly one move, every time.

The engine under test is whichever the import chose (the compiled one when built); test_native.py runs
`_POP_CHECK` below under both builds in subprocesses."""

from __future__ import annotations

import pytest

from uu.bots import RandomBot
from uu.engine import Action, Game, IllegalAction, MalformedAction, NothingToUndo, new_game

CASES = [(2, 0, {}), (3, 1, {"targeting": "neigh-first"}), (4, 2, {"deck_out": "reshuffle"}), (6, 3, {}),
         (8, 4, {"hand_limit": 5, "pandas": "all-effects"})]


def pop_check(n: int, seed: int, options: dict, limit: int = 4000) -> int:
    """Play a random game, recording `to_dict()` before every push; then pop back to the start, comparing at
    every step; then push the same moves again and require the same end. Returns the number of moves."""
    g = new_game([f"P{i}" for i in range(n)], seed=seed, options=options)
    bot = RandomBot(seed)
    seen = [g.to_dict()]
    pendings = [g.pending]
    while g.pending is not None and len(g.moves) < limit:
        g.push(bot.choose(g))
        seen.append(g.to_dict())
        pendings.append(g.pending)
    end = seen[-1]
    moves = g.moves
    for k in range(len(moves), 0, -1):
        assert g.pop() == moves[k - 1]
        assert len(g.moves) == k - 1
        assert g.pending == pendings[k - 1], f"pending decision differs after popping back to move {k - 1}"
        assert g.to_dict() == seen[k - 1], f"state differs after popping back to move {k - 1}"
    for a in moves:
        g.push(a)
    assert g.to_dict() == end
    return len(moves)


@pytest.mark.parametrize("n,seed,options", CASES)
def test_pop_back_to_the_start_gives_every_earlier_state(n: int, seed: int, options: dict) -> None:
    assert pop_check(n, seed, options) > 50


def test_pop_then_play_on_is_the_game_that_never_made_the_move() -> None:
    """Undo is not only equal on paper: the popped game plays on exactly like a game that stopped there."""
    g = new_game(["Ana", "Ben", "Cy"], seed=7)
    bot = RandomBot(7)
    for _ in range(60):
        g.push(bot.choose(g))
    twin = g.copy()
    for _ in range(25):
        g.push(g.legal_actions[-1])
    for _ in range(25):
        g.pop()
    b1, b2 = RandomBot(9), RandomBot(9)
    while g.pending is not None and len(g.moves) < 400:
        g.push(b1.choose(g))
        twin.push(b2.choose(twin))
        assert g.to_dict() == twin.to_dict()
    assert [e.text for e in g.log] == [e.text for e in twin.log]


def test_moves_is_read_only_and_copies_keep_their_own_stack() -> None:
    g = new_game(["Ana", "Ben"], seed=1)
    g.push(g.legal_actions[0])
    assert isinstance(g.moves, tuple) and len(g.moves) == 1
    c = g.copy()
    c.push(c.legal_actions[0])
    assert len(g.moves) == 1 and len(c.moves) == 2
    c.pop()
    c.pop()
    assert g.to_dict() != c.to_dict() and len(g.moves) == 1  # popping the copy leaves the original alone
    assert g.playout_copy().moves == ()


def test_bad_input_never_reaches_the_stack() -> None:
    g = new_game(["Ana", "Ben"], seed=1)
    with pytest.raises(NothingToUndo):
        g.pop()
    with pytest.raises(IndexError):  # an IndexError too, as for an empty list
        g.pop()
    with pytest.raises(IllegalAction):
        g.push(Action("draw"))
    with pytest.raises(MalformedAction):
        g.push("draw")  # type: ignore[arg-type]
    assert g.moves == ()


def test_pop_to_takes_many_moves_back_at_once() -> None:
    g = new_game(["Ana", "Ben", "Cy"], seed=3)
    bot = RandomBot(3)
    seen = [g.to_dict()]
    while g.pending is not None and len(g.moves) < 150:
        g.push(bot.choose(g))
        seen.append(g.to_dict())
    moves = g.moves
    for count in (149, 129, 128, 127, 65, 64, 63, 33, 32, 1, 0):
        taken = g.pop_to(count)
        assert g.to_dict() == seen[count] and g.moves == moves[:count]
        for a in taken:
            g.push(a)
        assert g.to_dict() == seen[len(moves)]
    assert g.pop_to(len(moves)) == []
    for bad in (-1, len(moves) + 1, "3"):
        with pytest.raises(NothingToUndo):
            g.pop_to(bad)  # type: ignore[arg-type]


def test_records_made_by_an_undo_serve_the_branch_played_after_it() -> None:
    """Undo records are made while an undo plays the moves again (push makes none): after going back and
    playing other moves, going back again still finds every earlier state of the new line."""
    g = new_game(["Ana", "Ben", "Cy", "Dee"], seed=9)  # a long game, and a long one on the other line too
    bot = RandomBot(9)
    seen = [g.to_dict()]
    while g.pending is not None and len(g.moves) < 300:
        g.push(bot.choose(g))
        seen.append(g.to_dict())
    assert len(g.moves) == 300
    g.pop_to(200)  # plays 200 moves again from the start, recording before moves 0 and 128
    assert g.to_dict() == seen[200]
    branch = [g.to_dict()]
    while g.pending is not None and len(g.moves) < 300:
        g.push(g.legal_actions[-1])
        branch.append(g.to_dict())
    assert len(g.moves) == 300
    for count in (290, 257, 256, 255, 201, 200):
        g.pop_to(count)
        assert g.to_dict() == branch[count - 200], f"the new line differs at move {count}"
    for count in (199, 129, 128, 127, 1, 0):
        g.pop_to(count)
        assert g.to_dict() == seen[count], f"the first line differs at move {count}"


@pytest.mark.parametrize("kind", ["loaded", "playout", "copied"])
def test_pop_back_to_the_start_of_a_game_that_was_not_dealt_here(kind: str) -> None:
    """A loaded game or a playout copy cannot be dealt again: its start is recorded at its first push. A copy
    of a new game deals its start again when an undo needs it."""
    g = new_game(["Ana", "Ben", "Cy"], seed=11)
    bot = RandomBot(11)
    for _ in range(40):
        g.push(bot.choose(g))
    h = {"loaded": lambda: Game.from_dict(g.to_dict()), "playout": g.playout_copy, "copied": g.copy}[kind]()
    start = h.to_dict()
    pushed = 0
    while h.pending is not None and pushed < 150:
        h.push(bot.choose(h))
        pushed += 1
    h.pop_to(len(h.moves) - pushed)
    assert h.to_dict() == start
