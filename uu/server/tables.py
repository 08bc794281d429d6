"""Tables for several people, served by `uu app --class` (the tables: uu/together/): a small JSON API that each
learner's kernel calls for its own seat. The tables live in this server process, never in a kernel.

    POST {base}/uu/tables/new            {"name", "options"?}          -> the maker's seat (with its token)
    POST {base}/uu/tables/CODE/join      {"name"}                      -> a new seat (with its token)
    POST {base}/uu/tables/CODE/view      {"token", "since"?, "revision"?, "wait"?}
                                                                       -> the seat's screen (uu/together/wire.py)
    POST {base}/uu/tables/CODE/start     {"token"}                     (the maker)
    POST {base}/uu/tables/CODE/move      {"token", "index", "version"}
    POST {base}/uu/tables/CODE/hint      {"token", "lang"?}            -> the seat's own hint (the coach on)
    POST {base}/uu/tables/CODE/why       {"token", "key", "name"?, "lang"?} -> why a click chose nothing
    POST {base}/uu/tables/CODE/leave     {"token"}
    POST {base}/uu/tables/CODE/end       {"token"}                     (the maker)

Every answer is the seat's screen after the request ("new" and "join" add the seat's token). `view` with `wait`
(seconds, at most `WAIT_S`) and the `revision` the screen shows is a long poll: it answers as soon as the table
changes (a move, a seat taken, the start), so another seat's move reaches every screen at once; `since` (the
version the screen drew) asks for the steps since then, played back one by one. Seat tokens travel in the body (never in an address, so never in a log). A body is at most
`MAX_BODY` bytes. A wrong token or an unknown code counts against the address (`Guesses`, as the class view):
past the limit a wrong one is refused (429), a right one never is (behind a proxy every learner shares an
address). A refused request answers 400 with {"error": the reason in plain words}; nothing changed.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import tornado.web
from pydantic import ValidationError

from uu.i18n import LANGUAGES, _, language
from uu.server.classview import Guesses
from uu.session import ChoiceRefused
from uu.together import SharedTable, TableOptions, TableRefused, Tables, TableStore
from uu.together.wire import seat_json
from uu.words.hint_text import hint_html

__all__ = ["AWAY_CHECK_S", "DEADLINE_CHECK_S", "MAX_BODY", "WAIT_S", "TableHub", "store_path", "table_handlers"]

MAX_BODY = 4096
WAIT_S = 25.0  # a long poll answers by then even if nothing moved (proxies close quiet connections)
AWAY_CHECK_S = 5.0
DEADLINE_CHECK_S = 0.5  # a Neigh moment's countdown ends at most this late


def store_path(class_db: str | Path) -> Path:
    """The tables' database, beside the class store's."""
    p = Path(class_db)
    return p.with_name(f"{p.stem}.tables{p.suffix or '.sqlite'}")


class TableHub:
    """The server's tables and the screens waiting for them to move."""

    def __init__(self, tables: Tables):
        self.tables = tables
        self.guesses = Guesses()
        self._waiting: dict[str, set[asyncio.Future[None]]] = {}

    def moved(self, table: SharedTable) -> None:
        for f in self._waiting.pop(table.code, set()):
            if not f.done():
                f.set_result(None)

    async def wait(self, table: SharedTable, seconds: float) -> None:
        f: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(table.code, set()).add(f)
        try:
            await asyncio.wait_for(f, seconds)
        except asyncio.TimeoutError:
            pass
        finally:
            waiting = self._waiting.get(table.code)
            if waiting is not None:
                waiting.discard(f)

    def check_deadlines(self) -> None:
        """Neigh moments whose countdown ran out: the learners who have not answered pass."""
        for table in self.tables.all():
            if table.phase == "playing" and table.check_deadline():
                self.moved(table)

    def check_away(self) -> None:
        """Seats silent too long are handed to a bot (the tables' clock decides who is away)."""
        for table in self.tables.all():
            if table.phase == "playing" and table.check_away():
                self.moved(table)


