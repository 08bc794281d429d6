"""The class view as a JupyterHub service (`python -m uu.server.hubservice`, started by the hub: deploy/jupyterhub).

On a hub each learner has a server of their own, so the class view cannot be a database their kernels write
(every learner could then read and write every row). Instead one service, run by the hub, keeps the rows in
SQLite (uu/server/classroom.py) and serves, under its prefix (`/services/uu-class/` by default):

    /services/uu-class/            the class page, as `uu app --class` shows it (uu/server/classview.py)
    /services/uu-class/class.json  the same rows as JSON
    /services/uu-class/class.csv   every learner, for a spreadsheet
    /services/uu-class/api/report  POST: a learner's kernel reports (uu/tutor/hubreport.py)
    /services/uu-class/class/table?code=CODE   a table watched (uu/server/tablewatch.py)
    /services/uu-class/uu/tables/...           the tables for several people (uu/server/tables.py): the
                                   learners' kernels, each on its own server, play at one table here

The tables live in this service, beside the class rows (`<db>.tables.sqlite3`), as under `uu app --class`: a
seat is its secret token (in the request's body), so the tables API needs no hub login of its own.

Who may do what is the hub's word, asked through jupyterhub's public service-auth API:
- the page, JSON and CSV need the scope `access:services!service=uu-class` (the hub's OAuth for a browser,
  or a token in the Authorization header); the deployment grants it to the hub group `uu-teachers` through a
  role. Anybody else gets 403.
- a report carries the learner's own hub API token (JUPYTERHUB_API_TOKEN in their server's environment): the
  service asks the hub whose token it is and writes that user's row, whatever the report says. Nobody can
  write another user's row, a report cannot read anything, and one user's reports are paced (`ReportPace`).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import logging
import os
import secrets
import sqlite3
import sys
import time
from collections import deque
from pathlib import Path
from typing import Annotated, Any
from urllib.parse import urlparse

import tornado.web
from jupyterhub.services.auth import (
    HubAuth,
    HubOAuth,
    HubOAuthCallbackHandler,
    HubOAuthenticated,
    UserNotAllowed,
)
from pydantic import BaseModel, ConfigDict, Field, ValidationError
from tornado.ioloop import PeriodicCallback

from uu.server.classroom import MAX_NAME, connect, name_problem, write_row
from uu.server.classview import (
    ClassCsvHandler,
    ClassJsonHandler,
    ClassPageHandler,
    ClassRemoveHandler,
    ClassTableHandler,
)
from uu.server.tables import AWAY_CHECK_S, DEADLINE_CHECK_S, TableHub, open_hub, table_handlers
from uu.together import Tables
from uu.tutor.class_store import Count, Time, Title

__all__ = ["DB_ENV", "DEFAULT_DB", "Report", "ReportPace", "make_app", "row_key", "shown_name"]

log = logging.getLogger("uu.hubservice")

DB_ENV = "UU_CLASS_DB"
DEFAULT_DB = "uu-class.sqlite3"
MAX_BODY = 64 * 1024  # a report is a few hundred bytes; a whole course's quiz results stay far below this
NOT_ALLOWED = ("The class view is for teachers. If you teach this class, ask the hub's administrator to add you "
               "to the teachers' group (uu-teachers in uu's deployment files).\n")
Step = Annotated[int, Field(ge=0, le=10_000)]


class Report(BaseModel):
    """What a learner's kernel sends (uu/tutor/hubreport.py): the row's fields, never whose row it is. Strict:
    each value of its own JSON type ("3" is not a step), every number finite and within the bounds the class
    view reads (`uu.tutor.class_store.StoredRow`): a report with `step_since: -Infinity` was taken, and the
    teacher's page, JSON and CSV then failed for as long as the row was there."""

    model_config = ConfigDict(extra="forbid", strict=True)

    name: str = Field(min_length=1, max_length=MAX_NAME)
    lesson_id: Annotated[str, Field(max_length=100)] | None = None
    lesson: Title | None = None
    step: Step | None = None
    steps: Step | None = None
    step_since: Time | None = None
    wrong: Count = 0
    quiz: dict[Title, tuple[Count, Count]] = Field(default_factory=dict, max_length=500)
    finished: list[Title] = Field(default_factory=list, max_length=500)


def row_key(hub_user: str) -> str:
    """The row of a hub user (never a value from the report)."""
    return f"hub:{hub_user}"


def shown_name(typed: str, hub_user: str) -> str:
    """The name on the teacher's page: the name the learner typed, and their hub user when it differs (a
    learner may type any name; the hub says who they are)."""
    return typed if typed == hub_user else f"{typed} ({hub_user})"


