"""A game tree for the what-if sandbox: undo, redo, branches and jumps (pure Python, no widgets).

    >>> from uu.engine import new_game
    >>> tl = Timeline(new_game(["Ana", "Ben"], seed=1))   # the root is a copy: the game itself is never changed
    >>> _ = tl.push(tl.game.legal_actions[0]); _ = tl.undo(); _ = tl.redo(); _ = tl.jump(0)
    >>> len(tl.nodes), tl.current.id, [b["path"] for b in tl.branches()]
    (2, 0, [[0, 1]])

Every node is one position; its children are the actions tried from it. `push` adds a child, or moves to the
existing child when the same action (equal by names, docs/scenario-format.md) was already tried, so the tree
never holds a duplicate. `redo` goes to the child visited most recently. `game` is the position at the current node: read
it, but change it only through `push` (it is the tree's cached copy).

**Storage: one game and its move stack.** The tree keeps a single game (a copy of the one it was given) at
the current node; moving in the tree takes moves back with `Game.pop` and makes them again with `Game.push`.
Undo is one `pop`, redo one `push`; a jump pops up to the common ancestor and pushes down the other line,
never replaying from the start. Every node's position is exact because `pop` restores the state exactly and
the engine is deterministic (a test compares every node's full state, log and RNG included, with a tree that
keeps a copy per node).

`fair=True` refuses to undo (or jump back) across an action that revealed hidden information (a card drawn,
a hand looked at: the state's `info_epoch` grew), for play where undo must not become a peek; the sandbox
default is `fair=False`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, TypedDict

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.tutor.preview import NO_TURN, TurnSeen


class DeciderSeen(TypedDict):
    """Who decides at a node, by name, and the decision's kind."""

    player: str
    kind: str

__all__ = ["Node", "Timeline", "TimelineError"]


class TimelineError(ValueError):
    """An impossible move in the tree (nothing to undo, unknown node, ...); nothing was changed."""


@dataclass
class Node:
    id: int
    parent: int | None
    action: Action | None  # the action that led here from the parent (None at the root)
    description: str  # that action in words ("play Rhinocorn into Ana's Stable")
    depth: int
    actor: str | None  # who made that action
    children: list[int] = field(default_factory=list)
    last_child: int | None = None  # the child visited most recently (redo goes there)
    reveals: bool = False  # the action made hidden information known (info_epoch grew)
    turn: TurnSeen = field(default_factory=NO_TURN.copy)  # after the action
    pending: DeciderSeen | None = None  # after the action; None when the game is over
    result: str | None = None  # "Ana wins" / "everyone loses" when the game ended here

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "parent": self.parent, "action": self.description, "depth": self.depth,
                "actor": self.actor, "children": list(self.children), "last_child": self.last_child,
                "reveals": self.reveals, "turn": dict(self.turn),
                "pending": None if self.pending is None else dict(self.pending), "result": self.result}


