"""The class view's store: what each learner's kernel reports, in SQLite next to the server (`uu app --class`).

The channel: `uu app --class` puts the database's path in the learners' kernels' environment (`CLASS_DB_ENV`);
each kernel writes its own learner's row directly, in short transactions (WAL mode: many kernels write while
the teacher's page reads). A page cannot use that channel itself: a page only sends widget messages, never
code (tests/test_e2e.py, a hostile page). Which row a kernel writes is decided on the server side, never by
the page: as the server hands a page out it binds the page's kernel to the browser's seat cookie
(`bind_kernel`; the cookie is the server's, HttpOnly, and a reload or a second tab of the same browser keeps
it), and the kernel writes the row of that binding (`ClassReporter.from_env`). A caller with an identity of its
own (a hub's user) passes it as the row key instead (`ClassReporter(path, learner_id)`). The teacher's page is
served by the server (`uu.server.classview`), behind a token.

Nothing is reported unless the class view is on and the learner has typed a name on the home, under a notice
saying what the teacher sees. A row: the name, the lesson and step on screen, since when, the wrong moves made
on that step, the quiz results of each lesson, the lessons finished, and when the kernel last reported (a
kernel reports at least every `HEARTBEAT_S` seconds while it runs: a learner is *connected* when their kernel
reported within `CONNECTED_S` seconds).
"""

from __future__ import annotations

import base64
import hashlib
import json
import logging
import os
import re
import secrets
import sqlite3
import threading
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, TypedDict

from pydantic import (
    BaseModel,
    Field,
    ValidationError,
    ValidationInfo,
    ValidatorFunctionWrapHandler,
    field_validator,
)

from uu.i18n import _
from uu.textcheck import text_problem

__all__ = ["CLASS_DB_ENV", "CONNECTED_S", "ClassReporter", "Count", "HEARTBEAT_S", "LearnerRow", "MAX_COUNT",
           "MAX_NAME", "MAX_TITLE", "StoredRow", "Time", "Title", "bind_kernel", "bound_learner", "connect", "learner_key",
           "learner_rows", "name_problem", "new_learner_id", "own_kernel_id", "remove_row", "valid_learner_id",
           "write_row"]

log = logging.getLogger(__name__)

CLASS_DB_ENV = "UU_CLASS_DB"
HEARTBEAT_S = 15.0
CONNECTED_S = 60.0
MAX_NAME = 40
_ID = re.compile(r"[A-Za-z0-9_-]{16,40}")
MAX_TITLE = 200
MAX_COUNT = 1_000_000
# a moment as seconds since the epoch: finite, from 1970 to the year 5138 (what the page and CSV can show)
MAX_TIME = 1e11
Time = Annotated[float, Field(ge=0, le=MAX_TIME, allow_inf_nan=False)]
Count = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Title = Annotated[str, Field(max_length=MAX_TITLE)]

SCHEMA = """
CREATE TABLE IF NOT EXISTS learners (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    lesson_id TEXT,
    lesson TEXT,
    step INTEGER,
    steps INTEGER,
    step_since REAL,
    wrong INTEGER NOT NULL DEFAULT 0,
    quiz TEXT NOT NULL DEFAULT '{}',
    finished TEXT NOT NULL DEFAULT '[]',
    first_seen REAL NOT NULL,
    last_seen REAL NOT NULL
)"""
# the server's binding of each page's kernel to its browser's seat (`bind_kernel`)
KERNELS_SCHEMA = """
CREATE TABLE IF NOT EXISTS kernels (
    kernel_id TEXT PRIMARY KEY,
    learner TEXT NOT NULL,
    bound REAL NOT NULL
)"""
BINDING_KEPT_S = 7 * 86400.0
COLUMNS = ("id", "name", "lesson_id", "lesson", "step", "steps", "step_since", "wrong", "quiz", "finished",
           "first_seen", "last_seen")


def connect(path: str | Path) -> sqlite3.Connection:
    """A connection in autocommit mode (each statement its own short transaction), WAL, waiting up to 5 s for a
    writer to finish; the table made if missing."""
    conn = sqlite3.connect(str(path), timeout=5.0, isolation_level=None, check_same_thread=False)
    conn.execute("PRAGMA busy_timeout = 5000")
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute(SCHEMA)
    conn.execute(KERNELS_SCHEMA)
    return conn


def learner_key(seat_token: str) -> str:
    """The learner row of a browser's seat token: a digest (the token itself, which would let its holder take
    the seat, is never stored), in the form of `new_learner_id`."""
    digest = hashlib.sha256(f"uu-class-row:{seat_token}".encode()).digest()
    return base64.urlsafe_b64encode(digest[:18]).decode("ascii")


