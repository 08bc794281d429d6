"""Saving and loading a position (docs/save-format.md): version 2 is the format's own external form, checked
with pydantic on load (uu/engine/save_format.py); version-1 saves (a dump of the state's fields, and the
older ones with short frame keys) are read by translating them to version 2 first.

Every save that cannot be loaded raises `SaveError` naming what is wrong; nothing else escapes `load_state`.
"""

from __future__ import annotations

import random
from typing import Any

from pydantic import ValidationError

from uu.cards import catalog
from uu.engine.errors import SaveError
from uu.engine.frame_types import Zone
from uu.engine.save_format import FORMAT, FRAME_KEYS, FRAME_KINDS, SaveV2
from uu.engine.state import GameState, LogEntry

__all__ = ["FORMAT", "state_from_dict", "state_to_dict"]

_KIND_IN: dict[str, str] = {v: k for k, v in FRAME_KINDS.items()}
_KEYS_IN: dict[str, dict[str, str]] = {kind: {v: k for k, v in keys.items()} for kind, keys in FRAME_KEYS.items()}


# ---- internal <-> external ---------------------------------------------------------------------------------
def _out(table: str, d: dict[str, Any]) -> dict[str, Any]:
    keys = FRAME_KEYS[table]
    out: dict[str, Any] = {}
    for k, v in d.items():
        if k not in keys:  # a key the engine added without naming it in the save format
            raise RuntimeError(f"uu.engine.save_format.FRAME_KEYS[{table!r}] has no external name for {k!r}")
        out[keys[k]] = v
    return out


def frame_out(f: dict[str, Any]) -> dict[str, Any]:
    """A frame (or a link of the chain) in the save format's words."""
    kind = f["kind"]
    out = _out(kind, f)
    out["kind"] = FRAME_KINDS[kind]
    if kind == "link":
        out["effects"] = [_out("effect", e) for e in f["effects"]]
    return out


def frame_in(f: dict[str, Any]) -> dict[str, Any]:
    """A validated frame of a save (its keys as given: `model_dump(exclude_unset=True)`), in the engine's words."""
    kind = _KIND_IN[f["kind"]]
    keys = _KEYS_IN[kind]
    out = {keys[k]: v for k, v in f.items()}
    out["kind"] = kind
    if kind == "link":
        out["effects"] = [{_KEYS_IN["effect"][k]: v for k, v in e.items()} for e in f["effects"]]
    return out


def state_to_dict(s: GameState) -> dict[str, Any]:
    import copy

    version, internal, gauss = s.rng.getstate()
    return {
        "format": FORMAT,
        "cards": [d.name for d in s.defs],
        "players": list(s.players),
        "options": s.options.model_dump(),
        "rng": {"version": version, "state": list(internal), "gauss": gauss},
        "zones": {"hands": [list(h) for h in s.hands], "stables": [list(x) for x in s.stables],
                  "deck": list(s.deck), "discard": list(s.discard), "nursery": list(s.nursery),
                  "limbo": list(s.limbo), "box": list(s.box), "pile": list(s.pile_cards)},
        "turn": {"stage": s.stage, "player": s.current, "phase": s.phase, "number": s.turn_number,
                 "actions_left": s.actions_left, "ending": s.ending_turn,
                 "start_stable": list(s.turn_start_snapshot), "skip_phases": list(s.skip_phases),
                 "last_end": list(s.last_end)},
        "skip_turns": list(s.skip_turns),
        "extra_turns": list(s.extra_turns),
        "pile": [_out("pile_entry", copy.deepcopy(dict(e))) for e in s.pile],
        "chain": [frame_out(copy.deepcopy(dict(f))) for f in s.chain],
        "stack": [frame_out(copy.deepcopy(dict(f))) for f in s.stack],
        "last_ok": s.last_ok, "ctx_player": s.ctx_player, "win_check_due": s.win_check_due,
        "state_check_due": s.state_check_due, "winner": s.winner, "over": s.over,
        "revealed": list(s.revealed), "decisions": s.decisions, "info_epoch": s.info_epoch,
        "log": [{"text": e.text, "rules": list(e.rules), "player": e.player} for e in s.log],
    }


