"""`uu app`: the shipped notebook, the safe Voila configuration, the served page, and a browser run."""

from __future__ import annotations

import asyncio
import json
import re
import subprocess
import sys
import urllib.error
import urllib.request
import uuid
from pathlib import Path
from types import SimpleNamespace

import nbformat
import pytest
import tornado.web

import uu.server.admission
import uu.server.app
import uu.server.patches
from conftest import run_async
from uu.server import seats
from uu.server.appserver import AppServer, open_page
from uu.server.voila_config import WS_MAX_MESSAGE_BYTES, refuse_when_full, voila_config
from uu.yamlfile import MAX_BYTES

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
NOTEBOOKS = [uu.server.app.notebook_path(), ROOT / "notebooks" / "index.ipynb"]
SOURCE_SNIPPETS = ["from uu.widgets", "App()", "assert app.error"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_notebook_is_small_valid_and_stored_without_outputs(path: Path):
    assert path.is_file(), path
    nb = nbformat.read(path, as_version=4)
    nbformat.validate(nb)
    code = [c for c in nb.cells if c.cell_type == "code"]
    assert code, "the notebook has no code"
    for cell in code:
        assert cell.outputs == [] and cell.execution_count is None, "store notebooks without outputs"
    lines = [ln for c in code for ln in c.source.splitlines() if ln.strip()]
    assert len(lines) <= 10, lines
    assert nb.metadata.kernelspec.name == "python3"


def test_app_notebook_ships_inside_the_package():
    path = uu.server.app.notebook_path()
    assert path.parts[-3:] == ("uu", "notebooks", "app.ipynb")


def _assert_safe(c):
    assert c.VoilaConfiguration.strip_sources is True
    assert c.VoilaConfiguration.show_tracebacks is False
    assert c.VoilaConfiguration.allow_template_override == "NO"
    assert c.VoilaConfiguration.allow_theme_override == "NO"
    assert any(".*\\.(ipynb|py" in p for p in c.VoilaConfiguration.file_denylist)
    assert c.Voila.ip == "127.0.0.1"
    assert c.Voila.config_file_paths == []  # no voila.py from the working directory
    assert c.Voila.tornado_settings["disable_check_xsrf"] is True
    assert c.Voila.tornado_settings["websocket_max_message_size"] == WS_MAX_MESSAGE_BYTES
    assert WS_MAX_MESSAGE_BYTES >= 2 * MAX_BYTES  # a paste or upload the page allows fits, as JSON
    assert c.KernelRestarter.restart_limit == 0  # a dead kernel is not replaced by a blank one
    assert c.Voila.port == 9999 and c.Voila.port_retries == 0
    assert c.Voila.open_browser is False
    assert c.MappingKernelManager.cull_idle_timeout > 0
    assert c.MappingKernelManager.cull_connected is False
    if sys.platform == "linux":  # kernels on Unix sockets only this user can open, not localhost TCP ports
        assert c.KernelManager.transport == "ipc"


def test_voila_config_is_the_safe_one():
    c = voila_config(port=9999, open_browser=False)
    _assert_safe(c)
    assert c.VoilaConfiguration.prelaunch_hook is refuse_when_full
    assert "preheat_kernel" not in c.VoilaConfiguration  # opt-in only
    assert "port" not in voila_config(port=None).Voila


def test_preheat_config_keeps_every_safety_setting():
    """`uu app --preheat N`: a pool of N kernels; Voila refuses a prelaunch hook (and progressive rendering)
    with preheat, so neither is set: the cap moves to the page handler (`uu.server.patches.patch_page_handler_cap`)."""
    c = voila_config(port=9999, open_browser=False, preheat=4)
    _assert_safe(c)
    assert c.VoilaConfiguration.preheat_kernel is True and c.VoilaConfiguration.default_pool_size == 4
    assert "prelaunch_hook" not in c.VoilaConfiguration
    assert c.VoilaConfiguration.get("progressive_rendering", False) is False
    from uu.cli import build_parser

    assert build_parser().parse_args(["app"]).preheat is None  # serve() then uses uu.server.app.DEFAULT_PREHEAT
    assert build_parser().parse_args(["app", "--preheat", "10"]).preheat == 10
    assert build_parser().parse_args(["app", "--preheat", "0"]).preheat == 0
    assert uu.server.app.DEFAULT_PREHEAT > 0


def test_a_class_gets_a_class_worth_of_kernels_ready(monkeypatch):
    """`uu app --class`: 30 kernels wait for the class (capped by the kernel cap); without --class the default
    pool; a --preheat given always wins."""
    from uu.server.app import CLASS_PREHEAT, DEFAULT_PREHEAT, pool_size
    from uu.server.seats import MAX_KERNELS_ENV

    monkeypatch.delenv(MAX_KERNELS_ENV, raising=False)
    assert pool_size(None, class_view=True) == CLASS_PREHEAT == 30
    assert pool_size(None, class_view=False) == DEFAULT_PREHEAT
    assert pool_size(0, class_view=True) == 0 and pool_size(5, class_view=False) == 5
    monkeypatch.setenv(MAX_KERNELS_ENV, "12")
    assert pool_size(None, class_view=True) == 12
    # another server's cap, given (the benchmark's class server)
    assert pool_size(None, class_view=True, cap=45) == 30 and pool_size(None, class_view=True, cap=7) == 7


def test_page_config_leaves_out_mathjax_and_unused_labextensions():
    """The page loads only the widget manager's labextensions (and anywidget's, for the table) and, for MathJax, a data: script that does
    nothing (see uu.server.voila_config.NO_MATHJAX_URL); nbclient waits long enough for a busy server's output."""
    from uu.server.voila_config import IOPUB_TIMEOUT_S, LABEXTENSIONS, NO_MATHJAX_URL, page_config_hook

    for preheat in (0, 3):
        c = voila_config(port=9999, preheat=preheat)
        assert c.VoilaConfiguration.extension_allowlist == LABEXTENSIONS
        assert c.VoilaConfiguration.page_config_hook is page_config_hook
        assert c.VoilaExecutor.iopub_timeout == IOPUB_TIMEOUT_S >= 30
    page = page_config_hook({"fullMathjaxUrl": None, "mathjaxConfig": None, "baseUrl": "/"})
    assert page["fullMathjaxUrl"] == NO_MATHJAX_URL and page["baseUrl"] == "/"
    assert NO_MATHJAX_URL.startswith("data:text/javascript,") and NO_MATHJAX_URL.endswith("//")
    assert "#" not in NO_MATHJAX_URL and "%" not in NO_MATHJAX_URL  # a data: URL body, read literally


def test_served_page_config_names_only_widget_labextensions_and_no_mathjax(voila_url):
    from uu.server.voila_config import LABEXTENSIONS, NO_MATHJAX_URL

    status, page = _open(voila_url)
    assert status == 200
    config = json.loads(re.search(r'<script id="jupyter-config-data" type="application/json">(.*?)</script>',
                                  page, re.S).group(1))
    names = [e["name"] for e in config["federated_extensions"]]
    assert "@jupyter-widgets/jupyterlab-manager" in names and set(names) <= set(LABEXTENSIONS), names
    assert "anywidget" in names, names  # the table (uu/table, an anywidget) is drawn by it
    assert config["fullMathjaxUrl"] == NO_MATHJAX_URL


def test_pool_starts_one_kernel_at_a_time_and_an_entry_is_ready_once_its_notebook_ran(monkeypatch):
    """uu.server.patches' gate on Voila's preheat pool (`_gate_pool_starts`), on a stand-in for VoilaKernelManager."""
    import time

    events: list[str] = []
    running = {"now": 0, "most": 0}

    class FakeManager:
        learners = 0

        async def _initialize(self, notebook_path, kernel_id=None, **kwargs):
            running["now"] += 1
            running["most"] = max(running["most"], running["now"])
            await asyncio.sleep(0.01)  # the kernel process starts

            async def render():
                await asyncio.sleep(0.02)  # the notebook runs
                events.append(f"rendered {notebook_path}")
                running["now"] -= 1

            return {"task": asyncio.ensure_future(render()), "kernel_id": notebook_path, "renderer": None}

    monkeypatch.setattr(uu.server.patches, "REFILL_PAUSE_S", 0.05)
    monkeypatch.setattr("uu.server.voila_config.learner_kernels", lambda manager: manager.learners)
    assert uu.server.patches._gate_pool_starts(FakeManager) and uu.server.patches._gate_pool_starts(FakeManager)  # idempotent

    async def scenario() -> list[float]:
        manager = FakeManager()
        results = await asyncio.gather(*[manager._initialize(f"k{i}") for i in range(3)])
        for r in results:  # handed out only once the notebook has run
            assert r["task"].done() and f"rendered {r['kernel_id']}" in events
        manager.learners = 3  # learners connected (this start's own kernel counts too): refills are paced
        t0 = time.perf_counter()
        await asyncio.gather(manager._initialize("r1"), manager._initialize("r2"))
        return [time.perf_counter() - t0]

    (paced,) = run_async(scenario())
    assert running["most"] == 1
    assert paced >= 0.05  # the second refill waited for the pause after the first


def test_the_app_listens_on_loopback_unless_asked():
    # a classroom opts in to being reachable from other machines; the command line passes it through
    assert voila_config(ip="0.0.0.0").Voila.ip == "0.0.0.0"
    from uu.cli import build_parser

    assert build_parser().parse_args(["app"]).ip == "127.0.0.1"
    assert build_parser().parse_args(["app", "--ip", "0.0.0.0", "--no-browser"]).ip == "0.0.0.0"


class FakeRequest:
    def __init__(self, address: str = "10.0.0.1"):
        self.request = SimpleNamespace(remote_ip=address)
        self.status, self.headers, self.body = 200, {}, None

    def set_status(self, code):
        self.status = code

    def set_header(self, name, value):
        self.headers[name] = value

    def finish(self, body):
        self.body = body


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def register(monkeypatch):
    """A fresh seat register (cap 3, 2 pages per address, 60 s to connect) as the server's."""
    clock = Clock()
    reg = seats.Seats(cap=3, per_address=2, connect_timeout=60, clock=clock)
    reg.clock_ = clock
    monkeypatch.setattr(seats, "SEATS", reg)
    return reg


def _refused(address: str = "10.0.0.1") -> FakeRequest | None:
    req = FakeRequest(address)
    try:
        refuse_when_full(req, None, "/")
    except tornado.web.Finish:
        return req
    return None


def test_only_connected_pages_take_seats_and_the_cap_answers_503(register):
    for i in range(4):  # pages handed out, never connected: no seat (below the pending bound)
        register.handed_out(f"p{i}", f"10.0.1.{i}", None)
    assert len(register.seated) == 0 and _refused("10.0.0.9") is None
    for i in range(3):
        register.handed_out(f"k{i}", f"10.0.2.{i}", None)
        register.connected(f"k{i}", f"10.0.2.{i}")
    register.connected("k0", "10.0.2.0")  # a second websocket of the same page changes nothing
    assert len(register.seated) == 3
    req = _refused("10.0.0.9")
    assert req is not None and req.status == 503 and "The tutor is full" in req.body
    assert "Traceback" not in req.body and req.headers["Retry-After"] == "60"
    register.keep_only(["k0", "k1"])  # k2 shut down (beacon, culler): its seat is free, and so are the pending
    assert len(register.seated) == 2 and not register.pending and _refused("10.0.0.9") is None


def test_pending_pages_expire_and_are_bounded(register):
    register.handed_out("a", "10.0.0.1", None)
    register.clock_.now = 30
    register.handed_out("b", "10.0.0.2", None)
    register.connected("b", "10.0.0.2")
    assert register.expired() == []
    register.clock_.now = 61
    assert register.expired() == ["a"]  # "b" connected: seated, never expires
    assert register.overflow() == []
    for i in range(seats.PENDING_PER_SEAT * register.cap):
        register.clock_.now += 1
        register.handed_out(f"p{i}", f"10.0.3.{i}", None)
    # pages that never connect refuse nobody: the oldest make room for the next (kernels stay bounded)
    assert _refused("10.0.0.9") is None
    assert register.overflow() == ["a", "p0"]  # "a" is the oldest; one place is left for the new page
    for kernel_id in register.overflow():
        register.forget(kernel_id)
    assert len(register.pending) == seats.PENDING_PER_SEAT * register.cap - 1


def test_one_address_holds_at_most_its_share(register):
    register.handed_out("a", "10.0.0.1", "t1")
    register.connected("a", "10.0.0.1")
    register.handed_out("b", "10.0.0.1", "t2")  # pending counts too
    req = _refused("10.0.0.1")
    assert req is not None and req.status == 503 and "This computer" in req.body
    assert _refused("10.0.0.2") is None
    assert register.held_by_token("t1") == ["a"] and register.held_by_token(None) == []
    assert seats.Seats.refusal(register, "10.0.0.1", "t2") is None  # t2's new page replaces its pending one
    for i in range(3):  # this machine (a reverse proxy in front: every learner's address) has no such limit
        register.handed_out(f"l{i}", "127.0.0.1", None)
    assert _refused("127.0.0.1") is None and _refused("::1") is None


def test_seat_tokens_and_kernel_ids_are_read_strictly():
    token = seats.new_token()
    assert seats.valid_token(token) == token
    for forged in (None, "", "short", "a" * 65, "../../etc", "x" * 20 + ";y"):
        assert seats.valid_token(forged) is None
    kid = str(uuid.uuid4())
    assert seats.kernel_id_in(f'{{"baseUrl": "/", "kernelId": "{kid}"}}') == kid
    assert seats.kernel_id_in("<html>") is None
    assert seats.max_kernels() >= 1


def test_page_handler_cap_patch_wraps_voilas_page_route():
    from voila.tornado.handler import TornadoVoilaHandler
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    assert uu.server.patches.patch_page_handler_cap() and uu.server.patches.patch_page_handler_cap()  # idempotent
    assert getattr(TornadoVoilaHandler, "_uu_cap_patched", False)
    assert TornadoVoilaHandler.get._uu_seat_check is uu.server.admission.seat_check
    assert uu.server.patches.patch_websocket_seats() and uu.server.patches.patch_websocket_seats()
    assert getattr(VoilaKernelWebsocketHandler, "_uu_seat_patched", False)


def test_busy_port_fails_instead_of_moving(tmp_path):
    import socket

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        r = subprocess.run([sys.executable, "-m", "uu.server.app", "--port", str(port), "--no-browser"],
                           cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert r.returncode != 0
    assert f"could not serve on port {port}" in r.stderr


def _open(url: str, token: str | None = None) -> tuple[int, str]:
    """The tutor's page as a browser gets it (the first page, then the page with its ticket: uu.server.shell)."""
    status, page, _token = open_page(url, token)
    return status, page


def _get(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=60) as resp:
            return resp.status, resp.read().decode()
    except urllib.error.HTTPError as e:
        return e.code, e.read().decode()


def test_served_page_runs_the_notebook_and_hides_sources(voila_url):
    status, page = _open(voila_url)
    assert status == 200
    assert '"kernelId"' in page                       # a kernel started and ran the notebook
    assert "application/vnd.jupyter.widget-view+json" in page
    for snippet in SOURCE_SNIPPETS:                   # sources stripped (despite the hostile voila.py)
        assert snippet not in page
    assert "Traceback" not in page


def test_server_exposes_no_notebook_files_or_apis(voila_url):
    for path in ["voila/files/app.ipynb", "api/contents", "api/sessions", "api/terminals", "tree", "lab"]:
        status, _ = _get(voila_url + path)
        assert status in (403, 404, 405), (path, status)


def test_path_traversal_and_other_paths_are_refused(voila_url):
    """Dot segments, encoded or not, never reach a file outside what Voila serves; paths other than the page
    and its assets answer 403/404 (or 400/405), never a file's text."""
    import http.client
    from urllib.parse import urlsplit

    parts = urlsplit(voila_url)
    paths = ["/voila/static/../../../../../../etc/passwd", "/voila/static/..%2f..%2f..%2f..%2fetc%2fpasswd",
             "/voila/files/..%2f..%2fuu%2fapp.py", "/voila/templates/..%2f..%2f..%2fapp.py",
             "/static/..%2f..%2f..%2fetc%2fpasswd", "/voila/files/%2e%2e/%2e%2e/etc/passwd",
             "/voila/files/voila.py", "/voila/files/voila.json", "/api/kernelspecs", "/api/config", "/files/etc",
             "/api/nbconvert", "/voila/render/app.ipynb", "/notebooks/app.ipynb", "/edit/app.ipynb"]
    for path in paths:
        where = path
        for _ in range(4):  # a redirect must lead to a refusal too
            conn = http.client.HTTPConnection(parts.hostname, parts.port, timeout=60)
            conn.request("GET", where)  # sent as written: no client-side normalization of the dot segments
            resp = conn.getresponse()
            body = resp.read().decode(errors="replace")
            conn.close()
            if resp.status not in (301, 302, 307, 308):
                break
            location = urlsplit(resp.getheader("Location") or "/")
            assert location.netloc in ("", parts.netloc), (path, location)  # never to another host
            where = location.path + (f"?{location.query}" if location.query else "")
        # Voila 0.5's template static handler raises on a path without "<template>/static/" (a 500 with
        # tornado's bare error page, no file and no traceback): refused, though not with a 404 (left as is)
        allowed = (400, 403, 404, 405, 500) if path.startswith("/voila/templates/") else (400, 403, 404, 405)
        assert resp.status in allowed, (path, resp.status)
        assert "root:" not in body and "def serve" not in body and "strip_sources" not in body, path
        assert "Traceback" not in body, path


def test_cross_origin_websockets_are_refused(voila_url):
    """A page on another site cannot open a learner's kernel websocket (tornado's origin check)."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    status, page = _open(voila_url)
    assert status == 200
    kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)
    ws_url = voila_url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"

    async def attempt(origin: str) -> int:
        try:
            conn = await websocket_connect(HTTPRequest(ws_url, headers={"Origin": origin}))
        except HTTPClientError as e:
            return e.code
        conn.close()
        return 101

    assert run_async(attempt("http://evil.example")) == 403
    assert run_async(attempt("null")) == 403
    assert run_async(attempt(voila_url.rstrip("/"))) == 101  # the page's own origin is let in


def _kernel_message(msg_type: str, content: dict) -> str:
    header = {"msg_id": uuid.uuid4().hex, "username": "probe", "session": uuid.uuid4().hex,
              "msg_type": msg_type, "version": "5.3", "date": "2026-01-01T00:00:00.000000Z"}
    return json.dumps({"header": header, "parent_header": {}, "metadata": {}, "content": content,
                       "channel": "shell", "buffers": []})


def _code_ran_through_the_page_websocket(base_url: str, page: str, marker: Path) -> bool:
    """Send an execute_request (writing `marker`) on the page's kernel websocket, as a browser could."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)

    async def probe() -> list[str]:
        ws_url = base_url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
        conn = await websocket_connect(HTTPRequest(ws_url, headers={"Origin": base_url.rstrip("/")}))
        code = f"open({str(marker)!r}, 'w').write('x')"
        await conn.write_message(_kernel_message("execute_request", {
            "code": code, "silent": False, "store_history": False, "user_expressions": {},
            "allow_stdin": False, "stop_on_error": True}))
        await conn.write_message(_kernel_message("comm_info_request", {}))  # allowed: its reply ends the probe
        seen = []
        while "comm_info_reply" not in seen:
            msg = await asyncio.wait_for(conn.read_message(), 30)
            assert msg is not None, "the kernel websocket closed"
            seen.append(json.loads(msg)["header"]["msg_type"])
        conn.close()
        return seen

    seen = run_async(probe())
    return "execute_reply" in seen or "execute_input" in seen or marker.exists()


def test_the_page_cannot_run_code_in_its_kernel(voila_url, tmp_path):
    """Only widget messages reach the kernel: an execute_request from the browser side is dropped."""
    status, page = _open(voila_url)
    assert status == 200
    assert not _code_ran_through_the_page_websocket(voila_url, page, tmp_path / "code-ran")


def test_no_code_request_runs_whatever_the_channel_or_framing(voila_url, tmp_path):
    """execute_request (and the other requests that run or inspect code) on shell and control, as JSON text
    frames and as the v1 binary protocol's frames: none is answered and the code never runs; the
    comm_info_request sent last is answered (so the kernel read everything before it)."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    from uu.benchmarks.voila_wire import PROTOCOL, decode_v1, encode_v1

    status, page = _open(voila_url)
    assert status == 200
    kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)
    marker = tmp_path / "code-ran"
    code = f"open({str(marker)!r}, 'w').write('x')"
    requests = {
        "execute_request": {"code": code, "silent": False, "store_history": False, "user_expressions": {},
                            "allow_stdin": False, "stop_on_error": True},
        "inspect_request": {"code": code, "cursor_pos": 3, "detail_level": 1},
        "complete_request": {"code": code, "cursor_pos": 3},
        "history_request": {"output": True, "raw": True, "hist_access_type": "tail", "n": 10},
        "is_complete_request": {"code": code},
        "debug_request": {"seq": 1, "type": "request", "command": "evaluate", "arguments": {"expression": code}},
    }

    async def probe(binary: bool) -> list[str]:
        ws_url = voila_url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
        conn = await websocket_connect(HTTPRequest(ws_url, headers={"Origin": voila_url.rstrip("/")}),
                                       subprotocols=[PROTOCOL] if binary else None)
        assert (conn.selected_subprotocol == PROTOCOL) is binary

        async def send(msg_type: str, content: dict, channel: str) -> None:
            if binary:
                msg = json.loads(_kernel_message(msg_type, content))
                parts = [json.dumps(msg[k]).encode() for k in ("header", "parent_header", "metadata", "content")]
                await conn.write_message(encode_v1(channel, parts), binary=True)
            else:
                msg = json.loads(_kernel_message(msg_type, content))
                msg["channel"] = channel
                await conn.write_message(json.dumps(msg))

        for channel in ("shell", "control"):
            for msg_type, content in requests.items():
                await send(msg_type, content, channel)
        await send("comm_info_request", {}, "shell")
        seen: list[str] = []
        while "comm_info_reply" not in seen:
            frame = await asyncio.wait_for(conn.read_message(), 30)
            assert frame is not None, "the kernel websocket closed"
            if isinstance(frame, bytes):
                seen.append(json.loads(decode_v1(frame)[1][0])["msg_type"])
            else:
                seen.append(json.loads(frame)["header"]["msg_type"])
        conn.close()
        return seen

    for binary in (False, True):
        seen = run_async(probe(binary))
        answered = {t for t in seen if t.replace("_reply", "_request") in requests or t == "execute_input"}
        assert not answered, (binary, answered)
        assert not marker.exists()


def test_preheated_app_serves_from_the_pool_safely_and_keeps_the_cap(tmp_path):
    """`python -m uu.server.app --preheat 2` with a cap of 2 learners, from a directory with hostile config files: a
    page comes from the pool, with sources stripped and a kernel that runs no code; a template override is
    ignored; with both pages connected, the third learner gets the "tutor is full" page although the pool has
    refilled."""
    import time

    from conftest import HOSTILE_VOILA_JSON, HOSTILE_VOILA_PY

    (tmp_path / "voila.py").write_text(HOSTILE_VOILA_PY)
    (tmp_path / "voila.json").write_text(HOSTILE_VOILA_JSON)
    server = AppServer(tmp_path, max_kernels=2, extra_args=("--preheat", "2"))
    url, log_path = server.url, server.log_path
    try:
        deadline = time.time() + 90
        while "is filled with 2 kernel(s)" not in log_path.read_text():
            assert server.proc.poll() is None and time.time() < deadline, log_path.read_text()
            time.sleep(0.2)
        t0 = time.perf_counter()
        status, page = _open(url)
        served_s = time.perf_counter() - t0
        assert status == 200, page
        assert "Using pre-heated kernel" in log_path.read_text()
        assert served_s < 5, served_s  # from the pool: no kernel start nor notebook run on this request
        assert "application/vnd.jupyter.widget-view+json" in page
        for snippet in SOURCE_SNIPPETS:
            assert snippet not in page
        assert "Traceback" not in page
        assert not _code_ran_through_the_page_websocket(url, page, tmp_path / "code-ran")

        status, page = _open(url + "?template=classic&theme=dark")  # override refused: the lab page still
        assert status == 200 and "voila/templates/lab" in page and "jp-theme-light" in page
        for snippet in SOURCE_SNIPPETS:
            assert snippet not in page

        run_async(_connect(url, page))  # the second page connects too: both seats are taken
        deadline = time.time() + 60  # wait for the pool to refill: its idle kernels must not count
        while log_path.read_text().count("is filled with 2 kernel(s)") < 2:
            assert time.time() < deadline, log_path.read_text()
            time.sleep(0.2)
        status, page = _open(url)
        assert status == 503 and "The tutor is full" in page and "Traceback" not in page
    finally:
        server.stop()


async def _connect(base_url: str, page: str, cookie: str | None = None):
    """Open the page's kernel websocket as the page does (same origin); returns the connection."""
    from tornado.httpclient import HTTPRequest
    from tornado.websocket import websocket_connect

    kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)
    ws_url = base_url.replace("http://", "ws://") + f"api/kernels/{kernel_id}/channels"
    headers = {"Origin": base_url.rstrip("/")}
    if cookie:
        headers["Cookie"] = cookie
    return await websocket_connect(HTTPRequest(ws_url, headers=headers))


async def _page(base_url: str, token: str | None = None) -> tuple[int, str]:
    return await asyncio.to_thread(_open, base_url, token)


def _kernel_alive(base_url: str, page: str) -> bool:
    kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)
    return _get(base_url + f"api/kernels/{kernel_id}")[0] == 200


