"""The rule registry: every rule the engine applies, with an id, a statement and where the rulebooks say it.

Each `Rule` has a stable dotted id (``pile.top-only``), the id of the checklist statement it belongs to
(``RS29``, from the checklist in ``docs/rules.md``), one sentence in our own words, and a pointer to the
seed rulebook(s) and section that state it. Seed keys: 000 = Control & Chaos rules page (wiki), 001 = English
2nd-edition rulebook, 002 = German NSFW rulebook, 003 = wiki gameplay-structure page, 004 = French rulebook.

Engine log events carry the ids of the rules that caused them, so the tutor can always answer "why did that
happen?" and "why can't I do that?" with `explain(entry.rules)`. Lessons and tests cite the same ids.

Ids starting with ``option.`` document an engine option (or a fixed engine choice) for a point where the
sources disagree or are silent: the statement names the default and what the alternative changes.

The statements themselves are in `rules_game.py` (RS01-RS27) and `rules_details.py` (RS28-RS52 and the
options), over the `Rule` of `rule_model.py`. Pure standard library beside those three modules.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable

from uu.engine.rule_model import RS_IDS, Rule
from uu.engine.rules_details import DETAIL_RULES
from uu.engine.rules_game import GAME_RULES

__all__ = ["RS_IDS", "RULES", "Rule", "UnknownRuleError", "explain", "rule", "rules_for_rs"]

_ALL: tuple[Rule, ...] = GAME_RULES + DETAIL_RULES


class UnknownRuleError(KeyError):
    """An id or RS number not in the registry; a KeyError whose text reads plainly (no repr quotes)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def _index(rules: Iterable[Rule]) -> dict[str, Rule]:
    out: dict[str, Rule] = {}
    for r in rules:
        if r.id in out:
            raise ValueError(f"duplicate rule id {r.id!r}")
        out[r.id] = r
    return out


#: Every rule by id, grouped in the order of the checklist topics above.
RULES: dict[str, Rule] = _index(_ALL)


def rule(rule_id: str) -> Rule:
    """The rule with this id; an unknown id raises KeyError naming the closest known ids."""
    try:
        return RULES[rule_id]
    except KeyError:
        pass
    close = difflib.get_close_matches(rule_id, list(RULES), n=5, cutoff=0.6)
    tail = rule_id.rsplit(".", 1)[-1]
    for rid in RULES:  # also offer ids whose last part matches, e.g. "top-only" -> "pile.top-only"
        if tail and rid.rsplit(".", 1)[-1] == tail and rid not in close:
            close.append(rid)
    hint = f"did you mean: {', '.join(close)}?" if close else "no similar id; see uu.engine.rules.RULES"
    raise UnknownRuleError(f"unknown rule id {rule_id!r}; {hint}")


_RS_RE = re.compile(r"(?:RS)?0*(\d{1,2})", re.IGNORECASE)


def rules_for_rs(rs: str) -> list[Rule]:
    """Every rule belonging to checklist statement `rs` ("RS29"; "rs29" and "29" are accepted too).

    Raises KeyError if `rs` is not one of RS01..RS52.
    """
    m = _RS_RE.fullmatch(rs.strip())
    key = f"RS{int(m.group(1)):02d}" if m else rs
    if key not in RS_IDS:
        raise UnknownRuleError(f"unknown rule statement {rs!r}; expected one of RS01..RS52")
    return [r for r in RULES.values() if r.rs == key]


def explain(rule_ids: Iterable[str]) -> list[str]:
    """One line per rule id, "RS29 pile.top-only: <statement> (seed <seed>)", in the given order.

    Repeated ids are listed once; a single id may be passed as a plain string. Unknown ids raise KeyError
    (see `rule`).
    """
    ids = [rule_ids] if isinstance(rule_ids, str) else list(rule_ids)
    lines: list[str] = []
    seen: set[str] = set()
    for rid in ids:
        if rid in seen:
            continue
        seen.add(rid)
        r = rule(rid)
        lines.append(f"{r.rs} {r.id}: {r.statement} (seed {r.seed})")
    return lines