# ---- version 1 -------------------------------------------------------------------------------------------
# The short frame keys of saves written before the frames had explanatory names.
_OLD_FRAME_KEYS = {"t": "kind", "st": "step", "k": "picks_made", "ok_n": "picks_carried_out", "ri": "resolve_next",
                   "i": "next_op", "top": "pile_seen", "ok": "all_carried_out", "child": "child_running"}


def _renamed_frame(f: dict[str, Any]) -> dict[str, Any]:
    f = {_OLD_FRAME_KEYS.get(k, k): v for k, v in f.items()}
    if f.get("kind") == "bot":
        f["kind"] = "turn_start"
    if f.get("kind") == "link" and f.get("effects"):
        f["effects"] = [{**e, "kind": "turn_start"} if e.get("kind") == "bot" else e for e in f["effects"]]
    return f


def _frame_v1(f: Any, where: str) -> dict[str, Any]:
    if not isinstance(f, dict) or f.get("kind") not in FRAME_KEYS or f.get("kind") in ("effect", "pile_entry"):
        raise SaveError(f"{where}: not a frame of a version-1 save: {str(f)[:80]!r}")
    unknown = [k for k in f if k not in FRAME_KEYS[f["kind"]]]
    if unknown:
        raise SaveError(f"{where}: a {f['kind']!r} frame has no key {unknown[0]!r}")
    if f["kind"] == "link":
        if not isinstance(f.get("effects"), list) or not all(isinstance(e, dict) for e in f["effects"]):
            raise SaveError(f"{where}: a link's effects must be a list of effects")
        bad = [k for e in f["effects"] for k in e if k not in FRAME_KEYS["effect"]]
        if bad:
            raise SaveError(f"{where}: an effect of a link has no key {bad[0]!r}")
    return frame_out(f)


def upgrade_v1(data: dict[str, Any]) -> dict[str, Any]:
    """A version-1 save (a dump of the state's fields, frames with the engine's keys) as version 2."""
    try:
        if "bot_snapshot" in data:  # from before the beginning of turn was renamed, and frames had short keys
            data = {("turn_start_snapshot" if k == "bot_snapshot" else k): v for k, v in data.items()}
            data["stack"] = [_renamed_frame(f) for f in data["stack"]]
            data["chain"] = [_renamed_frame(f) for f in data["chain"]]
        version, internal, gauss = data["rng"]
        pile = data["pile"]
        if not isinstance(pile, list) or not all(isinstance(e, dict) for e in pile):
            raise SaveError("pile: a list of the Neigh pile's entries")
        return {
            "format": FORMAT, "cards": data["cards"], "players": data["players"], "options": data["options"],
            "rng": {"version": version, "state": internal, "gauss": gauss},
            "zones": {"hands": data["hands"], "stables": data["stables"], "deck": data["deck"],
                      "discard": data["discard"], "nursery": data["nursery"], "limbo": data["limbo"],
                      "box": data["box"], "pile": data["pile_cards"]},
            "turn": {"stage": data["stage"], "player": data["current"], "phase": data["phase"],
                     "number": data["turn_number"], "actions_left": data["actions_left"],
                     "ending": data["ending_turn"], "start_stable": data["turn_start_snapshot"],
                     "skip_phases": data["skip_phases"], "last_end": data["last_end"]},
            "skip_turns": data["skip_turns"], "extra_turns": data["extra_turns"],
            "pile": [{FRAME_KEYS["pile_entry"].get(k, k): v for k, v in e.items()} for e in pile],
            "chain": [_frame_v1(f, f"chain[{i}]") for i, f in enumerate(data["chain"])],
            "stack": [_frame_v1(f, f"stack[{i}]") for i, f in enumerate(data["stack"])],
            **{k: data[k] for k in ("last_ok", "ctx_player", "win_check_due", "state_check_due", "winner", "over",
                                    "revealed", "decisions", "info_epoch")},
            "log": [{"text": t, "rules": r, "player": p} for t, r, p in data["log"]],
        }
    except SaveError:
        raise
    except KeyError as e:
        raise SaveError(f"a version-1 save without its {e.args[0]!r} field") from None
    except (TypeError, ValueError, AttributeError) as e:
        raise SaveError(f"a version-1 save with a malformed field ({e})") from None