# ---- the teacher's page, JSON and CSV: classview's handlers, behind the hub instead of a token ---------------
class _HubGate(HubOAuthenticated):
    """Replaces the token check of uu.server.classview's handlers: the hub says who this is (cookie from the
    hub's OAuth, or a token in the Authorization header), and whether they hold the service's access scope."""

    def initialize(self, db: str, token: str, hub_auth: HubOAuth, tables: Tables | None = None) -> None:
        self.db, self.token, self.hub_auth, self.tables = db, token, hub_auth, tables

    async def prepare(self) -> None:  # type: ignore[override]
        self.set_header("Cache-Control", "no-store")
        self.set_header("Referrer-Policy", "no-referrer")
        self.set_header("X-Frame-Options", "DENY")
        self.set_header("Content-Security-Policy", "default-src 'none'; style-src 'unsafe-inline'")
        model = await self.hub_auth.get_user(self, sync=False)
        if not model:
            if self.request.headers.get("Authorization"):
                return self._refuse(403, "The hub does not know this token.\n")
            self.redirect(self.get_login_url())  # the hub's login, then back here
            return None
        try:
            self.check_hub_user(model)
        except UserNotAllowed:
            log.warning("class view refused to %s %s (no access scope)", model.get("kind"), model.get("name"))
            return self._refuse(403, NOT_ALLOWED)
        return None

    def _refuse(self, status: int, text: str) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "text/plain; charset=utf-8")
        self.finish(text)

    def form_fields(self) -> str:
        """The page's "Remove" forms carry jupyterhub's xsrf field (the hub's cookie is the login)."""
        return self.xsrf_form_html()


class HubClassPage(_HubGate, ClassPageHandler):  # type: ignore[misc]  # initialize also takes the hub's auth
    pass


class HubClassTable(_HubGate, ClassTableHandler):  # type: ignore[misc]
    pass


class HubClassJson(_HubGate, ClassJsonHandler):  # type: ignore[misc]
    pass


class HubClassCsv(_HubGate, ClassCsvHandler):  # type: ignore[misc]
    pass


class HubClassRemove(_HubGate, ClassRemoveHandler):  # type: ignore[misc]
    """The page's "Remove" form: the hub's cookie is the login, so jupyterhub's own check of the form's
    `_xsrf` field applies (HubOAuthenticated's, which the GET handlers' "nothing to check" must not replace)."""

    check_xsrf_cookie = HubOAuthenticated.check_xsrf_cookie


class OAuthCallback(HubOAuthCallbackHandler):
    """The end of the hub's OAuth login (sets the teacher's cookie), with the service's own HubOAuth."""

    def initialize(self, hub_auth: HubOAuth) -> None:
        self.hub_auth = hub_auth


# ---- the learners' reports ------------------------------------------------------------------------------------
class ReportPace:
    """At most `burst` reports per user in any `window_s` seconds: a kernel sends one per step and one every 15 s
    (uu/tutor/hubreport.py sends only the newest of a quick series), so more is a script, which must not take
    the service's time from the class."""

    def __init__(self, burst: int = 30, window_s: float = 10.0):
        self.burst, self.window_s = burst, window_s
        self._seen: dict[str, deque[float]] = {}

    def allow(self, user: str, now: float | None = None) -> bool:
        now = time.monotonic() if now is None else now
        times = self._seen.setdefault(user, deque())
        while times and now - times[0] > self.window_s:
            times.popleft()
        if len(times) >= self.burst:
            return False
        times.append(now)
        return True


class ReportHandler(tornado.web.RequestHandler):
    """POST api/report with `Authorization: token <the learner's hub API token>` and a `Report` as JSON."""

    def initialize(self, db: str, hub_auth: HubAuth, pace: ReportPace) -> None:
        self.db = db
        self.hub_auth = hub_auth
        self.pace = pace

    def check_xsrf_cookie(self) -> None:  # a token in a header, never a cookie: nothing to forge
        return None

    def _answer(self, status: int, **body: Any) -> None:
        self.set_status(status)
        self.set_header("Content-Type", "application/json")
        self.set_header("Cache-Control", "no-store")
        self.finish(json.dumps(body))

    async def post(self) -> None:
        header = self.request.headers.get("Authorization", "")
        scheme, _, token = header.partition(" ")
        if scheme.lower() not in ("token", "bearer") or not token.strip():
            return self._answer(401, error="A report needs the learner's hub token: Authorization: token <token>")
        model = await self.hub_auth.user_for_token(token.strip(), sync=False)
        if not model or model.get("kind", "user") != "user" or not isinstance(model.get("name"), str):
            return self._answer(403, error="The hub does not know this token as a user's.")
        user: str = model["name"]
        if not self.pace.allow(user):
            self.set_header("Retry-After", "10")
            return self._answer(429, error="Too many reports from this user; the next ones in a few seconds.")
        try:
            report = Report.model_validate_json(self.request.body)
        except ValidationError as e:
            problems = "; ".join(f"{'.'.join(str(x) for x in err['loc']) or 'body'}: {err['msg']}"
                                 for err in e.errors()[:5])
            return self._answer(400, error=f"Not a report this service takes ({problems}).")
        problem = name_problem(report.name.strip())
        if problem:
            return self._answer(400, error=problem)
        fields = report.model_dump(exclude={"name"}, exclude_unset=True)  # what is not sent stays as it was
        if "quiz" in fields:
            fields["quiz"] = {title: list(v) for title, v in report.quiz.items()}
        if report.step_since is not None:
            fields["step_since"] = min(report.step_since, time.time())  # never "on this step" in the future
        try:
            conn = connect(self.db)
            try:
                write_row(conn, row_key(user), shown_name(report.name.strip(), user), fields)
            finally:
                conn.close()
        except sqlite3.Error:
            log.exception("class view: cannot write to %s", self.db)
            return self._answer(503, error="The class view cannot save right now; the next report will.")
        return self._answer(200, user=user)


