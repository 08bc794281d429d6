"""What each verb of the registry (`uu.cards.verbs`) does when it runs, inside an op frame (see
`uu.engine.effects`). The handler of a verb is registered under the verb's name with `@verb`."""

from __future__ import annotations

from collections.abc import Callable
from itertools import permutations
from typing import Final

from uu.cards.carddef import CardType
from uu.cards.verbs import VERBS
from uu.engine import moves, rng
from uu.engine import queries as q
from uu.engine.actions import Action, Decision
from uu.engine.effects import finish, pick_loop, prog, would_frame
from uu.engine.frame_types import OpFrame
from uu.engine.frames import (
    CONT,
    HOOKS,
    VERB_HANDLERS,
    Result,
    card_actions,
    player_actions,
    replace_top,
)
from uu.engine.state import GameState
from uu.engine.targets import (
    CARD_POOLS,
    PLAYER_POOLS,
    CardPool,
    Op,
    PlayerPool,
    baby_may_move,
    card_candidates,
    in_stables,
    matching,
    move_destinations,
    ops_possible,
    others,
    player_candidates,
)

VerbRun = Callable[[GameState, OpFrame, Action | None], Result]


def verb(name: str, cards: CardPool | None = None, players: PlayerPool | None = None
         ) -> Callable[[VerbRun], VerbRun]:
    """Register what the registry's verb `name` does, and where it picks cards (`cards`) or players
    (`players`) when it picks any; a name the registry lacks is a mistake at import."""
    if name not in VERBS:
        raise ValueError(f"verb {name!r} is not declared in uu.cards.verbs")
    if cards is not None:
        CARD_POOLS[name] = cards
    if players is not None:
        PLAYER_POOLS[name] = players

    def register(fn: VerbRun) -> VerbRun:
        VERB_HANDLERS[name] = fn
        return fn

    return register


def _n(f: OpFrame) -> int:
    return int(f["op"].get("n", 1))


def _cands(s: GameState, f: OpFrame) -> list[int]:
    return card_candidates(s, f["op"], f["you"], f["src"], f["actor"])


_WHAT: Final = {"unicorn": "Unicorn card", "basic_unicorn": "Basic Unicorn card", "baby_unicorn": "Baby Unicorn",
         "upgrade_or_downgrade": "Upgrade or Downgrade card", "this": "this card", "card": "card"}


def _card(s: GameState, f: OpFrame) -> str | None:
    """The card whose effect asks (none for an op a rule runs, such as a Queen Bee's SACRIFICE)."""
    src = f["src"]
    return s.name(src) if src is not None else None


def _what(f: OpFrame) -> str:
    w = f["op"].get("what") or "card"
    return _WHAT.get(w) or f"{w} card"


def _a_what(f: OpFrame) -> str:
    """With its article: "a Unicorn card", "an Upgrade or Downgrade card", but "this card"."""
    w = _what(f)
    if w.startswith("this "):
        return w
    # "a Unicorn": the article follows the sound, and "Unicorn" starts with a "you" sound
    vowel_sound = w[0] in "AEIOUaeiou" and not w.lower().startswith(("uni", "use"))
    return f"{'an' if vowel_sound else 'a'} {w}"


@verb("draw")
def v_draw(s: GameState, f: OpFrame, action: Action | None) -> Result:
    got = moves.draw(s, f["actor"], _n(f))
    return finish(s, f, got == _n(f))


