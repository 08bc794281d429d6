"""A learner's kernel reporting to the class view, wherever the class view is.

`class_reporter()` is what the App asks for (uu/widgets/tutor_app.py):
- on JupyterHub with the class service (uu/server/hubservice.py): a `HubClassReporter`, which posts the row
  to the service with the learner's own hub API token (the service binds it to that hub user);
- with `uu app --class`: uu.tutor.class_store's `ClassReporter`, which writes the local SQLite file;
- else None: nothing is reported anywhere.

Both have the same face: `name` (None until the learner joins; nothing is sent before), `learner_id` (kept in
the browser; on a hub the row is the hub user's whatever it says), `report(fields)` and `stop()`.
"""

from __future__ import annotations

import json
import logging
import os
import threading
import urllib.error
import urllib.request
from typing import Any, Protocol

from uu.tutor.class_store import COLUMNS, HEARTBEAT_S, ClassReporter, new_learner_id

__all__ = ["SERVICE_URL_ENV", "ClassChannel", "HubClassReporter", "class_reporter"]

log = logging.getLogger(__name__)

# The class service's address as the learners' servers reach it, ending in its prefix (for example
# http://127.0.0.1:10101/services/uu-class/): set for every user's server by the deployment
# (deploy/jupyterhub/jupyterhub_config.py, deploy/z2jh/values.yaml). Without it nothing is reported on a hub.
SERVICE_URL_ENV = "UU_CLASS_SERVICE_URL"
TIMEOUT_S = 5.0


class ClassChannel(Protocol):
    name: str | None

    @property
    def learner_id(self) -> str: ...  # the row's key (on a hub, the service decides it whatever this says)

    def report(self, fields: dict[str, Any]) -> bool: ...

    def stop(self) -> None: ...


class HubClassReporter:
    """Posts this learner's row to the class service: the newest report at once, in a thread of its own (a
    slow or absent service never holds up a click), and again every `HEARTBEAT_S` seconds while the kernel
    runs (so the learner counts as connected). Failures are logged, never shown to the learner."""

    def __init__(self, service_url: str, token: str):
        self.url = service_url.rstrip("/") + "/api/report"
        self._token = token
        self.name: str | None = None
        self.learner_id = new_learner_id()  # the browser keeps it; the service does not need it
        self._latest: dict[str, Any] | None = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self.sent = 0  # reports the service took (for tests and logs)

    @classmethod
    def from_env(cls) -> HubClassReporter | None:
        url = os.environ.get(SERVICE_URL_ENV, "").strip()
        token = os.environ.get("JUPYTERHUB_API_TOKEN", "").strip()
        return cls(url, token) if url and token else None

    def report(self, fields: dict[str, Any]) -> bool:
        """Queue this learner's row (`fields`: any of the class view's columns but the ids and times). Nothing
        is sent before the learner has a name. Returns whether it was queued."""
        if self.name is None:
            return False
        body = {k: v for k, v in fields.items() if k in COLUMNS and k not in ("id", "name", "first_seen", "last_seen")}
        body["name"] = self.name
        with self._lock:
            self._latest = body
        self._wake.set()
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="uu-class-report", daemon=True)
            self._thread.start()
        return True

    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(HEARTBEAT_S)
            self._wake.clear()
            if self._stop.is_set():
                return
            with self._lock:
                body = self._latest
            if body is not None:
                self._post(body)

    def _post(self, body: dict[str, Any]) -> bool:
        request = urllib.request.Request(
            self.url, data=json.dumps(body).encode(), method="POST",
            headers={"Authorization": f"token {self._token}", "Content-Type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=TIMEOUT_S) as answer:
                answer.read()
        except urllib.error.HTTPError as e:
            log.warning("class view: the service refused a report (%s): %s", e.code, e.read()[:300])
            return False
        except (OSError, ValueError) as e:
            log.warning("class view: cannot reach %s: %s", self.url, e)
            return False
        self.sent += 1
        return True

    def stop(self) -> None:
        self._stop.set()
        self._wake.set()


def class_reporter() -> ClassChannel | None:
    """The class view's channel for this kernel (see the module docstring), or None."""
    on_hub = bool(os.environ.get("JUPYTERHUB_API_URL") or os.environ.get("JUPYTERHUB_SERVICE_PREFIX"))
    if on_hub:
        # never the local file on a hub: a database every learner's kernel can write is one they can all read
        return HubClassReporter.from_env()
    return ClassReporter.from_env()
