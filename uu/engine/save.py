"""Saving and loading the full state as JSON-able data (a position, including half-resolved effects)."""

from __future__ import annotations

import random
from typing import Any

from uu.cards import catalog
from uu.engine.options import Options
from uu.engine.state import STATE_FIELDS, GameState, LogEntry

FORMAT = 1

_SAVED = tuple(k for k, use in STATE_FIELDS.items() if use == "saved")


def _jsonable_rng(rng: random.Random) -> list[Any]:
    version, internal, gauss = rng.getstate()
    return [version, list(internal), gauss]


def state_to_dict(s: GameState) -> dict[str, Any]:
    import copy

    out: dict[str, Any] = {"format": FORMAT, "cards": [d.name for d in s.defs],
                           "options": s.options.model_dump(), "rng": _jsonable_rng(s.rng)}
    for k in _SAVED:
        out[k] = copy.deepcopy(getattr(s, k))
    out["log"] = [[e.text, list(e.rules), e.player] for e in s.log]
    return out


# The short frame keys of saves written before the frames had explanatory names (uu.engine.frames).
_OLD_FRAME_KEYS = {"t": "kind", "st": "step", "k": "picks_made", "ok_n": "picks_carried_out", "ri": "resolve_next",
                   "i": "next_op", "top": "pile_seen", "ok": "all_carried_out", "child": "child_running"}


def _old_names(data: dict[str, Any]) -> dict[str, Any]:
    """A save written before the renames (the beginning of turn was "bot", frames had short keys), read as if
    written after: saved games and shared positions from then still load."""
    if "bot_snapshot" not in data:
        return data
    data = {("turn_start_snapshot" if k == "bot_snapshot" else k): v for k, v in data.items()}
    data["stack"] = [_renamed_frame(f) for f in data["stack"]]
    data["chain"] = [_renamed_frame(f) for f in data["chain"]]
    return data


def _renamed_frame(f: dict[str, Any]) -> dict[str, Any]:
    f = {_OLD_FRAME_KEYS.get(k, k): v for k, v in f.items()}
    if f.get("kind") == "bot":
        f["kind"] = "turn_start"
    if f.get("kind") == "link" and f.get("effects"):
        f["effects"] = [{**e, "kind": "turn_start"} if e.get("kind") == "bot" else e for e in f["effects"]]
    return f


def state_from_dict(data: dict[str, Any]) -> GameState:
    import copy

    if data.get("format") != FORMAT:
        raise ValueError(f"unsupported save format {data.get('format')!r}; expected {FORMAT}")
    data = _old_names(data)
    cat = catalog()
    defs = [cat[name] for name in data["cards"]]
    rng = random.Random()
    version, internal, gauss = data["rng"]
    rng.setstate((version, tuple(internal), gauss))
    s = GameState(players=list(data["players"]), defs=defs, options=Options(**data["options"]), rng=rng)
    for k in _SAVED:
        setattr(s, k, copy.deepcopy(data[k]))
    s.log = [LogEntry(t, tuple(r), p) for t, r, p in data["log"]]
    s.static_cache = [None] * len(s.players)
    return s