def _from_hand(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    return matching(s, s.hands[a], op.get("what"), src)


def _others_holding(s: GameState, op: Op, you: int) -> list[int]:
    """DISCARD with who: other: the other players holding a matching card."""
    return [p for p in others(s, you) if any(q.matches(s, c, op.get("what"), None) for c in s.hands[p])]


@verb("discard", cards=_from_hand, players=_others_holding)
def v_discard(s: GameState, f: OpFrame, action: Action | None) -> Result:
    a = f["actor"]

    def act(cid: int) -> bool:
        moves.to_discard(s, cid)
        s.say(f"{s.players[a]} DISCARDs {s.name(cid)}.", "verb.discard", player=a)
        return True

    if not s.hands[a] and f["picks_made"] == 0:
        s.say(f"{s.players[a]} has no card to DISCARD: that part is disregarded.", "effect.impossible-skip")
    return pick_loop(s, f, action, chooser=a, kind="discard", n=_n(f), candidates=_cands(s, f), act=act,
                     prompt=f"{s.players[a]}: DISCARD {_a_what(f)}.", rules=("verb.discard",))


def _own_stable(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    return matching(s, s.stables[a], op.get("what"), src)


@verb("sacrifice", cards=_own_stable)
def v_sacrifice(s: GameState, f: OpFrame, action: Action | None) -> Result:
    a = f["actor"]

    def act(cid: int) -> str:
        s.stack.append(would_frame("sacrifice", cid, a, f["src"]))
        return CONT

    if f["op"].get("all"):
        if "all" not in f:
            f["all"] = list(_cands(s, f))  # kept in the frame: a copy, never the shared memo
            f["op"] = {**f["op"], "chosen": f["all"]}
        return pick_loop(s, f, action, chooser=a, kind="sacrifice", n=len(f["all"]), candidates=_cands(s, f),
                         act=act, prompt="", rules=("verb.sacrifice",)) if f["all"] else finish(s, f, True)
    return pick_loop(s, f, action, chooser=a, kind="sacrifice", n=_n(f), candidates=_cands(s, f), act=act,
                     prompt=f"{s.players[a]}: SACRIFICE {_a_what(f)} from your Stable.",
                     rules=("verb.sacrifice", "downgrade.sacrifice-a-card"))


def _destroyable(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    return [c for c in matching(s, in_stables(s, s.seat_ring(you)[1:]), op.get("what"), src)
            if q.can_be_destroyed(s, c, src)]


@verb("destroy", cards=_destroyable)
def v_destroy(s: GameState, f: OpFrame, action: Action | None) -> Result:
    def act(cid: int) -> str:
        s.stack.append(would_frame("destroy", cid, f["you"], f["src"]))
        return CONT

    return pick_loop(s, f, action, chooser=f["you"], kind="target", n=_n(f), candidates=_cands(s, f), act=act,
                     prompt=f"{s.players[f['you']]}: DESTROY {_a_what(f)} in another player's Stable.",
                     rules=("verb.destroy",))


def _stealable(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    return [c for c in matching(s, in_stables(s, s.seat_ring(you)[1:]), op.get("what"), src)
            if q.can_enter(s, c, you) and baby_may_move(s, c)]


@verb("steal", cards=_stealable)
def v_steal(s: GameState, f: OpFrame, action: Action | None) -> Result:
    you = f["you"]

    def act(cid: int) -> bool:
        victim = s.owner_of[cid]
        s.say(f"{s.players[you]} STEALs {s.name(cid)} from {s.players[victim]}.", "verb.steal", "effect.enter",
              player=you)
        moves.leave_stable(s, cid, "steal", "stable", you)
        return True

    return pick_loop(s, f, action, chooser=you, kind="target", n=_n(f), candidates=_cands(s, f), act=act,
                     prompt=f"{s.players[you]}: STEAL {_a_what(f)}.", rules=("verb.steal",))


def _returnable(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    if op.get("from", "other") == "each":
        return matching(s, s.stables[a], op.get("what"), src)
    return matching(s, in_stables(s, s.seat_ring(you)[1:]), op.get("what"), src)


@verb("return", cards=_returnable)
def v_return(s: GameState, f: OpFrame, action: Action | None) -> Result:
    you, op = f["you"], f["op"]

    def act(cid: int) -> bool:
        if s.zone_of[cid] == "stable":
            owner = s.owner_of[cid]
            s.ctx_player = owner
            if s.defs[cid].type is not CardType.BABY:  # a Baby never reaches a hand: leave_stable says where
                s.say(f"{s.name(cid)} returns to {s.players[owner]}'s hand.", "option.return-is-leaving",
                      player=you)
            moves.leave_stable(s, cid, "return", "hand", owner)
        else:  # a card returning itself from the discard pile (Flying Unicorns)
            s.say(f"{s.name(cid)} returns to {s.players[you]}'s hand.", "effect.leave", player=you)
            moves.to_hand(s, cid, you)
        return True

    if op.get("from") == "each":
        queue = f.setdefault("queue", s.seats_from(you))
        while queue:
            p = queue[0]
            f["actor"] = p
            cands = _cands(s, f)
            if not cands:
                queue.pop(0)
                continue
            if action is None:
                return Decision(you, "target", card_actions(s, "target", cands),
                                f"Return a card from {s.players[p]}'s Stable to their hand.",
                                ("target.players",), card=_card(s, f), verb="return")
            assert action.cid is not None
            act(action.cid)
            action = None
            queue.pop(0)
        return finish(s, f, True)
    return pick_loop(s, f, action, chooser=you, kind="target", n=_n(f), candidates=_cands(s, f), act=act,
                     prompt=f"{s.players[you]}: return {_a_what(f)} from a Stable to its owner's hand.",
                     rules=("effect.leave",))


def _movable(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    owners = (you,) if op.get("from", "you") == "you" else s.seat_ring(you)
    return [c for c in matching(s, in_stables(s, owners), op.get("what"), src) if baby_may_move(s, c)]


@verb("move", cards=_movable)
def v_move(s: GameState, f: OpFrame, action: Action | None) -> Result:
    you, op = f["you"], f["op"]
    if "card" not in f:
        cands = _cands(s, f)
        cands = [c for c in cands if move_destinations(s, op, you, c)]
        if "chosen" in op:
            cid = op["chosen"][0] if op["chosen"] and op["chosen"][0] in cands else None
            if cid is None:
                return finish(s, f, False)
            f["card"], f["dest"] = cid, op["chosen"][1]
        elif not cands:
            return finish(s, f, False)
        elif action is None:
            return Decision(you, "target", card_actions(s, "target", cands), f"Choose {_a_what(f)} to move.",
                            ("verb.steal",), card=_card(s, f), verb="move")
        else:
            assert action.cid is not None
            f["card"] = action.cid
            action = None
    cid = f["card"]
    if "dest" not in f:
        dests = move_destinations(s, op, you, cid)
        if not dests:
            return finish(s, f, False)
        if action is None:
            return Decision(you, "target", player_actions(dests), f"Move {s.name(cid)} into whose Stable?",
                            ("target.players",), card=_card(s, f), verb="move")
        assert action.cid is not None
        f["dest"] = action.cid
    dest = f["dest"]
    s.ctx_player = dest
    s.say(f"{s.name(cid)} moves from {s.players[s.owner_of[cid]]}'s Stable to {s.players[dest]}'s.",
          "effect.enter", player=you)
    moves.leave_stable(s, cid, "move", "stable", dest)
    return finish(s, f, True)


def _bringable(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    frm = op.get("from", "hand")
    pool = s.hands[you] if frm == "hand" else s.discard if frm == "discard" else s.nursery
    return [c for c in matching(s, pool, op.get("what"), src) if q.can_enter(s, c, you)]


@verb("bring", cards=_bringable)
def v_bring(s: GameState, f: OpFrame, action: Action | None) -> Result:
    you = f["you"]

    def act(cid: int) -> bool:
        s.say(f"{s.players[you]} brings {s.name(cid)} directly into their Stable (not played, so it cannot "
              f"be Neigh'd).", "effect.bring-not-play", "effect.enter", player=you)
        moves.enter_stable(s, cid, you, "bring")
        return True

    frm = f["op"].get("from", "hand")
    return pick_loop(s, f, action, chooser=you, kind="target", n=_n(f), candidates=_cands(s, f), act=act,
                     prompt=f"Bring {_a_what(f)} from the {frm} into your Stable.",
                     rules=("effect.bring-not-play", "bring.from-discard"))


def _from_discard(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    return matching(s, s.discard, op.get("what"), src)


@verb("take", cards=_from_discard)
def v_take(s: GameState, f: OpFrame, action: Action | None) -> Result:
    you = f["you"]

    def act(cid: int) -> bool:
        s.say(f"{s.players[you]} takes {s.name(cid)} from the discard pile into their hand.", "verb.draw",
              player=you)
        moves.to_hand(s, cid, you)
        return True

    return pick_loop(s, f, action, chooser=you, kind="target", n=_n(f), candidates=_cands(s, f), act=act,
                     prompt=f"Take {_a_what(f)} from the discard pile.", rules=())


def _from_deck(s: GameState, op: Op, you: int, src: int | None, a: int) -> list[int]:
    return matching(s, s.deck, op.get("what"), src)


@verb("search", cards=_from_deck)
def v_search(s: GameState, f: OpFrame, action: Action | None) -> Result:
    """search.must-find: a matching card must be taken if there is one; it is revealed (search.reveal)."""
    you = f["you"]

    def act(cid: int) -> bool:
        moves.to_hand(s, cid, you)
        s.revealed.append(cid)
        moves.shuffle_deck(s)
        s.say(f"{s.players[you]} searches the deck, reveals {s.name(cid)}, takes it and shuffles the deck.",
              "search.reveal", "search.must-find", player=you)
        return True

    cands = _cands(s, f)
    if not cands and f["picks_made"] == 0:
        moves.shuffle_deck(s)
        s.say(f"{s.players[you]} searches the deck and finds no {_what(f)}; the deck is shuffled.",
              "search.must-find", player=you)
        return finish(s, f, False)
    return pick_loop(s, f, action, chooser=you, kind="target", n=_n(f), candidates=cands, act=act,
                     prompt=f"Search the deck for {_a_what(f)}.", rules=("search.must-find",))


def _choose_player(s: GameState, f: OpFrame, action: Action | None) -> tuple[int | None, Decision | None]:
    op = f["op"]
    if "player" in f:
        return f["player"], None
    cands = player_candidates(s, op, f["you"])
    if "chosen" in op:
        p = op["chosen"][0] if op["chosen"] and op["chosen"][0] in cands else None
    elif not cands:
        p = None
    elif action is None:
        return None, Decision(f["you"], "target", player_actions(cands), "Choose another player.",
                              ("target.players",), card=_card(s, f),
                              verb=op["do"])
    else:
        p = action.cid
    f["player"] = p
    return p, None


def _others_with_cards(s: GameState, op: Op, you: int) -> list[int]:
    return [p for p in others(s, you) if s.hands[p]]


def _others(s: GameState, op: Op, you: int) -> list[int]:
    return others(s, you)


@verb("pull", players=_others_with_cards)
def v_pull(s: GameState, f: OpFrame, action: Action | None) -> Result:
    """effect.pull-choose: pulling takes a card at random, unseen. option.open-hand-pull: from a hand kept
    face up for everyone (Nanny Cam) the puller picks the card, unless the option keeps every pull random."""
    first = "player" not in f
    p, ask = _choose_player(s, f, action)
    if ask:
        return ask
    if first:
        action = None  # the action that chose the player (if any) is not a card choice
    if p is None or not s.hands[p]:
        return finish(s, f, False)
    you = f["you"]
    if q.hand_visible(s, p) and s.options.open_hand_pull == "choose":
        if action is None:
            return Decision(you, "target", card_actions(s, "target", s.hands[p]),
                            f"{s.players[p]}'s hand is face up: take the card of your choice from it.",
                            ("option.open-hand-pull",), card=_card(s, f),
                            verb="pull")
        assert action.cid is not None
        moves.to_hand(s, action.cid, you)
        s.say(f"{s.players[you]} takes {s.name(action.cid)} from {s.players[p]}'s face-up hand.",
              "option.open-hand-pull", player=you)
        return finish(s, f, True)
    cid = rng.choice(s.rng, s.hands[p])
    s.rng_draws += 1
    moves.to_hand(s, cid, you)
    s.say(f"{s.players[you]} pulls a random card from {s.players[p]}'s hand.", "effect.pull-choose",
          player=you)
    return finish(s, f, True)


@verb("look_take", players=_others_with_cards)
def v_look_take(s: GameState, f: OpFrame, action: Action | None) -> Result:
    """effect.pull-choose: choosing lets the player look and pick."""
    if "player" not in f:
        p, ask = _choose_player(s, f, action)
        if ask:
            return ask
        action = None
        if p is None or not s.hands[p]:
            return finish(s, f, False)
        s.say(f"{s.players[f['you']]} looks at {s.players[p]}'s hand.", "effect.pull-choose", player=f["you"])
    p = f["player"]
    assert p is not None  # a look_take with nobody to look at has finished
    if not s.hands[p]:
        return finish(s, f, False)
    if action is None:
        return Decision(f["you"], "target", card_actions(s, "target", s.hands[p]),
                        f"Take a card of your choice from {s.players[p]}'s hand.", ("effect.pull-choose",),
                        card=_card(s, f), verb="look_take")
    assert action.cid is not None
    moves.to_hand(s, action.cid, f["you"])
    s.say(f"{s.players[f['you']]} takes a card from {s.players[p]}'s hand.", "effect.pull-choose")
    return finish(s, f, True)


@verb("swap_hands", players=_others)
def v_swap_hands(s: GameState, f: OpFrame, action: Action | None) -> Result:
    p, ask = _choose_player(s, f, action)
    if ask:
        return ask
    if p is None:
        return finish(s, f, False)
    you = f["you"]
    mine, theirs = list(s.hands[you]), list(s.hands[p])
    for c in mine:
        s.place(c, "hand", p)
    for c in theirs:
        s.place(c, "hand", you)
    s.say(f"{s.players[you]} and {s.players[p]} exchange hands.", "effect.order", player=you)
    return finish(s, f, True)


@verb("shuffle_discard_into_deck")
def v_shuffle_discard(s: GameState, f: OpFrame, action: Action | None) -> Result:
    for c in list(s.discard):
        s.place(c, "deck")
    moves.shuffle_deck(s)
    s.say("The discard pile is shuffled into the deck.", "verb.move-to-discard")
    return finish(s, f, True)


@verb("look_top")
def v_look_top(s: GameState, f: OpFrame, action: Action | None) -> Result:
    you, op = f["you"], f["op"]
    if "seen" not in f:
        f["seen"] = list(s.deck[: int(op.get("n", 3))])
        s.info_epoch += 1
    seen = [c for c in f["seen"] if s.zone_of[c] == "deck"]
    if not seen:
        return finish(s, f, False)
    if "kept" not in f:
        if action is None:
            acts = tuple(dict.fromkeys(Action("choose", option=s.name(c), cid=c) for c in seen))
            return Decision(you, "choose", acts, "Choose the card to put into your hand.", (),
                            card=_card(s, f), verb="look_top")
        assert action.cid is not None
        f["kept"] = action.cid
        moves.to_hand(s, action.cid, you)
        s.say(f"{s.players[you]} looks at the top {len(seen)} cards and takes one.", "effect.pull-choose",
              player=you)
        action = None
        seen = [c for c in seen if c != f["kept"]]
    if len(seen) > 1:
        if action is None:
            acts = tuple(dict.fromkeys(
                Action("order", cards=tuple(s.name(c) for c in perm), cid=i)
                for i, perm in enumerate(permutations(seen))))
            return Decision(you, "order", acts, "Put the other cards back on top, in this order (top first).",
                            (), card=_card(s, f), verb="look_top")
        assert action.cid is not None
        perm = list(permutations(seen))[action.cid]
        for c in perm[::-1]:  # not reversed(): mypyc (the compiled engine) cannot compile that loop
            s.place(c, "deck", top=True)
    return finish(s, f, True)


@verb("end_turn")
def v_end_turn(s: GameState, f: OpFrame, action: Action | None) -> Result:
    s.ending_turn = True
    s.say(f"{s.players[s.current]}'s turn will end once this link resolves (End of Turn still happens).",
          "bot.end-turn-others-resolve", "bot.skip-to-end", "end.never-skipped")
    return finish(s, f, True)


@verb("extra_turn")
def v_extra_turn(s: GameState, f: OpFrame, action: Action | None) -> Result:
    s.extra_turns.append(f["you"])
    s.say(f"{s.players[f['you']]} will take another turn after this one.", "turn.extra", "turn.another")
    return finish(s, f, True)


@verb("extra_action")
def v_extra_action(s: GameState, f: OpFrame, action: Action | None) -> Result:
    s.actions_left += 1
    s.say(f"{s.players[f['you']]} may play an extra card this Action phase.", "action.one")
    return finish(s, f, True)


@verb("skip_phase")
def v_skip_phase(s: GameState, f: OpFrame, action: Action | None) -> Result:
    phase = f["op"].get("phase", "draw")
    if phase == "end":
        s.say("End of Turn is never skipped.", "end.never-skipped")
        return finish(s, f, False)
    s.skip_phases.append(phase)
    s.say(f"{s.players[s.current]} will skip the {phase} phase.", "turn.skip-phase", "status.skipped-phase")
    return finish(s, f, True)


@verb("skip_turn", players=_others)
def v_skip_turn(s: GameState, f: OpFrame, action: Action | None) -> Result:
    p, ask = _choose_player(s, f, action)
    if ask:
        return ask
    if p is None:
        return finish(s, f, False)
    s.skip_turns[p] += 1
    s.say(f"{s.players[p]}'s next turn is skipped (skips add up: {s.skip_turns[p]}).", "turn.skip-other",
          "turn.skips-add-up")
    return finish(s, f, True)


@verb("choose_one")
def v_choose_one(s: GameState, f: OpFrame, action: Action | None) -> Result:
    opts = [o for o in f["op"]["options"] if ops_possible(s, o["ops"], f["you"], f["src"])]
    if not opts:
        return finish(s, f, False)
    if action is None:
        return Decision(f["you"], "choose", tuple(Action("choose", option=o["name"]) for o in opts),
                        "Choose one.", ("effect.order",), card=_card(s, f), verb="choose_one")
    chosen = next(o for o in opts if o["name"] == action.option)
    s.say(f"{s.players[f['you']]} chooses: {chosen['name']}.", "effect.order", player=f["you"])
    return replace_top(s, f, prog(chosen["ops"], f["you"], f["src"]))


@verb("steal_after_move")
def v_steal_after_move(s: GameState, f: OpFrame, action: Action | None) -> Result:
    """Unicorn Swap's second half: STEAL a Unicorn from the player who just received the moved card."""
    you, p = f["you"], s.ctx_player
    if p is None:
        return finish(s, f, False)

    def act(cid: int) -> bool:
        s.say(f"{s.players[you]} STEALs {s.name(cid)} from {s.players[p]}.", "verb.steal", player=you)
        moves.leave_stable(s, cid, "steal", "stable", you)
        return True

    cands = [c for c in s.stables[p] if q.is_unicorn(s, c) and q.can_enter(s, c, you)]
    return pick_loop(s, f, action, chooser=you, kind="target", n=1, candidates=cands, act=act,
                     prompt=f"STEAL a Unicorn card from {s.players[p]}.", rules=("verb.steal",))


@verb("hook")
def v_hook(s: GameState, f: OpFrame, action: Action | None) -> Result:
    return HOOKS[f["op"]["name"]](s, f, action)
