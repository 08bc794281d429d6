"""The rule registry (uu.engine.rules): coverage of the checklist RS01-RS52, id and text hygiene, lookups."""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

import uu.engine.rules as rules_module
from uu.engine.rules import RS_IDS, RULES, Rule, UnknownRuleError, explain, rule, rules_for_rs

# The ids the engine logs, with the checklist statement each must belong to (a removal or a move breaks
# the engine's "why?" texts, so it is pinned here).
ENGINE_IDS: dict[str, str] = {
    "setup.components": "RS01", "setup.deal-five": "RS01", "setup.deck-and-discard": "RS01",
    "setup.reference-cards": "RS02", "setup.choose-baby": "RS03", "setup.nursery": "RS03",
    "setup.babies-never-in-hand": "RS03", "setup.first-player": "RS04", "turn.clockwise": "RS04",
    "turn.phases": "RS05", "bot.trigger": "RS06", "bot.optional-lost": "RS07", "bot.mandatory-stays": "RS07",
    "draw.phase": "RS08", "action.one": "RS09", "action.draw-instead": "RS09", "end.hand-limit": "RS10",
    "verb.draw": "RS11", "verb.discard": "RS11", "verb.sacrifice": "RS11", "verb.destroy": "RS11",
    "verb.steal": "RS11", "verb.move-to-discard": "RS12", "card.unicorn-stays": "RS13",
    "card.unicorn-kinds": "RS13", "card.magic-one-shot": "RS14", "card.downgrade-any-stable": "RS15",
    "card.upgrade-any-stable": "RS16", "instant.when": "RS17", "instant.chain": "RS17",
    "win.threshold": "RS18", "win.counts-one": "RS18", "win.after-chain": "RS19", "win.deck-out": "RS20",
    "win.letters": "RS20", "win.everyone-loses": "RS20", "effect.hand-inactive": "RS21",
    "effect.enter": "RS22", "effect.leave": "RS22", "effect.may": "RS23",
    "effect.triggered-continuous": "RS24", "bot.simultaneous": "RS25", "bot.end-turn-others-resolve": "RS25",
    "chain.link": "RS26", "chain.targets-before": "RS26", "chain.new-link": "RS26",
    "chain.same-target": "RS27", "chain.not-enough-targets": "RS27", "chain.mandatory-first": "RS27",
    "neigh.cards-only": "RS28", "neigh.stops-card": "RS28", "pile.top-only": "RS29", "pile.fastest": "RS29",
    "pile.respond-again": "RS29", "pile.resolve-top-down": "RS29", "target.players": "RS30",
    "target.option": "RS31", "search.reveal": "RS32", "downgrade.sacrifice-a-card": "RS33",
    "effect.order": "RS34", "effect.and": "RS34", "effect.then": "RS34", "effect.if-you-do": "RS34",
    "effect.impossible-play": "RS35", "effect.impossible-skip": "RS35", "effect.bring-not-play": "RS36",
    "effect.immunity": "RS37", "effect.pull-choose": "RS38", "two-player.removals": "RS39",
    "two-player.neigh": "RS39", "baby.nursery-only": "RS40", "status.check": "RS41",
    "status.skipped-phase": "RS41", "bot.entered-this-turn": "RS42", "bot.skip-to-end": "RS42",
    "draw.extra": "RS43", "action.requirements": "RS44", "action.valid-stable": "RS44",
    "action.magic-target": "RS44", "pile.everyone-asked": "RS45", "pile.no-neigh-after-pass": "RS45",
    "end.never-skipped": "RS46", "turn.skips-add-up": "RS46", "search.must-find": "RS47",
    "bring.from-discard": "RS48", "turn.extra": "RS49", "card.unicorn-any-stable": "RS50",
    "bot.order-irrelevant": "RS51", "turn.skip-phase": "RS52", "turn.skip-other": "RS52",
    "turn.another": "RS52",
    # engine options (sources disagree or are silent)
    "option.targeting": "RS31", "option.responder-order": "RS29", "option.deck-out": "RS20",
    "option.baby-moves": "RS40", "option.simultaneous-win": "RS18", "option.open-hand-pull": "RS38",
}  # fmt: skip

