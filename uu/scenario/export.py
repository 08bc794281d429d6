"""Export the current position of a game as a scenario file (docs/scenario-format.md) that loads back to it.

    >>> from uu.engine import new_game
    >>> from uu.scenario import build_game, parse_scenario
    >>> game = new_game(["Ana", "Ben"], seed=1)
    >>> while game.pending.kind == "baby": game.push(game.pending.actions[0])
    >>> text = export_position(game)               # YAML; raises NotExportable with the reason
    >>> position_signature(build_game(parse_scenario(text))) == position_signature(game)   # the same position
    True

What the text holds: `name`, `players`, every engine `options` value (seed included), `turn` {player, phase,
number}, every player's Stable and hand in order, the full deck (top first), the discard pile (bottom first:
the order is kept, `build` appends in the listed order), an explicit `nursery` list and `rest: box`, so every
card not listed (2-player removals, Babies out of play) is out of the game exactly as before.

**Which positions export.** A position exports when nothing is half-resolved: no card on the Neigh pile, no
link waiting in the effect chain, no Magic card resolving, and the frame stack holding only the frame of the
current phase. In practice these decisions export:
- the Action phase's "play a card or DRAW" (`pending.kind == action`),
- the End of Turn "DISCARD down to the hand limit" (`discard` in the end phase; cards already discarded are
  simply in the discard pile),
- the first question of the beginning-of-turn link, before any beginning-of-turn choice was made (loading
  re-runs the start of the turn from the same Stables and asks the same question).
Everything else raises `NotExportable` with the reason and when to try again. As a final guard the export is
loaded back and compared with the game (`position_signature`); any difference is a `NotExportable` too, so
a text that does not reproduce its position is never handed out.

**Refused, because the format cannot say it (and dropping it would share a different position):**
- players still choosing their Babies (setup): a scenario with a position always starts at a turn;
- the game is over: a scenario is a position to play from;
- an extra action still to take this turn (Double Dutch: `actions_left > 1`);
- a pending extra turn (`extra_turns`), a skipped turn still owed (`skip_turns`), a phase of this turn still
  to be skipped (`skip_phases`), or the turn ending early (Rhinocorn's "end your turn": `ending_turn`).
  These change what happens next, and a scenario has no field for them; adding one is an engine and format
  change (see the report of the what-if sandbox issue), so refusing is honest and cheap: such states last a
  turn or two at most.

**Known limits (exported anyway; they are not part of "the position"):**
- the random number generator's internal state: the export keeps the game's `seed`, so a loaded position
  plays forward deterministically, but its future shuffles and random pulls differ from the original game's;
- the log, the decision counter and which cards were revealed (`revealed`, `info_epoch`): history, not
  position;
- which physical copy of a card sits where: copies of one card are interchangeable (docs/scenario-format.md),
  so only names are written (with 2 players, a removed card listed explicitly is simply taken from the removed
  copies).
"""

from __future__ import annotations

import functools
from typing import Any

import yaml

from uu.cards.localized import card_name
from uu.engine.frame_types import Frame
from uu.engine.game import Game
from uu.engine.movetext import prompt_text
from uu.engine.state import PHASES
from uu.i18n import N_, _, current_language
from uu.scenario.model import Scenario
from uu.yamlfile import DUMPER, LOADER

__all__ = ["NotExportable", "export_position", "export_scenario", "position_signature", "scenario_to_yaml",
           "why_not_exportable"]


class NotExportable(ValueError):
    """The position cannot be written as a scenario file; the message says why and when to try again."""


