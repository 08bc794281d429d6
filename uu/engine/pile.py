"""The Action phase and the Neigh pile.

Only playing a card opens a response window (neigh.cards-only). Responses go on top of the pile and answer
only the top card (pile.top-only); players are asked in seat order starting left of whoever played the top
card (option.responder-order); a new top card re-opens responses to everybody (pile.respond-again). The
pile resolves from the top (pile.resolve-top-down): a Neigh takes the card under it to the discard pile.
"""

from __future__ import annotations

from typing import Final

from uu.cards.schema import CardType
from uu.engine import moves
from uu.engine import queries as q
from uu.engine.actions import Action, Decision, Target
from uu.engine.effects import prog
from uu.engine.frame_types import ActionFrame, MagicFrame, Op, PileFrame
from uu.engine.frames import CONT, DONE, Result, card_target, handler, replace_top
from uu.engine.state import GameState
from uu.engine.targets import (
    DECLARE_LIMIT,
    card_candidates,
    clone,
    declarable,
    declarable_static,
    declare_combos,
    dedupe_places,
    is_player_choice,
    move_destinations,
    playable,
    player_candidates,
)

# An Enum attribute lookup is a slow dictionary walk on CPython: hot code compares with module constants.
BABY: Final = CardType.BABY
BASIC: Final = CardType.BASIC
MAGICAL: Final = CardType.MAGICAL
MAGIC: Final = CardType.MAGIC
UPGRADE: Final = CardType.UPGRADE
DOWNGRADE: Final = CardType.DOWNGRADE
INSTANT: Final = CardType.INSTANT
PERMANENT: Final = (BABY, BASIC, MAGICAL, UPGRADE, DOWNGRADE)


# Actions are immutable and compare by value, so the play actions of a permanent card (one per Stable it
# may enter) are built once per (card, instance, destinations) and shared by every decision and game.
_PERMANENT_PLAYS: Final[dict[tuple[str, int, tuple[int, ...]], tuple[Action, ...]]] = {}


def play_actions(s: GameState, p: int) -> list[Action]:
    """Every legal way for p to play a card now (action.requirements), then DRAW (action.draw-instead)."""
    acts: list[Action] = []
    seen: set[str] = set()
    bees = q.queen_bee_owners(s)
    seats = s.seat_ring(p)
    # Queen Bee: Basic Unicorns may only enter her owners' Stables (any Stable when there is none)
    basic_seats = seats if not bees else tuple(x for x in seats if all(b == x for b in bees))
    defs = s.defs
    declare_first = s.options.targeting == "declare-first"
    for cid in s.hands[p]:
        d = defs[cid]
        name = d.name
        if name in seen:
            continue
        seen.add(name)
        t = d.type
        if t is INSTANT:
            continue
        if t in PERMANENT:
            if t is UPGRADE and q.cannot_play(s, p, "upgrade"):
                continue
            if t is DOWNGRADE and q.cannot_play(s, p, "downgrade"):
                continue
            dests = basic_seats if t is BASIC else seats
            key = (name, cid, dests)
            plays = _PERMANENT_PLAYS.get(key)
            if plays is None:
                plays = _PERMANENT_PLAYS[key] = tuple(Action("play", name, dest, (), None, (), cid)
                                                      for dest in dests)
            acts.extend(plays)
            continue
        ops = d.play["ops"] if d.play else []
        dec = declarable_static(ops, own_choices=False) if declare_first else None
        if dec:
            declared = _declared_plays(s, name, cid, ops, dec, p)
            if declared and playable(s, ops, p, cid):
                acts.extend(declared)
            continue
        if playable(s, ops, p, cid):
            acts.append(Action("play", name, None, (), None, (), cid))
    acts.append(_DRAW)
    return acts


_DRAW: Final = Action("draw")
_PASS: Final = Action("pass")
# Plays that declare their targets, per (card, instance, declared instances or seats, and where each declared
# instance is): shared like the permanent plays. Emptied if it ever grows large (many games in one process).
_DECLARED_PLAYS: Final[dict[tuple, Action]] = {}