ID_RE = re.compile(r"^[a-z0-9-]+(\.[a-z0-9-]+)+$")
SEED_KEYS = ("000", "001", "002", "003", "004")


def test_rs_ids_are_the_checklist() -> None:
    expected = tuple(f"RS{n:02d}" for n in range(1, 53))
    assert expected == RS_IDS


@pytest.mark.parametrize("rs", [f"RS{n:02d}" for n in range(1, 53)])
def test_every_rule_statement_has_a_rule(rs: str) -> None:
    assert rules_for_rs(rs), f"{rs} has no rule in the registry"


@pytest.mark.parametrize(("rid", "rs"), sorted(ENGINE_IDS.items()))
def test_engine_ids_are_defined_with_their_rs(rid: str, rs: str) -> None:
    assert rid in RULES, f"engine id {rid} missing"
    assert RULES[rid].rs == rs


def test_every_rule_belongs_to_a_checklist_statement() -> None:
    bad = {r.id: r.rs for r in RULES.values() if r.rs not in RS_IDS}
    assert not bad


def test_ids_are_well_formed_unique_and_keyed_by_themselves() -> None:
    for key, r in RULES.items():
        assert isinstance(r, Rule)
        assert key == r.id
        assert ID_RE.fullmatch(r.id), r.id
    assert len({r.id for r in RULES.values()}) == len(RULES)


def test_rule_is_frozen() -> None:
    r = rule("pile.top-only")
    with pytest.raises(AttributeError):
        r.statement = "x"  # type: ignore[misc]


@pytest.mark.parametrize("rid", sorted(RULES))
def test_statement_is_one_sentence(rid: str) -> None:
    s = RULES[rid].statement
    assert s, rid
    assert s.strip() == s, rid
    assert "\n" not in s
    assert s.endswith("."), f"{rid}: statement must end with a period"
    assert s[0].isupper(), f"{rid}: statement must start with a capital"
    # A second sentence would show as end punctuation followed by a capitalised word.
    assert not re.search(r"[.!?][\"')]?\s+[A-Z]", s), f"{rid}: more than one sentence"


@pytest.mark.parametrize("rid", sorted(RULES))
def test_seed_names_a_seed_file(rid: str) -> None:
    seed = RULES[rid].seed
    assert seed.strip(), rid
    assert "\n" not in seed
    assert any(re.search(rf"\b{k}\b", seed) for k in SEED_KEYS), f"{rid}: seed {seed!r} names no seed file"


def test_options_are_documented() -> None:
    options = ("option.targeting", "option.responder-order", "option.deck-out", "option.baby-moves")
    for rid in (*options, "option.simultaneous-win", "option.return-is-leaving"):
        assert "default" in RULES[rid].statement or "Engine choice" in RULES[rid].statement, rid
    assert "declare-first" in RULES["option.targeting"].statement
    assert "neigh-first" in RULES["option.targeting"].statement
    assert "reshuffle" in RULES["option.deck-out"].statement
    assert "nursery-only" in RULES["option.baby-moves"].statement


def test_docs_checklist_lists_every_rs_id_in_order() -> None:
    """docs/rules.md, which the registry cites, has one checklist row per RS id, in order, each with sources."""
    doc = Path(__file__).resolve().parents[1] / "docs" / "rules.md"
    rows = re.findall(r"^\| (RS\d\d) \| (.+?) \| (.+?) \|$", doc.read_text(encoding="utf-8"), flags=re.MULTILINE)
    assert tuple(rs for rs, _, _ in rows) == RS_IDS
    assert all(statement.endswith(".") and sources.strip() for _, statement, sources in rows)


def test_rule_lookup() -> None:
    assert rule("pile.top-only").rs == "RS29"


def test_unknown_rule_id_raises_keyerror_with_suggestions() -> None:
    with pytest.raises(KeyError) as exc:
        rule("pile.top-onyl")
    assert isinstance(exc.value, UnknownRuleError)
    msg = str(exc.value)
    assert msg.startswith("unknown rule id 'pile.top-onyl'")
    assert "pile.top-onyl" in msg
    assert "pile.top-only" in msg