def test_seats_are_connected_pages_and_a_reload_at_full_capacity_gets_its_page(tmp_path):
    """A live server with a cap of 2 seats and 4 s to connect: two pages that never connect are served and take
    no seat (two connected pages still get in), a third connected page is refused, a reload of a connected
    page (its browser's cookie) gets its page at full capacity, and the unconnected pages' kernels are shut
    down once the time to connect has passed, while the connected ones stay."""
    import time

    with AppServer(tmp_path, max_kernels=2, per_address=8, connect_timeout=4,
                   extra_args=("--preheat", "0")) as server:
        server.wait_ready()
        url = server.url
        a, b, c = (seats.new_token() for _ in range(3))

        async def scenario() -> dict[str, str]:
            pages = {}
            for name in ("bare1", "bare2"):
                status, pages[name] = await _page(url)
                assert status == 200, pages[name]
            sockets = []
            for name, token in (("a", a), ("b", b)):
                status, pages[name] = await _page(url, token)
                assert status == 200, pages[name]
                sockets.append(await _connect(url, pages[name], f"{seats.COOKIE}={token}"))
            await asyncio.sleep(0.5)
            status, body = await _page(url, c)
            assert status == 503 and "The tutor is full" in body, status
            sockets[0].close()  # the reload: the old page goes, the new one loads before any beacon
            status, pages["a2"] = await _page(url, a)
            assert status == 200, pages["a2"]
            sockets.append(await _connect(url, pages["a2"], f"{seats.COOKIE}={a}"))
            await asyncio.sleep(0.5)
            for conn in sockets[1:]:
                conn.close()
            return pages

        pages = run_async(scenario())
        assert not _kernel_alive(url, pages["a"])  # freed by the reload
        deadline = time.time() + 60  # (whether they still run now depends on the machine's speed)
        while _kernel_alive(url, pages["bare1"]) or _kernel_alive(url, pages["bare2"]):
            assert time.time() < deadline, server.log_tail()
            time.sleep(0.5)
        assert _kernel_alive(url, pages["b"]) and _kernel_alive(url, pages["a2"])
        assert "its page never connected" in server.log_text()


