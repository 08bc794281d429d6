"""The static site's loading screen in the learner's words (uu/lite/page.js shows them): English here, French and
German from the catalogs. The build writes every language's words into the page (`uu.lite.pages`), so the
screen speaks the learner's language from its first paint, before Python is there to translate."""

from __future__ import annotations

from uu.i18n import LANGUAGES, N_, _, language

__all__ = ["LOADING", "loading_words"]

# {key: English}; `{done}` and `{total}` are megabytes
LOADING: dict[str, str] = {
    "title": N_("Opening the Unstable Unicorns tutor"),
    "download": N_("Downloading Python and the tutor: {done} of {total} MB"),
    "page": N_("Loading the page"),
    "python": N_("Starting Python in your browser"),
    "import": N_("Loading the tutor"),
    "app": N_("Preparing the lessons"),
    "draw": N_("Setting out the cards"),
    "note": N_("The first visit downloads about {total} MB; the tutor then runs on this computer alone, and "
               "opens faster next time."),
    "failed": N_("The tutor could not start. Reload the page to try again."),
    "noscript": N_("This tutor needs JavaScript: it runs Python in your browser. Turn JavaScript on for this "
                   "site and reload the page."),
}


def loading_words() -> dict[str, dict[str, str]]:
    """{language: {key: words}} for every language the tutor speaks."""
    out = {}
    for lang in LANGUAGES:
        with language(lang):
            out[lang] = {key: _(text) for key, text in LOADING.items()}
    return out
