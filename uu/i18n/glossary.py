"""The game's terms in French and German, and the checks that keep every translated text to them.

`uu/i18n/glossary.<lang>.yaml` lists each term: the English term, the term as that language's rulebook prints
it, where the rulebook prints it, and the English words that must not appear in text of that language
(`forbidden`). Three helpers use it:

- `forbidden_terms_in(text, lang)`: the forbidden English words a text still has ("Stable" in French);
- `untranslated_card_names_in(text, lang)`: English card names written where the card table of that language
  gives the card another name ("Nanny Cam" in French, where it is "Caméra Espionne");
- `swap_card_names(text, lang)`: the text with those English names replaced by the translated ones (the lead
  runs it over the lessons at merge);
- `avoided_renderings_in(text, lang)`: renderings in the language itself the glossary's `avoid` list forbids
  (French "une Huue", German "Zug" for a move).

English card names that the table leaves in English ("Narwhal", "Unicorn Poison") are allowed, and so are the
glossary's `allowed` phrases ("Huue (Neigh dans l'édition anglaise)"): both are taken out of a text before
looking for forbidden words.

The card tables live in `uu/cards/i18n/<lang>.yaml`. This module sits in the lowest layer with the rest of
`uu.i18n`, so it reads those files by path instead of importing `uu.cards` (tests/test_layers.py).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

__all__ = ["GLOSSARY_DIR", "Avoid", "Glossary", "Term", "avoided_renderings_in", "card_names", "forbidden_terms_in",
           "glossary", "kept_english_names", "swap_card_names", "swap_card_names_in_folder",
           "untranslated_card_names_in"]

GLOSSARY_DIR = Path(__file__).resolve().parent
_CARDS_DIR = GLOSSARY_DIR.parent / "cards"


@dataclass(frozen=True, slots=True)
class Term:
    english: str
    term: str
    where: str
    forbidden: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Avoid:
    """A rendering in the language itself that this tutor never writes ("une Huue", German "Zug" for a move):
    `wrong` a regular expression, `use` what to write instead."""

    wrong: re.Pattern[str]
    use: str


@dataclass(frozen=True, slots=True)
class Glossary:
    language: str
    rulebook: str
    allowed: tuple[str, ...]
    terms: tuple[Term, ...]
    avoid: tuple[Avoid, ...] = ()

    def term(self, english: str) -> str:
        """The term for `english` in this language (KeyError when the glossary has none)."""
        for t in self.terms:
            if t.english == english:
                return t.term
        raise KeyError(english)


@cache
def glossary(lang: str) -> Glossary:
    """The glossary of `lang` (FileNotFoundError for a language without one, English included)."""
    data = yaml.safe_load((GLOSSARY_DIR / f"glossary.{lang}.yaml").read_text(encoding="utf-8"))
    terms = tuple(
        Term(str(t["english"]), str(t["term"]), str(t["where"]), tuple(str(f) for f in t.get("forbidden") or ()))
        for t in data["terms"]
    )
    avoid = tuple(Avoid(re.compile(str(a["wrong"])), str(a["use"])) for a in data.get("avoid") or ())
    return Glossary(str(data["language"]), str(data["rulebook"]), tuple(str(a) for a in data.get("allowed") or ()),
                    terms, avoid)


@cache
def _card_table(lang: str) -> dict[str, dict[str, str]]:
    path = _CARDS_DIR / "i18n" / f"{lang}.yaml"
    if not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): v for k, v in data.items() if isinstance(v, dict)}


@cache
def _english_names() -> tuple[str, ...]:
    catalog = yaml.safe_load((_CARDS_DIR / "catalog.yaml").read_text(encoding="utf-8"))
    return tuple(str(c["name"]) for c in catalog)


def card_names(lang: str) -> dict[str, str]:
    """English name -> the name in `lang`, for the cards whose table entry gives a translated name."""
    return {n: str(e["name"]) for n, e in _card_table(lang).items() if e.get("name") and e["name"] != n}


def kept_english_names(lang: str) -> list[str]:
    """The cards that keep their English name in `lang` (no public source prints another)."""
    translated = card_names(lang)
    return [n for n in _english_names() if n not in translated]


def _whole(phrase: str) -> str:
    # A whole word or phrase: no letter or digit right before or after it. A phrase written in lower case
    # also matches with a capital first letter, since a sentence may start with it. "Neigh'd" is a verb form,
    # not the card "Neigh": an apostrophe followed by a letter continues the word. A space may be any run of
    # white space, a line break included: lesson texts are wrapped YAML blocks ("Extremely Destructive\n
    # Unicorn").
    first = phrase[0]
    head = f"[{first}{first.upper()}]" if first.islower() else re.escape(first)
    tail = r"\s+".join(re.escape(part) for part in phrase[1:].split(" "))
    return rf"(?<!\w){head}{tail}(?!\w)(?!['’]\w)"


@cache
def _names_pattern(lang: str) -> re.Pattern[str]:
    # Protected phrases (names kept in English, the glossary's allowed phrases) and translated English names
    # in one alternation, longest first: at any position the longest phrase wins, so "Super Neigh" is not read
    # as "Neigh", and "Neigh dans l'édition anglaise" stays as it is.
    phrases = set(kept_english_names(lang)) | set(_allowed(lang)) | set(card_names(lang))
    alternation = "|".join(_whole(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(f"(?:{alternation})")


def _allowed(lang: str) -> tuple[str, ...]:
    try:
        return glossary(lang).allowed
    except FileNotFoundError:
        return ()


def _one_line(phrase: str) -> str:
    return " ".join(phrase.split())


def swap_card_names(text: str, lang: str) -> str:
    """`text` with every English card name that `lang` names otherwise replaced by that name ("Nanny Cam" ->
    "Caméra Espionne" in French). Names kept in English and the glossary's allowed phrases stay as they are."""
    names = card_names(lang)
    if not names:
        return text
    return _names_pattern(lang).sub(lambda m: names.get(_one_line(m.group(0)), m.group(0)), text)