def _declared_plays(s: GameState, name: str, cid: int, ops: list, dec: list[Op], p: int) -> list[Action]:
    """One play action per way of declaring the targets (option.targeting declare-first), in the order of
    `declare_combos`; empty when there is no way. The usual shapes (one card, one card and a seat, one
    player) are built without the general combinations."""
    op = dec[0]
    cache = _DECLARED_PLAYS
    if len(cache) > 50_000:
        cache.clear()
    if len(dec) > 1:
        return [Action("play", name, None, _targets(s, dec, combo), None, (), cid, tuple(map(tuple, combo)))
                for combo in declare_combos(s, ops, p, cid) or ()]
    zone_of, owner_of, defs = s.zone_of, s.owner_of, s.defs
    out = []
    if op.get("n", 1) != 1 and op["do"] != "move" and not is_player_choice(op):  # Two-For-One: 2 cards
        # many combinations of few cards: look each card's target up once
        targets = {c: card_target(s, c) for c in card_candidates(s, op, p, cid)}
        for (picks,) in declare_combos(s, ops, p, cid) or ():
            out.append(Action("play", name, None, tuple([targets[x] for x in picks]), None, (), cid,
                              (tuple(picks),)))
        return out
    if op.get("n", 1) != 1:
        return [Action("play", name, None, _targets(s, dec, combo), None, (), cid, tuple(map(tuple, combo)))
                for combo in declare_combos(s, ops, p, cid) or ()]
    if is_player_choice(op):
        for x in player_candidates(s, op, p)[:DECLARE_LIMIT]:
            key: tuple = (name, cid, x)
            a = cache.get(key)
            if a is None:
                a = cache[key] = Action("play", name, None, (Target(player=x),), None, (), cid, ((x,),))
            out.append(a)
        return out
    raw = card_candidates(s, op, p, cid)
    if op["do"] == "move":
        for c in dedupe_places(s, raw):
            for dest in move_destinations(s, op, p, c):
                key = (name, cid, c, zone_of[c], owner_of[c], dest)
                a = cache.get(key)
                if a is None:
                    a = cache[key] = Action("play", name, None, (card_target(s, c), Target(player=dest)), None,
                                            (), cid, ((c, dest),))
                out.append(a)
                if len(out) >= DECLARE_LIMIT:
                    return out
        return out
    seen: set[tuple[str, int]] = set()
    for c in raw:
        owner = owner_of[c]
        where = (defs[c].name, owner)  # copies in one place are interchangeable
        if where in seen:
            continue
        seen.add(where)
        key = (name, cid, c, zone_of[c], owner)
        a = cache.get(key)
        if a is None:
            a = cache[key] = Action("play", name, None, (card_target(s, c),), None, (), cid, ((c,),))
        out.append(a)
    return out


def _targets(s: GameState, dec: list, combo: list[list[int]]) -> tuple[Target, ...]:
    """Readable targets of a declared combination (`dec`: the declarable ops): one entry per declarable op
    (a player; cards; or a card and the player whose Stable it moves to)."""
    out = []
    for op, choice in zip(dec, combo):
        if is_player_choice(op):
            out.append(Target(player=choice[0]))
            continue
        move = op["do"] == "move"
        for x in (choice[:1] if move else choice):
            out.append(card_target(s, x))
        if move:
            out.append(Target(player=choice[1]))
    return tuple(out)


@handler("action")
def h_action(s: GameState, f: ActionFrame, action: Action | None) -> Result:
    """Action phase: play ONE card or DRAW (action.one), more with an extra action."""
    p = s.current
    if f["step"] == "after":
        if s.actions_left > 0 and not s.ending_turn and not s.over:
            f["step"] = "ask"
        else:
            return DONE
    if action is None:
        return Decision(p, "action", tuple(play_actions(s, p)),
                        f"{s.players[p]}: play a card from your hand, or DRAW a card.",
                        ("action.one", "action.draw-instead"))
    s.actions_left -= 1
    if action.kind == "draw":
        moves.draw(s, p, 1, "action.draw-instead")
        f["step"] = "after"
        return CONT
    cid = action.cid
    assert cid is not None
    s.place(cid, "pile")
    s.pile.append({"cid": cid, "p": p, "into": action.into, "decl": [list(x) for x in action.decl]})
    where = f" into {s.players[action.into]}'s Stable" if action.into is not None else ""
    s.say(f"{s.players[p]} plays {s.name(cid)}{where}.", "action.one", _type_rule(s, cid), player=p)
    f["step"] = "after"
    s.stack.append({"kind": "pile", "step": "window", "ask": None, "pile_seen": -1})
    return CONT


