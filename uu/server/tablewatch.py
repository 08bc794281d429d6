"""The tables in the teacher's class view: the list on the class page, and a table watched as a spectator.

    /uu/class?token=T                     the class page, with a "Tables" section (`tables_section_html`)
    /uu/class.json?token=T                its JSON has "tables": one row per table (uu/together/watch.py)
    /uu/class/table?token=T&code=CODE     one table, read-only, as a spectator sees it (no hidden card)

The routes are the class view's (uu/server/classview.py: `ClassTableHandler`). The watch page runs no script (the class view's content policy): it is drawn on the server in the teacher's
language and reloads itself every `WATCH_REFRESH_S` seconds. It has no control of any kind: watching never
changes a table. The token check is the class view's own (uu/server/classview.py).
"""

from __future__ import annotations

import html
import time
from urllib.parse import urlencode

from uu.cards.localized import card_name
from uu.engine.observation import Observation
from uu.i18n import _, language, ngettext
from uu.render import PHASE_LABELS
from uu.table.seat_view import log_lines
from uu.together import Tables
from uu.together.level_words import level_word
from uu.together.table import SharedTable
from uu.together.watch import TableRow, spectator_observation, table_row
from uu.together.wire import SeatEntry

__all__ = ["WATCH_REFRESH_S", "tables_rows", "tables_section_html", "watch_page_html"]

WATCH_REFRESH_S = 3
LOG_SHOWN = 12
e = html.escape


def _when(t: object) -> str:
    return time.strftime("%H:%M", time.localtime(t)) if isinstance(t, int | float) else ""


def _seat_words(s: SeatEntry) -> str:
    if s["kind"] == "empty":
        return _("an empty seat")
    if s["kind"] == "bot":
        return _("{name} (bot, {level})").format(name=s["name"], level=level_word(s["level"]))
    return s["name"] + (_(" (away: a bot plays for now)") if s["away"] else "")


def _phase_words(row: TableRow) -> str:
    if row["phase"] == "ended":
        return _("Over")
    turn = row["turn"]
    if turn is None:  # a table not started (a turn is given while the game is on)
        return _("Waiting for the start")
    return _("Turn {number}: {name}, {phase}").format(number=turn["number"], name=turn["name"],
                                                       phase=_(PHASE_LABELS.get(turn["phase"], turn["phase"])))


def tables_section_html(tables: Tables | None, query: dict[str, str]) -> str:
    """The class page's "Tables" section in the language in use; `query`: what a link back carries (the token,
    the language). Nothing when the app has no tables."""
    if tables is None:
        return ""
    rows = [table_row(t) for t in tables.all()]
    heading, watch_word = _("Tables"), _("Watch")
    head = f"<h2>{e(heading)}</h2>"
    if not rows:
        return head + "<p>" + e(_("No table yet: a learner makes one with \"Play with others\".")) + "</p>"
    cols = "".join(f"<th>{e(x)}</th>" for x in (_("Table"), _("Seats"), _("Now"), _("Time")))
    body = []
    for row in sorted(rows, key=lambda r: (r["phase"] == "ended", -(r["started_at"] or 0), r["code"])):
        seats = "".join(f"<li>{e(_seat_words(s))}</li>" for s in row["seats"])
        watch = urlencode({**query, "code": row["code"]})
        link = (f"<br><a class='watch' href='class/table?{e(watch)}'>{e(watch_word)}</a>"
                if row["phase"] != "open" else "")
        times = "–".join(_when(t) for t in (row["started_at"], row["ended_at"]) if t)
        body.append(f"<tr class='table-row' data-code='{e(row['code'])}'><td class='code'>{e(row['code'])}{link}</td>"
                    f"<td><ol class='seats'>{seats}</ol></td><td class='now'>{e(_phase_words(row))}</td>"
                    f"<td class='time'>{e(times)}</td></tr>")
    # narrow enough for a phone: the seats' list without its wide indent
    style = "<style>table.tables ol{margin:0;padding-left:1.3em}</style>"
    return f"{head}{style}<table class='tables'><tr>{cols}</tr>{''.join(body)}</table>"


