"""Turn flow as data: setup, the four phases in order (turn.phases), game-status checks between phases
(status.check), skipped phases and turns, extra turns, and the end of the game."""

from __future__ import annotations

from typing import Final

from uu.cards.schema import CardType
from uu.engine import moves
from uu.engine import queries as q
from uu.engine.actions import Action, Decision
from uu.engine.effects import op_frame, turn_start_link
from uu.engine.frame_types import EndPhaseFrame, SetupFrame, TurnStartFrame
from uu.engine.frames import CONT, DONE, HANDLERS, Result, card_actions, handler, replace_top
from uu.engine.state import GameState

# An Enum attribute lookup is a slow dictionary walk on CPython: hot code compares with module constants.
BABY: Final = CardType.BABY

# Frames at which the effect chain may run and a win may be declared (chain resolved: win.after-chain).
BARRIER_FRAMES: Final = frozenset({"action", "endphase", "setup"})


@handler("setup")
def h_setup(s: GameState, f: SetupFrame, action: Action | None) -> Result:
    """Each player chooses a Baby Unicorn into their Stable; the rest form the Nursery (setup.choose-baby)."""
    while f["queue"]:
        p = f["queue"][0]
        if any(s.defs[c].type is BABY for c in s.stables[p]) or not s.nursery:
            f["queue"].pop(0)
            continue
        if action is None:
            return Decision(p, "baby", card_actions(s, "baby", s.nursery),
                            f"{s.players[p]}: choose a Baby Unicorn for your Stable.",
                            ("setup.choose-baby", "setup.nursery"))
        assert action.cid is not None
        s.place(action.cid, "stable", p)
        s.say(f"{s.players[p]} chooses {s.name(action.cid)}.", "setup.choose-baby", player=p)
        f["queue"].pop(0)
        action = None
    return DONE


@handler("turn_start")
def h_turn_start(s: GameState, f: TurnStartFrame, action: Action | None) -> Result:
    """Cards that were in the Stable when the turn began trigger now (bot.trigger, bot.entered-this-turn)."""
    p = s.current
    defs, snap = s.defs, s.turn_start_snapshot
    cids = [c for c in s.stables[p] if defs[c].turn_start and c in snap and q.text_works(s, c)]
    if not cids:
        return DONE
    return replace_top(s, f, turn_start_link(s, p, cids))


@handler("endphase")
def h_endphase(s: GameState, f: EndPhaseFrame, action: Action | None) -> Result:
    """End of Turn: DISCARD down to the hand limit (end.hand-limit)."""
    p = s.current
    limit = q.hand_limit(s, p)
    if len(s.hands[p]) <= limit:
        return DONE
    if action is None:
        extra = len(s.hands[p]) - limit
        return Decision(p, "discard", card_actions(s, "discard", s.hands[p]),
                        f"{s.players[p]}: DISCARD down to the hand limit of {limit} ({extra} more).",
                        ("end.hand-limit",))
    assert action.cid is not None
    moves.to_discard(s, action.cid)
    s.say(f"{s.players[p]} DISCARDs {s.name(action.cid)} (hand limit).", "end.hand-limit", "verb.discard",
          player=p)
    return CONT


def check_threshold(s: GameState) -> bool:
    """win.threshold: a player with the required number of Unicorns wins (never mid-chain: the caller only
    asks once the chain has resolved)."""
    if s.checked_version == s.stable_version:  # no Stable changed since the last look: nobody can have won
        return False
    s.checked_version = s.stable_version
    need = s.threshold()
    # a Stable counts at most one Unicorn per card plus one (Ginormous counts 2): skip small Stables cheaply
    # (a loop: compiled, `max(map(len, ...))` would look both builtins up and call them as Python objects)
    longest = 0
    for stable in s.stables:
        if len(stable) > longest:
            longest = len(stable)
    if longest + 1 < need:
        return False
    winners = [p for p in s.seats_from(s.current) if len(s.stables[p]) + 1 >= need and q.unicorns(s, p) >= need]
    if not winners:
        return False
    s.winner = winners[0]
    s.over = True
    rules = ["win.threshold", "win.after-chain"] + (["option.simultaneous-win"] if len(winners) > 1 else [])
    s.say(f"{s.players[winners[0]]} has {q.unicorns(s, winners[0])} Unicorns and wins!", *rules)
    return True


def deck_out(s: GameState) -> None:
    """win.deck-out: most Unicorns wins; then most letters (win.letters); else everyone loses."""
    best = max(q.unicorns(s, p) for p in range(s.n))
    tied = [p for p in range(s.n) if q.unicorns(s, p) == best]
    s.over = True
    if len(tied) == 1:
        s.winner = tied[0]
        s.say(f"The deck has run out: {s.players[tied[0]]} has the most Unicorns ({best}) and wins.",
              "win.deck-out", "option.deck-out")
        return
    most = max(q.letters(s, p) for p in tied)
    top = [p for p in tied if q.letters(s, p) == most]
    if len(top) == 1:
        s.winner = top[0]
        s.say(f"The deck has run out with a tie at {best} Unicorns: {s.players[top[0]]} has the most letters "
              f"({most}) and wins.", "win.deck-out", "win.letters")
    else:
        s.winner = "everyone-loses"
        s.say("The deck has run out and the tie-breaks are tied too: everyone loses.", "win.deck-out",
              "win.letters", "win.everyone-loses")