def bind_kernel(path: str | Path, kernel_id: str, seat_token: str) -> None:
    """The server, as it hands out a page: `kernel_id` reports as the learner of `seat_token`. Failures are
    logged (the class view then misses that learner; the page still works)."""
    now = time.time()
    try:
        conn = connect(path)
        try:
            conn.execute("INSERT OR REPLACE INTO kernels (kernel_id, learner, bound) VALUES (?, ?, ?)",
                         (kernel_id, learner_key(seat_token), now))
            conn.execute("DELETE FROM kernels WHERE bound < ?", (now - BINDING_KEPT_S,))
        finally:
            conn.close()
    except (sqlite3.Error, OSError):
        log.exception("class view: cannot bind kernel %s in %s", kernel_id, path)


def bound_learner(conn: sqlite3.Connection, kernel_id: str) -> str | None:
    row = conn.execute("SELECT learner FROM kernels WHERE kernel_id = ?", (kernel_id,)).fetchone()
    return valid_learner_id(row[0]) if row else None


def own_kernel_id() -> str | None:
    """This kernel's id, from the name of its connection file (`kernel-<id>.json`, jupyter_client's), None
    outside a kernel started by a Jupyter server."""
    try:
        from ipykernel.kernelapp import IPKernelApp

        if not IPKernelApp.initialized():
            return None
        name = Path(IPKernelApp.instance().connection_file).name
    except Exception:
        return None
    m = re.fullmatch(r"kernel-([0-9a-f-]{36})\.json", name)
    return m.group(1) if m else None


def new_learner_id() -> str:
    return secrets.token_urlsafe(18)


def valid_learner_id(value: object) -> str | None:
    return value if isinstance(value, str) and _ID.fullmatch(value) else None


def name_problem(name: str) -> str | None:
    """What is wrong with a learner's name for the class view, or None. Leading and trailing spaces are
    removed before (the caller's job)."""
    if not name:
        return _("Type a name first (the name your teacher knows you by).")
    if text_problem(name, "Your name", MAX_NAME) is None:
        return None
    # the same checks as text_problem, each said as a whole sentence in the learner's language
    if not isinstance(name, str):
        return _("Your name must be text.")
    if len(name) > MAX_NAME:
        return _("Your name is too long: at most {most} characters ({count} given).").format(most=MAX_NAME,
                                                                                           count=len(name))
    return _("Your name cannot contain control or text-direction characters.")


class StoredRow(BaseModel):
    """A learner's row as the teacher's page, JSON and CSV read it: whatever the database holds (a kernel of an
    older version, a hand-edited file, a report that slipped through), each value is of its type, finite and
    within its bounds, or else its empty value (`lenient`), so that no stored row can break the page."""

    id: str = "?"
    name: Annotated[str, Field(max_length=MAX_TITLE)] = "?"
    lesson_id: Title | None = None
    lesson: Title | None = None
    step: Count | None = None
    steps: Count | None = None
    step_since: Time | None = None
    wrong: Count = 0
    quiz: dict[Title, tuple[Count, Count]] = Field(default_factory=dict, max_length=500)
    finished: list[Title] = Field(default_factory=list, max_length=500)
    first_seen: Time = 0.0
    last_seen: Time = 0.0

    @field_validator("*", mode="wrap")
    @classmethod
    def lenient(cls, value: Any, handler: ValidatorFunctionWrapHandler, info: ValidationInfo) -> Any:
        try:
            return handler(value)
        except ValidationError:
            field = cls.model_fields[info.field_name or ""]
            return field.get_default(call_default_factory=True)


class LearnerRow(TypedDict):
    """A learner's row as the teacher's page, JSON and CSV read it (`learner_rows`)."""

    id: str
    name: str
    lesson_id: str | None
    lesson: str | None
    step: int | None
    steps: int | None
    step_since: float | None
    wrong: int
    quiz: dict[str, list[int]]  # lesson title -> [right at the first try, asked]
    finished: list[str]
    first_seen: float
    last_seen: float


def learner_rows(conn: sqlite3.Connection) -> list[LearnerRow]:
    """Every learner, most recently active first, as `StoredRow` reads them (`quiz` and `finished` decoded; a
    bad value reads as empty); `quiz` values as [right, asked] lists."""
    rows = conn.execute(f"SELECT {', '.join(COLUMNS)} FROM learners ORDER BY last_seen DESC").fetchall()
    out = []
    for row in rows:
        d: dict[str, object] = dict(zip(COLUMNS, row, strict=True))
        for key in ("quiz", "finished"):
            raw = d[key]
            try:
                d[key] = json.loads(raw) if isinstance(raw, str | bytes) else None
            except (ValueError, RecursionError):
                d[key] = None
        m = StoredRow.model_validate({k: v for k, v in d.items() if v is not None})
        out.append(LearnerRow(id=m.id, name=m.name, lesson_id=m.lesson_id, lesson=m.lesson, step=m.step,
                              steps=m.steps, step_since=m.step_since, wrong=m.wrong,
                              quiz={title: list(v) for title, v in m.quiz.items()}, finished=list(m.finished),
                              first_seen=m.first_seen, last_seen=m.last_seen))
    return out