def why_not_exportable(game: Game) -> str | None:
    """The reason `game`'s position cannot be exported, or None if it can (before the load-back check)."""
    s = game.state
    d = game.pending
    names = s.players
    if s.over or d is None:
        return _("the game is over ({result}); a scenario is a position to play from").format(
            result=game.result_text())
    if s.stage == "setup" or any(f["kind"] == "setup" for f in s.stack):
        return _("the players are still choosing their Baby Unicorns (setup); export once the first turn has "
                 "begun")
    if s.pile:
        top = s.name(s.pile[-1]["cid"])
        return _("a card is on the Neigh pile ({card}); export when it has resolved").format(card=card_name(top))
    if s.limbo:
        return _("{card} is resolving; export when it has resolved").format(card=card_name(s.name(s.limbo[0])))
    if s.chain:
        return _("effects are waiting in the effect chain; export when the chain has resolved")
    frames = [f["kind"] for f in s.stack]
    if s.phase == "action" and frames == ["action"]:
        if s.actions_left > 1:
            return _("{player} has {count} actions left this turn (an extra action); the scenario format cannot "
                     "say so: export after the extra action").format(player=names[s.current], count=s.actions_left)
    elif s.phase == "end" and frames == ["endphase"]:
        pass
    elif s.phase == "beginning" and len(s.stack) == 1 and _fresh_turn_start_link(s):
        pass
    elif any(t in ("link", "prog", "op", "each", "would") for t in frames):
        return _("an effect is half-resolved ({prompt}); export when it has resolved (for example at the next "
                 "Action-phase decision)").format(prompt=prompt_text(d.prompt.strip()))
    else:
        return _("the position is in the middle of the {phase} phase ({frames}); export at a decision of the "
                 "phase itself (the Action phase, the End of Turn discard)").format(
            phase=_phase(s.phase), frames=", ".join(frames) or _("no frame"))
    later = PHASES[PHASES.index(s.phase) + 1:]
    if s.ending_turn and s.phase in ("beginning", "draw"):
        return _("{player}'s turn is ending early (its remaining phases are skipped); the scenario format cannot "
                 "say so: export at the next turn").format(player=names[s.current])
    skipped = [p for p in s.skip_phases if p in later]
    if skipped:
        # i18n: {phases} is one phase or two joined by "and" ("the draw and action phase")
        return _("{player} skips the {phases} phase this turn; the scenario format cannot say so: export after "
                 "that phase").format(player=names[s.current],
                                      phases=_("{phase} and {other}").format(phase=_phase(skipped[0]),
                                                                             other=_phase(skipped[1]))
                                      if len(skipped) == 2 else " and ".join(_phase(p) for p in skipped))
    if s.extra_turns:
        who = ", ".join(names[p] for p in s.extra_turns)
        return _("an extra turn is pending ({players}); the scenario format cannot say so: export once the extra "
                 "turn has begun").format(players=who)
    owed = [f"{names[p]} ({k})" for p, k in enumerate(s.skip_turns) if k]
    if owed:
        return _("skipped turns are owed: {turns}; the scenario format cannot say so: export once they have been "
                 "skipped").format(turns=", ".join(owed))
    return None


# The phases as a message names them; English says the engine's own names ("the action phase"), as it always has
_PHASE_NAMES: dict[str, str] = {"beginning": N_("Beginning of Turn"), "draw": N_("Draw"), "action": N_("Action"),
                                "end": N_("End of Turn")}


def _phase(phase: str) -> str:
    if current_language() == "en" or phase not in _PHASE_NAMES:
        return phase
    return _(_PHASE_NAMES[phase])


def _fresh_turn_start_link(s: Any) -> bool:
    """The stack is the beginning-of-turn link, asked before any of its choices was made, and the Stable has
    not changed since the turn began (so re-running the start of the turn asks the same question)."""
    f = s.stack[0]
    effs = f.get("effects") or []
    if f["kind"] != "link" or not effs or effs[0].get("kind") != "turn_start" \
            or f.get("step") not in ("ask", "declare"):
        return False
    if s.stage != "after-beginning" or sorted(s.turn_start_snapshot) != sorted(s.stables[s.current]):
        return False
    if any(e["may"] and e["use"] for e in effs) or f.get("used") or f.get("resolve_next"):
        return False
    return not any(op.get("chosen") for e in effs for op in _ops(e["ops"]))


