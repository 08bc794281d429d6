"""The Action phase and the Neigh pile.

Only playing a card opens a response window (neigh.cards-only). Responses go on top of the pile and answer
only the top card (pile.top-only); players are asked in seat order starting left of whoever played the top
card (option.responder-order); a new top card re-opens responses to everybody (pile.respond-again). The
pile resolves from the top (pile.resolve-top-down): a Neigh takes the card under it to the discard pile.
"""

from __future__ import annotations

from uu.cards.schema import CardType
from uu.engine import moves
from uu.engine import queries as q
from uu.engine.actions import Action, Decision, Target
from uu.engine.effects import prog
from uu.engine.frames import CONT, DONE, Frame, Result, handler, replace_top
from uu.engine.state import GameState
from uu.engine.targets import clone, declarable, declarable_static, declare_combos, is_player_choice, playable

PERMANENT = (CardType.BABY, CardType.BASIC, CardType.MAGICAL, CardType.UPGRADE, CardType.DOWNGRADE)


def play_actions(s: GameState, p: int) -> list[Action]:
    """Every legal way for p to play a card now (action.requirements), then DRAW (action.draw-instead)."""
    acts: list[Action] = []
    seen: set[str] = set()
    bees = q.queen_bee_owners(s)
    seats = s.seats_from(p)
    # Queen Bee: Basic Unicorns may only enter her owners' Stables (any Stable when there is none)
    basic_seats = seats if not bees else [x for x in seats if all(b == x for b in bees)]
    defs = s.defs
    declare_first = s.options.targeting == "declare-first"
    for cid in s.hands[p]:
        d = defs[cid]
        name = d.name
        if name in seen:
            continue
        seen.add(name)
        t = d.type
        if t is CardType.INSTANT:
            continue
        if t in PERMANENT:
            if t is CardType.UPGRADE and q.cannot_play(s, p, "upgrade"):
                continue
            if t is CardType.DOWNGRADE and q.cannot_play(s, p, "downgrade"):
                continue
            for dest in (basic_seats if t is CardType.BASIC else seats):
                acts.append(Action("play", name, dest, (), None, (), cid))
            continue
        ops = d.play["ops"] if d.play else []
        combos = declare_combos(s, ops, p, cid) if declare_first else None
        if combos == [] or not playable(s, ops, p, cid):
            continue
        if combos is None:
            acts.append(Action("play", name, None, (), None, (), cid))
            continue
        made: dict[int, Target] = {}
        for combo in combos:
            acts.append(Action("play", name, None, _targets(s, ops, combo, made), None, (), cid,
                               tuple(tuple(x) for x in combo)))
    acts.append(Action("draw"))
    return acts


def _targets(s: GameState, ops: list, combo: list[list[int]], made: dict[int, Target]) -> tuple[Target, ...]:
    """Readable targets of a declared combination: one entry per declarable op (a player; cards; or a card
    and the player whose Stable it moves to)."""
    out = []
    for op, choice in zip(declarable_static(ops, own_choices=False), combo):
        if is_player_choice(op):
            out.append(Target(player=choice[0]))
            continue
        cards = choice[:1] if op["do"] == "move" else choice
        for x in cards:
            t = made.get(x)
            if t is None:
                z = s.zone_of[x]
                t = made[x] = Target(card=s.name(x), owner=s.owner_of[x] if z in ("stable", "hand") else None,
                                     zone=z, cid=x)
            out.append(t)
        if op["do"] == "move":
            out.append(Target(player=choice[1]))
    return tuple(out)


@handler("action")
def h_action(s: GameState, f: Frame, action: Action | None) -> Result:
    """Action phase: play ONE card or DRAW (action.one), more with an extra action."""
    p = s.current
    if f["st"] == "after":
        if s.actions_left > 0 and not s.ending_turn and not s.over:
            f["st"] = "ask"
        else:
            return DONE
    if action is None:
        return Decision(p, "action", tuple(play_actions(s, p)),
                        f"{s.players[p]}: play a card from your hand, or DRAW a card.",
                        ("action.one", "action.draw-instead"))
    s.actions_left -= 1
    if action.kind == "draw":
        moves.draw(s, p, 1, "action.draw-instead")
        f["st"] = "after"
        return CONT
    cid = action.cid
    s.place(cid, "pile")
    s.pile.append({"cid": cid, "p": p, "into": action.into, "decl": [list(x) for x in action.decl]})
    where = f" into {s.players[action.into]}'s Stable" if action.into is not None else ""
    s.say(f"{s.players[p]} plays {s.name(cid)}{where}.", "action.one", _type_rule(s, cid), player=p)
    f["st"] = "after"
    s.stack.append({"t": "pile", "st": "window", "ask": None, "top": -1})
    return CONT