def remove_row(conn: sqlite3.Connection, key: str) -> bool:
    """The teacher removes a learner's row (a learner who left, a wrong or rude name). A learner whose tutor
    still runs comes back at its next report, under the name they typed. Returns whether there was one."""
    return conn.execute("DELETE FROM learners WHERE id = ?", (key,)).rowcount > 0


class ClassReporter:
    """One learner's kernel writing its row, keyed by `learner_id` (the caller's identity of the learner, e.g. a
    hub's user). `from_env()` is None when the class view is off: then nothing is reported anywhere; else the
    row is the one the server bound this kernel to (`bind_kernel`), found at the first report (a kernel the
    server did not bind gets a row of its own). Failures (a locked or missing database) are logged to the
    server's console and never reach the learner."""

    def __init__(self, path: str | Path, learner_id: str | None = None, kernel_id: str | None = None):
        self.path = str(path)
        self._learner_id = learner_id
        self.kernel_id = kernel_id
        self.name: str | None = None
        self._lock = threading.RLock()  # learner_id reads the database under it too
        self._conn: sqlite3.Connection | None = None
        self._beat: threading.Thread | None = None
        self._stop = threading.Event()

    @classmethod
    def from_env(cls) -> ClassReporter | None:
        path = os.environ.get(CLASS_DB_ENV, "").strip()
        return cls(path, kernel_id=own_kernel_id()) if path else None

    @property
    def learner_id(self) -> str:
        if self._learner_id is None:
            bound = None
            if self.kernel_id is not None:
                try:
                    with self._lock:
                        bound = bound_learner(self._db(), self.kernel_id)
                except (sqlite3.Error, OSError):
                    log.exception("class view: cannot read %s", self.path)
            self._learner_id = bound or new_learner_id()
        return self._learner_id

    def _db(self) -> sqlite3.Connection:
        if self._conn is None:
            self._conn = connect(self.path)
        return self._conn

    def report(self, fields: Mapping[str, object]) -> bool:
        """Write this learner's row: `fields` (any of the columns but the ids, the name and the times) over what
        is there. Nothing is written before the learner has a name. Returns whether it was written."""
        if self.name is None:
            return False
        try:
            with self._lock:
                write_row(self._db(), self.learner_id, self.name, fields)
        except (sqlite3.Error, OSError):
            log.exception("class view: cannot write to %s", self.path)
            return False
        self._start_heartbeat()
        return True

    def seen(self) -> None:
        """This kernel still runs: its learner still counts as connected."""
        try:
            with self._lock:
                self._db().execute("UPDATE learners SET last_seen = ? WHERE id = ?", (time.time(), self.learner_id))
        except (sqlite3.Error, OSError):
            log.exception("class view: cannot write to %s", self.path)

    def _start_heartbeat(self) -> None:
        # started after the first report, in the learner's own kernel (a thread made in the forking process
        # would not survive the fork)
        if self._beat is not None:
            return

        def beat() -> None:
            while not self._stop.wait(HEARTBEAT_S):
                self.seen()

        self._beat = threading.Thread(target=beat, name="uu-class-heartbeat", daemon=True)
        self._beat.start()

    def stop(self) -> None:
        self._stop.set()


def write_row(conn: sqlite3.Connection, key: str, name: str, fields: Mapping[str, object],
              now: float | None = None) -> None:
    """Write the row `key` (the caller decides whose row it is: on JupyterHub, uu.server.hubservice passes the
    hub user the request's token belongs to): `name` and `fields` (any of the columns but the ids and times)
    over what is there, last seen now. Raises sqlite3.Error."""
    now = time.time() if now is None else now
    values = {k: v for k, v in fields.items() if k in COLUMNS and k not in ("id", "name", "first_seen", "last_seen")}
    for column in ("quiz", "finished"):
        if column in values:
            values[column] = json.dumps(values[column])
    values["name"] = name
    names = list(values)
    sets = ", ".join(f"{k} = excluded.{k}" for k in names)
    conn.execute(f"INSERT INTO learners (id, first_seen, last_seen, {', '.join(names)}) "
                 f"VALUES (?, ?, ?, {', '.join('?' for _ in names)}) "
                 f"ON CONFLICT(id) DO UPDATE SET last_seen = excluded.last_seen, {sets}",
                 [key, now, now, *values.values()])