def _ops(ops: Any) -> list[dict[str, Any]]:
    """Every op dict nested in a program (ops may nest under then / if_you_do / options)."""
    out: list[dict[str, Any]] = []
    stack = [ops]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            if "do" in x:
                out.append(x)
            stack.extend(v for v in x.values() if isinstance(v, (dict, list)))
        elif isinstance(x, list):
            stack.extend(x)
    return out


def export_scenario(game: Game, name: str | None = None) -> Scenario:
    """The position as a `Scenario` (no steps, no expectations). Raises `NotExportable`."""
    why = why_not_exportable(game)
    if why:
        raise NotExportable(_("cannot export this position: {why}").format(why=why))
    s = game.state
    players = list(s.players)
    data: dict[str, Any] = {
        "name": name or f"Position: turn {s.turn_number}, {players[s.current]}, {s.phase} phase",
        "players": players,
        "options": {k: v for k, v in s.options.model_dump().items() if v is not None},
        "turn": {"player": players[s.current], "phase": s.phase, "number": s.turn_number},
        "stables": {p: s.names(s.stables[i]) for i, p in enumerate(players)},
        "hands": {p: s.names(s.hands[i]) for i, p in enumerate(players)},
        "deck": s.names(s.deck),
        "discard": s.names(s.discard),
        "nursery": s.names(s.nursery),
        "rest": "box",
    }
    return Scenario.model_validate(data)


# PyYAML's C (libyaml) dumper and loader when available: same output rules, ten times faster
_Dumper = DUMPER

_ORDER = ("name", "description", "rules", "players", "options", "turn", "stables", "hands", "deck", "discard",
          "nursery", "rest", "steps", "expect", "lesson")


@functools.lru_cache(maxsize=4096)
def _scalar(x: Any) -> str:
    """One scalar as YAML, quoted when it has to be (as a flow-sequence item, the strictest context)."""
    return yaml.dump([x], Dumper=_Dumper, default_flow_style=True, width=1 << 20, allow_unicode=True)[1:-2]


def _flow(items: list[Any], indent: int, first: int, width: int = 110) -> str:
    """`[a, b, c]` wrapped between items (never inside a card name), continuation lines indented."""
    if not items:
        return "[]"
    parts = [_scalar(x) for x in items]  # names are strings: hashable, cached
    lines, cur = [], "[" + parts[0]
    col = first + len(cur)
    for part in parts[1:]:
        if col + len(part) + 3 > width:
            lines.append(cur + ",")
            cur = " " * indent + part
            col = len(cur)
        else:
            cur += ", " + part
            col += len(part) + 2
    lines.append(cur + "]")
    return "\n".join(lines)


def scenario_to_yaml(sc: Scenario, header: str | None = None) -> str:
    """A scenario as YAML in the Contracts' key order: lists of card names in flow style, wrapped between
    names; quoting is PyYAML's, so any player or card name loads back as the same string."""
    raw = sc.model_dump(by_alias=True, exclude_none=True)
    out: list[str] = []
    if header:
        out.extend(f"# {line}".rstrip() for line in header.splitlines())
    for key in _ORDER:
        if key not in raw:
            continue
        v = raw[key]
        if key in ("rules", "steps") and not v:
            continue
        if key in ("stables", "hands"):
            out.append(f"{key}:")
            for p, cards in v.items():
                k = _scalar(p)
                out.append(f"  {k}: " + _flow(cards, 4, len(k) + 4))
        elif key == "options":
            opts = {k: x for k, x in v.items() if x is not None}
            out.append("options:" + (" {}" if not opts else ""))
            out.extend(f"  {k}: {_scalar(x)}" for k, x in opts.items())
        elif key == "turn":
            out.append("turn: {" + ", ".join(f"{k}: {_scalar(x)}" for k, x in v.items() if x is not None) + "}")
        elif isinstance(v, list) and all(isinstance(x, str) for x in v):
            out.append(f"{key}: " + _flow(v, 2, len(key) + 2))
        elif isinstance(v, (dict, list)):
            out.append(yaml.dump({key: v}, Dumper=_Dumper, sort_keys=False, default_flow_style=None,
                                 width=110, allow_unicode=True).rstrip("\n"))
        else:
            out.append(f"{key}: {_scalar(v)}")
    return "\n".join(out) + "\n"


