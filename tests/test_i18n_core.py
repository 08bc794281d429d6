"""uu.i18n: choosing the language, gettext lookups, and the Babel catalogs (compile, read, statistics)."""

from __future__ import annotations

from pathlib import Path

import pytest

import uu.i18n as i18n
from uu.i18n import _, current_language, language, ngettext, normalize, set_language
from uu.i18n.catalogs import compile_catalogs, stats, translations_from_po

PO = '''msgid ""
msgstr ""
"Language: fr\\n"
"Plural-Forms: nplurals=2; plural=(n > 1);\\n"
"Content-Type: text/plain; charset=utf-8\\n"

msgid "{player} plays {card}"
msgstr "{player} joue {card}"

msgid "{n} card"
msgid_plural "{n} cards"
msgstr[0] "{n} carte"
msgstr[1] "{n} cartes"

msgid "Untranslated"
msgstr ""
'''


@pytest.fixture()
def french_catalog(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    po = tmp_path / "fr" / "LC_MESSAGES" / "uu.po"
    po.parent.mkdir(parents=True)
    po.write_text(PO, encoding="utf-8")
    monkeypatch.setattr(i18n, "LOCALE_DIR", tmp_path)
    i18n.reload_catalogs()
    yield tmp_path
    i18n.reload_catalogs()


@pytest.mark.parametrize("tag, want", [("fr", "fr"), ("fr-CA", "fr"), ("de_AT", "de"), ("EN", "en"),
                                       ("es", None), ("", None), (None, None), ("  de ", "de")])
def test_normalize(tag: str | None, want: str | None) -> None:
    assert normalize(tag) == want


def test_language_block_overrides_the_process_language() -> None:
    before = current_language()
    try:
        assert set_language("de-CH") == "de"
        with language("fr"):
            assert current_language() == "fr"
        assert current_language() == "de"
        assert set_language("xx") == "en"  # an unsupported tag falls back to English, never to nothing
    finally:
        set_language(before)


def test_lookups_read_the_po_when_no_mo(french_catalog: Path) -> None:
    with language("fr"):
        assert _("{player} plays {card}").format(player="Ana", card="Narwhal") == "Ana joue Narwhal"
        assert ngettext("{n} card", "{n} cards", 1).format(n=1) == "1 carte"
        assert ngettext("{n} card", "{n} cards", 3).format(n=3) == "3 cartes"
        assert _("Untranslated") == "Untranslated"  # a missing translation shows the English text
    with language("en"):
        assert _("{player} plays {card}") == "{player} plays {card}"


def test_compiled_mo_is_read_and_stats_count_translations(french_catalog: Path) -> None:
    (mo,) = compile_catalogs(french_catalog)
    assert mo.suffix == ".mo" and mo.stat().st_size > 0
    i18n.reload_catalogs()
    with language("fr"):
        assert _("{player} plays {card}") == "{player} joue {card}"
    st = stats("fr", french_catalog)
    assert (st.messages, st.translated) == (3, 2)
    assert round(st.percent) == 67


def test_translations_from_po_fills_plural_forms(french_catalog: Path) -> None:
    t = translations_from_po(french_catalog / "fr" / "LC_MESSAGES" / "uu.po")
    assert t.ngettext("{n} card", "{n} cards", 0) == "{n} carte"  # French counts 0 as singular


def test_shipped_catalogs_are_complete() -> None:
    """Every message the code marks is translated in French and German (Babel's statistics)."""
    for lang in ("fr", "de"):
        st = stats(lang)
        assert st.fuzzy == 0, f"{lang}: {st.fuzzy} fuzzy entries"
        assert st.percent == 100.0, f"{lang}: {st.translated} of {st.messages} messages translated"
