"""Running effects: programs of ops with the connectives (and / then / if you do / may), links of the
effect chain, and replacement ("would") events. Verbs themselves live in `uu.engine.verb_handlers`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, Literal

from uu.engine import queries as q
from uu.engine.actions import Action, Decision, DecisionKind
from uu.engine.frame_types import (
    EachFrame,
    LinkFrame,
    Op,
    OpFrame,
    ProgFrame,
    WouldFrame,
)
from uu.engine.frames import (
    CONT,
    DONE,
    VERB_HANDLERS,
    Result,
    card_actions,
    handler,
    player_actions,
    replace_top,
    use_decline,
)
from uu.engine.moves import leave_stable
from uu.engine.state import GameState
from uu.engine.targets import (
    card_candidates,
    clone,
    declarable_static,
    is_player_choice,
    op_possible,
    ops_possible,
    player_candidates,
)

KIND_RULES: Final = {"enter": "effect.enter", "leave": "effect.leave", "turn_start": "bot.trigger",
              "watch": "effect.triggered-continuous", "play": "card.magic-one-shot"}


def prog(ops: list[Op], you: int, src: int | None) -> ProgFrame:
    return {"kind": "prog", "ops": ops, "next_op": 0, "you": you, "src": src}


def op_frame(op: Op, you: int, src: int | None, actor: int | None = None) -> OpFrame:
    return {"kind": "op", "op": op, "you": you, "src": src, "actor": you if actor is None else actor,
            "step": "init", "picks_made": 0, "picks_carried_out": 0}


@handler("prog")
def h_prog(s: GameState, f: ProgFrame, action: Action | None) -> Result:
    """Ops in a list run in the printed order (effect.order, effect.and)."""
    i = f["next_op"]
    if i >= len(f["ops"]):
        return DONE
    f["next_op"] = i + 1
    s.stack.append(op_frame(f["ops"][i], f["you"], f["src"]))
    return CONT


def finish(s: GameState, f: OpFrame | EachFrame, ok: bool) -> Result:
    """End an op: `then` runs only if it was carried out (effect.then); `if_you_do` only if the player
    chose to do it (effect.if-you-do)."""
    s.last_ok = ok
    op = f["op"]
    if op.get("then") and ok:
        return replace_top(s, f, prog(op["then"], f["you"], f["src"]))
    if op.get("if_you_do") and (f.get("chose") if op.get("may") else ok):
        return replace_top(s, f, prog(op["if_you_do"], f["you"], f["src"]))
    if op.get("then") and not ok:
        s.say("The part after 'then' does not happen: the first part was not carried out.", "effect.then")
    return DONE


@handler("op")
def h_op(s: GameState, f: OpFrame, action: Action | None) -> Result:
    op = f["op"]
    you, src = f["you"], f["src"]
    if f["step"] == "init":
        if op.get("may") and not f.get("asked"):
            if not op_possible(s, op, you, src):
                return finish(s, f, False)
            if action is None:
                return use_decline(s, you, src, f"Use the optional part '{op['do']}' of {_src_name(s, src)}?",
                                   verb=op["do"])
            f["asked"] = True
            if action.kind == "decline":
                s.say(f"{s.players[you]} declines.", "effect.may", player=you)
                return finish(s, f, False)
            f["chose"] = True
            action = None
        if op.get("who") == "each":
            each: EachFrame = {"kind": "each", "op": op, "you": you, "src": src, "queue": s.seats_from(you),
                    "all_carried_out": True, "child_running": False}
            return replace_top(s, f, each)
        if op.get("who") == "target" and not f.get("actor_set"):
            if s.ctx_player is None:
                return finish(s, f, False)
            f["actor"] = s.ctx_player
            f["actor_set"] = True
        if op.get("who") == "other" and not f.get("actor_set"):
            cands = player_candidates(s, op, you)
            if "chosen" in op:
                p = op["chosen"][0] if op["chosen"] and op["chosen"][0] in cands else None
            elif not cands:
                p = None
            elif action is None:
                return Decision(you, "target", player_actions(cands), "Choose another player.",
                                ("target.players",), card=_src_name(s, src), verb=op["do"])
            else:
                p = action.cid
                action = None
            if p is None:
                return finish(s, f, False)
            f["actor"] = p
            f["actor_set"] = True
        f["step"] = "run"
    return VERB_HANDLERS[op["do"]](s, f, action)


def _src_name(s: GameState, src: int | None) -> str | None:
    return s.defs[src].name if src is not None else None


@handler("each")
def h_each(s: GameState, f: EachFrame, action: Action | None) -> Result:
    """'Each player' acts in seat order starting with the controller (target.players)."""
    if f["child_running"]:
        f["child_running"] = False
        f["all_carried_out"] = f["all_carried_out"] and s.last_ok
    if f["queue"]:
        p = f["queue"].pop(0)
        sub = {k: v for k, v in f["op"].items() if k not in ("who", "then", "if_you_do", "may")}
        s.stack.append(op_frame(sub, f["you"], f["src"], actor=p))
        f["child_running"] = True
        return CONT
    return finish(s, f, f["all_carried_out"])


def pick_loop(s: GameState, f: OpFrame, action: Action | None, *, chooser: int, kind: DecisionKind, n: int,
              candidates: list[int], act: Callable[[int], bool | str], prompt: str,
              rules: tuple[str, ...]) -> Result:
    """Choose and act n times, one card at a time. Declared choices (op["chosen"]) are used when still
    valid; otherwise the chooser is asked. `act(cid)` returns True/False (done now) or CONT (it pushed a
    frame whose outcome arrives in state.last_ok)."""
    op = f["op"]
    if f.get("acting"):
        f["acting"] = False
        f["picks_carried_out"] += 1 if s.last_ok else 0
        f["picks_made"] += 1
    while f["picks_made"] < n:
        picked = f.setdefault("picked", [])
        cands = [c for c in candidates if c not in picked]
        if "chosen" in op:
            chosen = op["chosen"]
            cid = chosen[f["picks_made"]] if f["picks_made"] < len(chosen) else None
            if cid is None or cid not in cands:
                break
        elif not cands:
            break
        elif action is None:
            return Decision(chooser, kind, card_actions(s, kind, cands), prompt, rules,
                            card=_src_name(s, f["src"]), verb=op["do"])
        else:
            cid = action.cid
            action = None
        assert cid is not None
        picked.append(cid)
        res = act(cid)
        if res == CONT:
            f["acting"] = True
            return CONT
        f["picks_carried_out"] += 1 if res else 0
        f["picks_made"] += 1
    return finish(s, f, f["picks_carried_out"] >= n)


# ---- links of the effect chain -----------------------------------------------------------------------

@handler("link")
def h_link(s: GameState, f: LinkFrame, action: Action | None) -> Result:
    effs = f["effects"]
    if effs and effs[0]["kind"] == "turn_start":
        return _turn_start_link(s, f, action)
    e = effs[0]
    eff, you, cid = e["eff"], e["you"], e["cid"]
    name = s.name(cid)
    rule = KIND_RULES[e["kind"]]
    if eff.get("may"):
        if not ops_possible(s, eff["ops"], you, cid):
            s.say(f"{name}'s optional effect could do nothing, so it is not offered.", "effect.may", rule)
            return DONE
        if action is None:
            return use_decline(s, you, cid, f"Use the effect of {name}?", rule)
        if action.kind == "decline":
            s.say(f"{s.players[you]} does not use {name}.", "effect.may", rule, player=you)
            return DONE
    s.say(f"{name}'s effect resolves for {s.players[you]}.", "chain.link", rule, player=you)
    return replace_top(s, f, prog(eff["ops"], you, cid))


def turn_start_link(s: GameState, p: int, cids: list[int]) -> LinkFrame:
    effects = []
    for cid in cids:
        eff = s.defs[cid].turn_start
        assert eff is not None, "only cards with a beginning-of-turn effect form a turn-start link"
        effects.append({"cid": cid, "you": p, "kind": "turn_start", "may": bool(eff.get("may")),
                        "ops": clone(eff["ops"]), "use": None if eff.get("may") else True})
    return {"kind": "link", "effects": effects, "step": "ask", "used": [], "queue": None, "resolve_next": 0}


def _turn_start_link(s: GameState, f: LinkFrame, action: Action | None) -> Result:
    """Beginning-of-turn effects form one link (bot.simultaneous, chain.link): every optional effect is
    used or declined, then the choices of mandatory effects, then of used optional ones
    (chain.mandatory-first), never the same card twice (chain.same-target), then all resolve."""
    effs = f["effects"]
    if f["step"] == "ask":
        for e in effs:
            if e["use"] is not None:
                continue
            name = s.name(e["cid"])
            if action is None:
                reserved = _reserve(s, [x for x in effs if x["use"]])
                if not ops_possible(s, e["ops"], e["you"], e["cid"]) or not _targets_left(s, e, reserved):
                    e["use"] = False
                    s.say(f"{name}'s optional effect could do nothing, so it is not offered.", "effect.may")
                    continue
                return use_decline(s, e["you"], e["cid"], f"Use the beginning-of-turn effect of {name}?",
                                   "bot.trigger", "bot.optional-lost")
            # the answer about this effect: nothing has changed since it was found usable and asked about
            # a local, not e["use"] again: mypy narrowed e["use"] to None above (the `is not None` test), and
            # the compiled engine trusts that narrowing (it printed "does not use" for a used effect)
            use = action.kind == "use"
            e["use"] = use
            s.say(f"{s.players[e['you']]} {'uses' if use else 'does not use'} {name}.", "effect.may",
                  "bot.trigger", player=e["you"])
            action = None
        order = [i for i, e in enumerate(effs) if not e["may"]] + \
                [i for i, e in enumerate(effs) if e["may"] and e["use"]]
        f["queue"] = [[i, j] for i in order for j in range(len(declarable_static(effs[i]["ops"], True)))]
        f["step"] = "declare"
    if f["step"] == "declare":
        while f["queue"]:
            i, j = f["queue"][0]
            e = effs[i]
            if i not in f.setdefault("checked", []) and not _targets_left(s, e, f["used"]):
                # chain.not-enough-targets: this effect cannot target anything the link has not taken
                e["use"] = False
                f["queue"] = [x for x in f["queue"] if x[0] != i]
                s.say(f"Not enough targets left for {s.name(e['cid'])}: it does not trigger this turn.",
                      "chain.not-enough-targets", "chain.same-target")
                continue
            if i not in f["checked"]:
                f["checked"].append(i)
            op = declarable_static(e["ops"], True)[j]
            chosen = op.setdefault("chosen", [])
            n = 1 if is_player_choice(op) else op.get("n", 1)
            if len(chosen) >= n:
                f["queue"].pop(0)
                continue
            players = is_player_choice(op)
            kind: DecisionKind
            if players:
                cands = player_candidates(s, op, e["you"])
                kind = "target"
            else:
                cands = [c for c in card_candidates(s, op, e["you"], e["cid"]) if c not in f["used"]]
                kind = op["do"] if op["do"] in ("sacrifice", "discard") else "target"
            if not cands:
                s.say(f"Not enough targets for {s.name(e['cid'])}: that part is skipped.",
                      "chain.not-enough-targets")
                f["queue"].pop(0)
                continue
            if action is None:  # the actions are built only to ask (an answer needs only its own cid)
                acts = player_actions(cands) if players else card_actions(s, kind, cands)
                return Decision(e["you"], kind, acts,
                                f"Choose for {s.name(e['cid'])} ({op['do']}) before the link resolves.",
                                ("chain.targets-before", "chain.same-target"), card=s.name(e["cid"]),
                                verb=op["do"])
            assert action.cid is not None
            chosen.append(action.cid)
            if not players:
                f["used"].append(action.cid)
            action = None
        f["step"] = "resolve"
    while f["resolve_next"] < len(effs):
        e = effs[f["resolve_next"]]
        f["resolve_next"] += 1
        if e["use"]:
            s.say(f"{s.name(e['cid'])}'s beginning-of-turn effect resolves.", "bot.trigger", "chain.link")
            s.stack.append(prog(e["ops"], e["you"], e["cid"]))
            return CONT
    return DONE


def _reserve(s: GameState, committed: list[dict[str, Any]]) -> list[int]:
    """Cards the committed effects of a link will need, picked greedily (first free candidate each), so an
    optional effect is offered only if targets are left for it too (chain.not-enough-targets)."""
    taken: list[int] = []
    for e in committed:
        for op in declarable_static(e["ops"], True):
            if is_player_choice(op):
                continue
            free = [c for c in card_candidates(s, op, e["you"], e["cid"]) if c not in taken]
            taken.extend(free[: op.get("n", 1)])
    return taken


def _targets_left(s: GameState, e: dict[str, Any], used: list[int]) -> bool:
    """Every choice this effect makes in advance still has a candidate the link has not taken."""
    for op in declarable_static(e["ops"], True):
        if is_player_choice(op):
            if not player_candidates(s, op, e["you"]):
                return False
            continue
        need = 1 if op["do"] not in ("sacrifice", "discard") else op.get("n", 1)
        cands = card_candidates(s, op, e["you"], e["cid"])
        if len(cands) < need or (used and len([c for c in cands if c not in used]) < need):
            return False
    return True


# ---- replacement effects -------------------------------------------------------------------------------

def replacements(s: GameState, victim: int, event: str) -> list[tuple[int, dict[str, Any]]]:
    owner = s.owner_of[victim]
    found = []
    for c in s.stables[owner]:
        for w in s.defs[c].would:
            events = w["event"] if isinstance(w["event"], list) else [w["event"]]
            if event not in events or not q.text_works(s, c):
                continue
            if w["of"] == "this" and c != victim:
                continue
            if w["of"] == "unicorn_in_your_stable" and (c == victim or not q.is_unicorn(s, victim)):
                continue
            if ops_possible(s, w["instead"], owner, c):
                found.append((c, w))
    return found


def would_frame(event: Literal["destroy", "sacrifice"], victim: int, you: int, src: int | None) -> WouldFrame:
    return {"kind": "would", "event": event, "victim": victim, "you": you, "src": src, "step": "start"}


@handler("would")
def h_would(s: GameState, f: WouldFrame, action: Action | None) -> Result:
    """A card would be destroyed or sacrificed: replacement effects may act instead, at most once per
    event; otherwise it goes to the discard pile (a Baby to the Nursery) and leave triggers fire."""
    v = f["victim"]
    if f["step"] == "replaced":
        s.last_ok = False
        return DONE
    if s.zone_of[v] != "stable":
        s.last_ok = False
        return DONE
    owner = s.owner_of[v]
    reps = replacements(s, v, f["event"])
    if reps:
        if action is None:
            acts = tuple(Action("use", card=s.name(c), cid=c) for c, _ in reps) + \
                (Action("decline", card=s.name(v)),)
            return Decision(owner, "use", acts,
                            f"{s.name(v)} would be {'destroyed' if f['event'] == 'destroy' else 'sacrificed'}: use a "
                            "replacement effect instead?",
                            ("effect.may",), card=s.name(v))
        if action.kind == "use":
            c = action.cid
            assert c is not None
            w = next(w for cc, w in reps if cc == c)
            s.say(f"{s.players[owner]} uses {s.name(c)}: instead of {s.name(v)} being {_past(f['event'])}, "
                  f"something else happens.", "effect.may", player=owner)
            f["step"] = "replaced"
            s.stack.append(prog(w["instead"], owner, c))
            return CONT
    rule = "verb.destroy" if f["event"] == "destroy" else "verb.sacrifice"
    s.say(f"{s.players[f['you']]} {f['event'].upper()}s {s.name(v)}"
          + (f" from {s.players[owner]}'s Stable." if owner != f["you"] else "."), rule, player=f["you"])
    leave_stable(s, v, f["event"], "discard")
    s.last_ok = True
    return DONE


def _past(event: str) -> str:
    return {"destroy": "destroyed", "sacrifice": "sacrificed"}.get(event, event)