class _TableHandler(tornado.web.RequestHandler):
    def initialize(self, hub: TableHub) -> None:
        self.hub = hub

    def check_xsrf_cookie(self) -> None:  # no cookie carries any right here: the seat token is in the body
        return None

    def prepare(self) -> None:
        self.set_header("Cache-Control", "no-store")
        self.set_header("Content-Type", "application/json; charset=utf-8")
        address = self.request.remote_ip or "?"
        if len(self.request.body or b"") > MAX_BODY:
            self._fail(413, f"The request is too large (at most {MAX_BODY} bytes).")
            return
        try:
            body = json.loads(self.request.body or b"{}")
        except ValueError:
            body = None
        if not isinstance(body, dict):
            self._fail(400, "The request must be a JSON object.")
            return
        self.body: dict[str, Any] = body
        self.address = address

    def _fail(self, status: int, message: str) -> None:
        self.set_status(status)
        self.finish(json.dumps({"error": _(message)}))

    def refused(self, e: Exception) -> None:
        """A request the table refused; a wrong token or code counts as a guess from this address."""
        text = str(e)
        if "seat token" in text or "no table with that code" in text:
            self.hub.guesses.wrong(self.address)
        self._fail(400, text)

    def paced(self) -> bool:
        """Past the limit of wrong guesses, a request is refused before it is looked at (429). Only requests that
        guess (join, and a token the table does not know) reach here."""
        wait = self.hub.guesses.refused(self.address)
        if wait:
            self.set_header("Retry-After", str(int(wait + 0.999)))
            self._fail(429, f"Too many wrong table codes or seat tokens from this computer: try again in "
                            f"{int(wait + 0.999)} s.")
            return True
        return False

    def table_and_token(self, code: str) -> tuple[SharedTable, str] | None:
        token = self.body.get("token")
        try:
            table = self.hub.tables.get(code)
            if not isinstance(token, str):
                raise TableRefused("That seat token is not one of this table's seats.")
            table.seat_of(token)
        except TableRefused as e:
            if not self.paced():
                self.refused(e)
            return None
        return table, token

    def screen(self, table: SharedTable, token: str, since: int | None = None) -> None:
        self.finish(json.dumps(seat_json(table, table.view(token, since))))


class NewTableHandler(_TableHandler):
    def post(self) -> None:
        try:
            options = TableOptions(**self.body.get("options") or {})
        except (ValidationError, TypeError) as e:
            return self._fail(400, f"Those table options are not allowed: {e}")
        try:
            table, token = self.hub.tables.make(self.body.get("name"), options)  # type: ignore[arg-type]
        except TableRefused as e:
            return self.refused(e)
        self.finish(json.dumps({"token": token, **seat_json(table, table.view(token))}))


class JoinHandler(_TableHandler):
    def post(self, code: str) -> None:
        if self.paced():
            return
        try:
            table = self.hub.tables.get(code)
            _seat, token = table.join(self.body.get("name"))  # type: ignore[arg-type]
        except TableRefused as e:
            return self.refused(e)
        self.hub.moved(table)
        self.finish(json.dumps({"token": token, **seat_json(table, table.view(token))}))


class ViewHandler(_TableHandler):
    async def post(self, code: str) -> None:
        got = self.table_and_token(code)
        if got is None:
            return
        table, token = got
        since, revision, wait = (self.body.get(k) for k in ("since", "revision", "wait"))
        since = since if _whole(since) else None
        if _whole(revision) and isinstance(wait, int | float) and not isinstance(wait, bool) and wait > 0:
            table.view(token)  # the seat is present while it waits
            if revision == table.revision:
                await self.hub.wait(table, min(float(wait), WAIT_S))
        self.screen(table, token, since)


def _whole(x: object) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


class _ActHandler(_TableHandler):
    """A seat's act on its table (start, move, leave, end): each subclass names it in `act`."""

    act: Callable[[SharedTable, str], None]

    def post(self, code: str) -> None:
        got = self.table_and_token(code)
        if got is None:
            return
        table, token = got
        try:
            self.act(table, token)
        except ChoiceRefused as e:  # the table's or the session's refusal: nothing changed
            return self._fail(400, str(e))
        self.hub.moved(table)
        self.screen(table, token)


