"""Which language the tutor speaks to this learner, and the picker that changes it on every screen.

Precedence (docs/architecture.md, "Languages"): a link's `?lang=` > the learner's saved choice (kept with the
progress in the browser, uu/widgets/progress.py) > the class default (`uu app --lang`, passed to the kernels as
`UU_LANG`) > the browser's language (`navigator.language`) > English. Only a choice the learner made (the
picker, or a link they opened) is saved: a class default or a browser's language is looked up afresh each time.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

import ipywidgets as widgets

from uu.i18n import LANGUAGE_NAMES, LANGUAGES, _, current_language, normalize

__all__ = ["LANG_ENV", "class_default", "choose_language", "language_picker", "link_language"]

LANG_ENV = "UU_LANG"  # set by `uu app --lang` for the kernels it starts (uu/server/app.py)


def class_default() -> str | None:
    return normalize(os.environ.get(LANG_ENV))


def link_language(href: str | None) -> str | None:
    """The supported language a page address's `?lang=` names, if any."""
    if not href:
        return None
    try:
        values = parse_qs(urlsplit(href).query, max_num_fields=10_000).get("lang")
    except ValueError:
        return None
    return normalize(values[0]) if values else None


def choose_language(link: str | None, saved: str | None, default: str | None, browser: str | None) -> tuple[str, bool]:
    """(the language to use, whether it is the learner's own choice and so to be saved)."""
    for lang, chosen in ((link, True), (saved, True), (default, False), (browser, False)):
        got = normalize(lang)
        if got is not None:
            return got, chosen
    return "en", False


def language_picker(on_pick: Callable[[str], object]) -> widgets.Dropdown:
    """The language picker: each language named in itself, so a learner finds theirs whatever is in use; its
    label ("Language") is in the language in use (`relabel_picker`)."""
    picker = widgets.Dropdown(options=[(LANGUAGE_NAMES[x], x) for x in LANGUAGES], value=current_language(),
                              style={"description_width": "initial"}, layout=widgets.Layout(width="auto"))
    picker.add_class("uu-lang-picker")
    relabel_picker(picker)
    picker.observe(lambda change: on_pick(change["new"]), names="value")
    return picker


def relabel_picker(picker: widgets.Dropdown) -> None:
    with picker.hold_sync():
        picker.description = _("Language:")
        picker.tooltip = _("The language of the tutor")
