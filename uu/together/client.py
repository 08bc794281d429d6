"""A learner's kernel as a client of its seat: the tables live in the server (`uu app --class`, uu/server/tables.py),
and a kernel reaches them over HTTP on the server's own address (`TABLES_URL_ENV` in the kernel's environment,
else the file the server writes beside the class store once it listens: `url_file`). Every answer is the seat's screen as JSON (uu/together/wire.py); a refusal raises
`TableRefused` with the server's plain words.
"""

from __future__ import annotations

import json
import logging
import os
import urllib.error
import urllib.request
from collections.abc import Mapping
from pathlib import Path
from typing import TypeVar

from pydantic import TypeAdapter, ValidationError

from uu.scenario.record import GameRecord
from uu.together.table import TableRefused
from uu.together.wire import CHECKS, HintAnswer, SeatedScreen, SeatScreen

__all__ = ["TABLES_URL_ENV", "TableClient", "tables_offered", "tables_url", "url_file"]

log = logging.getLogger(__name__)
T = TypeVar("T")
TABLES_URL_ENV = "UU_TABLES_URL"
UNREACHABLE = "The table cannot be reached just now (the app's server did not answer). Try again in a moment."


# The class store's variable (uu.tutor.class_store.CLASS_DB_ENV, which tests/test_together.py checks is the same):
# named here because classroom imports sqlite3, which the static build's screens, importing this, do not have.
CLASS_DB_ENV = "UU_CLASS_DB"


def url_file(class_db: str | Path) -> Path:
    """Where the server writes its tables API's address once it listens, beside the class store: a kernel
    started before that (a preheated one) still finds it when the learner asks for a table."""
    p = Path(class_db)
    return p.with_name(f"{p.stem}.tables-url")


def tables_offered() -> bool:
    """Whether this app has tables for several people (the teacher runs `uu app --class`)."""
    return bool(os.environ.get(TABLES_URL_ENV, "").strip() or os.environ.get(CLASS_DB_ENV, "").strip())


def tables_url() -> str | None:
    """The server's tables API for this kernel, or None when the app runs without tables (no `--class`)."""
    url = os.environ.get(TABLES_URL_ENV, "").strip()
    db = os.environ.get(CLASS_DB_ENV, "").strip()
    if not url and db:
        try:
            url = url_file(db).read_text(encoding="utf-8").strip()
        except OSError:
            return None
    return url if url.startswith(("http://", "https://")) else None


class TableClient:
    def __init__(self, base_url: str, timeout: float = 10.0):
        self.base = base_url.rstrip("/")
        self.timeout = timeout

    def _post(self, path: str, body: Mapping[str, object], wait: float = 0.0) -> dict[str, object]:
        data = json.dumps(body).encode("utf-8")
        req = urllib.request.Request(f"{self.base}/{path}", data=data, method="POST",
                                     headers={"Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(req, timeout=self.timeout + wait) as r:
                answer = json.loads(r.read())
        except urllib.error.HTTPError as e:
            try:
                message = json.loads(e.read()).get("error")
            except (ValueError, AttributeError):
                message = None
            raise TableRefused(message if isinstance(message, str) else UNREACHABLE) from None
        except (OSError, ValueError):
            raise TableRefused(UNREACHABLE) from None
        if not isinstance(answer, dict):
            raise TableRefused(UNREACHABLE)
        return answer

    def _checked(self, adapter: TypeAdapter[T], answer: dict[str, object]) -> T:
        """`answer` as the type the server promises (uu/together/wire.py); one that is not is refused here."""
        try:
            return adapter.validate_python(answer)
        except ValidationError as e:
            log.warning("a tables server's answer of the wrong shape: %s", e)
            raise TableRefused(UNREACHABLE) from None

    def make(self, name: str, options: Mapping[str, object] | None = None) -> SeatedScreen:
        return self._checked(CHECKS.seated, self._post("new", {"name": name, "options": options or {}}))

    def join(self, code: str, name: str) -> SeatedScreen:
        return self._checked(CHECKS.seated, self._post(f"{_code(code)}/join", {"name": name}))

    def view(self, code: str, token: str, since: int | None = None, revision: int | None = None,
             wait: float = 0.0) -> SeatScreen:
        body: dict[str, object] = {"token": token, "since": since}
        if revision is not None and wait > 0:
            body.update(revision=revision, wait=wait)
        return self._checked(CHECKS.screen, self._post(f"{_code(code)}/view", body, wait))

    def hint(self, code: str, token: str, lang: str = "en") -> HintAnswer:
        """The seat's own hint: its words as HTML, the indexes of the hinted moves, the table's version."""
        return self._checked(CHECKS.hint, self._post(f"{_code(code)}/hint", {"token": token, "lang": lang},
                                                     wait=30.0))

    def why(self, code: str, token: str, key: str, name: str = "", lang: str = "en") -> str:
        """One sentence: why the seat's click on the element `key` chose nothing."""
        answer = self._post(f"{_code(code)}/why", {"token": token, "key": key, "name": name, "lang": lang})
        why = answer.get("why")
        return why if isinstance(why, str) else UNREACHABLE

    def record(self, code: str, token: str) -> tuple[GameRecord, int]:
        """The ended game's record and the seat's number, for the seat's review."""
        answer = self._post(f"{_code(code)}/record", {"token": token})
        seat = answer.get("seat")
        if isinstance(seat, bool) or not isinstance(seat, int):
            raise TableRefused(UNREACHABLE)
        try:
            return GameRecord.model_validate(answer.get("record")), seat
        except ValidationError as e:
            raise TableRefused(UNREACHABLE) from e

    def start(self, code: str, token: str) -> SeatScreen:
        return self._checked(CHECKS.screen, self._post(f"{_code(code)}/start", {"token": token}))

    def move(self, code: str, token: str, index: int, version: int) -> SeatScreen:
        return self._checked(CHECKS.screen, self._post(f"{_code(code)}/move",
                                                {"token": token, "index": index, "version": version}))

    def leave(self, code: str, token: str) -> SeatScreen:
        return self._checked(CHECKS.screen, self._post(f"{_code(code)}/leave", {"token": token}))

    def end(self, code: str, token: str) -> SeatScreen:
        return self._checked(CHECKS.screen, self._post(f"{_code(code)}/end", {"token": token}))


def _code(code: str) -> str:
    """A table code as it goes in an address: letters and digits only (anything else names no table)."""
    clean = "".join(ch for ch in str(code).strip().upper() if ch.isascii() and ch.isalnum())[:12]
    if not clean:
        raise TableRefused("There is no table with that code (check the code, or ask for the table's link again).")
    return clean
