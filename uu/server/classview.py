"""The teacher's class view, served by `uu app --class` next to the app (the learners' rows: uu/server/classroom.py).

    /uu/class?token=T       the page: every connected learner, then those who left; it reloads itself
    /uu/class.json?token=T  the same rows as JSON
    /uu/class.csv?token=T   every learner, for a spreadsheet

Each answers 403 without the right token (compared in constant time). The token is printed when the server
starts and is known only to the server process: it is not in the learners' kernels' environment, and a
learner's page never receives it. Learner-provided text (names) is escaped in the page, and a CSV cell that
a spreadsheet would run as a formula, whatever spaces or invisible characters come first, is prefixed with a
quote (`_cell`).
"""

from __future__ import annotations

import csv
import hmac
import html
import io
import json
import time
import unicodedata
from typing import Any

import tornado.web

from uu.i18n import LANGUAGE_NAMES, LANGUAGES, N_, _, language
from uu.server.classroom import CONNECTED_S, connect, learner_rows

__all__ = ["REFRESH_S", "class_handlers", "page_html"]

REFRESH_S = 5
# the CSV's headers, in the teacher's language (`?lang=` or their browser's) when it is downloaded
CSV_COLUMNS = (N_("name"), N_("connected"), N_("lesson"), N_("step"), N_("steps"), N_("on step since"),
               N_("wrong moves on step"), N_("quiz results"), N_("lessons finished"), N_("first seen"),
               N_("last seen"))


def _when(t: Any) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if isinstance(t, int | float) else ""


