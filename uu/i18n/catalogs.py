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


# The calls that mark a message for the catalogs (Babel's keyword spec: ngettext's first two arguments).
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
PACKAGE_DIR = LOCALE_DIR.parents[1]


def extract(package_dir: Path = PACKAGE_DIR):  # type: ignore[no-untyped-def]
    """The template: every message the package's Python code marks, with where it is used."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_dir

    template = Catalog(project="uu", domain=DOMAIN, charset="utf-8")
    found = extract_from_dir(str(package_dir), method_map=[("**.py", "python")], keywords=KEYWORDS,
                             comment_tags=("i18n:",), strip_comment_tags=True)
    for filename, lineno, message, comments, context in found:
        template.add(message, None, [(f"uu/{filename}", lineno)], auto_comments=comments, context=context)
    return template


def update_catalogs(locale_dir: Path = LOCALE_DIR, package_dir: Path = PACKAGE_DIR) -> dict[str, CatalogStats]:
    """Bring each language's `.po` up to the code: new messages added untranslated, gone ones dropped, kept
    translations kept (`pybabel update`, without fuzzy guesses: a guessed translation is worse than none)."""
    from babel.messages.catalog import Catalog
    from babel.messages.pofile import write_po

    template = extract(package_dir)
    out = {}
    for lang in LANGUAGES[1:]:
        po = po_path(lang, locale_dir)
        catalog = _read(po) if po.exists() else Catalog(locale=lang, domain=DOMAIN, project="uu", charset="utf-8")
        catalog.update(template, no_fuzzy_matching=True)
        catalog.obsolete.clear()
        po.parent.mkdir(parents=True, exist_ok=True)
        with po.open("wb") as f:
            # no line numbers: a message moving inside its file should not change the catalog
            write_po(f, catalog, width=116, include_lineno=False, sort_output=True, ignore_obsolete=True)
        out[lang] = stats(lang, locale_dir)
    compile_catalogs(locale_dir)
    return out


def main(argv: list[str] | None = None) -> int:
    import sys

    args = sys.argv[1:] if argv is None else argv
    if args[:1] == ["update"]:
        for lang, st in update_catalogs().items():
            print(f"{lang}: {st.translated} of {st.messages} messages translated ({st.percent:.1f} %), "
                  f"{st.fuzzy} fuzzy")
        return 0
    if args[:1] == ["compile"]:
        for mo in compile_catalogs():
            print(f"wrote {mo}")
        return 0
    print("usage: python -m uu.i18n.catalogs update|compile", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())
