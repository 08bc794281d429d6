"""Which cards the engine cannot play yet, and why (printed loudly by `uu cards` and `uu cards --missing`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from uu.cards import catalog


def _ops(effect: Any) -> Iterator[dict[str, Any]]:
    if isinstance(effect, dict):
        if "do" in effect:
            yield effect
        for v in effect.values():
            yield from _ops(v)
    elif isinstance(effect, list):
        for v in effect:
            yield from _ops(v)


def missing_cards() -> dict[str, str]:
    """Card name → the verbs or hooks it needs that the engine lacks."""
    from uu.engine.hooks import HOOKS
    from uu.engine.verbs import VERBS

    out = {}
    for d in catalog():
        gaps = set()
        for eff in (d.play, d.enter, d.leave, d.bot, d.would, d.watch):
            for op in _ops(eff):
                if op["do"] not in VERBS:
                    gaps.add(f"verb {op['do']}")
                elif op["do"] == "hook" and op.get("name") not in HOOKS:
                    gaps.add(f"hook {op.get('name')}")
        if d.hook and d.hook not in HOOKS:
            gaps.add(f"hook {d.hook}")
        if gaps:
            out[d.name] = ", ".join(sorted(gaps))
    return out
