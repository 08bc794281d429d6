"""The teacher's class view, served by `uu app --class` next to the app (the learners' rows: uu/server/classroom.py).

    /uu/class?token=T       the page: every connected learner, then those who left; it reloads itself
    /uu/class.json?token=T  the same rows as JSON
    /uu/class.csv?token=T   every learner, for a spreadsheet
    /uu/class/remove?token=T  POST id=<row>: the page's "Remove" button takes a learner's row away

Each answers 403 without the right token (compared in constant time), and an address that gave
`GUESSES` wrong tokens within `GUESS_WINDOW_S` seconds is refused (429) for the rest of that time, right token
or not (`Guesses`): a token can be guessed only that slowly. The teacher's own browser is not: the first right
token sets a cookie only the token can make (`teacher_mark`), and with it the right token always gets in. The token is printed when the server starts and
is known only to the server process: it is not in the learners' kernels' environment, and a learner's page
never receives it. Learner-provided text (names) is escaped in the page; two learners who typed the same name
are shown apart ("Ann", "Ann (2)", by who came first: `shown_names`); and a CSV cell that a spreadsheet would
run as a formula, whatever spaces or invisible characters come first, is prefixed with a quote (`_cell`).
"""

from __future__ import annotations

import csv
import hashlib
import hmac
import html
import io
import json
import time
import unicodedata
from collections import deque
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlencode

import tornado.web

from uu.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, language, ngettext
from uu.server.classroom import CONNECTED_S, LearnerRow, connect, learner_rows, remove_row

if TYPE_CHECKING:
    from uu.together import Tables

__all__ = ["GUESSES", "GUESS_WINDOW_S", "REFRESH_S", "Guesses", "class_handlers", "page_html", "shown_names"]

REFRESH_S = 5
# the CSV's headers, in the teacher's language (`?lang=` or their browser's) when it is downloaded
CSV_COLUMNS = (N_("name"), N_("connected"), N_("lesson"), N_("step"), N_("steps"), N_("on step since"),
               N_("wrong moves on step"), N_("quiz results"), N_("lessons finished"), N_("first seen"),
               N_("last seen"))


def _when(t: object) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if isinstance(t, int | float) else ""


