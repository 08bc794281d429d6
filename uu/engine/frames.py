"""The frame machine: half-resolved effects are data on `state.stack`, never Python recursion.

A handler receives its frame and, when it asked a question last time, the chosen action. It returns a
`Decision` (wait for a player), `DONE` (pop me) or `CONT` (I pushed or replaced frames; run the new top).
Handlers only change the state once they have their answer, so asking again gives the same question:
that is what lets a saved game recompute its pending decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from uu.engine.actions import Action, Decision, Target
from uu.engine.frame_types import Frame, OpFrame
from uu.engine.state import GameState

DONE: Final = "done"
CONT: Final = "cont"

Result = Decision | str
# A handler takes the frame of its own kind (uu.engine.frame_types); the table holds every kind's.
Handler = Callable[[GameState, Any, Action | None], Result]
VerbHandler = Callable[[GameState, OpFrame, Action | None], Result]

HANDLERS: Final[dict[str, Handler]] = {}
# The run part of each verb of the registry (uu.cards.verbs), filled by uu.engine.verb_handlers; kept here so the effect frames need no import cycle. Final: the compiled engine
# keeps Final module names in C statics instead of looking them up in the module's dict at every use.
VERB_HANDLERS: Final[dict[str, VerbHandler]] = {}
# Filled by uu.engine.hooks; kept here for the same reason (an import inside a hot function is slow).
HOOKS: Final[dict[str, VerbHandler]] = {}
HOOK_CHECKS: Final[dict[str, Callable[[GameState, int, int | None], bool]]] = {}


def hook_possible(s: GameState, name: str, you: int, src: int | None) -> bool:
    if name not in HOOKS:
        return False
    check = HOOK_CHECKS.get(name)
    return True if check is None else check(s, you, src)


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


# Actions and Targets are immutable and compare by value, so the ones offered again and again (the same card
# in the same place, the same yes/no question) are built once and shared by every decision and game. The
# keys hold everything the objects hold, so a shared object is always exactly the one that would be built.
_CARD_ACTIONS: Final[dict[tuple, Action]] = {}
_USE_DECLINE: Final[dict[str | None, tuple[Action, Action]]] = {}
_PLAYER_ACTIONS: Final[dict[tuple[int, ...], tuple[Action, ...]]] = {}
_TARGETS: Final[dict[tuple[int, str, int, str], Target]] = {}


def card_target(s: GameState, cid: int) -> Target:
    """The readable target naming instance `cid` where it is now (shared; see above)."""
    z = s.zone_of[cid]
    owner = s.owner_of[cid]
    name = s.defs[cid].name
    key = (cid, z, owner, name)
    t = _TARGETS.get(key)
    if t is None:
        t = _TARGETS[key] = Target(card=name, owner=owner if z in ("stable", "hand") else None, zone=z, cid=cid)
    return t


def card_actions(s: GameState, kind: str, cids: list[int], zone: str = "stable") -> tuple[Action, ...]:
    """One action per distinct (card, owner, zone): copies in one place are interchangeable."""
    seen: set[tuple[str, int]] = set()
    out = []
    defs, owner_of, zone_of = s.defs, s.owner_of, s.zone_of
    cache = _CARD_ACTIONS
    for cid in cids:
        name = defs[cid].name
        owner = owner_of[cid]
        key = (name, owner)
        if key in seen:
            continue
        seen.add(key)
        if kind == "target":
            ckey: tuple = (kind, name, cid, owner, zone_of[cid])
            a = cache.get(ckey)
            if a is None:
                a = cache[ckey] = Action("target", target=(card_target(s, cid),), cid=cid)
        else:
            ckey = (kind, name, cid)
            a = cache.get(ckey)
            if a is None:
                a = cache[ckey] = Action(kind, card=name, cid=cid)
        out.append(a)
    return tuple(out)


def player_actions(players: list[int]) -> tuple[Action, ...]:
    key = tuple(players)
    acts = _PLAYER_ACTIONS.get(key)
    if acts is None:
        acts = _PLAYER_ACTIONS[key] = tuple(Action("target", target=(Target(player=p),), cid=p) for p in players)
    return acts


def use_decline(s: GameState, p: int, src: int | None, prompt: str, *rules: str,
                verb: str | None = None) -> Decision:
    name = s.defs[src].name if src is not None else None
    acts = _USE_DECLINE.get(name)
    if acts is None:
        acts = _USE_DECLINE[name] = (Action("use", card=name), Action("decline", card=name))
    return Decision(p, "use", acts, prompt, ("effect.may", *rules), card=name, verb=verb)
