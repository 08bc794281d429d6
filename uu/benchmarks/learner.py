"""Emulated learners for `uu bench --app`: what Voila's page does, over HTTP and the kernel websocket, with no
browser.

    async with EmulatedLearner(url) as learner:      # one learner; many run together in one event loop
        await learner.arrive()          # GET /, its assets, the kernel websocket, the widget states: the home
        await learner.open_play()       # "Play a game", the same deal every run, step mode on
        click = await learner.click()   # "Bot: next" (or the learner's first move): ms until the board update

Why: the browser benchmark puts every learner's Chromium on the machine that also runs the server, so with
30 learners it measures mostly its own browsers (in a classroom each learner has a computer). An emulated
learner costs the server exactly what a page costs it (the same HTTP requests and the same websocket messages,
in the same order and encoding) and costs this machine little itself.

What the page does, as recorded from Chromium on `uu app` (Voila 0.5.13, ipywidgets 8.1.9, JupyterLab 4
services; tests/test_bench_ws.py compares the messages of steps 5, 6 and 8 with a live page's in Chromium):

1. `GET /` twice: the first page (no kernel: the seat cookie and a ticket its script puts in a cookie before
   it reloads, uu/server/shell.py), then the page. It holds the kernel id (the `jupyter-config-data` JSON, `"kernelId"`) and, in
   its cell outputs (`application/vnd.voila.cell-output+json` scripts), the model id of the widget view to
   draw (`application/vnd.jupyter.widget-view+json`: the App).
2. About 77 static files, 4.3 MB (voila.js and its chunks, the widget manager's labextension, CSS). A browser
   finds them in rounds (the HTML names voila.js, which loads its chunks...) and loads them over at most 6
   connections to one host. This learner requests the list recorded from Chromium by the benchmark
   (`assets`; without one, only the files the HTML names) at once, 6 at a time: the same work for the server.
3. `GET /api/kernels/<id>` (JupyterLab's `KernelAPI.getKernelModel`).
4. The websocket `/api/kernels/<id>/channels?session_id=<uuid>` with the subprotocol
   `v1.kernel.websocket.jupyter.org` (binary frames: see `encode_v1`), as the page negotiates.
5. `kernel_info_request` on shell; the page waits for its reply before anything else.
6. ipywidgets 8's widget manager (`_loadFromKernel`): `comm_open` to target `jupyter.widget.control`
   (metadata `{"version": "1.0.0"}`), then on that comm `comm_msg {"method": "request_states"}`; the kernel
   answers on iopub with one `comm_msg {"method": "update_states", "states": {...}}` holding every widget's
   state; the page then sends `comm_close` for the control comm. (The older protocol, a `comm_info_request`
   then one `request_state` per comm, is only the fallback for ipywidgets 7 kernels; the page does not send
   it here.) The page builds its models from those states; no message per widget is sent.
7. Interactive: the home's lesson list (one anywidget, uu/widgets/lessonlist.py) is in the state tree under
   the App view, not hidden, with its rows (the browser benchmark waits for the buttons it draws from them).
8. A click on a Button view: `comm_msg {"method": "custom", "content": {"event": "click"}}` to its model (on a
   lesson's button: `{"type": "open", "id": <lesson>}` to the list's); a checkbox tick: `comm_msg {"method":
   "update", "state": {"value": true}, "buffer_paths": []}`.
9. Leaving: the page's unload beacon, `POST /voila/api/shutdown/<id>` with an `_xsrf` form field.

The learner mirrors every widget model (comm_open, update and echo_update, comm_close), so it can find
buttons by their CSS classes as the browser benchmark's selectors do. Anything else the kernel or server
sends (an error reply, an unknown widget method, a stream) is counted in `problems`: a faithful emulation
has none. One known exception is counted in `known_noise` instead: ipykernel 7 often prints "No such comm:
<the control comm>" on stderr at start-up, for the page in Chromium just as for this learner (see
`_dispatch`).
"""

from __future__ import annotations

import asyncio
import json
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import TracebackType
from typing import Any
from urllib.parse import urljoin, urlsplit

