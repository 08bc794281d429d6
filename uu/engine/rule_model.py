"""One rule of the registry (`uu.engine.rules`), and the checklist ids rules belong to. Pure standard library."""

from __future__ import annotations

from dataclasses import dataclass

#: The checklist ids RS01..RS52 of ``docs/rules.md``, in order.
RS_IDS: tuple[str, ...] = tuple(f"RS{n:02d}" for n in range(1, 53))


@dataclass(frozen=True, slots=True)
class Rule:
    """One rule: a stable id, its checklist statement, a one-sentence paraphrase and its source."""

    id: str  # e.g. "pile.top-only"
    rs: str  # the RS id it belongs to, e.g. "RS29"
    statement: str  # one sentence in our own words
    seed: str  # seed file key(s) and section, e.g. "000 'Resolving Instant Cards'"
