"""The static site's page, written by the build (uu/lite/build.py step 6):

- `index.html`, the tutor's one page (`uu/lite/index.html`): its stylesheet and script (`uu/lite/page.css`,
  `uu/lite/page.js`), the loading screen's words in every language, the list of the files Python needs first,
  the loading screen first in its body and the place the tutor is drawn in; beside it the worker that runs
  Python (`uu/lite/worker.mjs`);
- a Content-Security-Policy in the page (`<meta http-equiv>`) and in `_headers` (the file Netlify and
  Cloudflare Pages read) for hosts that send headers: script only from the site itself (and the page's own
  inline scripts by their hashes, if it ever has any), and WebAssembly.

Standard library only, like the build.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

__all__ = ["csp", "inline_script_hashes", "tutor_page", "write_pages"]

HERE = Path(__file__).resolve().parent

# Script from the site only, and no inline script but the page's own (by hash). `blob:`: anywidget runs a
# widget's front-end code (the tutor's table, its progress store) from a blob URL it makes of the code the
# widget carries; 'wasm-unsafe-eval': Pyodide is WebAssembly; 'unsafe-eval': ipywidgets' manager bundles ajv,
# which compiles the JSON schemas of widget state into functions when its module loads (it fails to load
# without). Styles may be inline: the widgets set them in the page. No plugin, no form, no <base>.
POLICY = {
    "default-src": ["'self'"],
    "script-src": ["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'", "blob:"],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'"],
    "worker-src": ["'self'", "blob:"],
    "object-src": ["'none'"],
    "base-uri": ["'none'"],
    "form-action": ["'none'"],
}
# only as a header: a <meta> policy cannot say who may frame the page
HEADER_ONLY = {"frame-ancestors": ["'self'"]}

_SCRIPT = re.compile(r"<script\b([^>]*)>(.*?)</script>", re.S | re.I)


def inline_script_hashes(page: str) -> list[str]:
    """The CSP source (`'sha256-...'`) of every inline script a browser would run in `page` (data blocks such as
    `type="application/json"` are not run, and need none)."""
    found = []
    for attrs, body in _SCRIPT.findall(page):
        if re.search(r"\bsrc\s*=", attrs):
            continue
        kind = re.search(r"\btype\s*=\s*[\"']?([^\"'\s>]+)", attrs)
        if kind and kind.group(1).lower() not in ("module", "text/javascript", "application/javascript"):
            continue
        digest = base64.b64encode(hashlib.sha256(body.encode("utf-8")).digest()).decode()
        found.append(f"'sha256-{digest}'")
    return sorted(set(found))


def csp(hashes: list[str], header: bool = False) -> str:
    policy = {k: list(v) for k, v in POLICY.items()}
    policy["script-src"] += hashes
    if header:
        policy.update(HEADER_ONLY)
    return "; ".join(f"{k} {' '.join(v)}" for k, v in policy.items())


def _meta(policy: str) -> str:
    return f'<meta http-equiv="Content-Security-Policy" content="{html.escape(policy)}">'


def _data(element_id: str, value: object) -> str:
    """A JSON data block: never run, and every `<` escaped so nothing in it can end its element."""
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":")).replace("<", "\\u003c")
    return f'<script type="application/json" id="{element_id}">{text}</script>'


LOADING_HTML = """<div id="uu-loading" role="status" aria-live="polite">
<p class="uu-loading-title"></p>
<div class="uu-loading-bar" role="progressbar" aria-valuemin="0" aria-valuemax="100" aria-valuenow="0"><div></div></div>
<p class="uu-loading-what"></p>
<p class="uu-loading-note"></p>
{noscript}
</div>"""


def tutor_page(words: dict[str, dict[str, str]], files: dict[str, object]) -> str:
    """The site's page: the loading screen first in its body, in English until its script picks the learner's
    language; without JavaScript it says so itself."""
    noscript = f"<noscript><p>{html.escape(words['en']['noscript'])}</p></noscript>"
    return (HERE / "index.html").read_text(encoding="utf-8").replace(
        "{title}", html.escape(words["en"]["title"])).replace(
        "{data}", _data("uu-words", words) + "\n" + _data("uu-files", files)).replace(
        "{loading}", LOADING_HTML.replace("{noscript}", noscript))


def write_pages(out: Path, words: dict[str, dict[str, str]], files: dict[str, object]) -> str:
    """Write the site's page, its scripts and `_headers` into `out`; returns the policy."""
    page = tutor_page(words, files)
    hashes = inline_script_hashes(page)
    policy = csp(hashes)
    (out / "index.html").write_text(page.replace("<head>", "<head>\n" + _meta(policy), 1), encoding="utf-8")
    for name, on_site in (("page.js", "uu-page.js"), ("page.css", "uu-page.css"), ("worker.mjs", "uu-worker.mjs")):
        (out / on_site).write_bytes((HERE / name).read_bytes())
    (out / "_headers").write_text(
        "# Read by hosts that honour it (Netlify, Cloudflare Pages); others take the <meta> in each page.\n"
        "/*\n"
        f"  Content-Security-Policy: {csp(hashes, header=True)}\n"
        "  X-Content-Type-Options: nosniff\n"
        "  Referrer-Policy: same-origin\n"
        # every file may change at the next build (the wheels' bytecode is not byte-for-byte the same twice, and
        # the lock checks each wheel's SHA-256): kept, but checked with the host at each visit (a 304 when same)
        "  Cache-Control: no-cache\n", encoding="utf-8")
    return policy