from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import WebSocketClientConnection, websocket_connect

from uu.server.appserver import seat_cookie
from uu.server.seats import COOKIE
from uu.server.shell import TICKET_COOKIE, ticket_in

__all__ = ["Click", "EmulatedLearner"]

from uu.benchmarks.voila_wire import (
    BROWSER_CONNECTIONS,
    CONTROL_TARGET,
    KERNEL_ID,
    PROTOCOL,
    REF,
    WIDGET_TARGET,
    LearnerError,
    decode_v1,
    encode_v1,
    fetch_keepalive,
    message_detail,
    page_assets,
    page_views,
)


# ---- one learner --------------------------------------------------------------------------------------
@dataclass
class Click:
    """One click: `board_ms` until the first update of the table's model (uu.table.widget.TableWidget) caused
    by this click arrived, `idle_ms` until the kernel said idle for it (every message of the click sent);
    None if not seen within the timeout. `at` is when it was sent (perf_counter)."""

    label: str
    at: float
    board_ms: float | None = None
    idle_ms: float | None = None
    messages: int = 0  # the kernel's messages caused by the click (reply, busy/idle, widget updates)
    kbytes: float = 0.0  # their size on the websocket


@dataclass
class _Waiter:
    ready: Callable[[], bool]
    future: asyncio.Future[None]


@dataclass
class _Sent:
    """A message this learner sent: when its first table update and its idle status arrived."""

    at: float
    board_at: float | None = None
    idle_at: float | None = None
    reply: dict[str, Any] | None = None
    # what the kernel sent because of it (its reply, status and widget messages): what one click costs
    messages: int = 0
    nbytes: int = 0


