"""Learner words for the rule registry (uu.words.rulewords): complete, short, free of internal ids."""

from __future__ import annotations

import html
import re

import pytest

from uu.engine.rules import RULES
from uu.words.rulewords import (
    TUTOR_CHOICE,
    WORDS,
    LearnerRule,
    internal_ids_in,
    learner_rule,
    learner_rules,
    rules_html,
)


def test_every_rule_has_words_and_nothing_else():
    assert set(WORDS) == set(RULES)


@pytest.mark.parametrize("rule_id", list(RULES))
def test_words_are_short_plain_and_id_free(rule_id: str):
    r = learner_rule(rule_id)
    assert isinstance(r, LearnerRule)
    assert 2 <= len(r.title.split()) <= 6, r.title
    assert r.text and r.where
    for part in (r.title, r.text, r.where):
        assert internal_ids_in(part) == [], (rule_id, part)
        assert "shared/" not in part and "engine" not in part.lower()
    # one or two sentences: at most one full stop followed by a capital inside the text
    assert len(re.findall(r"[.!?]\s+[A-Z]", r.text)) <= 1, r.text


@pytest.mark.parametrize("rule_id", list(RULES))
def test_where_follows_the_sources(rule_id: str):
    """The English rulebook when it states the rule, else the Control & Chaos page, else the wiki; the tutor's
    own choices say so."""
    seed = RULES[rule_id].seed
    where = WORDS[rule_id][1]
    if rule_id.startswith("option."):
        assert where == TUTOR_CHOICE
    elif re.search(r"(^|; )001 ", seed):
        assert where.startswith("Rulebook: "), (rule_id, where)
    elif re.search(r"(^|; )000 ", seed):
        assert where.startswith("Control & Chaos rules: "), (rule_id, where)
    else:
        assert where.startswith("Rules wiki: "), (rule_id, where)


def test_option_texts_name_the_alternative():
    for rid in RULES:
        if rid.startswith("option."):
            text = learner_rule(rid).text
            assert "tutor" in text, rid
            assert re.search(r"other choice|another reading|[Ii]nstead|older rule|Option 2|do not say", text), rid


def test_learner_rules_dedupes_keeps_order_and_skips_unknown():
    out = learner_rules(["verb.destroy", "no.such-rule", "pile.top-only", "verb.destroy", "RS11"])
    assert [r.title for r in out] == [learner_rule("verb.destroy").title, learner_rule("pile.top-only").title]
    assert learner_rules("action.one") == [learner_rule("action.one")]
    assert learner_rules([]) == []


def test_learner_rule_is_frozen():
    r = learner_rule("draw.phase")
    with pytest.raises(AttributeError):
        r.title = "x"  # type: ignore[misc]


def test_rules_html_lists_titles_and_escapes():
    out = rules_html(["verb.destroy", "pile.top-only", "verb.destroy"], label="Why <not>?", open_=True)
    assert out.startswith("<details class='uu-rules' open><summary>Why &lt;not&gt;?: ")
    assert "What DESTROY means · Answer only the top card</summary>" in out
    assert "<b>What DESTROY means</b>" in out
    assert "<span class='uu-where'>(Control &amp; Chaos rules: Resolving Instant Cards)</span>" in out
    assert "other player&#x27;s Stable" in out  # the statement's apostrophe is escaped
    assert internal_ids_in(html.unescape(re.sub(r"<[^>]+>", " ", out))) == []
    for rid in ("verb.destroy", "pile.top-only", "RS11", "RS29"):
        assert rid not in out


def test_rules_html_closed_by_default_and_empty_for_nothing():
    assert rules_html(["draw.phase"]).startswith("<details class='uu-rules'><summary>The rule: Draw a card<")
    assert rules_html([]) == ""
    assert rules_html(["no.such-rule"]) == ""


def test_rules_html_of_every_rule_has_no_ids():
    out = rules_html(list(RULES))
    text = html.unescape(re.sub(r"<[^>]+>", " ", out))
    assert internal_ids_in(text) == []


@pytest.mark.parametrize(("text", "ids"), [
    ("RS11 verb.destroy: To DESTROY ...", ["RS11", "verb.destroy"]),
    ("Rules in this step: verb.destroy, pile.top-only", ["verb.destroy", "pile.top-only"]),
    ("(seed 001 'THE IMPORTANT TERMS'; 000 'Active Terms')", ["seed 001", "000"]),
    ("see 003 'Phase 3:Action' and 000 the turn (untitled)", ["003", "000"]),
    ("The default is option.targeting.", ["option.targeting"]),
    ("an unknown option.not-yet-written id", ["option.not-yet-written"]),
    ("checklist RS01–RS52", ["RS01", "RS52"]),
    ("It ends the sentence: end.hand-limit.", ["end.hand-limit"]),
    ("two-player.neigh and setup.deck-and-discard", ["two-player.neigh", "setup.deck-and-discard"]),
])
def test_internal_ids_found(text: str, ids: list[str]):
    assert internal_ids_in(text) == ids


@pytest.mark.parametrize("text", [
    "Play a card, e.g. a Basic Unicorn (Red), into any Stable.",
    "Basic Unicorn (Red), Baby Unicorn (Death) and Super Neigh.",
    "You have one option. The other is to DRAW a card.",
    "At the end.Then nothing.",  # not an id: 'end.then' is not in the registry
    "Card 001 is the Red Baby; 7 Unicorns win; 2-5 players.",
    "An RS232 cable, a verb.destroyer, xpile.top-only and pile.top-only-ish are not ids.",
    "Turn structure: Beginning of Turn, Draw, Action, End of Turn.",
    "",
])
def test_internal_ids_not_found_in_prose(text: str):
    assert internal_ids_in(text) == []
