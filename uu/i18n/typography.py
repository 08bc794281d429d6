"""French spacing: a narrow no-break space (U+202F) before ":", ";", "!", "?" and "»" and after "«", the same one
everywhere, so a line never breaks between a word and its colon and every screen looks alike.

`french_spacing(text)` puts it in (an ordinary or a wider no-break space there becomes the narrow one; where none
is, one is added); `french_spacing_problems(text)` lists the places that still lack it (tests/test_i18n_terms.py
reads every French text with it). A mark inside a word or a link ("12:30", "http://", "?v=") is not punctuation
of a sentence and is left alone.
"""

from __future__ import annotations

import re

__all__ = ["NNBSP", "colon", "french_spacing", "french_spacing_problems"]

NNBSP = "\u202f"

# a mark that ends a word: followed by a space, the end, a quote, a bracket, a tag or a full stop (so "12:30",
# "http://", "!=" and "?v=" are left alone)
_MARK_END = r"(?=\s|$|[\"')\]*<,.;:!?»])"
_BEFORE = re.compile(r"(?<=\S)[ \u00a0\u202f]?([;:!?»])" + _MARK_END)
_AFTER = re.compile(r"«[ \u00a0\u202f]?")
_WRONG = re.compile(r"(?<=[^\u202f])([;:!?»])" + _MARK_END + r"|«(?!\u202f)")


def french_spacing(text: str) -> str:
    """`text` with the narrow no-break space before ; : ! ? » and after «."""
    text = _BEFORE.sub(lambda m: NNBSP + m.group(1), text)
    return _AFTER.sub("«" + NNBSP, text)


def french_spacing_problems(text: str) -> list[str]:
    """The places (a few characters around each) where `text` lacks the narrow no-break space."""
    return [repr(text[max(0, m.start() - 12): m.end() + 4]) for m in _WRONG.finditer(text)]


def colon(lang: str | None = None) -> str:
    """The colon after a label ("Rule: text") as `lang` (default: the language in use) writes it: French puts
    the narrow space before it."""
    from uu.i18n import current_language

    return NNBSP + ": " if (lang or current_language()) == "fr" else ": "