def test_a_websocket_message_over_the_limit_is_refused(tmp_path):
    """tornado closes a kernel websocket whose message is larger than WS_MAX_MESSAGE_BYTES (none reaches the
    kernel); the kernel itself is untouched."""
    with AppServer(tmp_path, max_kernels=4, extra_args=("--preheat", "0")) as server:
        server.wait_ready()

        async def flood() -> tuple[int | None, bool]:
            status, page = await _page(server.url)
            assert status == 200
            conn = await _connect(server.url, page)
            await conn.write_message(b"x" * (WS_MAX_MESSAGE_BYTES + 1), binary=True)
            for _ in range(100):  # the kernel's status messages may come first
                if await asyncio.wait_for(conn.read_message(), 30) is None:
                    return conn.close_code, True
            return conn.close_code, False

        code, closed = run_async(flood())
        assert closed and code == 1009, code


@pytest.mark.browser
def test_a_dead_kernel_tells_its_learner_to_reload_and_is_not_restarted(page, tmp_path):
    """A learner's kernel killed (as its memory ceiling or a crash would): the page says "Your session stopped:
    reload to continue", and the server keeps no blank restarted kernel under that id."""
    import os
    import signal
    import time

    import psutil
    from playwright.sync_api import expect

    with AppServer(tmp_path, max_kernels=4, extra_args=("--preheat", "0")) as server:
        server.wait_ready()
        page.goto(server.url, wait_until="commit")
        expect(page.locator(".uu-play button, button.uu-play").first).to_be_visible(timeout=60_000)
        kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page.content()).group(1)
        assert _get(server.url + f"api/kernels/{kernel_id}")[0] == 200
        zygote = [p for p in psutil.Process(server.proc.pid).children()
                  if "uu.server.forkkernel" in " ".join(p.cmdline())][0]
        (kernel,) = zygote.children()  # without a pool, the page's kernel is the only one
        os.kill(kernel.pid, signal.SIGKILL)
        expect(page.locator(".uu-session-stopped")).to_contain_text("Your session stopped: reload to continue",
                                                                    timeout=30_000)
        deadline = time.time() + 30
        while _get(server.url + f"api/kernels/{kernel_id}")[0] != 404:
            assert time.time() < deadline, server.log_tail()
            time.sleep(0.5)
        assert not zygote.children(), "a blank kernel was started in its place"