def _type_rule(s: GameState, cid: int) -> str:
    t = s.defs[cid].type
    if t is MAGIC:
        return "card.magic-one-shot"
    if t is UPGRADE:
        return "card.upgrade-any-stable"
    if t is DOWNGRADE:
        return "card.downgrade-any-stable"
    return "card.unicorn-any-stable"


_RESPONSES: Final[dict[tuple[str, int], Action]] = {}  # shared like the play actions above


def may_answer(s: GameState, p: int) -> bool:
    """Whether p may answer the top card at all, from what every player can see (whose card it is, a card or
    Stable that makes it unanswerable, a card that stops p from playing Neighs): nothing of p's hand."""
    top = s.pile[-1]
    if top["p"] == p:
        return False
    if s.defs[top["cid"]].static.get("unneighable"):
        return False
    if q.plays_unneighable(s, top["p"]):
        return False
    return not q.cannot_play(s, p, "neigh")


def asked_with(s: GameState, p: int) -> tuple[Action, ...]:
    """What p is asked to answer the top card with (its Instants, then pass); empty when p is not asked: it
    holds no Instant it may play (option.neigh-ask holders), or it may not answer at all."""
    acts = response_actions(s, p)
    if acts:
        return acts + (_PASS,)
    if s.options.neigh_ask == "everyone" and may_answer(s, p):
        return (_PASS,)
    return ()


def response_actions(s: GameState, p: int) -> tuple[Action, ...]:
    defs = s.defs
    # The Instants in hand first: most players hold none, and then no other condition matters.
    instants = [cid for cid in s.hands[p] if defs[cid].type is INSTANT]
    if not instants:
        return ()
    if not may_answer(s, p):
        return ()
    seen: set[str] = set()
    acts = []
    for cid in instants:
        name = defs[cid].name
        if name not in seen:
            seen.add(name)
            a = _RESPONSES.get((name, cid))
            if a is None:
                a = _RESPONSES[(name, cid)] = Action("respond", card=name, cid=cid)
            acts.append(a)
    return tuple(acts)


@handler("pile")
def h_pile(s: GameState, f: PileFrame, action: Action | None) -> Result:
    if f["step"] == "window":
        if f["pile_seen"] != len(s.pile):
            f["pile_seen"] = len(s.pile)
            played_by = s.pile[-1]["p"]
            f["ask"] = [x for x in s.seat_ring(played_by + 1) if x != played_by]
        while f["ask"]:
            p = f["ask"][0]
            acts = asked_with(s, p)
            if not acts:
                f["ask"].pop(0)  # no legal response: passed without being asked
                continue
            if action is None:
                top = s.pile[-1]
                return Decision(p, "respond", acts,
                                f"{s.players[p]}: respond to {s.players[top['p']]}'s {s.name(top['cid'])} "
                                f"with an Instant, or pass.",
                                ("instant.when", "pile.top-only", "pile.everyone-asked"))
            if action.kind == "pass":
                f["ask"].pop(0)
                action = None
                continue
            cid = action.cid
            assert cid is not None
            s.place(cid, "pile")
            s.pile.append({"cid": cid, "p": p, "into": None, "decl": []})
            below = s.pile[-2]
            s.say(f"{s.players[p]} responds with {s.name(cid)} to {s.name(below['cid'])}.", "instant.when",
                  "pile.top-only", "instant.chain", player=p)
            f["pile_seen"] = -1
            return CONT
        f["step"] = "resolve"
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
            f["step"] = "window"
            f["pile_seen"] = -1
            return CONT
        return DONE
    s.pile.pop()
    cid, p = top["cid"], top["p"]
    d = s.defs[cid]
    if d.type in PERMANENT:
        dest = top["into"]
        assert dest is not None, "a permanent is played into a Stable"
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
    return replace_top(s, f, {"kind": "magic", "cid": cid, "you": p, "decl": top["decl"], "step": "start"})


@handler("magic")
def h_magic(s: GameState, f: MagicFrame, action: Action | None) -> Result:
    """A Magic card takes effect, then goes to the discard pile (card.magic-one-shot)."""
    cid = f["cid"]
    if f["step"] == "start":
        f["step"] = "done"
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

