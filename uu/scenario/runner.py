"""Running a scenario: steps matched against legal actions, the runner's advancing rules, expectations.

Runner rules (docs/scenario-format.md): when the next step does not match the pending decision, a response
window of another player is passed, a decision with exactly one legal action is taken, and otherwise the
step fails with the pending decision and its legal actions in the message.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from uu.engine import queries as q
from uu.engine.actions import Action, Decision, Target
from uu.engine.errors import GameError
from uu.engine.game import Game
from uu.scenario.model import Expect, Scenario, Step, TargetSpec


class StepFailed(Exception):
    pass


@dataclass
class RunResult:
    name: str
    passed: bool
    message: str = ""
    game: Game | None = None
    log: list[str] = field(default_factory=list)


def _seat(sc: Scenario, name: str | None) -> int | None:
    return None if name is None else sc.players.index(name)


def _target_matches(sc: Scenario, spec: TargetSpec, t: Target) -> bool:
    if spec.player is not None:
        return t.player == _seat(sc, spec.player)
    if t.player is not None or spec.card != t.card:
        return False
    zone = spec.zone or ("stable" if spec.owner is not None else None)
    if zone is not None and zone != t.zone:
        return False
    if spec.owner is not None and _seat(sc, spec.owner) != t.owner:
        return False
    return True


def step_targets(step: Step) -> list[TargetSpec] | None:
    if step.do == "target":
        if step.card is None and step.player is None:
            return None
        return [TargetSpec(card=step.card, owner=step.owner, zone=step.zone, player=step.player)]
    if step.target is None:
        return None
    return step.target if isinstance(step.target, list) else [step.target]


def matches(sc: Scenario, step: Step, a: Action) -> bool:
    """Does `step` describe legal action `a`? A field the action does not have never matches."""
    if step.do != a.kind:
        return False
    if step.do != "target" and step.card is not None:
        if step.do == "choose":
            if a.option != step.card:
                return False
        elif a.card != step.card:
            return False
    if step.into is not None and a.into != _seat(sc, step.into):
        return False
    if step.option is not None and a.option != step.option:
        return False
    if step.cards is not None and list(a.cards) != step.cards:
        return False
    targets = step_targets(step)
    if targets is not None:
        if len(targets) != len(a.target):
            return False
        if not all(_target_matches(sc, sp, t) for sp, t in zip(targets, a.target)):
            return False
    return True


def describe_pending(game: Game) -> str:
    d = game.pending
    if d is None:
        return f"the game is over ({game.result_text()})"
    legal = "; ".join(game.describe(a) for a in d.actions)
    return f"pending: {game.players[d.player]} must decide ({d.kind}): {d.prompt} Legal: {legal}"


def answers_top(game: Game, step: Step) -> bool:
    """`to:` names the card a response answers, which must be the top card of the pile (the contract): a step
    whose `to:` is not the top card describes no legal action."""
    return step.to is None or (bool(game.pile) and game.pile[-1][0] == step.to)


def advance(game: Game, sc: Scenario, step: Step | None, keep: str | None = None) -> list[Action]:
    """Advance until `step` matches a legal action (returned) or nothing more can be advanced. Response
    windows of players other than the step's are passed; single-action decisions are taken. With no step
    (`keep` names the player of an `illegal: true` step) advancing stops at `keep`'s first decision, a
    response window or a single legal action included: the illegal step must be tried there, not at some
    later decision where it would be refused for another reason (or not be tried at all)."""
    own = _seat(sc, step.as_ if step is not None else keep)
    while True:
        d: Decision | None = game.pending
        if d is None:
            return []
        if step is not None:
            found = [a for a in d.actions if matches(sc, step, a)] if answers_top(game, step) else []
            if found and d.player == _seat(sc, step.as_):
                return found
        # passes never need writing: another player's window is passed; the step's player's own window only
        # when the step is not an answer (a play, a draw, ... comes after the window)
        if d.kind == "respond":
            if d.player != own or (step is not None and step.do not in ("respond", "pass")):
                game.push(Action("pass"))
                continue
            if step is None and keep is not None:
                return []
        elif step is None and keep is not None and d.player == own:
            return []  # an illegal step is tried at its player's decision, even one with a single legal action
        if len(d.actions) == 1:
            game.push(d.actions[0])
            continue
        return []


def _action_from_step(sc: Scenario, step: Step) -> Action:
    targets = step_targets(step) or []
    return Action(step.do, card=step.card if step.do != "target" else None, into=_seat(sc, step.into),
                  target=tuple(Target(card=t.card, owner=_seat(sc, t.owner), zone=t.zone or "stable",
                                      player=_seat(sc, t.player)) for t in targets),
                  option=step.option or (step.card if step.do == "choose" else None),
                  cards=tuple(step.cards or ()))


def run_step(game: Game, sc: Scenario, i: int, step: Step) -> None:
    label = f"step {i} ({step.as_} {step.do}{' ' + step.card if step.card else ''})"
    found = advance(game, sc, None, keep=step.as_) if step.illegal else advance(game, sc, step)
    if step.illegal:
        legal_match = [a for a in game.legal_actions if matches(sc, step, a)] if answers_top(game, step) else []
        if legal_match and game.pending and game.pending.player == _seat(sc, step.as_):
            raise StepFailed(f"{label} should be illegal, but it is legal: {game.describe(legal_match[0])}")
        if not answers_top(game, step):
            return  # an answer to a card below the top describes no action at all: refused by the contract
        before = game.to_dict()
        try:
            if game.pending is None or game.pending.player != _seat(sc, step.as_):
                raise GameError("not this player's decision")
            game.push(_action_from_step(sc, step))
        except GameError:
            pass
        else:
            raise StepFailed(f"{label} should have been rejected")
        if game.to_dict() != before:
            raise StepFailed(f"{label}: the rejected action changed the state")
        return
    if not found:
        top = game.pile[-1][0] if game.pile else None
        why = f"`to: {step.to}` but the top card of the pile is {top}; " if not answers_top(game, step) else ""
        raise StepFailed(f"{label} matches no legal action; {why}{describe_pending(game)}")
    if len(found) > 1:
        options = "; ".join(game.describe(a) for a in found)
        raise StepFailed(f"{label} is ambiguous: it matches {len(found)} legal actions ({options}); "
                         f"add the missing fields (target, into, owner)")
    game.push(found[0])


def check_expect(game: Game, sc: Scenario, ex: Expect, where: str) -> list[str]:
    s = game.state
    errors: list[str] = []
    seat = {n: i for i, n in enumerate(sc.players)}

    def multiset(label: str, got: list[str], want: list[str], exact: bool) -> None:
        g, w = Counter(got), Counter(want)
        if exact and g != w:
            errors.append(f"{label}: expected {sorted(want)}, got {sorted(got)}")
        elif not exact and w - g:
            errors.append(f"{label}: expected to include {sorted((w - g).elements())}, got {sorted(got)}")

    for key, zone in (("stables", "stable"), ("hands", "hand")):
        for exact in (True, False):
            spec = getattr(ex, key if exact else f"{key}_has")
            for p, cards in (spec or {}).items():
                got = game.stable(seat[p]) if zone == "stable" else game.hand(seat[p])
                multiset(f"{key}{'' if exact else '_has'}.{p}", got, cards, exact)
    for key, getter in (("discard", lambda: game.discard), ("nursery", lambda: game.nursery)):
        if getattr(ex, key) is not None:
            multiset(key, getter(), getattr(ex, key), True)
        if getattr(ex, f"{key}_has") is not None:
            multiset(f"{key}_has", getter(), getattr(ex, f"{key}_has"), False)
    for p, n in (ex.hand_sizes or {}).items():
        if len(s.hands[seat[p]]) != n:
            errors.append(f"hand_sizes.{p}: expected {n}, got {len(s.hands[seat[p]])}")
    for p, n in (ex.unicorns or {}).items():
        if q.unicorns(s, seat[p]) != n:
            errors.append(f"unicorns.{p}: expected {n}, got {q.unicorns(s, seat[p])}")
    if ex.deck_size is not None and len(s.deck) != ex.deck_size:
        errors.append(f"deck_size: expected {ex.deck_size}, got {len(s.deck)}")
    if ex.turn is not None:
        cur, phase, number = game.turn
        if ex.turn.player is not None and sc.players[cur] != ex.turn.player:
            errors.append(f"turn.player: expected {ex.turn.player}, got {sc.players[cur]}")
        if ex.turn.phase is not None and phase != ex.turn.phase:
            errors.append(f"turn.phase: expected {ex.turn.phase}, got {phase}")
        if ex.turn.number is not None and number != ex.turn.number:
            errors.append(f"turn.number: expected {ex.turn.number}, got {number}")
    if ex.pile is not None and [c for c, _ in game.pile] != ex.pile:
        errors.append(f"pile: expected {ex.pile}, got {[c for c, _ in game.pile]}")
    if ex.winner is not None:
        w = game.winner
        winner = "none" if w is None else w if isinstance(w, str) else sc.players[w]
        if winner != ex.winner:
            errors.append(f"winner: expected {ex.winner}, got {winner}")
    if ex.pending is not None:
        d = game.pending
        if d is None:
            errors.append("pending: expected a decision, but the game is over")
        else:
            if ex.pending.player is not None and sc.players[d.player] != ex.pending.player:
                errors.append(f"pending.player: expected {ex.pending.player}, got {sc.players[d.player]}")
            if ex.pending.kind is not None and d.kind != ex.pending.kind:
                errors.append(f"pending.kind: expected {ex.pending.kind}, got {d.kind}")
    return [f"{where}: {e}" for e in errors]


def run_scenario(sc: Scenario) -> RunResult:
    from uu.scenario.to_game import build_game

    try:
        game = build_game(sc)
    except (GameError, KeyError, ValueError) as e:
        return RunResult(sc.name, False, f"position: {e}")
    try:
        for i, step in enumerate(sc.steps, 1):
            run_step(game, sc, i, step)
            if step.then is not None:
                errs = check_expect(game, sc, step.then, f"step {i} then")
                if errs:
                    raise StepFailed("; ".join(errs))
        advance(game, sc, None)
        if sc.expect is not None:
            errs = check_expect(game, sc, sc.expect, "expect")
            if errs:
                raise StepFailed("; ".join(errs))
    except StepFailed as e:
        return RunResult(sc.name, False, str(e), game)
    return RunResult(sc.name, True, "", game)