@pytest.mark.browser
def test_browser_opens_home_and_plays_a_few_moves(page, voila_url):
    from playwright.sync_api import expect

    page.goto(voila_url)
    play = page.locator(".uu-play button, button.uu-play").first
    expect(play).to_be_visible(timeout=60_000)
    expect(page.locator(".uu-home-screen")).to_contain_text("Lessons")
    play.click()
    table = page.locator(".uu-play-screen .uu-t")
    expect(table).to_contain_text("You", timeout=10_000)
    for _ in range(3):  # a lit element of the table (a card of the hand first: card, then its place)
        lit = page.locator(".uu-play-screen .uu-t [data-legal='true']:visible")
        expect(lit.first).to_be_visible(timeout=20_000)
        hand = page.locator(".uu-play-screen .uu-t [data-legal='true'][data-zone='hand']:visible")
        (hand if hand.count() else lit).first.click()
    first_line = page.locator(".uu-t-log details").first
    expect(first_line).to_be_visible(timeout=10_000)
    first_line.locator("summary").click()                  # "why?": the rule statements open
    expect(first_line.locator(".uu-t-why").first).to_be_visible()
    assert page.locator(".uu-error-box").count() == 0
    content = page.content()
    for snippet in SOURCE_SNIPPETS:
        assert snippet not in content
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "play.png"), full_page=True)