def make_app(db: str | Path, prefix: str, hub_auth: HubOAuth, cookie_secret: bytes | None = None,
             tables: TableHub | None = None) -> tornado.web.Application:
    """The service's tornado application under `prefix` (e.g. `/services/uu-class/`); `tables`: the tables for
    several people it serves (none: no tables). Raises ValueError when `hub_auth` names no access scope:
    jupyterhub's mixin would then let every hub user in."""
    if not hub_auth.access_scopes:
        raise ValueError("no access scope: set JUPYTERHUB_SERVICE_NAME or JUPYTERHUB_OAUTH_ACCESS_SCOPES "
                         "(the hub sets both for a service it starts)")
    prefix = "/" + prefix.strip("/") + "/"
    gate = {"db": str(db), "token": "", "hub_auth": hub_auth, "tables": tables.tables if tables else None}
    handlers: list[Any] = [
        (prefix, HubClassPage, gate),
        (f"{prefix}class", HubClassPage, gate),
        (f"{prefix}class\\.json", HubClassJson, gate),
        (f"{prefix}class\\.csv", HubClassCsv, gate),
        (f"{prefix}class/remove", HubClassRemove, gate),
        (f"{prefix}class/table", HubClassTable, gate),
        (f"{prefix}api/report", ReportHandler, {"db": str(db), "hub_auth": hub_auth, "pace": ReportPace()}),
        (f"{prefix}oauth_callback", OAuthCallback, {"hub_auth": hub_auth}),
        *(table_handlers(prefix, tables) if tables is not None else []),
    ]
    # the cookie secret signs the OAuth state cookies; a new one at each start only means teachers log in again
    return tornado.web.Application(handlers, cookie_secret=cookie_secret or secrets.token_bytes(32))


def main(argv: list[str] | None = None) -> int:
    """Run the service as the hub starts it: address and prefix from the environment the hub sets
    (JUPYTERHUB_SERVICE_URL, JUPYTERHUB_SERVICE_PREFIX), the database from --db or $UU_CLASS_DB."""
    p = argparse.ArgumentParser(prog="python -m uu.server.hubservice", description=__doc__.splitlines()[0])
    p.add_argument("--db", default=os.environ.get(DB_ENV) or DEFAULT_DB, metavar="PATH",
                   help=f"the SQLite file that keeps the class (default: ${DB_ENV}, else {DEFAULT_DB} here)")
    args = p.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="[uu-class %(asctime)s %(levelname)s] %(message)s")
    url = os.environ.get("JUPYTERHUB_SERVICE_URL")
    prefix = os.environ.get("JUPYTERHUB_SERVICE_PREFIX")
    if not url or not prefix or not os.environ.get("JUPYTERHUB_API_TOKEN"):
        print("uu.server.hubservice: run me as a JupyterHub service (JUPYTERHUB_SERVICE_URL, "
              "JUPYTERHUB_SERVICE_PREFIX and JUPYTERHUB_API_TOKEN are set by the hub; see deploy/jupyterhub)",
              file=sys.stderr)
        return 2
    db = Path(args.db).expanduser().resolve()
    try:
        connect(db).close()
        db.chmod(0o600)  # learners' names: the service's user only
    except (sqlite3.Error, OSError) as e:
        print(f"uu.server.hubservice: cannot use {db}: {e}", file=sys.stderr)
        return 1
    where = urlparse(url)

    tables = open_hub(db)
    try:
        app = make_app(db, prefix, HubOAuth.instance(), tables=tables)
    except ValueError as e:
        print(f"uu.server.hubservice: {e}", file=sys.stderr)
        return 2

    async def serve() -> None:
        app.listen(where.port or 80, where.hostname or "127.0.0.1", max_body_size=MAX_BODY)
        PeriodicCallback(tables.check_away, AWAY_CHECK_S * 1000).start()
        PeriodicCallback(tables.check_deadlines, DEADLINE_CHECK_S * 1000).start()
        log.info("the class view at %s (kept in %s)", prefix, db)
        await asyncio.Event().wait()

    try:
        asyncio.run(serve())
    except KeyboardInterrupt:
        pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