def _cards(obs: Observation, cids: tuple[int, ...] | list[int]) -> str:
    if not cids:
        return "<span class='none'>" + e(_("none")) + "</span>"
    return ", ".join(e(card_name(obs.defs[c].name)) for c in cids)


def watch_page_html(tables: Tables, code: str, query: dict[str, str], lang: str) -> str:
    """One table as a spectator sees it, in `lang`; raises TableRefused for an unknown code."""
    table = tables.get(code)
    with language(lang):
        return _watch_html(table.code, table_row(table), spectator_observation(table), table, query, lang)


def _watch_html(code: str, row: TableRow, obs: Observation | None, table: SharedTable, query: dict[str, str],
                lang: str) -> str:
    title = _("Table {code}").format(code=code)
    back, pile_words, last_words = _("Back to the class"), _("Neigh pile, bottom to top"), _("What happened last")
    parts = [f"<p><a href='../class?{e(urlencode(query))}'>{e(back)}</a></p>",
             f"<h1>{e(title)}</h1>",
             f"<p class='now'>{e(_phase_words(row))}. "
             + e(_("You are watching: you see what every player sees, never a hidden card.")) + "</p>"]
    if obs is not None:
        parts.append("<table class='seats'><tr>" + "".join(f"<th>{e(x)}</th>" for x in (
            _("Seat"), _("Unicorn count"), _("Hand"), _("Stable"))) + "</tr>")
        for sv, s in zip(obs.seats, row["seats"], strict=True):
            hand = (_cards(obs, sv.hand) + " " + e(_("(face up)")) if sv.hand is not None
                    else e(ngettext("{count} hidden card", "{count} hidden cards", sv.hand_size).format(
                        count=sv.hand_size)))
            current = " class='current'" if row["turn"] and row["turn"]["seat"] == sv.seat else ""
            parts.append(f"<tr{current}><td>{e(_seat_words(s))}</td><td>{sv.unicorns}</td>"
                         f"<td class='hand'>{hand}</td><td>{_cards(obs, sv.stable)}</td></tr>")
        parts.append("</table>")
        if obs.pile:
            pile = "".join(f"<li>{e(card_name(obs.defs[p.cid].name))} · {e(obs.players[p.player])}</li>"
                           for p in obs.pile)
            parts.append(f"<h2>{e(pile_words)}</h2><ol class='pile'>{pile}</ol>")
        parts.append("<p>" + e(_("Deck: {count} cards. Discard pile: {discard}.").format(
            count=obs.deck_size, discard=len(obs.discard))) + "</p>")
        with table.lock:
            session = table.session
            lines = [] if session is None else log_lines(session.game, len(session.game.state.log) - LOG_SHOWN)
        parts.append(f"<h2>{e(last_words)}</h2><ol class='log'>"
                     + "".join(f"<li>{e(x['text'])}</li>" for x in lines) + "</ol>")
    return (f"<!doctype html><html lang='{lang}'><head><meta charset='utf-8'>"
            f"<meta http-equiv='refresh' content='{WATCH_REFRESH_S}'><meta name='referrer' content='no-referrer'>"
            f"<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>{e(title)}</title><style>"
            "body{font-family:sans-serif;margin:1.5em}table{border-collapse:collapse;max-width:100%}"
            "td,th{border:1px solid #ccc;padding:4px 8px;text-align:left;vertical-align:top}"
            "tr.current{background:#fff6d5}.none{color:#777}</style></head><body>"
            + "".join(parts) + "</body></html>")


def tables_rows(tables: Tables | None) -> list[TableRow]:
    """Every table's row for the class view's JSON (none when the app has no tables)."""
    return [] if tables is None else [table_row(t) for t in tables.all()]