def test_served_page_loads_nothing_from_other_hosts(voila_url):
    """uu's page template drops the lab template's Font Awesome links to cdn.jsdelivr.net (render-blocking:
    without internet every page waited for the lookup to fail, over 10 s each when a class arrived together)
    and nbconvert's Mermaid loader (cdnjs)."""
    import re

    from uu.server.app import template_dir

    assert (template_dir() / "index.html.j2").is_file()
    status, page = _open(voila_url)
    assert status == 200
    loads = re.findall(r"""<(?:link|script)[^>]+(?:href|src)=["']([^"']+)""", page)
    assert loads and all(u.startswith(("/", "data:")) for u in loads), loads
    assert "cdn.jsdelivr.net" not in page and "cdnjs.cloudflare.com" not in page
    assert "voila-style.js" in page and "theme-light.css" in page  # the rest of lab's head is still there


def test_page_script_refuses_what_the_loaders_would_and_says_when_a_session_stopped():
    """The page template's script (uu/server/voila_template/index.html.j2) uses the loaders' own size limit."""
    from uu.server.app import template_dir

    text = (template_dir() / "index.html.j2").read_text()
    assert f"var MAX_BYTES = {MAX_BYTES};" in text
    # its words come from the catalogs, in every language (uu.server.shell.PAGE_WORDS, page_words_json)
    assert 'W("stopped")' in text and "uu_page_words()" in text
    from uu.server.shell import PAGE_WORDS

    assert PAGE_WORDS["stopped"] == "Your session stopped: reload to continue."