def _type_rule(s: GameState, cid: int) -> str:
    t = s.defs[cid].type
    return {CardType.MAGIC: "card.magic-one-shot", CardType.UPGRADE: "card.upgrade-any-stable",
            CardType.DOWNGRADE: "card.downgrade-any-stable"}.get(t, "card.unicorn-any-stable")


def response_actions(s: GameState, p: int) -> tuple[Action, ...]:
    top = s.pile[-1]
    if top["p"] == p:
        return ()
    tcid = top["cid"]
    if s.defs[tcid].static.get("unneighable"):
        return ()
    if q.plays_unneighable(s, top["p"]):
        return ()
    if q.cannot_play(s, p, "neigh"):
        return ()
    seen: set[str] = set()
    acts = []
    for cid in s.hands[p]:
        d = s.defs[cid]
        if d.type is CardType.INSTANT and d.name not in seen:
            seen.add(d.name)
            acts.append(Action("respond", card=d.name, cid=cid))
    return tuple(acts)


def can_be_answered(s: GameState) -> bool:
    return any(response_actions(s, p) for p in range(len(s.players)))


@handler("pile")
def h_pile(s: GameState, f: Frame, action: Action | None) -> Result:
    if f["st"] == "window":
        if f["top"] != len(s.pile):
            f["top"] = len(s.pile)
            f["ask"] = [x for x in s.seats_from(s.pile[-1]["p"] + 1) if x != s.pile[-1]["p"]]
        while f["ask"]:
            p = f["ask"][0]
            acts = response_actions(s, p)
            if not acts:
                f["ask"].pop(0)  # no legal response: passed without being asked
                continue
            if action is None:
                top = s.pile[-1]
                return Decision(p, "respond", acts + (Action("pass"),),
                                f"{s.players[p]}: respond to {s.players[top['p']]}'s {s.name(top['cid'])} "
                                f"with an Instant, or pass.",
                                ("instant.when", "pile.top-only", "pile.everyone-asked"))
            if action.kind == "pass":
                f["ask"].pop(0)
                action = None
                continue
            cid = action.cid
            s.place(cid, "pile")
            s.pile.append({"cid": cid, "p": p, "into": None, "decl": []})
            below = s.pile[-2]
            s.say(f"{s.players[p]} responds with {s.name(cid)} to {s.name(below['cid'])}.", "instant.when",
                  "pile.top-only", "instant.chain", player=p)
            f["top"] = -1
            return CONT
        f["st"] = "resolve"
    # resolve the top card
    top = s.pile[-1]
    if len(s.pile) >= 2:
        s.pile.pop()
        below = s.pile.pop()
        moves.to_discard(s, top["cid"])
        moves.to_discard(s, below["cid"])
        s.say(f"{s.name(top['cid'])} resolves: {s.players[below['p']]}'s {s.name(below['cid'])} is not played "
              f"and goes to the discard pile.", "pile.resolve-top-down", "neigh.stops-card")
        if s.pile:
            f["st"] = "window"
            f["top"] = -1
            return CONT
        return DONE
    s.pile.pop()
    cid, p = top["cid"], top["p"]
    d = s.defs[cid]
    if d.type in PERMANENT:
        dest = top["into"]
        if q.can_enter(s, cid, dest):
            s.say(f"{d.name} enters {s.players[dest]}'s Stable.", "action.valid-stable", "effect.enter",
                  player=p)
            moves.enter_stable(s, cid, dest, "play")
        else:
            s.say(f"{d.name} cannot enter {s.players[dest]}'s Stable any more and is discarded.",
                  "action.valid-stable")
            moves.to_discard(s, cid)
        return DONE
    s.place(cid, "limbo")
    return replace_top(s, f, {"t": "magic", "cid": cid, "you": p, "decl": top["decl"], "st": "start"})


@handler("magic")
def h_magic(s: GameState, f: Frame, action: Action | None) -> Result:
    """A Magic card takes effect, then goes to the discard pile (card.magic-one-shot)."""
    cid = f["cid"]
    if f["st"] == "start":
        f["st"] = "done"
        d = s.defs[cid]
        ops = clone(d.play["ops"]) if d.play else []
        if f["decl"]:
            for op, choice in zip(declarable(ops, own_choices=False), f["decl"]):
                op["chosen"] = choice
        s.say(f"{d.name} takes effect.", "card.magic-one-shot", player=f["you"])
        s.stack.append(prog(ops, f["you"], cid))
        return CONT
    if s.zone_of[cid] == "limbo":
        moves.to_discard(s, cid)
    return DONE

