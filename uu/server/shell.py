"""The page a request for the tutor gets first: no kernel until the page's own script asks for one.

Voila starts a kernel and runs the app notebook for every request of `/`. A script, a link preview or an
`<img src>` on another site cost a kernel that way, and, before they connected or timed out, a place among the
pages waiting to connect: enough of them kept a class out. So `uu.server.admission.seat_check` answers a request
without a valid *ticket* with this small page instead: it gives the browser its seat cookie (`uu_seat`,
`uu.server.seats.COOKIE`) and a script that puts a ticket in a second cookie and reloads. Only that reload, from
a client that runs the page's script, reaches Voila and starts a kernel.

A ticket is signed by the server (HMAC with a secret made at start), names the seat token it was issued
for, expires after `TICKET_TTL_S` and is taken once. A request carrying someone else's seat cookie but no
ticket of theirs gets this page and kills nothing.

The page also says so when the link is longer than the app reads (`MAX_LINK_CHARS`, the same limit as the
app's, uu/widgets/progress.py) and when the browser refuses cookies, instead of reloading forever.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import html
import json
import os
import re
import secrets
import time
from collections.abc import Callable
from urllib.parse import parse_qs, urlsplit

from uu.i18n import N_, _, language, normalize

TICKET_COOKIE = "uu_page"
TICKET_TTL_S = 60.0
MAX_LINK_CHARS = 16_384  # a page address longer than this is not read by the app (uu/widgets/progress.py)
TRIES_KEY = "uu-shell-tries"  # sessionStorage: reloads without getting the app (cookies refused)
MAX_TRIES = 3
_TICKET_JS = re.compile(r'var TICKET = "([A-Za-z0-9._-]{10,120})"')

# marked here, translated when a page is written (in the visitor's language: `page_language`)
TITLE = N_("Unstable Unicorns tutor")
LONG_LINK_TEXT = N_("This link is too long for the tutor to read (at most {count} characters). "
                    "It may have been pasted twice or joined to other text. Ask for the link again, or open the "
                    "tutor's home.")
NO_COOKIES_TEXT = N_("The tutor could not start in this browser: it needs cookies for this site (to keep your "
                     "place in the class). Allow them and reload the page.")
NO_SCRIPT_TEXT = N_("The tutor needs JavaScript: turn it on for this site and reload the page.")
HOME_TEXT = N_("Open the tutor's home")
OPENING_TEXT = N_("Opening the tutor…")


def page_language(url: str | None, accept_language: str | None) -> str:
    """The language a page for this request is written in: the link's `?lang=`, else the class default
    (`uu app --lang`), else the browser's (the first supported one of Accept-Language), else English. The
    learner's saved choice lives in their browser, so only the app itself (uu/widgets/language.py) sees it."""
    if url:
        try:
            values = parse_qs(urlsplit(url).query, max_num_fields=10_000).get("lang")
        except ValueError:
            values = None
        if values and normalize(values[0]):
            return normalize(values[0]) or "en"
    default = normalize(os.environ.get("UU_LANG"))
    if default:
        return default
    for part in (accept_language or "").split(",")[:20]:
        got = normalize(part.split(";")[0])
        if got:
            return got
    return "en"


def _long_text() -> str:
    return _(LONG_LINK_TEXT).format(count=f"{MAX_LINK_CHARS:,}")


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).decode("ascii").rstrip("=")


class Tickets:
    """Tickets issued to seat tokens, each valid once within `ttl` seconds."""

    def __init__(self, secret: bytes | None = None, ttl: float = TICKET_TTL_S,
                 clock: Callable[[], float] = time.time):
        self.secret = secret or secrets.token_bytes(32)
        self.ttl = ttl
        self.clock = clock
        self.used: dict[str, float] = {}  # nonce -> when it expires

    def _mac(self, token: str, issued: int, nonce: str) -> str:
        return _b64(hmac.new(self.secret, f"{token}.{issued}.{nonce}".encode(), hashlib.sha256).digest()[:18])

    def issue(self, token: str) -> str:
        issued = int(self.clock())
        nonce = secrets.token_urlsafe(9)
        return f"{issued}.{nonce}.{self._mac(token, issued, nonce)}"

    def redeem(self, token: str | None, ticket: str | None) -> bool:
        """True once for a ticket this server issued to `token`, within its time; False for anything else."""
        if not token or not ticket or len(ticket) > 120:
            return False
        parts = ticket.split(".")
        if len(parts) != 3 or not parts[0].isdigit():
            return False
        issued, nonce, mac = int(parts[0]), parts[1], parts[2]
        now = self.clock()
        if not hmac.compare_digest(mac, self._mac(token, issued, nonce)) or not 0 <= now - issued <= self.ttl:
            return False
        for old in [n for n, until in self.used.items() if until < now]:
            del self.used[old]
        if nonce in self.used:
            return False
        self.used[nonce] = issued + self.ttl + 1
        return True