def status_check(s: GameState) -> bool:
    """Game status check between phases (status.check); True if the game ended."""
    if check_threshold(s):
        return True
    if not s.deck and (s.options.deck_out == "end" or not s.discard):
        deck_out(s)
        return True
    return False


def state_checks(s: GameState) -> bool:
    """Continuous conditions that force an action (Tiny Stable); True if a frame was pushed."""
    for p in s.seat_ring(s.current):
        if len(s.stables[p]) < 6:  # more than 5 Unicorns needs at least 5 cards plus Tiny Stable itself
            continue
        if "max_unicorns" not in q.summary(s, p):  # no working card sets a limit (summary: working cards)
            continue
        for cid in s.stables[p]:
            limit = s.defs[cid].static.get("max_unicorns")
            if limit is not None and q.text_works(s, cid) and q.unicorns(s, p) > int(limit):
                s.say(f"{s.players[p]} has more than {limit} Unicorns with {s.name(cid)}: they must SACRIFICE "
                      f"a Unicorn card.", "verb.sacrifice", player=p)
                s.stack.append(op_frame({"do": "sacrifice", "what": "unicorn"}, p, cid))
                return True
    return False


def _skipped(s: GameState, phase: str) -> bool:
    if s.ending_turn:
        s.say(f"The {phase} phase is skipped: the turn is ending.", "bot.skip-to-end", "status.skipped-phase")
        return True
    if phase in s.skip_phases:
        s.say(f"The {phase} phase is skipped.", "turn.skip-phase", "status.skipped-phase")
        return True
    return False


def flow_step(s: GameState) -> None:
    """Advance the turn when nothing else is running (empty stack, empty chain)."""
    st = s.stage
    if st == "setup":
        s.stack.append({"kind": "setup", "queue": s.seats_from(s.current)})
        s.stage = "turn-start"
        return
    if st == "turn-start":
        p = s.current
        if s.skip_turns[p] > 0:
            s.skip_turns[p] -= 1
            s.say(f"{s.players[p]}'s turn is skipped.", "turn.skip-other", "turn.skips-add-up")
            s.current = (p + 1) % s.n
            return
        s.turn_number += 1
        s.phase = "beginning"
        s.actions_left = 1
        s.ending_turn = False
        s.skip_phases = []
        s.turn_start_snapshot = list(s.stables[p])
        s.say(f"Turn {s.turn_number}: {s.players[p]}'s turn begins.", "turn.phases", "turn.clockwise", player=p)
        s.stack.append({"kind": "turn_start"})
        s.stage = "after-beginning"
        return
    if st == "after-beginning":
        if status_check(s):
            return
        s.stage = "after-draw"
        if not _skipped(s, "draw"):
            s.phase = "draw"
            moves.draw(s, s.current, 1, "draw.phase")
        return
    if st == "after-draw":
        if status_check(s):
            return
        s.stage = "after-action"
        if not _skipped(s, "action"):
            s.phase = "action"
            s.stack.append({"kind": "action", "step": "ask"})
        return
    if st == "after-action":
        if status_check(s):
            return
        s.phase = "end"
        s.stage = "after-end"
        s.stack.append({"kind": "endphase"})
        return
    if st == "after-end":
        s.last_end = [s.turn_number, s.current, len(s.hands[s.current])]
        if status_check(s):
            return
        if s.extra_turns:
            s.current = s.extra_turns.pop(0)
            s.say(f"{s.players[s.current]} takes another turn.", "turn.extra", "turn.another")
        else:
            s.current = (s.current + 1) % s.n
        s.stage = "turn-start"
        return
    raise AssertionError(f"unknown stage {st!r}")


def run(s: GameState, action: Action | None = None, resume: bool = False) -> Decision | None:
    """Run until a player must decide (returns the Decision) or the game is over (returns None).

    `resume` re-asks the top frame first, exactly as delivering an action would (used after loading a
    saved state, so checks run in the same order as in the game that was saved)."""
    first = resume and bool(s.stack)
    stack = s.stack  # the same list for the whole game (handlers change it in place)
    handlers = HANDLERS
    while True:
        if s.over:
            return None
        if action is None and not first:
            if s.state_check_due:
                s.state_check_due = False
                if state_checks(s):
                    continue
            top = stack[-1] if stack else None
            if top is None or top["kind"] in BARRIER_FRAMES:
                if s.chain:
                    stack.append(s.chain.pop(0))
                    continue
                if s.win_check_due and s.stage != "setup" and s.turn_number > 0:
                    s.win_check_due = False
                    if check_threshold(s):
                        return None
                if top is None:
                    flow_step(s)
                    continue
        top = stack[-1]
        res = handlers[top["kind"]](s, top, action)
        action = None
        first = False
        if res is DONE:
            if stack and stack[-1] is top:  # the usual case: the finished frame is still on top
                stack.pop()
                continue
            for i in range(len(stack) - 1, -1, -1):
                if stack[i] is top:
                    del stack[i]
                    break
        elif res is not CONT:
            assert isinstance(res, Decision), res
            return res


def push(s: GameState, moves: list[Action], action: Action) -> Decision | None:
    """One move of a game's move stack (uu.engine.game.Game.push_legal): kept, counted, then played. Here in
    compiled code rather than in the Python method: bots and benches make every move through it."""
    moves.append(action)
    s.decisions += 1
    return run(s, action)
