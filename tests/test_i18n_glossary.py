"""The glossaries (uu/i18n/glossary.<lang>.yaml) are used: no French or German text of the tutor keeps an
English game term ("Stable" in French, where the rulebook says "Écurie"), and lessons name cards as the card
table of their language does. Checked over every lesson translation there is, the gettext catalogs if present,
the card texts and the rule boxes; a sample lesson written here proves the checks fail when they should."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
import yaml

from uu.cards.localized import translations
from uu.i18n.glossary import (
    card_names,
    forbidden_terms_in,
    glossary,
    kept_english_names,
    swap_card_names,
    swap_card_names_in_folder,
    untranslated_card_names_in,
)
from uu.words.rulewords import translated_words

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("fr", "de")

# The English terms every glossary must cover, with the words it must forbid (the brief of issue #27).
REQUIRED_FORBIDDEN = ("Stable", "Nursery", "discard pile", "deck", "DRAW", "DISCARD", "SACRIFICE", "DESTROY",
                      "STEAL", "Upgrade", "Downgrade", "Magic card", "Beginning of Turn", "End of Turn",
                      "hand limit", "Neigh", "Instant", "Baby Unicorn", "Basic Unicorn")


def _strings(node: Any) -> list[str]:
    """Every string in a YAML tree (a lesson translation holds only words)."""
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def lesson_problems(folder: Path, lang: str) -> list[str]:
    """Every forbidden English term and every English card name the language names otherwise, in the lesson
    translations `folder/<lang>/*.yaml`."""
    problems = []
    for path in sorted((folder / lang).glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        for text in _strings(data):
            for word in forbidden_terms_in(text, lang):
                problems.append(f"{path.name}: English term {word!r} in {text[:70]!r}")
            for name in untranslated_card_names_in(text, lang):
                problems.append(f"{path.name}: card {name!r} is {card_names(lang)[name]!r} in this language")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_glossary_covers_the_game_terms(lang: str) -> None:
    g = glossary(lang)
    assert g.language == lang
    forbidden = {f for t in g.terms for f in t.forbidden}
    assert set(REQUIRED_FORBIDDEN) <= forbidden, set(REQUIRED_FORBIDDEN) - forbidden
    for t in g.terms:
        assert t.english and t.term and t.where, t
        # a term never forbids itself (Super Huue must not trip over "Super")
        assert not forbidden_terms_in(t.term, lang), t


def test_the_editions_words() -> None:
    fr, de = glossary("fr"), glossary("de")
    assert fr.term("Stable") == "Écurie" and de.term("Stable") == "Stall"
    assert fr.term("Neigh") == "Huue" and de.term("Neigh") == "Nühü"
    assert fr.term("Downgrade card") == "carte Attaque" and fr.term("Instant card") == "carte Illico"
    assert de.term("Nursery") == "Kindergarten" and de.term("hand limit") == "Handkartenlimit"


@pytest.mark.parametrize("lang", LANGS)
def test_every_lesson_translation_keeps_to_the_glossary(lang: str) -> None:
    problems = lesson_problems(ROOT / "lessons", lang)
    # English card names: uu.i18n.glossary.swap_card_names_in_folder("lessons") puts the edition's names in
    assert not problems, "\n".join(problems)


def test_the_lesson_check_fails_on_english_terms_and_names(tmp_path: Path) -> None:
    (tmp_path / "fr").mkdir()
    (tmp_path / "fr" / "01-sample.yaml").write_text(
        "lesson:\n"
        "  title: Ton Stable\n"
        "  script:\n"
        "    - say: Joue *Nanny Cam* puis un Huue (Neigh dans l'édition anglaise) sur *Unicorn Poison*.\n",
        encoding="utf-8")
    problems = lesson_problems(tmp_path, "fr")
    assert any("'Stable'" in p for p in problems), problems
    assert any("'Nanny Cam'" in p and "Caméra Espionne" in p for p in problems), problems
    assert len(problems) == 2, problems  # the introduction of Huue and a card kept in English are fine

    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "01-sample.yaml").write_text("name: Lege ein Upgrade in deinen Stall\n", encoding="utf-8")
    assert lesson_problems(tmp_path, "de") == [
        "01-sample.yaml: English term 'Upgrade' in 'Lege ein Upgrade in deinen Stall'"]


@pytest.mark.parametrize("lang", LANGS)
def test_catalogs_keep_to_the_glossary(lang: str) -> None:
    po = ROOT / "uu" / "i18n" / "locale" / lang / "LC_MESSAGES" / "uu.po"
    if not po.exists():
        pytest.skip(f"no {lang} catalog yet")
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        catalog = read_po(f, locale=lang)
    problems = []
    for message in catalog:
        if not message.id:
            continue
        for text in (message.string if isinstance(message.string, tuple) else (message.string,)):
            problems += [f"{message.id!r}: {w!r}" for w in forbidden_terms_in(text or "", lang)]
            problems += [f"{message.id!r}: card {n!r}" for n in untranslated_card_names_in(text or "", lang)]
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_card_texts_and_names_keep_to_the_glossary(lang: str) -> None:
    for name, entry in translations(lang).items():
        for text in (entry.get("text", ""), entry.get("name", "")):
            assert not forbidden_terms_in(str(text), lang), (name, text, forbidden_terms_in(str(text), lang))


@pytest.mark.parametrize("lang", LANGS)
def test_rule_words_keep_to_the_glossary(lang: str) -> None:
    for rid, r in translated_words(lang).items():
        for text in (r.title, r.text, r.where):
            assert not forbidden_terms_in(text, lang), (rid, text, forbidden_terms_in(text, lang))
            assert not untranslated_card_names_in(text, lang), (rid, text)


def test_swap_card_names() -> None:
    text = "Play *Nanny Cam*, then Neigh or Super Neigh; Narwhal and Baby Unicorn (Red) stay. Neigh'd."
    assert swap_card_names(text, "fr") == (
        "Play *Caméra Espionne*, then Huue or Super Huue; Narwhal and Bébé Licorne (rouge) stay. Neigh'd.")
    assert swap_card_names("Tiny Stable, Shark With a Horn, Nanny Cam", "de") == (
        "Winziger Stall, Hai-Horn, Nanny Cam")
    # the one introduction of the edition's word keeps the English name it explains
    assert swap_card_names("un Huue (Neigh dans l'édition anglaise)", "fr") == "un Huue (Neigh dans l'édition anglaise)"
    assert swap_card_names("ein Nühü (im Englischen Neigh)", "de") == "ein Nühü (im Englischen Neigh)"
    assert swap_card_names("Neigh", "en") == "Neigh"
    # lesson texts are wrapped: a name may be cut by a line break
    assert swap_card_names("Joue Nanny\n  Cam.", "fr") == "Joue Caméra Espionne."
    assert forbidden_terms_in("Extremely Destructive\nUnicorn", "fr") == []
    # swapping leaves nothing for the name check to find
    assert untranslated_card_names_in(swap_card_names(text, "fr"), "fr") == []


def test_swap_card_names_in_a_folder(tmp_path: Path) -> None:
    (tmp_path / "fr").mkdir()
    (tmp_path / "de").mkdir()
    (tmp_path / "fr" / "a.yaml").write_text("say: Joue *Nanny Cam*.  # un commentaire\n", encoding="utf-8")
    (tmp_path / "de" / "a.yaml").write_text("say: Spiele Narwhal.\n", encoding="utf-8")
    assert swap_card_names_in_folder(tmp_path) == [tmp_path / "fr" / "a.yaml"]
    assert (tmp_path / "fr" / "a.yaml").read_text(encoding="utf-8") == "say: Joue *Caméra Espionne*.  # un commentaire\n"
    assert lesson_problems(tmp_path, "fr") == [] and lesson_problems(tmp_path, "de") == []


@pytest.mark.parametrize("lang", LANGS)
def test_kept_names_are_the_cards_without_a_translated_name(lang: str) -> None:
    kept = set(kept_english_names(lang))
    assert "Narwhal" in kept and "Neigh" not in kept
    assert kept.isdisjoint(card_names(lang))


def test_a_placeholder_is_no_english_word_but_the_word_outside_it_is() -> None:
    from uu.i18n.glossary import forbidden_terms_in

    assert forbidden_terms_in("Cartes dans le paquet : {count}. Défausse : {discard}.", "fr") == []
    assert "discard" in [w.lower() for w in forbidden_terms_in("Défausse : discard {discard}.", "fr")]
