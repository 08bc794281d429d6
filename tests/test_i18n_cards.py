"""Card names and texts in French and German (uu/cards/i18n/<lang>.yaml): complete, only real cards, names
unique, the rulebook's capitalised verbs kept where the English text has its verb, English as the fallback."""

from __future__ import annotations

import re

import pytest
import yaml

from uu.cards.localized import DATA_DIR, SOFT_HYPHEN, card_name, card_text, name_breaks, translations
from uu.i18n import language

CATALOG = yaml.safe_load((DATA_DIR.parent / "catalog.yaml").read_text(encoding="utf-8"))
ENGLISH = {str(c["name"]): str(c["text"]) for c in CATALOG}
LANGS = ("fr", "de")

# The English capitalised verb (any inflection: DISCARDs, SACRIFICED) -> the stem every inflection of the
# rulebook's verb shares in that language. German separable forms ("WIRF ... AB") are not used in our texts,
# so one stem per verb is enough; a text must show it in capitals, as the rulebooks print card verbs.
VERBS: dict[str, dict[str, tuple[str, ...]]] = {
    "DRAW": {"fr": ("PIOCH",), "de": ("ZIEH",)},
    "DISCARD": {"fr": ("DÉFAUSS",), "de": ("ABWERF", "ABGEWORFEN")},
    "SACRIFIC": {"fr": ("SACRIFI",), "de": ("OPFER",)},
    "DESTROY": {"fr": ("DÉTRUI",), "de": ("ZERSTÖR",)},
    "STEAL": {"fr": ("VOL",), "de": ("KLAU",)},
}


def _raw(lang: str) -> dict[str, dict[str, str]]:
    data = yaml.safe_load((DATA_DIR / f"{lang}.yaml").read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_has_a_text(lang: str) -> None:
    table = _raw(lang)
    missing = [name for name in ENGLISH if not (table.get(name) or {}).get("text")]
    assert not missing, f"{lang}: cards without a text: {missing}"


@pytest.mark.parametrize("lang", LANGS)
def test_no_key_that_is_not_a_card(lang: str) -> None:
    table = _raw(lang)
    assert not set(table) - set(ENGLISH)
    for name, entry in table.items():
        assert set(entry) <= {"name", "text", "breaks"}, (lang, name, entry)


@pytest.mark.parametrize("lang", LANGS)
def test_names_are_unique_and_differ_from_other_english_names(lang: str) -> None:
    shown = [card_name(n, lang) for n in ENGLISH]
    assert len(set(shown)) == len(shown), [n for n in shown if shown.count(n) > 1]


@pytest.mark.parametrize("lang", LANGS)
def test_rulebook_verbs_in_capitals_where_english_has_its_verb(lang: str) -> None:
    problems = []
    for name, english in ENGLISH.items():
        text = card_text(name, english, lang)
        for verb, stems in VERBS.items():
            if re.search(rf"\b{verb}", english) and not any(s in text for s in stems[lang]):
                problems.append(f"{name}: English has {verb}, {lang} text lacks {'/'.join(stems[lang])}")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_verb_left_in_capitals(lang: str) -> None:
    for name, english in ENGLISH.items():
        text = card_text(name, english, lang)
        assert not re.search(r"\b(DRAW|DISCARD|SACRIFIC|DESTROY|STEAL)", text), (lang, name, text)
        assert text != english, (lang, name)


def test_neigh_has_the_editions_names() -> None:
    assert card_name("Neigh", "fr") == "Huue"
    assert card_name("Neigh", "de") == "Nühü"
    assert card_name("Baby Unicorn (Red)", "fr") == "Bébé Licorne (rouge)"
    assert card_name("Basic Unicorn (Red)", "de") == "Standard-Einhorn (Rot)"


def test_fallback_to_english() -> None:
    # a card without a printed French name keeps its English one; English itself is the catalog
    assert "name" not in _raw("fr")["Narwhal"]
    assert card_name("Narwhal", "fr") == "Narwhal"
    assert card_name("Neigh", "en") == "Neigh"
    assert card_text("Neigh", "the English", "en") == "the English"
    assert card_name("No Such Card", "de") == "No Such Card"
    assert card_text("No Such Card", "x", "de") == "x"
    assert translations("xx") == {}


def test_language_in_use_is_the_default() -> None:
    with language("fr"):
        assert card_name("Yay") == "Youpi\u202f!"
    with language("de"):
        assert card_name("Tiny Stable") == "Winziger Stall"
    assert card_name("Yay", "en") == "Yay"


@pytest.mark.parametrize("lang", LANGS)
def test_a_name_breaks_only_where_its_entry_says_and_the_table_gets_it(lang: str) -> None:
    """`breaks` is the name itself with "·" where a long word may break; the table's words carry it."""
    from uu.table.widget import table_labels

    for name, entry in _raw(lang).items():
        if "breaks" in entry:
            assert entry["breaks"].replace("·", "") == card_name(name, lang), (lang, name, entry["breaks"])
    breaks = name_breaks(lang)
    assert all(SOFT_HYPHEN in broken and broken.replace(SOFT_HYPHEN, "") == name for name, broken in breaks.items())
    with language(lang):
        labels = table_labels()
    assert {k.removeprefix("break:"): v for k, v in labels.items() if k.startswith("break:")} == breaks


def test_the_french_names_too_long_for_a_phone_card_have_a_break() -> None:
    assert name_breaks("fr") == {"Licorne Nécromancienne": f"Licorne Nécro{SOFT_HYPHEN}mancienne",
                                 "Ralentissement": f"Ralentis{SOFT_HYPHEN}sement"}