def test_uu_template_goes_first_on_voilas_template_path():
    from uu.server.app import template_dir, use_uu_template

    class FakeVoila:
        template_paths = ["/lab", "/root"]

    app = FakeVoila()
    assert use_uu_template(app) and app.template_paths[0] == str(template_dir())
    assert use_uu_template(app) and app.template_paths.count(str(template_dir())) == 1  # idempotent
    assert not use_uu_template(object())  # a Voila without template paths serves its own page


def test_the_servers_logger_makes_no_record_its_handlers_would_drop():
    """traitlets leaves an application's logger at DEBUG and filters in its handler (INFO): each kernel message
    made a debug record for nothing. `uu app` raises the logger to its handler's level; `--debug` keeps DEBUG."""
    import logging

    from traitlets.config import Application

    from uu.server.app import skip_dropped_records

    class QuietCheck(Application):
        pass

    app = QuietCheck(log_level="INFO")
    assert app.log.isEnabledFor(logging.DEBUG)  # the premise: a debug line is made, then dropped
    skip_dropped_records(app.log)
    assert not app.log.isEnabledFor(logging.DEBUG) and app.log.isEnabledFor(logging.INFO)

    class LoudCheck(Application):
        pass

    loud = LoudCheck(log_level="DEBUG")
    skip_dropped_records(loud.log)
    assert loud.log.isEnabledFor(logging.DEBUG)
