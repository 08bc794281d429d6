"""Cards in the learner's language: the name a card is printed with in that language's edition, and our own
effect text in that language.

The engine names every card by its English name (`Narwhal`, `Baby Unicorn (Red)`); that stays its id in
files, moves and logs. What a learner reads goes through `card_name` and `card_text`, which look the card up
in `uu/cards/i18n/<lang>.yaml`:

    Narwhal:
      name: ...   # as printed in that edition, where a public source gives it (docs/cards.md cites it)
      text: ...   # our own words, as the English text in catalog.yaml
      breaks: ... # optional: the name with a "·" where a word too long for a card may break

A card without a translated `name` keeps its English name (shown as such); one without a `text` keeps the
English text. The language is the one in use (`uu.i18n.current_language`).
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import yaml

from uu.i18n import current_language

__all__ = ["DATA_DIR", "card_name", "card_text", "name_breaks", "translations"]

SOFT_HYPHEN = "\u00ad"

DATA_DIR = Path(__file__).resolve().parent / "i18n"


@cache
def translations(lang: str) -> dict[str, dict[str, Any]]:
    """The card table of `lang` (empty for English or a language without one)."""
    path = DATA_DIR / f"{lang}.yaml"
    if lang == "en" or not path.exists():
        return {}
    data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    return {str(k): v for k, v in data.items() if isinstance(v, dict)}


def card_name(name: str, lang: str | None = None) -> str:
    """How `name` (the English name, the card's id) is written in `lang` (default: the language in use)."""
    entry = translations(lang or current_language()).get(name)
    return str(entry["name"]) if entry and entry.get("name") else name


def card_text(name: str, english_text: str, lang: str | None = None) -> str:
    """The effect text of `name` in `lang`, or `english_text` when that language has none for it."""
    entry = translations(lang or current_language()).get(name)
    return str(entry["text"]) if entry and entry.get("text") else english_text


def name_breaks(lang: str | None = None) -> dict[str, str]:
    """Name -> the same name with a soft hyphen where a long word may break, for the cards of `lang` whose
    entry has `breaks`. A browser without hyphenation for the language (Chromium on Linux has none unless it
    downloads it) would otherwise break such a word anywhere, with no hyphen ("Nécromanci|enne")."""
    out = {}
    for name, entry in translations(lang or current_language()).items():
        if entry.get("breaks"):
            shown = card_name(name, lang)
            broken = str(entry["breaks"]).replace("·", SOFT_HYPHEN)
            if broken.replace(SOFT_HYPHEN, "") == shown:  # a stale entry is ignored; the tests name it
                out[shown] = broken
    return out
