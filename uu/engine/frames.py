"""The frame machine: half-resolved effects are data on `state.stack`, never Python recursion.

A handler receives its frame and, when it asked a question last time, the chosen action. It returns a
`Decision` (wait for a player), `DONE` (pop me) or `CONT` (I pushed or replaced frames; run the new top).
Handlers only change the state once they have their answer, so asking again gives the same question:
that is what lets a saved game recompute its pending decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from uu.engine.actions import Action, Decision, Target
from uu.engine.state import GameState

DONE = "done"
CONT = "cont"

Frame = dict[str, Any]
Result = Decision | str
Handler = Callable[[GameState, Frame, Action | None], Result]

HANDLERS: dict[str, Handler] = {}
VERBS: dict[str, Handler] = {}  # filled by uu.engine.verbs; kept here so the effect frames need no import cycle


def handler(kind: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        HANDLERS[kind] = fn
        return fn

    return register


def replace_top(s: GameState, f: Frame, new: Frame) -> str:
    """Tail call: the finished frame `f` (on top) is replaced by `new`."""
    assert s.stack and s.stack[-1] is f, "only the top frame can replace itself"
    s.stack[-1] = new
    return CONT


def card_actions(s: GameState, kind: str, cids: list[int], zone: str = "stable") -> tuple[Action, ...]:
    """One action per distinct (card, owner, zone): copies in one place are interchangeable."""
    seen: set[tuple[str, int]] = set()
    out = []
    for cid in cids:
        name = s.defs[cid].name
        owner = s.owner_of[cid]
        key = (name, owner)
        if key in seen:
            continue
        seen.add(key)
        if kind == "target":
            z = s.zone_of[cid]
            own = owner if z in ("stable", "hand") else None
            out.append(Action("target", target=(Target(card=name, owner=own, zone=z, cid=cid),), cid=cid))
        else:
            out.append(Action(kind, card=name, cid=cid))
    return tuple(out)


def player_actions(players: list[int]) -> tuple[Action, ...]:
    return tuple(Action("target", target=(Target(player=p),), cid=p) for p in players)


def use_decline(s: GameState, p: int, src: int | None, prompt: str, *rules: str) -> Decision:
    name = s.defs[src].name if src is not None else None
    return Decision(p, "use", (Action("use", card=name), Action("decline", card=name)), prompt,
                    ("effect.may", *rules), card=name)
