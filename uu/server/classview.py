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

from uu.server.classroom import CONNECTED_S, connect, learner_rows

__all__ = ["REFRESH_S", "class_handlers", "page_html"]

REFRESH_S = 5
CSV_COLUMNS = ("name", "connected", "lesson", "step", "steps", "on step since", "wrong moves on step",
               "quiz results", "lessons finished", "first seen", "last seen")


def _when(t: Any) -> str:
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(t)) if isinstance(t, int | float) else ""


def _minutes(seconds: float) -> str:
    seconds = max(0, int(seconds))
    return f"{seconds // 60} min {seconds % 60:02d} s" if seconds >= 60 else f"{seconds} s"


def _quiz(q: dict[str, Any]) -> str:
    parts = []
    for title, v in q.items():
        if isinstance(v, list) and len(v) == 2:
            parts.append(f"{title}: {v[0]}/{v[1]}")
    return "; ".join(parts)


def _row_view(r: dict[str, Any], now: float) -> dict[str, Any]:
    connected = now - float(r["last_seen"] or 0) <= CONNECTED_S
    step = f"{r['step']} of {r['steps']}" if r["step"] is not None else ""
    since = _minutes(now - r["step_since"]) if connected and r["step_since"] is not None else ""
    return {"name": r["name"], "connected": connected, "lesson": r["lesson"] or "", "step": step,
            "on_step_for": since, "wrong": int(r["wrong"] or 0), "quiz": _quiz(r["quiz"]),
            "finished": [str(x) for x in r["finished"]], "last_seen": _when(r["last_seen"])}


def _finished(titles: list[str]) -> str:
    return f"{len(titles)}: {html.escape(', '.join(titles))}" if titles else "none yet"


def page_html(rows: list[dict[str, Any]], token: str, now: float | None = None) -> str:
    now = time.time() if now is None else now
    views = [_row_view(r, now) for r in rows]
    e = html.escape

    def table(items: list[dict[str, Any]], cls: str) -> str:
        if not items:
            return "<p>Nobody yet.</p>"
        head = ("<tr><th>Name</th><th>Lesson</th><th>Step</th><th>On it for</th><th>Wrong moves there</th>"
                "<th>Quiz</th><th>Lessons finished</th><th>Last seen</th></tr>")
        body = "".join(
            f"<tr class='{cls}'><td class='name'>{e(v['name'])}</td><td>{e(v['lesson'])}</td>"
            f"<td>{e(v['step'])}</td><td>{e(v['on_step_for'])}</td><td class='wrong'>{v['wrong']}</td>"
            f"<td>{e(v['quiz'])}</td><td>{_finished(v['finished'])}</td>"
            f"<td>{e(v['last_seen'])}</td></tr>" for v in items)
        return f"<table>{head}{body}</table>"

    live = [v for v in views if v["connected"]]
    gone = [v for v in views if not v["connected"]]
    csv_link = f"class.csv?token={e(token)}"
    return ("<!doctype html><html><head><meta charset='utf-8'>"
            f"<meta http-equiv='refresh' content='{REFRESH_S}'><meta name='referrer' content='no-referrer'>"
            "<title>Your class: Unstable Unicorns tutor</title><style>"
            "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse}"
            "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
            "tr.gone{color:#777}</style></head><body>"
            f"<h1>Your class</h1><p>{len(live)} connected now (their tutor page reported within "
            f"{int(CONNECTED_S)} s). This page updates every {REFRESH_S} s. "
            f"<a class='csv' href='{csv_link}'>Download every learner as CSV</a></p>"
            f"<h2>Connected</h2><div id='connected'>{table(live, 'live')}</div>"
            f"<h2>Earlier in this class</h2><div id='gone'>{table(gone, 'gone')}</div>"
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


def csv_text(rows: list[dict[str, Any]], now: float | None = None) -> str:
    now = time.time() if now is None else now
    out = io.StringIO()
    w = csv.writer(out)
    w.writerow(CSV_COLUMNS)
    for r in rows:
        v = _row_view(r, now)
        w.writerow([_cell(x) for x in (
            r["name"], "yes" if v["connected"] else "no", r["lesson"], r["step"], r["steps"], _when(r["step_since"]),
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
        self.finish(page_html(self.rows(), self.token))


class ClassJsonHandler(_ClassHandler):
    def get(self) -> None:
        now = time.time()
        self.set_header("Content-Type", "application/json")
        self.finish(json.dumps({"learners": [_row_view(r, now) for r in self.rows()]}))


class ClassCsvHandler(_ClassHandler):
    def get(self) -> None:
        self.set_header("Content-Type", "text/csv; charset=utf-8")
        self.set_header("Content-Disposition", "attachment; filename=\"class.csv\"")
        self.finish(csv_text(self.rows()))


def class_handlers(base_url: str, db: str, token: str) -> list[tuple[str, type, dict[str, str]]]:
    base = base_url.rstrip("/")
    args = {"db": db, "token": token}
    return [(f"{base}/uu/class", ClassPageHandler, args), (f"{base}/uu/class\\.json", ClassJsonHandler, args),
            (f"{base}/uu/class\\.csv", ClassCsvHandler, args)]
