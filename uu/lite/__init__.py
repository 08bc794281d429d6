"""The tutor in the learner's browser: the static site's one code cell runs `uu.lite.app()`.

`python3 dev.py lite` builds the site (`uu.lite.build`; docs/static-build.md). In the page, Python is Pyodide
in a web worker, run by JupyterLite's REPL: `app()` shows the same `App` as `uu app`, with three differences
made here and nowhere else:
- the page's address is the REPL's (`.../repl/index.html?kernel=python&code=...&lesson=goal`): the app sees
  the site's address with only the tutor's own parameters (`.../?lesson=goal`), so links to lessons and
  positions work and the sandbox's "Link to this position" gives a link to the site;
- while it starts, it tells the page's loading screen how far it is (uu/lite/page.js), on a BroadcastChannel
  named for that page;
- comm messages are sent as JSON: the kernel turns a Python None into JavaScript `undefined`, which JSON then
  drops, so a value reset to None (in a widget's state or inside the table's data) would never arrive.
The page's own stylesheet (uu/lite/page.css) hides the REPL around the app from the first paint.
"""

from __future__ import annotations

import json
import re
import sys
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["TUTOR_PARAMS", "app", "loading_stage", "site_href"]

# the only parameters of the page's address that are the tutor's (uu/lite/page.js passes no other one on)
TUTOR_PARAMS = ("lesson", "position", "lang")
_PAGE = re.compile(r"[0-9a-f]{16}")  # the loading screen's name for its page (uu/lite/page.js `token`)


# The console scrolls to its end when output arrives, which would open the app at its bottom: back to the top
# once it is drawn (a few times, as the console scrolls after the output is in).
SCROLL_TOP_ESM = """
export default {
  render({ el }) {
    const top = () => { const c = el.closest(".jp-CodeConsole-content"); if (c) c.scrollTop = 0; };
    for (const ms of [0, 200, 600, 1500]) setTimeout(top, ms);
  },
};
"""


def site_href(href: str) -> str:
    """The site's address for the REPL page's `href`: `.../repl/index.html?kernel=...&lesson=x` becomes
    `.../?lesson=x` (only the tutor's own parameters kept, the first of each, in the tutor's order)."""
    parts = urlsplit(href)
    path = parts.path
    for tail in ("repl/index.html", "repl/"):
        if path.endswith(tail):
            path = path[: -len(tail)]
            break
    given: dict[str, str] = {}
    for key, value in parse_qsl(parts.query, keep_blank_values=True, max_num_fields=10_000):
        given.setdefault(key, value)
    query = [(key, given[key]) for key in TUTOR_PARAMS if key in given]
    return urlunsplit((parts.scheme, parts.netloc, path, urlencode(query), ""))


def loading_stage(page: str | None, stage: str) -> bool:
    """Tell the page's loading screen that starting the tutor reached `stage` (uu/lite/page.js `STAGES`). True if
    sent: only in the browser, for a page named as the loading screen names it."""
    if page is None or not _PAGE.fullmatch(page) or sys.platform != "emscripten":
        return False
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to JavaScript

    channel = js.BroadcastChannel.new(f"uu-loading-{page}")
    channel.postMessage(js.JSON.parse(json.dumps({"stage": stage})))
    channel.close()
    return True


def send_comm_as_json() -> bool:
    """Make the Pyodide kernel send comm messages as JSON (None stays null). True if it was changed; nothing
    happens outside the Pyodide kernel."""
    if "pyodide" not in sys.modules and sys.platform != "emscripten":
        return False
    import js  # type: ignore[import-not-found]  # Pyodide's bridge to JavaScript
    from IPython import get_ipython

    shell = get_ipython()
    send = getattr(shell, "send_comm", None)
    if send is None or getattr(send, "_uu_json", False):
        return False

    def send_comm(msg_type: str, content: Any, metadata: Any, ident: Any, buffers: Any) -> Any:
        return send(msg_type, js.JSON.parse(json.dumps(content, default=str)), metadata, ident, buffers)

    send_comm._uu_json = True  # type: ignore[attr-defined]
    shell.send_comm = send_comm
    return True


def _preread() -> None:
    """The lessons and the catalog as the build read them (uu.lite.build `preread_table`), if it did."""
    from importlib.resources import files

    from uu.yamlfile import preread

    table = files("uu.lite").joinpath("preread.json")
    if table.is_file():
        preread(json.loads(table.read_text(encoding="utf-8")))


def app(start: str = "home", page: str | None = None, lang: str | None = None) -> Any:
    """Show the tutor in the REPL's output (the static site's code cell). Returns the `App`. `page`: the loading
    screen's name for its page (uu/lite/page.js), told how far the start is; `lang`: the language the page chose
    as the App will once the browser reports (a link's, the saved one, the browser's), to start in."""
    loading_stage(page, "import")
    import anywidget
    import ipywidgets as widgets
    from IPython.display import display

    from uu.widgets.tutor_app import App

    class LiteApp(App):
        def open_link(self, href: str) -> None:
            super().open_link(site_href(href))

    class ScrollTop(anywidget.AnyWidget):
        _esm = SCROLL_TOP_ESM

    send_comm_as_json()
    _preread()
    loading_stage(page, "app")
    the_app = LiteApp(start=start, lang=lang)
    loading_stage(page, "draw")
    display(widgets.VBox([ScrollTop(), the_app], layout=widgets.Layout(width="100%")))
    return the_app