class Timeline:
    def __init__(self, game: Game, fair: bool = False):
        self.fair = fair
        self._game = game.copy()
        self._nodes: list[Node] = [self._make_node(0, None, None, "start", 0, None, False, self._game)]
        self._current = 0

    # ---- reading -------------------------------------------------------------------------------------
    @property
    def current(self) -> Node:
        return self._nodes[self._current]

    @property
    def current_id(self) -> int:
        return self._current

    @property
    def game(self) -> Game:
        """The position at the current node: the tree's own game, which moving in the tree changes in place
        (read it, change it only through `push`; `game_at` gives a copy to keep)."""
        return self._game

    @property
    def nodes(self) -> list[Node]:
        return list(self._nodes)

    def node(self, node_id: int) -> Node:
        if not isinstance(node_id, int) or not 0 <= node_id < len(self._nodes):
            raise TimelineError(f"no node {node_id!r}: nodes are numbered 0 to {len(self._nodes) - 1}")
        return self._nodes[node_id]

    def game_at(self, node_id: int) -> Game:
        """An independent copy of the position at `node_id` (yours to change)."""
        here = self._current
        self._move_to(self.node(node_id).id)
        try:
            return self._game.copy()
        finally:
            self._move_to(here)

    def path(self, node_id: int | None = None) -> list[int]:
        """Node ids from the root to `node_id` (default: the current node)."""
        n = self.node(self._current if node_id is None else node_id)
        out = [n.id]
        while n.parent is not None:
            n = self._nodes[n.parent]
            out.append(n.id)
        return out[::-1]

    def branches(self) -> list[dict[str, Any]]:
        """Every line of play: one entry per leaf, in the order the leaves were created, with its path."""
        out = []
        for n in self._nodes:
            if n.children:
                continue
            path = self.path(n.id)
            out.append({"leaf": n.id, "path": path, "depth": n.depth, "last": n.description,
                        "current": self._current in path})
        return out

    @property
    def can_undo(self) -> bool:
        n = self.current
        return n.parent is not None and not (self.fair and n.reveals)

    @property
    def can_redo(self) -> bool:
        return self.current.last_child is not None

    # ---- moving ----------------------------------------------------------------------------------------
    def push(self, action: Action) -> Node:
        """Make `action` at the current node: move to the child it leads to (made now unless the same action
        was tried before). An illegal action raises the engine's error and changes nothing."""
        game = self._game
        legal = game.find(action)
        here = self.current
        for cid in here.children:
            if self._nodes[cid].action == legal:
                return self._go(cid)
        actor = game.players[game.pending.player]  # type: ignore[union-attr]
        before = game.state.info_epoch
        game.push_legal(legal)
        node = self._make_node(len(self._nodes), here.id, legal, game.describe(legal), here.depth + 1, actor,
                               game.state.info_epoch != before, game)
        self._nodes.append(node)
        here.children.append(node.id)
        self._current = node.id
        return self._go(node.id)

    def undo(self) -> Node:
        n = self.current
        if n.parent is None:
            raise TimelineError("nothing to undo: this is the starting position")
        if self.fair and n.reveals:
            raise TimelineError(f"cannot undo {n.description!r}: it revealed hidden information")
        return self._go(n.parent)

    def redo(self) -> Node:
        n = self.current
        if n.last_child is None:
            raise TimelineError("nothing to redo: no move was made from this position")
        return self._go(n.last_child)

    def jump(self, node_id: int) -> Node:
        target = self.node(node_id)
        if self.fair:
            mine, theirs = self.path(), set(self.path(target.id))
            for nid in reversed(mine):
                if nid in theirs:
                    break
                if self._nodes[nid].reveals:
                    raise TimelineError(f"cannot jump to node {node_id}: going back past "
                                        f"{self._nodes[nid].description!r} would undo revealed information")
        return self._go(target.id)

    # ---- summary ---------------------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        """JSON-able: every node, the current one, the current path, the branches."""
        return {"current": self._current, "path": self.path(), "nodes": [n.to_dict() for n in self._nodes],
                "branches": self.branches(), "can_undo": self.can_undo, "can_redo": self.can_redo}

    def __len__(self) -> int:
        return len(self._nodes)

    def __repr__(self) -> str:
        return f"<Timeline {len(self._nodes)} nodes, at {self._current} (depth {self.current.depth})>"

    # ---- internals -------------------------------------------------------------------------------------
    def _go(self, node_id: int) -> Node:
        self._move_to(node_id)
        # mark the path as the most recent line, so redo from any ancestor comes back here
        child = node_id
        parent = self._nodes[child].parent
        while parent is not None:
            self._nodes[parent].last_child = child
            child, parent = parent, self._nodes[parent].parent
        self._current = node_id
        return self._nodes[node_id]

    @staticmethod
    def _make_node(nid: int, parent: int | None, action: Action | None, description: str, depth: int,
                   actor: str | None, reveals: bool, game: Game) -> Node:
        cur, phase, number = game.turn
        d = game.pending
        return Node(nid, parent, action, description, depth, actor, reveals=reveals,
                    turn=TurnSeen(player=game.players[cur], phase=phase, number=number),
                    pending=None if d is None else DeciderSeen(player=game.players[d.player], kind=d.kind),
                    result=game.result_text() if game.is_over else None)

    def _move_to(self, node_id: int) -> None:
        """Bring the game to `node_id`: pop up to the common ancestor, push down to the node."""
        if node_id == self._current:
            return
        mine, theirs = self.path(self._current), self.path(node_id)
        common = 0
        while common < min(len(mine), len(theirs)) and mine[common] == theirs[common]:
            common += 1
        self._game.pop_to(len(self._game.moves) - (len(mine) - common))
        for nid in theirs[common:]:
            self._game.push(self._nodes[nid].action)  # type: ignore[arg-type]  # only the root has none
        self._current = node_id