def position_signature(game: Game) -> dict[str, Any]:
    """Everything that makes two games "the same position", by card names (instances are interchangeable):
    zones in order, turn, flow stage, turn-long flags, the frames on the stack and the pending decision with
    its legal actions. Used to check an export and by the tests."""
    s = game.state
    d = game.pending
    later = PHASES[PHASES.index(s.phase) + 1:]

    def frame(f: Frame) -> tuple[Any, ...]:
        effs = f["effects"] if f["kind"] == "link" else []
        return (f["kind"], f.get("step"), tuple((s.name(e["cid"]), e.get("kind"), e.get("use")) for e in effs))

    return {
        "players": list(s.players),
        "options": s.options.model_dump(),
        "stables": [s.names(x) for x in s.stables],
        "hands": [s.names(x) for x in s.hands],
        "deck": s.names(s.deck),
        "discard": s.names(s.discard),
        "nursery": s.names(s.nursery),
        "box": sorted(s.names(s.box)),
        "limbo": s.names(s.limbo),
        "pile": [(s.name(e["cid"]), e["p"]) for e in s.pile],
        "chain": len(s.chain),
        "turn": (s.current, s.phase, s.turn_number),
        "stage": s.stage,
        # turn-long flags, as far as they still matter: extra actions in the Action phase, an early end and
        # skipped phases before the phases they affect (all are reset when the next turn begins)
        "flags": (s.actions_left if s.phase == "action" else None, s.ending_turn and s.phase != "end",
                  [p for p in s.skip_phases if p in later], list(s.skip_turns), list(s.extra_turns)),
        "stack": [frame(f) for f in s.stack],
        "over": (s.over, s.winner),
        # the engine's own (English) labels: a signature must not depend on the language in use
        "pending": None if d is None else (d.player, d.kind, [a.describe(game.players) for a in d.actions]),
    }


def export_position(game: Game, name: str | None = None, verify: bool = True) -> str:
    """The current position as scenario YAML that loads back (`parse_scenario` → `build_game`) to the same
    position. Raises `NotExportable` saying why when it cannot; never changes `game`."""
    sc = export_scenario(game, name)
    s = game.state
    header = (f"Exported position: turn {s.turn_number}, {s.players[s.current]}'s {s.phase} phase; "
              f"{s.players[game.pending.player]} decides ({game.pending.kind}).")  # type: ignore[union-attr]
    text = scenario_to_yaml(sc, header)
    if verify:
        _verify(game, sc, text)
    return text


def _verify(game: Game, sc: Scenario, text: str) -> None:
    """Load the text back (YAML → Scenario → Game) and compare positions; NotExportable on any difference.
    (`parse_scenario` adds line numbers for errors only; the data path is the same, with the C YAML loader
    when available, so an export stays cheap.)"""
    from uu.scenario.to_game import build_game

    back_sc = Scenario.model_validate(yaml.load(text, Loader=LOADER))
    if back_sc != sc:
        raise NotExportable("cannot export this position: the YAML text does not load back to the same "
                            "scenario (a name that YAML cannot quote?)")
    back = build_game(back_sc)
    want, got = position_signature(game), position_signature(back)
    diff = [k for k in want if want[k] != got[k]]
    if diff:
        if game.state.phase == "beginning":
            why = ("a beginning-of-turn choice was already made this turn, and loading would ask it again; "
                   "export at the Action-phase decision")
        else:
            why = f"loading the exported text does not reproduce it (differs in: {', '.join(diff)})"
        raise NotExportable(_("cannot export this position: {why}").format(why=why))
