"""The static site's own pages, written over what `jupyter lite build` made (uu/lite/build.py step 6):

- `index.html`, the entry: on to the REPL page with only the tutor's parameters (uu/lite/page.js);
- `repl/index.html`, JupyterLite's REPL page with the tutor's script first in its head (the REPL then only ever
  runs the tutor's one line), its stylesheet, the loading screen's words in every language and the list of the
  files Python needs first;
- a Content-Security-Policy in both pages (`<meta http-equiv>`) and in `_headers` (the file Netlify and
  Cloudflare Pages read) for hosts that send headers: script only from the site itself, the pages' own inline
  scripts by their hashes, and WebAssembly.

Standard library only, like the build.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import re
from pathlib import Path

__all__ = ["csp", "entry_page", "inline_script_hashes", "repl_page", "write_pages"]

HERE = Path(__file__).resolve().parent

# Script from the site only, and no inline script but the pages' own (by hash). `blob:`: anywidget runs a
# widget's front-end code (the tutor's table, its progress store) from a blob URL it makes of the code the
# widget carries; 'wasm-unsafe-eval': Pyodide is WebAssembly; 'unsafe-eval': JupyterLab checks its settings
# with JSON schemas compiled to functions (ajv), and its settings plugin fails to start without it.
# Styles may be inline: JupyterLab and the widgets set them in the page. No plugin, no form, no <base>.
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


def repl_page(page: str, words: dict[str, dict[str, str]], files: dict[str, object]) -> str:
    """JupyterLite's REPL page with the tutor's script and stylesheet first in its head (before JupyterLite's
    scripts read the page's address), and the loading screen first in its body."""
    head = "\n".join([
        '<link rel="stylesheet" href="../uu-page.css">',
        _data("uu-words", words),
        _data("uu-files", files),
        '<script src="../uu-page.js" data-page="repl"></script>',
    ])
    page = re.sub(r"<title>.*?</title>", f"<title>{html.escape(words['en']['title'])}</title>", page, count=1,
                  flags=re.S)
    page = page.replace("<head>", "<head>\n" + head, 1)
    # without JavaScript the loading screen stays: it says so itself, in place of JupyterLite's words
    noscript = f"<noscript><p>{html.escape(words['en']['noscript'])}</p></noscript>"
    page = re.sub(r"<noscript>.*?</noscript>", "", page, count=1, flags=re.S)
    loading = LOADING_HTML.replace("{noscript}", noscript)
    page = re.sub(r"(<body\b[^>]*>)", lambda m: m.group(1) + "\n" + loading, page, count=1)
    if 'id="uu-loading"' not in page or 'data-page="repl"' not in page:
        raise SystemExit("uu lite: JupyterLite's repl/index.html has changed shape: the tutor's page could not be "
                         "made from it (uu/lite/pages.py)")
    return page


def entry_page(words: dict[str, dict[str, str]]) -> str:
    return (HERE / "index.html").read_text(encoding="utf-8").replace(
        "{noscript}", html.escape(words["en"]["noscript"])).replace("{title}", html.escape(words["en"]["title"]))


def write_pages(out: Path, words: dict[str, dict[str, str]], files: dict[str, object]) -> str:
    """Write the site's pages, its scripts and `_headers` into `out`; returns the policy."""
    repl = out / "repl" / "index.html"
    pages = {out / "index.html": entry_page(words),
             repl: repl_page(repl.read_text(encoding="utf-8"), words, files)}
    hashes = sorted({h for text in pages.values() for h in inline_script_hashes(text)})
    policy = csp(hashes)
    for path, text in pages.items():
        path.write_text(text.replace("<head>", "<head>\n" + _meta(policy), 1), encoding="utf-8")
    for name in ("page.js", "page.css"):
        (out / f"uu-{name}").write_bytes((HERE / name).read_bytes())
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
