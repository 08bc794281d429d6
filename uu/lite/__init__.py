"""The tutor in the learner's browser: the static site's one code cell runs `uu.lite.app()`.

`python3 dev.py lite` builds the site (`uu.lite.build`; docs/static-build.md). In the page, Python is Pyodide
in a web worker, run by JupyterLite's REPL: `app()` shows the same `App` as `uu app`, with three differences
made here and nowhere else:
- the page's address is the REPL's (`.../repl/index.html?kernel=python&code=...&lesson=goal`): the app sees
  the site's address instead (`.../?lesson=goal`), so links to lessons and positions work and the sandbox's
  "Link to this position" gives a link to the site;
- a stylesheet hides the REPL around the app (prompt, input, banner) and lets the app fill the page;
- comm messages are sent as JSON: the kernel turns a Python None into JavaScript `undefined`, which JSON then
  drops, so a value reset to None (in a widget's state or inside the table's data) would never arrive.
"""

from __future__ import annotations

import json
import sys
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

__all__ = ["REPL_PARAMS", "app", "site_href"]

# the REPL's own parameters (uu/lite/index.html puts them in): not the tutor's
REPL_PARAMS = frozenset({"kernel", "toolbar", "showBanner", "hideCodeInput", "promptCellPosition", "code",
                         "execute", "clearCellsOnExecute", "clearCodeContentOnExecute"})

# The REPL page around the app: only the app's output is shown, full width.
PAGE_CSS = """
<style>
.jp-CodeConsole-promptCell, .jp-CodeConsole-banner, .jp-Toolbar, .jp-InputArea, .jp-InputPrompt,
.jp-OutputPrompt, .jp-Cell-inputWrapper, .lm-SplitPanel-handle,
.jp-OutputArea-promptOverlay /* over the output's left edge: it took the clicks meant for the app */
{ display: none !important; }
.jp-OutputArea-prompt { display: none !important; }
/* the output fills the console: no room kept for the hidden prompt cell */
.jp-CodeConsole-content { background: #fff !important; top: 0 !important; height: 100% !important; }
.jp-ConsolePanel, body { background: #fff !important; }
.jp-Cell, .jp-OutputArea-child, .jp-OutputArea-output { padding: 0 !important; margin: 0 !important;
  border: none !important; }
.jp-OutputArea-output { width: 100% !important; max-width: 100% !important; padding: 0 8px !important;
  box-sizing: border-box; }
</style>
"""


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
    `.../?lesson=x` (the REPL's own parameters dropped, the others kept in their order)."""
    parts = urlsplit(href)
    path = parts.path
    for tail in ("repl/index.html", "repl/"):
        if path.endswith(tail):
            path = path[: -len(tail)]
            break
    query = [(k, v) for k, v in parse_qsl(parts.query, keep_blank_values=True) if k not in REPL_PARAMS]
    return urlunsplit((parts.scheme, parts.netloc, path, urlencode(query), parts.fragment))


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


def app(start: str = "home") -> Any:
    """Show the tutor in the REPL's output (the static site's code cell). Returns the `App`."""
    import ipywidgets as widgets
    from IPython.display import display

    from uu.widgets.app import App

    class LiteApp(App):
        def open_link(self, href: str) -> None:
            super().open_link(site_href(href))

    send_comm_as_json()
    _preread()
    import anywidget

    class ScrollTop(anywidget.AnyWidget):
        _esm = SCROLL_TOP_ESM

    page_style = widgets.HTML(PAGE_CSS)
    page_style.add_class("uu-lite-style")
    the_app = LiteApp(start=start)
    display(widgets.VBox([page_style, ScrollTop(), the_app], layout=widgets.Layout(width="100%")))
    return the_app