TICKETS: Tickets | None = None


def current() -> Tickets:
    global TICKETS
    if TICKETS is None:
        TICKETS = Tickets()
    return TICKETS


def ticket_in(page: str) -> str | None:
    """The ticket in a first page (for the benchmarks' emulated learners, which do what the script does)."""
    m = _TICKET_JS.search(page)
    return m.group(1) if m else None


def link_too_long(url: str) -> bool:
    return len(url) > MAX_LINK_CHARS


def _page(body: str, script: str = "", lang: str = "en") -> str:
    return (f"<!doctype html><html lang='{html.escape(lang)}'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{html.escape(_(TITLE))}</title></head>"
            "<body style='font-family:sans-serif;max-width:40em;margin:3em auto;padding:0 1em;line-height:1.5'>"
            f"{body}{script}</body></html>")


def long_link_page(home: str, lang: str = "en") -> str:
    """For a request whose address is longer than the app reads: what was wrong, and the way home."""
    with language(lang) as lang:
        return _page(f"<h1>{html.escape(_(TITLE))}</h1><p class='uu-link-problem' role='alert'>"
                     f"{html.escape(_long_text())}</p><p><a href='{html.escape(home)}'>{html.escape(_(HOME_TEXT))}"
                     "</a></p>", lang=lang)


def first_page(ticket: str, home: str, lang: str = "en") -> str:
    """The page without a kernel: its script sets the ticket cookie and reloads (see the module's docstring)."""
    with language(lang) as lang:
        return _first_page(ticket, home, lang)


def _first_page(ticket: str, home: str, lang: str) -> str:
    data = json.dumps({"max": MAX_LINK_CHARS, "long": _long_text(), "cookies": _(NO_COOKIES_TEXT), "home": home,
                       "key": TRIES_KEY, "tries": MAX_TRIES, "homeText": _(HOME_TEXT)})
    script = (
        "<script>(function () {\n"
        f'  var TICKET = "{ticket}";\n'
        f"  var C = {data};\n"
        "  var box = document.getElementById('uu-shell');\n"
        "  function say(text, home) {\n"
        "    box.textContent = text; box.setAttribute('role', 'alert');\n"
        "    if (home) { var p = document.createElement('p'), a = document.createElement('a');\n"
        "      a.href = C.home; a.textContent = C.homeText; p.appendChild(a); box.after(p); }\n"
        "  }\n"
        "  if (String(window.location.href).length > C.max) { say(C.long, true); return; }\n"
        "  var tries = 0;\n"
        "  try { tries = Number(window.sessionStorage.getItem(C.key) || 0);\n"
        "        window.sessionStorage.setItem(C.key, String(tries + 1)); } catch (e) { tries = 0; }\n"
        "  if (tries >= C.tries) {\n"
        "    try { window.sessionStorage.removeItem(C.key); } catch (e) { /* nothing kept */ }\n"
        "    say(C.cookies, false); return;\n"
        "  }\n"
        f'  document.cookie = "{TICKET_COOKIE}=" + TICKET + "; path=/; max-age={int(TICKET_TTL_S)}; samesite=lax";\n'
        f'  if (document.cookie.indexOf("{TICKET_COOKIE}=") < 0) {{ say(C.cookies, false); return; }}\n'
        "  window.location.reload();\n"
        "})();</script>")
    return _page(f"<p id='uu-shell'>{html.escape(_(OPENING_TEXT))}</p><noscript><p>{html.escape(_(NO_SCRIPT_TEXT))}"
                 "</p></noscript>", script, lang)


# The words the app page's own script may show (uu/server/voila_template/index.html.j2): a stopped session, a
# tutor open in another tab, a paste or a file too large. The page holds them in every language and picks
# one as the app does (uu/widgets/language.py): the link's ?lang=, the saved choice, the browser's.
PAGE_WORDS = {
    "stopped": N_("Your session stopped: reload to continue."), "reload": N_("Reload"),
    "replaced": N_("This tutor is open in another tab. Use that tab, or continue here (the other tab then stops)."),
    "use_here": N_("Use it here"), "limit": N_("at most {kb} KB. Nothing was sent."),
    "file_large": N_("That file is too large: {limit}"), "text_long": N_("That text is too long: {limit}"),
}


def page_words_json() -> str:
    """{lang: {key: text}} for the app page's script, as JSON safe inside a <script> element."""
    from uu.i18n import LANGUAGES

    table = {}
    for lang in LANGUAGES:
        with language(lang):
            table[lang] = {k: _(v) for k, v in PAGE_WORDS.items()}
    default = normalize(os.environ.get("UU_LANG"))
    text = json.dumps({"default": default, "words": table}, ensure_ascii=True)
    return text.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")

