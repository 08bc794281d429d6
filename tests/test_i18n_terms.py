"""The words a French or German teacher reads, checked over every text of those languages: both gettext catalogs,
every lesson translation, every card text and every rule box.

- The glossary's `avoid` list (uu/i18n/glossary.<lang>.yaml): renderings in the language itself this tutor never
  writes ("une Huue", German "Zug" for a move, "Queen Bee" cut short).
- One name per card: a card named in italics in a lesson is named as that language's card table names it.
- French spacing: a narrow no-break space before ; : ! ? » and after « (uu.i18n.typography).

Samples written here prove each check fails when it should.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from uu.cards import catalog
from uu.cards.localized import card_name, translations
from uu.i18n import _, language
from uu.i18n.glossary import avoided_renderings_in, glossary
from uu.i18n.typography import NNBSP, colon, french_spacing, french_spacing_problems
from uu.words.rulewords import translated_words

ROOT = Path(__file__).resolve().parents[1]
LANGS = ("fr", "de")
ITALIC = re.compile(r"(?<![*\w])\*([^*\n]+?)\*(?![*\w])")


def _strings(node: Any) -> list[str]:
    if isinstance(node, str):
        return [node]
    if isinstance(node, dict):
        return [s for v in node.values() for s in _strings(v)]
    if isinstance(node, list):
        return [s for v in node for s in _strings(v)]
    return []


def catalog_texts(lang: str) -> list[tuple[str, str]]:
    """(where, text) for every translation in the language's .po (both plural forms)."""
    from babel.messages.pofile import read_po

    with (ROOT / "uu" / "i18n" / "locale" / lang / "LC_MESSAGES" / "uu.po").open("rb") as f:
        cat = read_po(f, locale=lang)
    out = []
    for m in cat:
        if not m.id:
            continue
        first = m.id[0] if isinstance(m.id, tuple) else m.id
        for s in m.string if isinstance(m.string, tuple) else (m.string,):
            if s:
                out.append((f"catalog {first[:50]!r}", s))
    return out


def lesson_texts(folder: Path, lang: str) -> list[tuple[str, str]]:
    return [(f"{p.name}", s) for p in sorted((folder / lang).glob("*.yaml"))
            for s in _strings(yaml.safe_load(p.read_text(encoding="utf-8")))]


def all_texts(lang: str) -> list[tuple[str, str]]:
    cards = [(f"card {n}", str(e.get(k))) for n, e in translations(lang).items() for k in ("name", "text")
             if e.get(k)]
    rules = [(f"rule {rid}", s) for rid, r in translated_words(lang).items() for s in (r.title, r.text, r.where)]
    return catalog_texts(lang) + lesson_texts(ROOT / "lessons", lang) + cards + rules


def avoid_problems(texts: list[tuple[str, str]], lang: str) -> list[str]:
    return [f"{where}: {found!r} -> {use}" for where, text in texts for found, use in avoided_renderings_in(text, lang)]


@pytest.mark.parametrize("lang", LANGS)
def test_no_text_uses_a_rendering_the_term_list_forbids(lang: str) -> None:
    problems = avoid_problems(all_texts(lang), lang)
    assert not problems, "\n".join(problems[:40])


def test_the_term_lists_catch_what_they_forbid() -> None:
    fr = [("s", "Tu joues une Huue, puis la Queen Bee de Bramble avale le Poison ; ta Huue part.")]
    found = [p.split(": ", 1)[1].split(" ->")[0] for p in avoid_problems(fr, "fr")]
    assert found == ["'une Huue'", "'ta Huue'", "'Queen Bee'", "'Poison'"], found
    assert avoid_problems([("s", "Un Huue arrête une carte Huue ; Unicorn Poison part.")], "fr") == []
    de = [("s", "Liste der Züge (3). Dein Zug: antworte. Nach diesem Zug ist Bramble am Zug. Die Nühü hält.")]
    found = [p.split(": ", 1)[1].split(" ->")[0] for p in avoid_problems(de, "de")]
    assert found == ["'Liste der Züge'", "'Nach diesem Zug'", "'Dein Zug:'", "'Die Nühü'"], found
    # the turn keeps its word: "Zug 3", "am Zug", "Beginn des Zugs", "deinen Zug beenden", a Nühü-Karte
    assert avoid_problems([("s", "Zug 3: du bist am Zug. Beginn des Zugs. Beende deinen Zug. Eine Nühü-Karte.")],
                          "de") == []


@pytest.mark.parametrize("lang", LANGS)
def test_every_term_list_entry_says_what_to_write(lang: str) -> None:
    g = glossary(lang)
    assert len(g.avoid) >= 5
    for a in g.avoid:
        assert a.use.strip() and a.wrong.pattern, a


def italic_card_problems(folder: Path, lang: str) -> list[str]:
    """Words set in italics in a lesson that look like a card's name (capitalised) but are no card's name in
    `lang` (the learner's own seat, "Toi"/"Du", is not a card and is fine)."""
    with language(lang):
        names = {card_name(d.name) for d in catalog()} | {_("You")}
    problems = []
    for path in sorted((folder / lang).glob("*.yaml")):
        for m in ITALIC.finditer(path.read_text(encoding="utf-8")):
            words = " ".join(m.group(1).split())
            if words[:1].isupper() and words not in names:
                problems.append(f"{path.name}: *{words}* is not a card name in {lang}")
    return problems


@pytest.mark.parametrize("lang", LANGS)
def test_every_card_a_lesson_sets_in_italics_is_named_as_the_card_table_names_it(lang: str) -> None:
    problems = italic_card_problems(ROOT / "lessons", lang)
    assert not problems, "\n".join(problems)


def test_the_italic_card_check_fails_on_a_name_cut_short(tmp_path: Path) -> None:
    (tmp_path / "de").mkdir()
    (tmp_path / "de" / "01-x.yaml").write_text("say: Spiele *Queen Bee* und *Glitter Bombs*, nicht *deinen* "
                                               "Stall, aber *Nanny Cam*.\n", encoding="utf-8")
    assert italic_card_problems(tmp_path, "de") == ["01-x.yaml: *Queen Bee* is not a card name in de",
                                                    "01-x.yaml: *Glitter Bombs* is not a card name in de"]


def test_every_french_text_has_the_narrow_space_before_its_marks() -> None:
    problems = [f"{where}: {p}" for where, text in all_texts("fr") for p in french_spacing_problems(text)]
    assert not problems, "\n".join(problems[:40])


def test_french_spacing_puts_the_narrow_space_in_and_finds_where_it_lacks() -> None:
    assert french_spacing("Tour 1 : à toi ! Prêt ? « Narwhal »; fin") == (
        f"Tour 1{NNBSP}: à toi{NNBSP}! Prêt{NNBSP}? «{NNBSP}Narwhal{NNBSP}»{NNBSP}; fin")
    # a link, a time and a query string are not sentence punctuation
    assert french_spacing("http://x.org/?v=1 à 12:30") == "http://x.org/?v=1 à 12:30"
    found = french_spacing_problems("Partie terminée : Bramble gagne")
    assert len(found) == 1 and "terminée : Bra" in found[0], found
    assert french_spacing_problems("Fin: oui") and french_spacing_problems("« Huue »")
    assert french_spacing_problems(f"Fin{NNBSP}: oui{NNBSP}!") == []


def test_a_label_colon_follows_the_language() -> None:
    assert colon("fr") == f"{NNBSP}: " and colon("de") == ": " and colon("en") == ": "
    with language("fr"):
        assert colon() == f"{NNBSP}: "
