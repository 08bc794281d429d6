"""The tutor in the learner's browser: the static site's web worker runs `uu.lite.app()`.

`python3 dev.py lite` builds the site (`uu.lite.build`; docs/static-build.md). In the page, Python is Pyodide in
a web worker (uu/lite/worker.mjs) and ipywidgets' manager for pages without Jupyter draws the widgets
(uu/lite/page.js); their messages go through `uu.lite.bridge`. `app()` shows the same `App` as `uu app`, with
two differences made here and nowhere else:
- the app is told the site's address with only the tutor's own parameters (`.../?lesson=goal`): a link's
  other parameters are dropped, and the sandbox's "Link to this position" gives a clean link to the site;
- while it starts, it tells the page's loading screen how far it is.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["TUTOR_PARAMS", "app", "site_href"]

# the only parameters of the page's address that are the tutor's
TUTOR_PARAMS = ("lesson", "position", "lang")


def site_href(href: str) -> str:
    """The site's address for the page's `href`: `.../index.html?x=1&lesson=a&lesson=b#f` becomes `.../?lesson=a`
    (only the tutor's own parameters kept, the first of each, in the tutor's order; no fragment)."""
    parts = urlsplit(href)
    path = parts.path
    if path.endswith("/index.html"):
        path = path[: -len("index.html")]
    given: dict[str, str] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True, max_num_fields=10_000):
        given.setdefault(key, value)
    query = [(key, given[key]) for key in TUTOR_PARAMS if key in given]
    return urlunsplit((parts.scheme, parts.netloc, path, urlencode(query), ""))


def _preread() -> None:
    """The lessons and the catalog as the build read them (uu.lite.build `preread_table`), if it did."""
    from importlib.resources import files

    from uu.yamlfile import preread

    table = files("uu.lite").joinpath("preread.json")
    if table.is_file():
        preread(json.loads(table.read_text(encoding="utf-8")))


def app(start: str = "home", lang: str | None = None,
        send: Callable[[str, list[bytes]], object] | None = None) -> Any:
    """Show the tutor as the page's content (uu/lite/worker.mjs calls this once Python runs). Returns the `App`.
    `lang`: the language the page chose as the App will once the browser reports (a link's, the saved one, the
    browser's), to start in it; `send`: where its messages go (`uu.lite.bridge.install`; the worker's page by
    default)."""
    from uu.lite import bridge

    bridge.install(send)
    try:
        bridge.stage("import")
        from uu.widgets.tutor_app import App

        class LiteApp(App):
            def open_link(self, href: str) -> None:
                super().open_link(site_href(href))

        _preread()
        bridge.stage("app")
        the_app = LiteApp(start=start, lang=lang)
        bridge.stage("draw")
        bridge.show(the_app)
    except Exception:  # the loading screen says so in plain words; the console keeps the traceback
        bridge.send_to_page({"type": "failed"})
        raise
    return the_app
