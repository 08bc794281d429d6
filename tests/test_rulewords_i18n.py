"""Rule boxes in French and German (uu/words/rulewords.<lang>.yaml): every rule id has a title, a sentence and
where to read it in that language's rulebook; boxes and learner rules answer in the language in use."""

from __future__ import annotations

import html
import re

import pytest

from uu.engine.rules import RULES
from uu.i18n import language
from uu.words.rulewords import (
    WORDS,
    internal_ids_in,
    learner_rule,
    learner_rules,
    rules_html,
    translated_words,
)

LANGS = ("fr", "de")

# Where a rule is read, by the English "where": the prefix each language uses for the same source.
PREFIXES = {
    "Rulebook: ": {"fr": "Livret de règles\u202f: ", "de": "Spielanleitung: "},
    "Control & Chaos rules: ": {"fr": "Règles de Control & Chaos\u202f: ", "de": "Regeln von Control & Chaos: "},
    "Rules wiki: ": {"fr": "Wiki des règles\u202f: ", "de": "Regel-Wiki: "},
    "A choice of this tutor": {"fr": "Un choix de ce tuteur", "de": "Eine Entscheidung dieses Tutors"},
}

# The section headings of each language's rulebook that a "where" may name (as that rulebook prints them).
SECTIONS = {
    "fr": ("MATÉRIEL", "PRÉPARATION", "DÉROULEMENT DE LA PARTIE", "TERMES À CONNAÎTRE", "LES TYPES DE CARTES",
           "FIN DE LA PARTIE", "RÈGLES AVANCÉES ET CLARIFICATIONS", "PARTIES À 2 JOUEURS"),
    "de": ("Spielmaterial", "Spielvorbereitung", "Spielablauf", "Die wichtigsten Begriffe", "Kartenarten",
           "Spielende", "Regelklarstellungen", "2-Spieler-Regeln"),
}


@pytest.mark.parametrize("lang", LANGS)
def test_every_rule_has_words_and_nothing_else(lang: str) -> None:
    assert set(translated_words(lang)) == set(RULES)


@pytest.mark.parametrize("lang", LANGS)
def test_words_are_short_and_id_free(lang: str) -> None:
    for rid, r in translated_words(lang).items():
        assert 2 <= len(re.findall(r"\w[\w'’-]*", r.title)) <= 8, (rid, r.title)
        for part in (r.title, r.text, r.where):
            assert internal_ids_in(part) == [], (rid, part)
        assert len(re.findall(r"[.!?]\s+[A-ZÀ-Ü]", r.text)) <= 1, (rid, r.text)


@pytest.mark.parametrize("lang", LANGS)
def test_titles_are_unique(lang: str) -> None:
    titles = [r.title for r in translated_words(lang).values()]
    assert len(set(titles)) == len(titles), sorted(t for t in titles if titles.count(t) > 1)


@pytest.mark.parametrize("lang", LANGS)
def test_where_names_the_same_source_in_that_language(lang: str) -> None:
    for rid, r in translated_words(lang).items():
        english = WORDS[rid][1]
        prefix = next(p for p in PREFIXES if english.startswith(p))
        assert r.where.startswith(PREFIXES[prefix][lang]), (rid, r.where)
        if prefix == "Rulebook: ":
            section = r.where[len(PREFIXES[prefix][lang]):]
            assert section.startswith(SECTIONS[lang]), (rid, r.where)


@pytest.mark.parametrize("lang", LANGS)
def test_learner_rule_answers_in_the_language_in_use(lang: str) -> None:
    with language(lang):
        assert learner_rule("verb.destroy") == translated_words(lang)["verb.destroy"]
        assert [r.title for r in learner_rules(["pile.top-only", "unknown.id"])] == [
            translated_words(lang)["pile.top-only"].title]
    assert learner_rule("pile.top-only").title == "Answer only the top card"


@pytest.mark.parametrize("lang", LANGS)
def test_a_rules_box_in_french_or_german_has_no_english_title(lang: str) -> None:
    english_titles = {title for title, _where in WORDS.values()}
    with language(lang):
        for rid in RULES:
            box = html.unescape(rules_html([rid]))
            assert translated_words(lang)[rid].title in box
            leaked = [t for t in english_titles if f"<b>{t}</b>" in box or f": {t}</summary>" in box]
            assert not leaked, (lang, rid, leaked)
            assert "Rulebook:" not in box and "A choice of this tutor" not in box


def test_english_box_unchanged() -> None:
    box = rules_html(["pile.top-only"])
    assert box.startswith("<details class='uu-rules'><summary>The rule: Answer only the top card</summary>")
    assert rules_html(["pile.top-only"], "The rules in this step").startswith(
        "<details class='uu-rules'><summary>The rules in this step: ")
    assert rules_html(["pile.top-only"], "").startswith("<details class='uu-rules'><summary>: ")


def test_the_german_two_player_list_cites_the_edition_that_prints_it() -> None:
    # The German rulebook's 2-player list names the cards of another deck (none of this game's), so the German
    # box for the removed cards must point to the English 2nd edition; the Neigh-for-each rule is in both.
    removals = translated_words("de")["two-player.removals"]
    assert "englischen 2. Edition" in removals.where, removals.where
    assert "englischen" not in translated_words("de")["two-player.neigh"].where