def _minutes(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return (_("{minutes} min {seconds} s").format(minutes=seconds // 60, seconds=f"{seconds % 60:02d}")
            if seconds >= 60 else _("{seconds} s").format(seconds=seconds))


def _quiz(q: dict[str, list[int]]) -> str:
    parts = []
    for title, v in q.items():
        if isinstance(v, list | tuple) and len(v) == 2:
            parts.append(f"{title}: {v[0]}/{v[1]}")
    return "; ".join(parts)


def _same(name: str) -> str:
    return unicodedata.normalize("NFKC", name).casefold().strip()


def shown_names(rows: list[LearnerRow]) -> dict[str, str]:
    """Each row's name on the page, by row id: as typed, except that two learners who typed the same name (the
    same once case and look-alike forms are set aside) are told apart by a number, in the order they first
    came ("Ann", "Ann (2)"), never taking a name another learner typed."""
    taken = {_same(r["name"]) for r in rows}
    seen: dict[str, int] = {}
    out: dict[str, str] = {}
    for r in sorted(rows, key=lambda r: (r["first_seen"], r["id"])):
        key = _same(r["name"])
        n = seen.get(key, 0) + 1
        seen[key] = n
        shown = r["name"]
        if n > 1:
            while _same(shown := f"{r['name']} ({n})") in taken:
                n += 1
            taken.add(_same(shown))
        out[r["id"]] = shown
    return out


class RowView(TypedDict):
    """A learner's row as the page and the JSON show it: words, not stored values."""

    id: str
    name: str  # told apart from a namesake's (`shown_names`)
    connected: bool
    lesson: str
    step: str  # "3 of 7"
    on_step_for: str
    wrong: int
    quiz: str
    finished: list[str]
    last_seen: str


def _row_view(r: LearnerRow, now: float, name: str | None = None) -> RowView:
    connected = now - float(r["last_seen"] or 0) <= CONNECTED_S
    step = _("{step} of {steps}").format(step=r["step"], steps=r["steps"]) if r["step"] is not None else ""
    since = _minutes(now - r["step_since"]) if connected and r["step_since"] is not None else ""
    return {"id": r["id"], "name": r["name"] if name is None else name, "connected": connected,
            "lesson": r["lesson"] or "", "step": step, "on_step_for": since, "wrong": int(r["wrong"] or 0),
            "quiz": _quiz(r["quiz"]), "finished": [str(x) for x in r["finished"]],
            "last_seen": _when(r["last_seen"])}


def row_views(rows: list[LearnerRow], now: float) -> list[RowView]:
    names = shown_names(rows)
    return [_row_view(r, now, names[r["id"]]) for r in rows]


def _finished(titles: list[str]) -> str:
    return f"{len(titles)}: {html.escape(', '.join(titles))}" if titles else html.escape(_("none yet"))


def page_html(rows: list[LearnerRow], token: str, now: float | None = None, lang: str = "en",
              form_fields: str = "", tables: Tables | None = None) -> str:
    """The class view's page in `lang` (the learners' own words, lesson titles included, are as reported).
    `form_fields`: HTML the "Remove" forms carry besides the row (the hub's `_xsrf` field). `tables`: the app's
    tables for several people, listed after the learners."""
    from uu.server.tablewatch import tables_section_html

    with language(lang) as lang:
        query = {"token": token, "lang": lang} if token else {"lang": lang}
        return _page_html(rows, token, time.time() if now is None else now, lang, form_fields,
                          tables_section_html(tables, query))


def _page_html(rows: list[LearnerRow], token: str, now: float, lang: str, form_fields: str,
               tables_html: str = "") -> str:
    views = row_views(rows, now)
    e = html.escape
    action = f"class/remove?token={e(token)}&amp;lang={lang}"

    def remove(v: RowView) -> str:
        # a form per row (the page runs no script): the name is in the button's label, for screen readers
        label = _("Remove {name} from this list").format(name=v["name"])
        return (f"<form method='post' action='{action}'>{form_fields}"
                f"<input type='hidden' name='id' value='{e(v['id'])}'>"
                f"<button type='submit' aria-label='{e(label)}'>{e(_('Remove'))}</button></form>")

    def table(items: list[RowView], cls: str) -> str:
        if not items:
            return "<p>" + e(_("Nobody yet.")) + "</p>"
        head = "<tr>" + "".join(f"<th>{e(_(x))}</th>" for x in (
            N_("Name"), N_("Lesson"), N_("Step"), N_("On it for"), N_("Wrong moves there"), N_("Quiz"),
            N_("Lessons finished"), N_("Last seen"))) + "<th></th></tr>"
        body = "".join(
            f"<tr class='{cls}'><td class='name'>{e(v['name'])}</td><td>{e(v['lesson'])}</td>"
            f"<td>{e(v['step'])}</td><td>{e(v['on_step_for'])}</td><td class='wrong'>{v['wrong']}</td>"
            f"<td>{e(v['quiz'])}</td><td>{_finished(v['finished'])}</td>"
            f"<td>{e(v['last_seen'])}</td><td>{remove(v)}</td></tr>" for v in items)
        return f"<table>{head}{body}</table>"

    live = [v for v in views if v["connected"]]
    gone = [v for v in views if not v["connected"]]
    csv_link = f"class.csv?token={e(token)}&amp;lang={lang}"
    # the language picker: a link per language, each named in itself (the page has no script)
    picker = " · ".join(
        f"<a hreflang='{x}' lang='{x}' href='class?token={e(token)}&amp;lang={x}'"
        + (" aria-current='true'>" if x == lang else ">") + f"{e(LANGUAGE_NAMES[x])}</a>" for x in LANGUAGES)
    status = ngettext("{count} learner connected now (their tutor page reported within {seconds} s). This page "
                      "updates every {refresh} s.",
                      "{count} learners connected now (their tutor pages reported within {seconds} s). This page "
                      "updates every {refresh} s.", len(live)).format(count=len(live), seconds=int(CONNECTED_S),
                                                                       refresh=REFRESH_S)
    title, picker_label, heading = _("Your class: Unstable Unicorns tutor"), _("The language of the tutor"), _("Your class")
    csv_words, connected, earlier = _("Download every learner as CSV"), _("Connected"), _("Earlier in this class")
    removing = _("Remove takes a learner's row off this list; a learner whose tutor is still open comes back "
                 "with its next report.")
    return (f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
            f"<meta http-equiv='refresh' content='{REFRESH_S}'><meta name='referrer' content='no-referrer'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{e(title)}</title><style>"
            "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
            "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
            "tr.gone{color:#777}</style></head><body>"
            f"<nav class='uu-lang-picker' aria-label='{e(picker_label)}'>{picker}</nav>"
            f"<h1>{e(heading)}</h1><p>{e(status)} "
            f"<a class='csv' href='{csv_link}'>{e(csv_words)}</a></p>"
            f"<h2>{e(connected)}</h2><div id='connected'>{table(live, 'live')}</div>"
            f"<h2>{e(earlier)}</h2><div id='gone'>{table(gone, 'gone')}</div>"
            f"<p class='note'>{e(removing)}</p><div id='tables'>{tables_html}</div></body></html>")


# what starts a formula in a spreadsheet (the full-width forms too: some read them as the ASCII ones)
FORMULA_STARTS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")
# what shows as nothing (or as a blank) before a formula: controls, format characters (zero-width, direction
# marks, the BOM), separators, unassigned and private code points, combining marks with no letter to sit on
# (variation selectors, the grapheme joiner U+034F)...
INVISIBLE_CATEGORIES = frozenset({"Cc", "Cf", "Cn", "Co", "Zs", "Zl", "Zp", "Mn", "Me"})
# ... and the letters and symbols that are drawn blank: the Hangul fillers (Unicode's default-ignorable
# letters) and the blank Braille pattern
BLANK_LETTERS = frozenset("\u115f\u1160\u3164\uffa0\u2800")


def _invisible(ch: str) -> bool:
    return ch.isspace() or ch in BLANK_LETTERS or unicodedata.category(ch) in INVISIBLE_CATEGORIES


def _cell(value: object) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula once its leading spaces, tabs,
    line breaks and invisible characters are skipped (spreadsheets skip some of them: `" =1+1"`,
    `"\u00a0=SUM(1)"`; `_invisible` errs on skipping more) gets a leading quote, and so does one that starts
    with a tab or a line break."""
    text = "" if value is None else str(value)
    rest = text.lstrip()
    while rest and _invisible(rest[0]):
        rest = rest[1:]
    if rest[:1] in FORMULA_STARTS or text[:1] in ("\t", "\r", "\n"):
        return "'" + text
    return text


def csv_text(rows: list[LearnerRow], now: float | None = None, lang: str = "en") -> str:
    with language(lang):
        return _csv_text(rows, time.time() if now is None else now)


def _csv_text(rows: list[LearnerRow], now: float) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([_(c) for c in CSV_COLUMNS])
    for r, v in zip(rows, row_views(rows, now), strict=True):
        w.writerow([_cell(x) for x in (
            v["name"], _("yes") if v["connected"] else _("no"), r["lesson"], r["step"], r["steps"], _when(r["step_since"]),
            v["wrong"], v["quiz"], "; ".join(v["finished"]), _when(r["first_seen"]), _when(r["last_seen"]))])
    return out.getvalue()


# wrong tokens one address may give before it is refused for the rest of the window: a teacher mistyping
# is a few; a script guessing gets 10 guesses a minute
GUESSES = 10
GUESS_WINDOW_S = 60.0
# addresses remembered at most (the oldest forgotten first): a flood from many addresses costs bounded memory
GUESS_ADDRESSES = 10_000


# The teacher's browser, once it opened the class view with the right token, carries this cookie: a mark only
# the token can make, so that guessers pacing their address do not keep the teacher out.
TEACHER_COOKIE = "uu-class-teacher"


def teacher_mark(token: str) -> str:
    return hmac.new(token.encode("utf-8"), b"uu class teacher", hashlib.sha256).hexdigest()


class Guesses:
    """Wrong tokens per address: after `limit` within `window_s` seconds, the address is refused until the
    oldest of them is older than the window."""

    def __init__(self, limit: int = GUESSES, window_s: float = GUESS_WINDOW_S,
                 clock: Callable[[], float] = time.monotonic):
        self.limit, self.window_s, self.clock = limit, window_s, clock
        self._wrong: dict[str, deque[float]] = {}

    def _recent(self, address: str) -> deque[float]:
        now = self.clock()
        times = self._wrong.get(address, deque())
        while times and now - times[0] > self.window_s:
            times.popleft()
        return times

    def refused(self, address: str) -> float:
        """Seconds until `address` may try again (0: now)."""
        times = self._recent(address)
        if len(times) < self.limit:
            return 0.0
        return max(1.0, self.window_s - (self.clock() - times[0]))

    def wrong(self, address: str) -> None:
        times = self._recent(address)
        times.append(self.clock())
        self._wrong.pop(address, None)
        self._wrong[address] = times  # newest last: the oldest addresses are forgotten first
        while len(self._wrong) > GUESS_ADDRESSES:
            self._wrong.pop(next(iter(self._wrong)))


class _ClassHandler(tornado.web.RequestHandler):
    """Base: the token check (paced per address), and headers that keep the page out of caches, frames and
    referrers."""

    tables: Tables | None = None  # a subclass that does not take them (the hub's) has none

    def initialize(self, db: str, token: str, guesses: Guesses | None = None, tables: Tables | None = None) -> None:
        self.db = db
        self.token = token
        self.guesses = guesses or Guesses()
        self.tables = tables  # the app's tables for several people (uu/server/tablewatch.py), if it has them

    def prepare(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        address = self.request.remote_ip or "?"
        given = self.get_query_argument("token", "")
        right = hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode("utf-8"))
        mark = teacher_mark(self.token)
        if right and hmac.compare_digest((self.get_cookie(TEACHER_COOKIE) or "").encode(), mark.encode()):
            # the teacher's browser, known from an earlier visit: never kept out by someone guessing from the
            # same address (behind a reverse proxy every learner's address is the proxy's)
            return None
        wait = self.guesses.refused(address)
        if wait:
            self.set_header("Retry-After", str(int(wait + 0.999)))
            return self._refuse(429, f"Too many wrong tokens from this computer: try again in {int(wait + 0.999)} s.\n")
        if not right:
            self.guesses.wrong(address)
            return self._refuse(403, "The class view needs the token `uu app --class` printed when it started.\n")
        self.set_cookie(TEACHER_COOKIE, mark, httponly=True, samesite="Strict", expires_days=1)
        return None

    def _refuse(self, status: int, text: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(text)

    def lang(self) -> str:
        """The teacher's language: `?lang=`, else the class default, else their browser's."""
        from uu.server.shell import page_language

        return page_language(self.request.full_url(), self.request.headers.get("Accept-Language"))

    def rows(self) -> list[LearnerRow]:
        conn = connect(self.db)
        try:
            return learner_rows(conn)
        finally:
            conn.close()

    def check_xsrf_cookie(self) -> None:  # GET only; nothing to protect
        return None


    def form_fields(self) -> str:
        """What the page's forms carry besides the row (nothing here: the token is in their address)."""
        return ""


class ClassPageHandler(_ClassHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page_html(self.rows(), self.token, lang=self.lang(), form_fields=self.form_fields(),
                              tables=self.tables))


class ClassJsonHandler(_ClassHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "application/json")
        from uu.server.tablewatch import tables_rows

        self.finish(json.dumps({"learners": row_views(self.rows(), time.time()), "tables": tables_rows(self.tables)}))


class ClassRemoveHandler(_ClassHandler):
    """POST id=<row id>: that learner's row goes, then back to the page (303)."""

    def post(self) -> None:
        key = self.get_body_argument("id", "")
        if not key or len(key) > 200:
            return self._refuse(400, "Say which learner's row to remove: id=<the row's id>, as the page's "
                                     "Remove button sends it.\n")
        conn = connect(self.db)
        try:
            remove_row(conn, key)
        finally:
            conn.close()
        token = self.get_query_argument("token", "")
        query = urlencode({"token": token, "lang": self.lang()} if token else {"lang": self.lang()})
        self.redirect(f"../class?{query}", status=303)
        return None


class ClassCsvHandler(_ClassHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", "attachment; filename=\"class.csv\"")
        self.finish(csv_text(self.rows(), lang=self.lang()))


class ClassTableHandler(_ClassHandler):
    """GET code=CODE: that table watched (read-only); 404 in plain words for a code with no table."""

    def get(self) -> None:
        from uu.server.tablewatch import watch_page_html
        from uu.together import TableRefused

        code = self.get_query_argument("code", "")
        lang = self.lang()
        query = {"token": self.get_query_argument("token", ""), "lang": lang}
        if self.tables is None:
            return self._refuse(404, "This app has no tables (uu app --class has them).\n")
        try:
            page = watch_page_html(self.tables, code, query, lang)
        except TableRefused as err:
            return self._refuse(404, f"{err}\n")
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page)
        return None


def class_handlers(base_url: str, db: str, token: str,
                   tables: Tables | None = None) -> list[tuple[str, type, dict[str, Any]]]:
    """The class view's routes; `tables`: the app's tables for several people (listed, and watched)."""
    base = base_url.rstrip("/")
    args = {"db": db, "token": token, "guesses": Guesses(), "tables": tables}  # one count of wrong tokens
    return [(f"{base}/uu/class", ClassPageHandler, args), (f"{base}/uu/class\\.json", ClassJsonHandler, args),
            (f"{base}/uu/class\\.csv", ClassCsvHandler, args), (f"{base}/uu/class/remove", ClassRemoveHandler, args),
            (f"{base}/uu/class/table", ClassTableHandler, args)]
