"""The what-if game tree: push / undo / redo / jump / branches, no duplicate children, exact replay."""

from __future__ import annotations

import json
import random

import pytest

from uu.engine import Action, IllegalAction, new_game
from uu.tutor.timeline import Timeline, TimelineError


def started(players=("Ana", "Ben", "Cy"), seed=4):
    """A game past setup, at an Action-phase decision."""
    g = new_game(list(players), seed=seed)
    rng = random.Random(seed)
    while g.pending.kind != "action":
        g.push(rng.choice(g.legal_actions))
    return g


def test_root_is_a_copy_and_the_game_is_never_changed():
    g = started()
    before = g.to_dict()
    tl = Timeline(g)
    tl.push(Action("draw"))
    tl.undo()
    tl.redo()
    assert g.to_dict() == before
    assert tl.game is not g and tl.current.depth == 1


def test_apply_undo_redo_jump():
    tl = Timeline(started())
    root = tl.current
    assert root.id == 0 and root.parent is None and root.depth == 0 and not tl.can_undo and not tl.can_redo
    n1 = tl.push(Action("draw"))
    assert (n1.parent, n1.depth, n1.actor, n1.description) == (0, 1, "Ana", "draw")
    assert tl.current is n1 and tl.can_undo
    n2 = tl.push(tl.game.legal_actions[0])
    assert n2.parent == n1.id and n2.depth == 2
    assert tl.undo() is n1 and tl.undo() is root
    with pytest.raises(TimelineError, match="nothing to undo"):
        tl.undo()
    assert tl.redo() is n1 and tl.redo() is n2
    with pytest.raises(TimelineError, match="nothing to redo"):
        tl.redo()
    assert tl.jump(0) is root and tl.jump(n2.id) is n2
    with pytest.raises(TimelineError, match="no node 99"):
        tl.jump(99)


def test_same_action_moves_to_the_existing_child():
    tl = Timeline(started())
    a = tl.push(Action("draw"))
    tl.undo()
    again = tl.push(Action("draw"))
    assert again is a and len(tl.nodes) == 2 and tl.nodes[0].children == [a.id]


def test_branches_and_redo_goes_to_the_most_recent_child():
    g = started()
    tl = Timeline(g)
    first, second = g.legal_actions[0], g.legal_actions[-1]
    a = tl.push(first)
    tl.push(tl.game.legal_actions[0])
    tl.jump(0)
    b = tl.push(second)
    assert tl.nodes[0].children == [a.id, b.id]
    branches = tl.branches()
    assert [br["path"][:2] for br in branches] == [[0, a.id], [0, b.id]]
    assert [br["current"] for br in branches] == [False, True]
    tl.jump(0)
    assert tl.redo() is b  # the most recent line
    tl.jump(tl.branches()[0]["leaf"])
    tl.jump(0)
    assert tl.redo() is a  # visiting the first line made it the most recent again


def test_illegal_action_changes_nothing():
    tl = Timeline(started())
    before = (len(tl.nodes), tl.current_id, tl.game.to_dict())
    with pytest.raises(IllegalAction):
        tl.push(Action("play", "Not A Card"))
    assert (len(tl.nodes), tl.current_id, tl.game.to_dict()) == before


def test_every_node_is_exact_after_undo_branch_and_jump():
    """The tree moves one game with pop and push: every node's full state (log and RNG included) is the state
    a copy kept at that node has, however the tree was walked to reach it."""
    g = started(("Ana", "Ben", "Cy", "Dee"), seed=9)
    tl = Timeline(g)
    kept = {0: g.copy()}  # a copy per node, made by playing on copies (no undo involved)
    rng = random.Random(9)
    for i in range(60):
        if tl.game.pending is None:
            break
        if i % 11 == 10:  # branch now and then
            tl.jump(tl.current.parent or 0)
        if i % 13 == 12:
            tl.undo()
            tl.redo()
        a = rng.choice(tl.game.legal_actions)
        parent = tl.current_id
        node = tl.push(a)
        if node.id not in kept:
            kept[node.id] = kept[parent].copy()
            kept[node.id].push(a)
    assert len(tl) > 40 and len(tl.branches()) > 3
    for nid in random.Random(1).sample(sorted(kept), len(kept)):  # jump around in any order
        tl.jump(nid)
        assert tl.game.to_dict() == kept[nid].to_dict()
        assert len(tl.game.moves) - len(g.moves) == tl.node(nid).depth
        assert tl.game_at(0).to_dict() == kept[0].to_dict() and tl.current_id == nid


def test_game_at_is_an_independent_copy():
    tl = Timeline(started())
    tl.push(Action("draw"))
    copy = tl.game_at(1)
    if copy.pending:
        copy.push(copy.legal_actions[0])
    assert tl.game.to_dict() != copy.to_dict()
    assert tl.game_at(1).to_dict() == tl.game.to_dict()


def test_fair_mode_refuses_to_undo_a_reveal():
    g = started()
    tl = Timeline(g, fair=True)
    n = tl.push(Action("draw"))  # a card leaves the deck: hidden information becomes known
    assert n.reveals and not tl.can_undo
    with pytest.raises(TimelineError, match="revealed hidden information"):
        tl.undo()
    with pytest.raises(TimelineError, match="revealed"):
        tl.jump(0)
    assert Timeline(g).push(Action("draw")).reveals  # recorded in the sandbox too, where undo is allowed


def test_to_dict_is_json_and_describes_every_node():
    tl = Timeline(started())
    tl.push(Action("draw"))
    tl.undo()
    tl.push(tl.game.legal_actions[0])
    data = json.loads(json.dumps(tl.to_dict()))
    assert data["current"] == tl.current_id and data["path"] == [0, tl.current_id]
    assert [n["id"] for n in data["nodes"]] == [0, 1, 2]
    first = data["nodes"][1]
    assert set(first) >= {"id", "parent", "action", "depth", "actor", "children", "turn", "pending"}
    assert first["actor"] == "Ana" and first["parent"] == 0 and first["action"] == "draw"
    assert len(data["branches"]) == 2


def test_game_over_node():
    g = started(("Ana", "Ben"), seed=2)
    tl = Timeline(g)
    rng = random.Random(2)
    while tl.game.pending is not None:
        tl.push(rng.choice(tl.game.legal_actions))
    assert tl.current.pending is None and tl.current.result
    with pytest.raises(Exception, match="game is over"):
        tl.push(Action("draw"))
    tl.undo()
    assert tl.game.pending is not None