class HintHandler(_TableHandler):
    """The seat's own hint, worked out in a thread (the other seats' requests go on meanwhile), in the language
    the screen asks for: {"hint": its words as HTML, "lit": the indexes of the hinted moves, "version"}."""

    async def post(self, code: str) -> None:
        got = self.table_and_token(code)
        if got is None:
            return
        table, token = got
        version = table.session.version if table.session is not None else 0
        try:
            result = await asyncio.get_running_loop().run_in_executor(None, table.hint, token)
        except ChoiceRefused as e:
            return self._fail(400, str(e))
        lang = self.body.get("lang")
        with language(lang if isinstance(lang, str) and lang in LANGUAGES else "en"):
            words = hint_html(result)
        lit = [result.best] if result.clear else result.simulated[:2]
        self.finish(json.dumps({"hint": words, "lit": [r.index for r in lit], "version": version}))


class WhyHandler(_TableHandler):
    """Why the seat's click on an element that is not lit chose nothing: {"why": one sentence}, in the language
    the screen asks for (uu.together.SharedTable.why)."""

    def post(self, code: str) -> None:
        got = self.table_and_token(code)
        if got is None:
            return
        table, token = got
        key, name, lang = (self.body.get(k) for k in ("key", "name", "lang"))
        with language(lang if isinstance(lang, str) and lang in LANGUAGES else "en"):
            text = table.why(token, key if isinstance(key, str) else "", name if isinstance(name, str) else "")
        self.finish(json.dumps({"why": text}))


class RecordHandler(_TableHandler):
    """The game's record for the seat's review, once the table has ended: {"record": the game record, "seat"}."""

    def post(self, code: str) -> None:
        got = self.table_and_token(code)
        if got is None:
            return
        table, token = got
        try:
            record, seat = table.game_record(token)
        except TableRefused as e:
            return self.refused(e)
        self.finish(json.dumps({"record": json.loads(record.to_json()), "seat": seat}))


class StartHandler(_ActHandler):
    def act(self, table: SharedTable, token: str) -> None:
        table.start(token)


class MoveHandler(_ActHandler):
    def act(self, table: SharedTable, token: str) -> None:
        index, version = self.body.get("index"), self.body.get("version")
        if not all(isinstance(x, int) and not isinstance(x, bool) for x in (index, version)):
            raise TableRefused("A move names the index of one of your moves and the version of the table shown.")
        table.choose(token, index, version)  # type: ignore[arg-type]


class LeaveHandler(_ActHandler):
    def act(self, table: SharedTable, token: str) -> None:
        table.leave(token)


class EndHandler(_ActHandler):
    def act(self, table: SharedTable, token: str) -> None:
        table.end(token)


def table_handlers(base_url: str, hub: TableHub) -> list[tuple[str, type, dict[str, Any]]]:
    base = base_url.rstrip("/")
    args = {"hub": hub}
    code = r"([A-Za-z0-9]{1,12})"
    return [(f"{base}/uu/tables/new", NewTableHandler, args),
            (f"{base}/uu/tables/{code}/join", JoinHandler, args),
            (f"{base}/uu/tables/{code}/view", ViewHandler, args),
            (f"{base}/uu/tables/{code}/start", StartHandler, args),
            (f"{base}/uu/tables/{code}/move", MoveHandler, args),
            (f"{base}/uu/tables/{code}/hint", HintHandler, args),
            (f"{base}/uu/tables/{code}/why", WhyHandler, args),
            (f"{base}/uu/tables/{code}/record", RecordHandler, args),
            (f"{base}/uu/tables/{code}/leave", LeaveHandler, args),
            (f"{base}/uu/tables/{code}/end", EndHandler, args)]


def open_hub(class_db: str | Path) -> TableHub:
    """The server's tables, from their store beside the class store (a restart gives every table back)."""
    return TableHub(Tables(TableStore(store_path(class_db))))