# ---- loading ---------------------------------------------------------------------------------------------
def _where(loc: tuple[int | str, ...]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "the save"


def _first_error(e: ValidationError) -> str:
    errors = e.errors(include_url=False)
    first = errors[0]
    more = f" (and {len(errors) - 1} more problems)" if len(errors) > 1 else ""
    return f"{_where(tuple(first['loc']))}: {first['msg']}{more}"


def validate(data: Any) -> SaveV2:
    """The save, checked and in version 2; raises SaveError naming the first problem."""
    if not isinstance(data, dict):
        raise SaveError(f"a save is a JSON object (a dict), not {type(data).__name__}")
    fmt = data.get("format")
    if fmt == 1:
        data = upgrade_v1(data)
    elif fmt != FORMAT:
        raise SaveError(f"unsupported save format {fmt!r}: this engine reads formats 1 and {FORMAT}")
    players, cards = data.get("players"), data.get("cards")
    seats = len(players) if isinstance(players, list) else 0
    context = {"seats": seats, "cards": len(cards) if isinstance(cards, list) else 0}
    try:
        save = SaveV2.model_validate(data, context=context)
    except ValidationError as e:
        raise SaveError(f"the save cannot be loaded: {_first_error(e)}") from None
    known = {d.name for d in catalog()}
    unknown = [c for c in save.cards if c not in known]
    if unknown:
        raise SaveError(f"cards: {unknown[0]!r} is not a card of the catalog")
    return save


def state_from_dict(data: Any) -> GameState:
    """The state of a save (either version); raises SaveError when it cannot be loaded."""
    save = validate(data)
    cat = catalog()
    defs = [cat[name] for name in save.cards]
    rng = random.Random()
    rng.setstate((save.rng.version, tuple(save.rng.state), save.rng.gauss))
    n = len(save.players)
    s = GameState(players=list(save.players), defs=defs, options=save.options, rng=rng)
    z = save.zones
    s.hands, s.stables = [list(h) for h in z.hands], [list(x) for x in z.stables]
    s.deck, s.discard, s.nursery = list(z.deck), list(z.discard), list(z.nursery)
    s.limbo, s.box, s.pile_cards = list(z.limbo), list(z.box), list(z.pile)
    s.zone_of = [""] * len(defs)
    s.owner_of = [-1] * len(defs)
    places: list[tuple[Zone, int, list[int]]] = [
        *(("hand", p, h) for p, h in enumerate(s.hands)), *(("stable", p, x) for p, x in enumerate(s.stables)),
        ("deck", -1, s.deck), ("discard", -1, s.discard), ("nursery", -1, s.nursery), ("limbo", -1, s.limbo),
        ("box", -1, s.box), ("pile", -1, s.pile_cards)]
    for zone, owner, cards in places:
        for c in cards:
            s.zone_of[c] = zone
            s.owner_of[c] = owner
    t = save.turn
    s.stage, s.current, s.phase, s.turn_number = t.stage, t.player, t.phase, t.number
    s.actions_left, s.ending_turn, s.turn_start_snapshot = t.actions_left, t.ending, list(t.start_stable)
    s.skip_phases, s.last_end = list(t.skip_phases), list(t.last_end)
    s.skip_turns, s.extra_turns = list(save.skip_turns), list(save.extra_turns)
    s.pile = [{_KEYS_IN["pile_entry"][k]: v for k, v in e.model_dump().items()} for e in save.pile]  # type: ignore[misc]
    s.chain = [frame_in(f.model_dump(exclude_unset=True)) for f in save.chain]  # type: ignore[misc]
    s.stack = [frame_in(f.model_dump(exclude_unset=True)) for f in save.stack]  # type: ignore[misc]
    s.last_ok, s.ctx_player = save.last_ok, save.ctx_player
    s.win_check_due, s.state_check_due = save.win_check_due, save.state_check_due
    s.winner, s.over, s.revealed = save.winner, save.over, list(save.revealed)
    s.decisions, s.info_epoch = save.decisions, save.info_epoch
    s.log = [LogEntry(e.text, tuple(e.rules), e.player) for e in save.log]
    s.static_cache = [None] * n
    return s