def swap_card_names_in_folder(folder: str | Path) -> list[Path]:
    """Run `swap_card_names` over every lesson translation `folder/<lang>/*.yaml` (fr and de) in place, as
    text, so comments and layout stay; returns the files it changed. For the lessons folder at a merge:
    `python -c "from uu.i18n.glossary import swap_card_names_in_folder as s; print(s('lessons'))"`."""
    changed = []
    for lang in ("fr", "de"):
        for path in sorted(Path(folder, lang).glob("*.yaml")):
            text = path.read_text(encoding="utf-8")
            swapped = swap_card_names(text, lang)
            if swapped != text:
                path.write_text(swapped, encoding="utf-8")
                changed.append(path)
    return changed


def untranslated_card_names_in(text: str, lang: str) -> list[str]:
    """The English card names in `text` that `lang` names otherwise, in order, each once. A name given as a
    gloss right after the translated one, "Hai-Horn (Shark With a Horn)", is meant: a lesson that counts the
    letters of the English names (the tutor's tie-break) says which names it counts."""
    names = card_names(lang)
    if not names:
        return []
    for en, local in names.items():
        text = text.replace(f"{local} ({en})", local)
    found = [_one_line(m.group(0)) for m in _names_pattern(lang).finditer(text)]
    found = [n for n in found if n in names]
    return list(dict.fromkeys(found))


@cache
def _forbidden_patterns(lang: str) -> tuple[tuple[str, re.Pattern[str]], ...]:
    words = dict.fromkeys(f for t in glossary(lang).terms for f in t.forbidden)
    return tuple((w, re.compile(_whole(w))) for w in words)


_PLACEHOLDER = re.compile(r"\{\w+\}")


def forbidden_terms_in(text: str, lang: str) -> list[str]:
    """The forbidden English words of `lang`'s glossary that `text` has, once English card names kept in that
    language and the allowed phrases are taken out."""
    kept = set(kept_english_names(lang)) | set(_allowed(lang))
    # a {placeholder} is a name in the code, never shown: "{discard}" is no English word on the screen
    text = _PLACEHOLDER.sub(" ", text)
    stripped = _names_pattern(lang).sub(lambda m: " " if _one_line(m.group(0)) in kept else m.group(0), text)
    return [w for w, pattern in _forbidden_patterns(lang) if pattern.search(stripped)]


def avoided_renderings_in(text: str, lang: str) -> list[tuple[str, str]]:
    """(what `text` says, what to write instead) for each rendering `lang`'s glossary lists under `avoid`."""
    try:
        rules = glossary(lang).avoid
    except FileNotFoundError:
        return []
    return [(m.group(0), a.use) for a in rules for m in a.wrong.finditer(text)]
