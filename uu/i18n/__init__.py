"""The learner's language: which one is in use, and the words of the code in it.

uu speaks English, French and German (`LANGUAGES`). English is the source: every sentence in the code is
written in English and wrapped in `_()` (or `ngettext()` for counts), and the French and German words come
from gettext catalogs, `uu/i18n/locale/<lang>/LC_MESSAGES/uu.po`, kept in the repository and compiled to
`.mo` files when the package is built or installed (`python3 dev.py` does it; `setup.py` does it for a wheel).

Placeholders are named and filled after the lookup, so a translation may put them in any order:

    _("{player} plays {card}").format(player=..., card=...)

The language in use is one per process (each learner has a kernel of their own), set by `set_language`;
`language(lang)` overrides it for a block (the server renders a page in the visitor's language that way).
A lookup in English, or of a message a catalog lacks, returns the English text.
"""

from __future__ import annotations

import contextlib
import gettext
import re
from collections.abc import Iterator
from contextvars import ContextVar
from functools import cache
from pathlib import Path
from typing import Any

__all__ = ["DOMAIN", "LANGUAGES", "LANGUAGE_NAMES", "LOCALE_DIR", "FrenchText", "N_", "current_language",
           "language", "ngettext", "normalize", "set_language", "_"]

LANGUAGES: tuple[str, ...] = ("en", "fr", "de")
# Each language named in itself: the picker shows these, so a learner finds their own whatever is in use.
LANGUAGE_NAMES: dict[str, str] = {"en": "English", "fr": "Français", "de": "Deutsch"}
DOMAIN = "uu"
LOCALE_DIR = Path(__file__).resolve().parent / "locale"

_default = "en"
_override: ContextVar[str | None] = ContextVar("uu_language", default=None)


def normalize(tag: str | None) -> str | None:
    """The supported language a tag names ('fr', 'fr-CA', 'de_AT', 'EN'), or None: for `?lang=`, a browser's
    `navigator.language` and `--lang`, all of which may carry a region or odd case."""
    if not tag or not isinstance(tag, str):
        return None
    base = tag.strip().replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def set_language(lang: str) -> str:
    """Make `lang` the language of this process; returns the language now in use (English for a tag not
    supported)."""
    global _default
    _default = normalize(lang) or "en"
    return _default


def current_language() -> str:
    return _override.get() or _default


@contextlib.contextmanager
def language(lang: str | None) -> Iterator[str]:
    """Use `lang` inside the block (and in what it calls), whatever the process's language."""
    token = _override.set(normalize(lang) or "en")
    try:
        yield current_language()
    finally:
        _override.reset(token)


@cache
def _catalog(lang: str) -> gettext.NullTranslations:
    if lang == "en":
        return gettext.NullTranslations()
    mo = LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
    po = mo.with_suffix(".po")
    if po.exists() and (not mo.exists() or mo.stat().st_mtime < po.stat().st_mtime):
        # a checkout whose catalogs were edited since the last compile: read the source itself, with Babel (a
        # build and test requirement; an installed wheel carries its compiled .mo and never needs it)
        try:
            from uu.i18n.catalogs import translations_from_po

            return translations_from_po(po)
        except ImportError:
            pass
    if mo.exists():
        with mo.open("rb") as f:
            return gettext.GNUTranslations(f)
    return gettext.NullTranslations()


# French drops the vowel of these words before a vowel: "de Ana" is "d’Ana", "que Americorn" "qu’Americorn".
# A translation cannot know the name a placeholder will hold, so `.format` of a French message elides there.
_ELIDABLE = re.compile(r"\b([Dd]e|[Qq]ue|[Ll]e|[Ll]a|[Nn]e|[Ss]e|[Jj]e|[Jj]usque|[Ll]orsque|[Pp]uisque) \{(\w+)\}")
_VOWELS = frozenset("aeiouàâäéèêëîïôöûüùœæ")


class FrenchText(str):
    """A French message: its `.format` elides "de", "que", "le", "la" ... before a filled-in value that begins
    with a vowel ("Tour 2 : le tour de {player}" with Ana: "le tour d’Ana"). Everything else is plain `str`;
    `uu.htmlsafe.esc` keeps the class, so an escaped message still elides."""

    keeps_through_esc = True

    def format(self, *args: Any, **kwargs: Any) -> str:
        def elide(m: re.Match[str]) -> str:
            value = kwargs.get(m.group(2))
            if isinstance(value, str) and value[:1].lower() in _VOWELS:
                return m.group(1)[:-1] + "’{" + m.group(2) + "}"
            return m.group(0)

        return _ELIDABLE.sub(elide, str(self)).format(*args, **kwargs)


def _french(text: str) -> str:
    return FrenchText(text) if "{" in text else text


def _(message: str) -> str:
    """`message` (English) in the language in use."""
    lang = current_language()
    text = _catalog(lang).gettext(message)
    return _french(text) if lang == "fr" else text


def ngettext(singular: str, plural: str, n: int) -> str:
    """The singular or plural form for `n`, in the language in use (French counts 0 and 1 as singular)."""
    lang = current_language()
    text = _catalog(lang).ngettext(singular, plural, n)
    return _french(text) if lang == "fr" else text


def N_(message: str) -> str:
    """Marks `message` for the catalogs without translating it now: for texts defined at import time (tables
    of labels), translated with `_()` where they are shown."""
    return message


def reload_catalogs() -> None:
    """Forget the loaded catalogs (after compiling new ones)."""
    _catalog.cache_clear()