def test_unknown_rule_id_matches_on_last_part() -> None:
    with pytest.raises(KeyError) as exc:
        rule("top-only")
    assert "pile.top-only" in str(exc.value)


def test_unknown_rule_id_without_anything_close() -> None:
    with pytest.raises(KeyError) as exc:
        rule("zzzz.qqqq")
    assert "zzzz.qqqq" in str(exc.value)


def test_rules_for_rs() -> None:
    ids = [r.id for r in rules_for_rs("RS29")]
    assert ids[:4] == ["pile.top-only", "pile.fastest", "pile.respond-again", "pile.resolve-top-down"]
    assert all(r.rs == "RS29" for r in rules_for_rs("RS29"))
    assert rules_for_rs("rs29") == rules_for_rs("29") == rules_for_rs("RS29")
    for bad in ("RS00", "RS53", "nope"):
        with pytest.raises(KeyError):
            rules_for_rs(bad)


def test_explain_format() -> None:
    lines = explain(["pile.top-only", "effect.then"])
    r = rule("pile.top-only")
    assert lines[0] == f"RS29 pile.top-only: {r.statement} (seed {r.seed})"
    assert lines[1].startswith("RS34 effect.then: ")
    assert re.fullmatch(r"RS\d\d [a-z0-9.-]+: .+\. \(seed .*\b00[0-4]\b.*\)", lines[1])


def test_explain_dedupes_keeps_order_and_accepts_a_string() -> None:
    assert explain(("effect.then", "pile.top-only", "effect.then")) == explain(
        ["effect.then", "pile.top-only"]
    )
    assert explain("effect.then") == explain(["effect.then"])
    assert explain([]) == []


def test_explain_unknown_id_raises() -> None:
    with pytest.raises(KeyError):
        explain(["pile.top-only", "no.such-rule"])


def test_module_is_standard_library_only() -> None:
    """The registry and its three data modules import the standard library and each other, nothing else."""
    own = {"uu.engine.rule_model", "uu.engine.rules_game", "uu.engine.rules_details"}
    folder = Path(rules_module.__file__).parent
    for name in ("rules", "rules_game", "rules_details", "rule_model"):
        src = (folder / f"{name}.py").read_text(encoding="utf-8")
        imports = re.findall(r"^(?:from|import)\s+([\w.]+)", src, flags=re.MULTILINE)
        assert all(m in own or m.split(".")[0] in {"__future__", "difflib", "re", "collections", "dataclasses"}
                   for m in imports), (name, imports)


# The source texts (docs/rules.md, "Sources") as plain text files, one per source; they are not part of the
# repository (their wording is not ours to copy), so a clone without them skips the test below.
# The folder of source texts the founders keep beside a clone of the repository, if there is one
SEEDS_DIR = Path(os.environ.get("UU_SEEDS_DIR", Path(__file__).resolve().parents[2] / "shared" / "seeds"))
SEED_FILES = sorted(SEEDS_DIR.glob("*.txt")) if SEEDS_DIR.is_dir() else []


@pytest.mark.skipif(
    not SEED_FILES,
    reason=f"no seed rulebook texts (*.txt) in {SEEDS_DIR}; they are not in the repository: point UU_SEEDS_DIR "
    "at a folder holding them to run this check",
)
def test_statements_are_paraphrased_not_copied() -> None:
    """No statement shares a run of 9 words with a seed rulebook (statements are in our own words)."""

    def words(text: str) -> list[str]:
        return re.findall(r"[a-z0-9]+", text.lower())

    n = 9
    grams: set[tuple[str, ...]] = set()
    for f in SEED_FILES:
        w = words(f.read_text(encoding="utf-8", errors="replace"))
        grams.update(tuple(w[i : i + n]) for i in range(len(w) - n + 1))
    copied = {}
    for r in RULES.values():
        w = words(r.statement)
        hits = [" ".join(w[i : i + n]) for i in range(len(w) - n + 1) if tuple(w[i : i + n]) in grams]
        if hits:
            copied[r.id] = hits[0]
    assert not copied, copied