def _minutes(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return (_("{minutes} min {seconds} s").format(minutes=seconds // 60, seconds=f"{seconds % 60:02d}")
            if seconds >= 60 else _("{seconds} s").format(seconds=seconds))


def _quiz(q: dict[str, Any]) -> str:
    parts = []
    for title, v in q.items():
        if isinstance(v, list) and len(v) == 2:
            parts.append(f"{title}: {v[0]}/{v[1]}")
    return "; ".join(parts)


def _row_view(r: dict[str, Any], now: float) -> dict[str, Any]:
    connected = now - float(r["last_seen"] or 0) <= CONNECTED_S
    step = _("{step} of {steps}").format(step=r["step"], steps=r["steps"]) if r["step"] is not None else ""
    since = _minutes(now - r["step_since"]) if connected and r["step_since"] is not None else ""
    return {"name": r["name"], "connected": connected, "lesson": r["lesson"] or "", "step": step,
            "on_step_for": since, "wrong": int(r["wrong"] or 0), "quiz": _quiz(r["quiz"]),
            "finished": [str(x) for x in r["finished"]], "last_seen": _when(r["last_seen"])}


def _finished(titles: list[str]) -> str:
    return f"{len(titles)}: {html.escape(', '.join(titles))}" if titles else html.escape(_("none yet"))


def page_html(rows: list[dict[str, Any]], token: str, now: float | None = None, lang: str = "en") -> str:
    """The class view's page in `lang` (the learners' own words, lesson titles included, are as reported)."""
    with language(lang) as lang:
        return _page_html(rows, token, time.time() if now is None else now, lang)


def _page_html(rows: list[dict[str, Any]], token: str, now: float, lang: str) -> str:
    views = [_row_view(r, now) for r in rows]
    e = html.escape

    def table(items: list[dict[str, Any]], cls: str) -> str:
        if not items:
            return "<p>" + e(_("Nobody yet.")) + "</p>"
        head = "<tr>" + "".join(f"<th>{e(_(x))}</th>" for x in (
            N_("Name"), N_("Lesson"), N_("Step"), N_("On it for"), N_("Wrong moves there"), N_("Quiz"),
            N_("Lessons finished"), N_("Last seen"))) + "</tr>"
        body = "".join(
            f"<tr class='{cls}'><td class='name'>{e(v['name'])}</td><td>{e(v['lesson'])}</td>"
            f"<td>{e(v['step'])}</td><td>{e(v['on_step_for'])}</td><td class='wrong'>{v['wrong']}</td>"
            f"<td>{e(v['quiz'])}</td><td>{_finished(v['finished'])}</td>"
            f"<td>{e(v['last_seen'])}</td></tr>" for v in items)
        return f"<table>{head}{body}</table>"

    live = [v for v in views if v["connected"]]
    gone = [v for v in views if not v["connected"]]
    csv_link = f"class.csv?token={e(token)}&amp;lang={lang}"
    # the language picker: a link per language, each named in itself (the page has no script)
    picker = " · ".join(
        f"<a hreflang='{x}' lang='{x}' href='class?token={e(token)}&amp;lang={x}'"
        + (" aria-current='true'>" if x == lang else ">") + f"{e(LANGUAGE_NAMES[x])}</a>" for x in LANGUAGES)
    status = _("{count} connected now (their tutor page reported within {seconds} s). This page updates every "
               "{refresh} s.").format(count=len(live), seconds=int(CONNECTED_S), refresh=REFRESH_S)
    title, picker_label, heading = _("Your class: Unstable Unicorns tutor"), _("The language of the tutor"), _("Your class")
    csv_words, connected, earlier = _("Download every learner as CSV"), _("Connected"), _("Earlier in this class")
    return (f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
            f"<meta http-equiv='refresh' content='{REFRESH_S}'><meta name='referrer' content='no-referrer'>"
            f"<title>{e(title)}</title><style>"
            "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
            "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
            "tr.gone{color:#777}</style></head><body>"
            f"<nav class='uu-lang-picker' aria-label='{e(picker_label)}'>{picker}</nav>"
            f"<h1>{e(heading)}</h1><p>{e(status)} "
            f"<a class='csv' href='{csv_link}'>{e(csv_words)}</a></p>"
            f"<h2>{e(connected)}</h2><div id='connected'>{table(live, 'live')}</div>"
            f"<h2>{e(earlier)}</h2><div id='gone'>{table(gone, 'gone')}</div>"
            "</body></html>")


# what starts a formula in a spreadsheet (the full-width forms too: some read them as the ASCII ones)
FORMULA_STARTS = frozenset("=+-@\uff1d\uff0b\uff0d\uff20")


def _cell(value: Any) -> str:
    """A CSV cell a spreadsheet shows as text: one that would start a formula once its leading spaces, tabs,
    line breaks and invisible characters are skipped (spreadsheets skip some of them: `" =1+1"`,
    `"\u00a0=SUM(1)"`) gets a leading quote, and so does one that starts with a tab or a line break."""
    text = "" if value is None else str(value)
    rest = text
    while rest and (rest[0].isspace() or unicodedata.category(rest[0]) in ("Cc", "Cf", "Zs", "Zl", "Zp")):
        rest = rest[1:]
    if rest[:1] in FORMULA_STARTS or text[:1] in ("\t", "\r", "\n"):
        return "'" + text
    return text


def csv_text(rows: list[dict[str, Any]], now: float | None = None, lang: str = "en") -> str:
    with language(lang):
        return _csv_text(rows, time.time() if now is None else now)


def _csv_text(rows: list[dict[str, Any]], now: float) -> str:
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow([_(c) for c in CSV_COLUMNS])
    for r in rows:
        v = _row_view(r, now)
        w.writerow([_cell(x) for x in (
            r["name"], _("yes") if v["connected"] else _("no"), r["lesson"], r["step"], r["steps"], _when(r["step_since"]),
            v["wrong"], v["quiz"], "; ".join(v["finished"]), _when(r["first_seen"]), _when(r["last_seen"]))])
    return out.getvalue()


class _ClassHandler(tornado.web.RequestHandler):
    """Base: the token check, and headers that keep the page out of caches, frames and referrers."""

    def initialize(self, db: str, token: str) -> None:
        self.db = db
        self.token = token

    def prepare(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        given = self.get_query_argument("token", "")
        if not hmac.compare_digest(given.encode("utf-8", "replace"), self.token.encode("utf-8")):
            self.set_status(403)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish("The class view needs the token `uu app --class` printed when it started.\n")

    def lang(self) -> str:
        """The teacher's language: `?lang=`, else the class default, else their browser's."""
        from uu.server.shell import page_language

        return page_language(self.request.full_url(), self.request.headers.get("Accept-Language"))

    def rows(self) -> list[dict[str, Any]]:
        conn = connect(self.db)
        try:
            return learner_rows(conn)
        finally:
            conn.close()

    def check_xsrf_cookie(self) -> None:  # GET only; nothing to protect
        return None


class ClassPageHandler(_ClassHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/html; charset=utf-8")
        self.finish(page_html(self.rows(), self.token, lang=self.lang()))


class ClassJsonHandler(_ClassHandler):
    def get(self) -> None:
        now = time.time()
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"learners": [_row_view(r, now) for r in self.rows()]}))


class ClassCsvHandler(_ClassHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", "attachment; filename=\"class.csv\"")
        self.finish(csv_text(self.rows(), lang=self.lang()))


def class_handlers(base_url: str, db: str, token: str) -> list[tuple[str, type, dict[str, str]]]:
    base = base_url.rstrip("/")
    args = {"db": db, "token": token}
    return [(f"{base}/uu/class", ClassPageHandler, args), (f"{base}/uu/class\\.json", ClassJsonHandler, args),
            (f"{base}/uu/class\\.csv", ClassCsvHandler, args)]
