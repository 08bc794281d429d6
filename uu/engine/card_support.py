"""Which cards the engine cannot play yet, and why (printed loudly by `uu cards` and `uu cards --missing`)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from uu.cards import catalog
from uu.cards.verbs import VERBS


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
    from uu.engine import verb_handlers  # noqa: F401  (fills VERB_HANDLERS)
    from uu.engine.frames import VERB_HANDLERS
    from uu.engine.hooks import HOOKS

    out = {}
    for d in catalog():
        gaps = set()
        for eff in (d.play, d.enter, d.leave, d.turn_start, d.would, d.watch):
            for op in _ops(eff):
                if op["do"] not in VERB_HANDLERS:
                    gaps.add(f"verb {op['do']}")
                elif op["do"] == "hook" and op.get("name") not in HOOKS:
                    gaps.add(f"hook {op.get('name')}")
        if d.hook and d.hook not in HOOKS:
            gaps.add(f"hook {d.hook}")
        if gaps:
            out[d.name] = ", ".join(sorted(gaps))
    return out


_KEY_RULES = {"play": ("card.magic-one-shot",), "enter": ("effect.enter",), "leave": ("effect.leave",),
              "turn_start": ("bot.trigger", "bot.simultaneous")}


def card_rules(name: str) -> tuple[str, ...]:
    """The rule ids a card relies on, derived from its data (so they cannot drift from its behaviour)."""
    d = catalog()[name]
    out: list[str] = list(d.rules)
    for key in ("play", "enter", "leave", "turn_start"):
        eff = getattr(d, key)
        if eff:
            out += _KEY_RULES[key]
            if eff.get("may"):
                out.append("effect.may")
            for op in _ops(eff):
                out += VERBS[op["do"]].rules
                if op.get("then"):
                    out.append("effect.then")
    if d.static:
        out.append("effect.triggered-continuous")
    if d.would:
        out += ["effect.may", "effect.immunity"]
    if d.watch:
        out += ["effect.triggered-continuous", "effect.enter", "effect.leave"]
    if d.type.value == "baby":
        out += ["setup.babies-never-in-hand", "baby.return-to-nursery"]
    if d.type.value == "instant":
        out += ["instant.when", "neigh.stops-card", "pile.top-only"]
    if d.is_unicorn:
        out += ["card.unicorn-stays", "win.counts-one"]
    return tuple(dict.fromkeys(out))
