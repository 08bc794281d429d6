"""Reading and compiling the gettext catalogs with Babel: `.po` (the translators' text, in the repository) to
`.mo` (what gettext reads), and the statistics the tests check (every message translated)."""

from __future__ import annotations

import gettext
import io
from dataclasses import dataclass
from pathlib import Path

from uu.i18n import DOMAIN, LANGUAGES, LOCALE_DIR

__all__ = ["CatalogStats", "compile_catalogs", "po_path", "stats", "translations_from_po"]


def po_path(lang: str, locale_dir: Path = LOCALE_DIR) -> Path:
    return locale_dir / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read(po: Path):  # type: ignore[no-untyped-def]
    from babel.messages.pofile import read_po

    with po.open("rb") as f:
        return read_po(f, locale=po.parents[1].name, domain=DOMAIN)


def translations_from_po(po: Path) -> gettext.GNUTranslations:
    """The catalog `po` as gettext reads it, compiled in memory (no file is written)."""
    from babel.messages.mofile import write_mo

    buf = io.BytesIO()
    write_mo(buf, _read(po))
    buf.seek(0)
    return gettext.GNUTranslations(buf)


def compile_catalogs(locale_dir: Path = LOCALE_DIR, out_dir: Path | None = None) -> list[Path]:
    """Compile every `<lang>/LC_MESSAGES/uu.po` under `locale_dir` to a `.mo` beside it (or under `out_dir`,
    same layout); returns the files written. Fuzzy entries are left out, as gettext tools do."""
    from babel.messages.mofile import write_mo

    written = []
    for lang in LANGUAGES[1:]:
        po = po_path(lang, locale_dir)
        if not po.exists():
            continue
        mo = (out_dir or locale_dir) / lang / "LC_MESSAGES" / f"{DOMAIN}.mo"
        mo.parent.mkdir(parents=True, exist_ok=True)
        with mo.open("wb") as f:
            write_mo(f, _read(po))
        written.append(mo)
    return written


@dataclass(frozen=True)
class CatalogStats:
    lang: str
    messages: int
    translated: int
    fuzzy: int

    @property
    def percent(self) -> float:
        return 100.0 * self.translated / self.messages if self.messages else 100.0


def stats(lang: str, locale_dir: Path = LOCALE_DIR) -> CatalogStats:
    """How much of `lang`'s catalog is translated (not fuzzy, not empty), as `pybabel compile --statistics`."""
    cat = _read(po_path(lang, locale_dir))
    msgs = [m for m in cat if m.id]
    fuzzy = sum(1 for m in msgs if m.fuzzy)
    done = sum(1 for m in msgs if not m.fuzzy and (all(m.string) if isinstance(m.string, tuple) else m.string))
    return CatalogStats(lang, len(msgs), done, fuzzy)