@dataclass
class EmulatedLearner:
    """One learner's page (see the module docstring). `assets`: the static files to fetch after the HTML
    (paths such as /voila/static/voila.js; None: the files the HTML names). `timeout`: seconds for any one
    step. `timings` gets the time of each arrival step, in seconds since `arrive()` started."""

    base_url: str
    assets: Sequence[str] | None = None
    timeout: float = 120.0
    connections: int = BROWSER_CONNECTIONS
    timings: dict[str, float] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    known_noise: int = 0
    sent_log: list[tuple[str, str, str]] = field(default_factory=list)
    kernel_id: str | None = None
    root_id: str | None = None
    models: dict[str, dict[str, Any]] = field(default_factory=dict)
    bytes_received: int = 0
    seat_token: str | None = None  # the browser's seat cookie (None: a new browser; set by the first page)
    close_code: int | None = None  # how the server closed the websocket (uu/server/kernels.py), and when
    closed_at: float | None = None

    def __post_init__(self) -> None:
        self.base_url = self.base_url if self.base_url.endswith("/") else self.base_url + "/"
        self.session = str(uuid.uuid4())
        self._http: AsyncHTTPClient | None = None
        self._ws: WebSocketClientConnection | None = None
        self._reader: asyncio.Task[None] | None = None
        self._waiters: list[_Waiter] = []
        self._sent: dict[str, _Sent] = {}
        self._control: str | None = None
        self._states_at: float | None = None
        self._closed = False
        self._left = False

    # ---- context manager: never leave a socket or a kernel behind ------------------------------------
    async def __aenter__(self) -> EmulatedLearner:
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        await self.leave()

    # ---- HTTP ---------------------------------------------------------------------------------------
    def _client(self) -> AsyncHTTPClient:
        if self._http is None:
            # one client per learner, capped like a browser's connections to one host
            self._http = AsyncHTTPClient(force_instance=True, max_clients=self.connections)
        return self._http

    async def _get(self, path: str, cookies: dict[str, str] | None = None) -> bytes:
        headers = {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items())} if cookies else None
        req = HTTPRequest(urljoin(self.base_url, path.lstrip("/")), request_timeout=self.timeout,
                          connect_timeout=self.timeout, headers=headers)
        try:
            resp = await self._client().fetch(req)
        except HTTPClientError as e:
            raise LearnerError(f"GET {path}: HTTP {e.code}") from None
        self.bytes_received += len(resp.body or b"")
        token = seat_cookie(resp.headers.get_list("Set-Cookie"))
        if token is not None:
            self.seat_token = token
        return resp.body or b""

    async def _page(self) -> str:
        """The page as a browser gets it: the first page (seat cookie and ticket, uu.server.shell), then, as
        its script does, the page itself with the ticket."""
        cookies = {COOKIE: self.seat_token} if self.seat_token else {}
        first = (await self._get("/", cookies)).decode()
        ticket = ticket_in(first)
        if ticket is None or self.seat_token is None:
            return first
        return (await self._get("/", {COOKIE: self.seat_token, TICKET_COOKIE: ticket})).decode()

    # ---- arriving -----------------------------------------------------------------------------------
    async def arrive(self) -> float:
        """Open the page until the home is interactive; returns the seconds that took."""
        t0 = time.perf_counter()
        mark = lambda name: self.timings.__setitem__(name, round(time.perf_counter() - t0, 4))  # noqa: E731
        html = await self._page()
        mark("html_s")
        found = KERNEL_ID.search(html)
        if found is None:
            full = "The tutor is full" in html
            raise LearnerError("the page is the 'tutor is full' page" if full else "no kernel id in the page")
        self.kernel_id = found.group(1)
        views = page_views(html)
        if not views:
            raise LearnerError("no widget view in the page")
        self.root_id = views[-1]  # the notebook displays one widget: the App
        assets = page_assets(html) if self.assets is None else list(self.assets)
        await self._fetch_all(assets)
        mark("assets_s")
        await self._get(f"/api/kernels/{self.kernel_id}?{int(time.time() * 1000)}")
        mark("kernel_model_s")
        await self._connect()
        mark("ws_open_s")
        info = await self.request("kernel_info_request", {})
        if (info or {}).get("status") != "ok":
            raise LearnerError(f"kernel_info_reply: {info}")
        mark("kernel_info_s")
        await self._load_states()
        await self._restore_progress()
        mark("states_s")
        await self._until(self.home_ready, "the home's lessons")
        mark("interactive_s")
        return self.timings["interactive_s"]

    async def _fetch_all(self, paths: list[str]) -> None:
        """Every asset as a browser fetches them: over at most `connections` persistent HTTP/1.1 connections
        (`fetch_keepalive`; tornado's own client opens one per request, twice the server's CPU)."""
        parts = urlsplit(self.base_url)
        full = {parts.path.rstrip("/") + "/" + p.lstrip("/"): p for p in paths}  # under the base URL, as _get
        fetched = await fetch_keepalive(parts.hostname or "127.0.0.1", parts.port or 80, list(full),
                                        self.connections, self.timeout)
        failed = [f"{p}: {r}" for p, r in fetched.items() if isinstance(r, BaseException)]
        self.bytes_received += sum(len(r) for r in fetched.values() if isinstance(r, bytes))
        if failed:
            self.problems.append(f"{len(failed)} assets failed, e.g. {failed[0]}")

    async def _connect(self) -> None:
        parts = urlsplit(self.base_url)
        ws_url = (f"ws://{parts.netloc}{parts.path}api/kernels/{self.kernel_id}/channels"
                  f"?session_id={self.session}")
        origin = f"{parts.scheme}://{parts.netloc}"
        try:
            self._ws = await websocket_connect(
                HTTPRequest(ws_url, headers={"Origin": origin}, connect_timeout=self.timeout,
                            request_timeout=self.timeout), subprotocols=[PROTOCOL])
        except Exception as e:
            raise LearnerError(f"websocket: {type(e).__name__}: {e}") from None
        if self._ws.selected_subprotocol != PROTOCOL:
            raise LearnerError(f"the server chose websocket subprotocol {self._ws.selected_subprotocol!r}")
        self._reader = asyncio.create_task(self._read_loop())

    async def _load_states(self) -> None:
        """ipywidgets 8's start-up: the control comm, `request_states`, one `update_states`, close."""
        self._control = str(uuid.uuid4())
        await self.send("comm_open", {"comm_id": self._control, "target_name": CONTROL_TARGET, "data": {}},
                        metadata={"version": "1.0.0"})
        await self.send("comm_msg", {"comm_id": self._control, "data": {"method": "request_states"}})
        await self._until(lambda: self._states_at is not None, "update_states on the control comm")
        await self.send("comm_close", {"comm_id": self._control, "data": {}})

    async def _restore_progress(self) -> None:
        """As the page's progress store (uu/widgets/progress.js) renders, it sends what the browser's
        localStorage holds: a new learner, with nothing stored, sends an empty restore."""
        for model_id, state in list(self.models.items()):
            if "_esm" in state and "state" in state and "observation" not in state:
                await self.send("comm_msg", {"comm_id": model_id, "data": {
                    "method": "custom", "content": {"type": "restore", "items": {}}}})

    # ---- messages -----------------------------------------------------------------------------------
    def _header(self, msg_type: str) -> dict[str, Any]:
        # what JupyterLab's services put in a header (version 5.2, empty username, the websocket's session)
        date = datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
        return {"date": date, "msg_id": str(uuid.uuid4()), "msg_type": msg_type, "session": self.session,
                "username": "", "version": "5.2"}

    async def send(self, msg_type: str, content: dict[str, Any], metadata: dict[str, Any] | None = None,
                   channel: str = "shell") -> str:
        """Send one message; returns its msg_id (replies, updates and the idle status carry it as parent)."""
        if self._ws is None or self._closed:
            raise LearnerError("the websocket is not open")
        header = self._header(msg_type)
        parts = [json.dumps(p).encode() for p in (header, {}, metadata or {}, content)]
        self.sent_log.append((channel, msg_type, message_detail(content)))
        self._sent[header["msg_id"]] = _Sent(at=time.perf_counter())
        await self._ws.write_message(encode_v1(channel, parts), binary=True)
        return header["msg_id"]

    async def request(self, msg_type: str, content: dict[str, Any]) -> dict[str, Any] | None:
        """A shell request; returns its reply's content."""
        msg_id = await self.send(msg_type, content)
        sent = self._sent[msg_id]
        await self._until(lambda: sent.reply is not None, f"the reply to {msg_type}")
        return sent.reply

    async def _read_loop(self) -> None:
        assert self._ws is not None
        try:
            while True:
                frame = await self._ws.read_message()
                now = time.perf_counter()
                if frame is None:
                    break
                if isinstance(frame, str):  # this protocol sends binary frames only
                    self.problems.append("a text frame on the v1 websocket")
                    continue
                self.bytes_received += len(frame)
                self._dispatch(frame, now, len(frame))
                self._wake()
        except Exception as e:  # a broken frame must not hang the waiters: they see the close
            self.problems.append(f"reading the websocket: {type(e).__name__}: {e}")
        finally:
            self._closed = True
            self.close_code, self.closed_at = self._ws.close_code, time.perf_counter()
            self._wake()

    def _dispatch(self, frame: bytes, now: float, size: int = 0) -> None:
        channel, parts = decode_v1(frame)
        header, parent, _meta, content = (json.loads(p) for p in parts[:4])
        kind = header.get("msg_type")
        sent = self._sent.get(parent.get("msg_id", ""))
        if sent is not None:
            sent.messages += 1
            sent.nbytes += size
        if channel == "shell" or channel == "control":
            if sent is not None:
                sent.reply = content
            if content.get("status") not in (None, "ok"):
                self.problems.append(f"{kind}: {content.get('status')} {content.get('ename', '')}")
            return
        if channel != "iopub":
            self.problems.append(f"a message on channel {channel}: {kind}")
            return
        if kind == "status":
            if content.get("execution_state") == "idle" and sent is not None and sent.idle_at is None:
                sent.idle_at = now
        elif kind == "comm_open":
            if content.get("target_name") == WIDGET_TARGET:
                self.models[content["comm_id"]] = dict(content.get("data", {}).get("state", {}))
            else:
                self.problems.append(f"comm_open for target {content.get('target_name')}")
        elif kind == "comm_msg":
            self._comm_msg(content, sent, now)
        elif kind == "comm_close":
            self.models.pop(content.get("comm_id", ""), None)
        elif kind == "stream" and self._control and f"No such comm: {self._control}" in content.get("text", ""):
            # ipykernel 7 looks a comm up on its shell-channel thread (to route comm messages to subshells)
            # before its main thread has handled the comm_open sent just before; it warns and then handles the
            # message normally. The browser's start-up triggers the same warning (about every other page).
            self.known_noise += 1
        else:  # stream, error, display_data...: the app sends none of these to a page
            self.problems.append(f"iopub {kind}: {json.dumps(content)[:200]}")

    def _comm_msg(self, content: dict[str, Any], sent: _Sent | None, now: float) -> None:
        comm_id = content.get("comm_id", "")
        data = content.get("data", {})
        method = data.get("method")
        if comm_id == self._control:
            if method == "update_states":
                for model_id, entry in data.get("states", {}).items():
                    self.models[model_id] = dict(entry.get("state", {}))
                self._states_at = now
            else:
                self.problems.append(f"control comm: method {method}")
        elif method in ("update", "echo_update"):
            model = self.models.get(comm_id)
            if model is None:
                self.problems.append(f"{method} for an unknown model")
                return
            model.update(data.get("state", {}))
            if sent is not None and sent.board_at is None and comm_id in self._board_ids():
                sent.board_at = now
        else:
            self.problems.append(f"widget comm: method {method}")

    # ---- waiting ------------------------------------------------------------------------------------
    def _wake(self) -> None:
        for w in list(self._waiters):
            if w.future.done():
                self._waiters.remove(w)
            elif self._closed or w.ready():
                self._waiters.remove(w)
                w.future.set_result(None)

    async def _until(self, ready: Callable[[], bool], what: str, timeout: float | None = None) -> None:
        if ready():
            return
        if self._closed:
            raise LearnerError(f"the websocket closed while waiting for {what}")
        waiter = _Waiter(ready, asyncio.get_running_loop().create_future())
        self._waiters.append(waiter)
        try:
            await asyncio.wait_for(waiter.future, self.timeout if timeout is None else timeout)
        except TimeoutError:
            raise LearnerError(f"timed out waiting for {what}") from None
        finally:
            if waiter in self._waiters:
                self._waiters.remove(waiter)
        if not ready():
            raise LearnerError(f"the websocket closed while waiting for {what}")

    # ---- the widget tree, as the page draws it --------------------------------------------------------
    def _ref(self, value: Any) -> str | None:
        return value[len(REF):] if isinstance(value, str) and value.startswith(REF) else None

    def _hidden(self, state: dict[str, Any]) -> bool:
        layout = self.models.get(self._ref(state.get("layout")) or "", {})
        return layout.get("display") == "none" or layout.get("visibility") == "hidden"

    def shown(self) -> list[str]:
        """Model ids of the widgets drawn now, in page order: from the App view down through `children`,
        leaving out any widget (and what it holds) hidden by its layout."""
        out: list[str] = []
        stack = [self.root_id] if self.root_id else []
        seen: set[str] = set()
        while stack:
            mid = stack.pop()
            state = self.models.get(mid or "")
            if mid is None or state is None or mid in seen or self._hidden(state):
                continue
            seen.add(mid)
            out.append(mid)
            kids = [self._ref(c) for c in state.get("children", ())]
            stack.extend(reversed([k for k in kids if k]))
        return out

    def find(self, css: str, inside: str | None = None) -> list[str]:
        """Shown widgets with CSS class `css` (optionally only those under a shown widget of class `inside`)."""
        ids = self.shown()
        if inside is not None:
            tops = [m for m in ids if inside in self.models[m].get("_dom_classes", ())]
            ids = self._under(tops[0]) if tops else []
        return [m for m in ids if css in self.models[m].get("_dom_classes", ())]

    def _under(self, top: str) -> list[str]:
        shown = set(self.shown())
        out, stack = [], [top]
        while stack:
            mid = stack.pop()
            if mid not in shown:
                continue
            out.append(mid)
            kids = [self._ref(c) for c in self.models[mid].get("children", ())]
            stack.extend(reversed([k for k in kids if k]))
        return out

    def _clickable(self, css: str, inside: str | None = None) -> list[str]:
        return [m for m in self.find(css, inside) if not self.models[m].get("disabled", False)]

    def lesson_list(self) -> str | None:
        """The model of the home's lesson list when it is shown with its rows, from which the page draws the
        lesson buttons the browser benchmark's HOME_READY waits for."""
        return next((m for m in self.find("uu-lesson-list", "uu-home-screen") if self.models[m].get("rows")), None)

    def home_ready(self) -> bool:
        return self.lesson_list() is not None

    async def open_lesson(self, lesson_id: str) -> None:
        """What a click on the lesson's button of the home sends; then until its lesson screen is shown."""
        if (found := self.lesson_list()) is None:
            raise LearnerError("no lessons on the home")
        await self.until_idle(await self.send("comm_msg", {"comm_id": found, "data": {
            "method": "custom", "content": {"type": "open", "id": lesson_id}}}))
        await self._until(lambda: bool(self.find(f"uu-lesson-{lesson_id}")), f"the lesson {lesson_id!r}")

    def _board_ids(self) -> set[str]:
        """The table's model (uu.table.widget.TableWidget): the browser benchmark watches the same element
        (`.uu-t`, its data-version) for the table drawn after a click."""
        out = {m for m, s in self.models.items() if "uu-table" in s.get("_dom_classes", ())}
        # a screen from before the table (for before/after figures): its board view's board and log
        for v in (m for m, s in self.models.items() if "uu-board-view" in s.get("_dom_classes", ())):
            out.update(k for k in (self._ref(c) for c in self.models[v].get("children", ())) if k)
        return out

    def label(self, model_id: str) -> str:
        return str(self.models.get(model_id, {}).get("description", ""))

    # ---- acting -------------------------------------------------------------------------------------
    async def press(self, model_id: str) -> str:
        """What a Button view sends when clicked."""
        return await self.send("comm_msg", {"comm_id": model_id,
                                            "data": {"method": "custom", "content": {"event": "click"}}})

    async def set_value(self, model_id: str, value: Any) -> str:
        """What a control sends when the learner changes it (the model's `value`)."""
        self.models.get(model_id, {})["value"] = value
        return await self.send("comm_msg", {"comm_id": model_id, "data": {
            "method": "update", "state": {"value": value}, "buffer_paths": []}})

    async def until_idle(self, msg_id: str) -> None:
        """Until the kernel has finished handling `msg_id` (its idle status arrived)."""
        sent = self._sent[msg_id]
        await self._until(lambda: sent.idle_at is not None, "the kernel to finish")

    async def open_play(self) -> None:
        """Home -> "Play a game" -> the same deal every run -> step mode, until "Bot: next" shows (as in Chromium)."""
        play = self._clickable("uu-play")
        if not play:
            raise LearnerError("no 'Play a game' button on the home")
        await self.until_idle(await self.press(play[0]))
        await self._until(lambda: bool(self.find("uu-table", "uu-play-screen")
                                       or self.find("uu-board", "uu-play-screen")), "the play screen")
        more = self.find("uu-more-settings", "uu-play-screen")
        if more:  # the seed and step mode are among "More settings" (uu/widgets/play.py), as a learner opens them
            await self.until_idle(await self.set_value(more[0], True))
            await self._until(lambda: bool(self.find("uu-step-mode", "uu-play-screen")), "the step-mode checkbox")
        fixed, new = self.find("uu-fixed-seed", "uu-play-screen"), self._clickable("uu-new-game", "uu-play-screen")
        step = self.find("uu-step-mode", "uu-play-screen")
        if not fixed or not new or not step:
            raise LearnerError("no 'Same deal every game', 'New game' or step mode on the play screen")
        await self.until_idle(await self.set_value(fixed[0], True))
        await self.until_idle(await self.press(new[0]))
        await self.until_idle(await self.set_value(step[0], True))
        # shown (it may be disabled: at the start the learner chooses a Baby first), as the browser bench waits
        await self._until(lambda: bool(self.find("uu-bot-next", "uu-play-screen")), "'Bot: next' to be shown")

    def next_button(self) -> str | None:
        """The browser benchmark's choice: "Bot: next" if on offer, else the learner's first move on the table
        (the table's model id), else (game over) "New game"; None while none is on offer."""
        found = self._clickable("uu-bot-next", "uu-play-screen")
        if found:
            return found[0]
        for table in self.find("uu-table", "uu-play-screen"):
            if self.models[table].get("actions"):
                return table
        found = self._clickable("uu-action", "uu-play-screen")  # a play screen from before the table
        if found:
            return found[0]
        banner = self.find("uu-result", "uu-play-screen")
        if banner and "uu-banner" in str(self.models[banner[0]].get("value", "")):
            found = self._clickable("uu-new-game", "uu-play-screen")
            return found[0] if found else None
        return None

    async def choose(self, table_id: str) -> str:
        """What the table sends when a gesture is complete: the first move's id, with the table's version."""
        state = self.models.get(table_id, {})
        first = state["actions"][0]
        return await self.send("comm_msg", {"comm_id": table_id, "data": {"method": "custom", "content": {
            "type": "choose", "id": first["id"], "version": state.get("version", 0)}}})

    async def click(self, timeout: float = 10.0) -> Click:
        """One click on `next_button()`; waits for its idle status (at most `timeout` s for each part)."""
        try:
            await self._until(lambda: self.next_button() is not None, "a button to click", timeout)
        except LearnerError:
            pass
        button = self.next_button() or next(iter(self.find("uu-new-game", "uu-play-screen")), None)
        if button is None:
            raise LearnerError("nothing to click on the play screen")
        state = self.models.get(button, {})
        if "uu-table" in state.get("_dom_classes", ()):
            label = str(state["actions"][0].get("description", ""))
            msg_id = await self.choose(button)
        else:
            label = self.label(button)
            msg_id = await self.press(button)
        sent = self._sent[msg_id]
        result = Click(label=label, at=sent.at)
        try:
            await self._until(lambda: sent.idle_at is not None, "the click's idle status", timeout)
        except LearnerError as e:
            self.problems.append(f"click {label!r}: {e}")
        if sent.board_at is not None:
            result.board_ms = (sent.board_at - sent.at) * 1000
        if sent.idle_at is not None:
            result.idle_ms = (sent.idle_at - sent.at) * 1000
        result.messages, result.kbytes = sent.messages, sent.nbytes / 1024
        return result

    async def _close_socket(self) -> None:
        """The websocket ends and its reader with it; nothing more can be sent or received."""
        self._left = True
        if self._ws is not None:
            self._ws.close()
        if self._reader is not None:
            try:
                await asyncio.wait_for(self._reader, 5)
            except (TimeoutError, asyncio.CancelledError):
                self._reader.cancel()

    async def vanish(self) -> None:
        """Go as a crashed tab or a lost network does: the websocket ends, and no unload beacon is sent."""
        await self._close_socket()
        if self._http is not None:
            self._http.close()
            self._http = None

    async def leave(self) -> None:
        """Close the websocket and send the unload beacon (Voila then shuts the kernel down). Idempotent."""
        if self._left:
            return
        await self._close_socket()
        if self.kernel_id is not None:
            body = "_xsrf="  # the beacon's form: Voila sets no _xsrf cookie, so the field is empty
            req = HTTPRequest(urljoin(self.base_url, f"voila/api/shutdown/{self.kernel_id}"), method="POST",
                              body=body, headers={"Content-Type": "application/x-www-form-urlencoded"},
                              request_timeout=30)
            try:
                await self._client().fetch(req)
            except Exception as e:
                self.problems.append(f"shutdown beacon: {type(e).__name__}: {e}")
        if self._http is not None:
            self._http.close()
            self._http = None

