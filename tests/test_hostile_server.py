"""Hostile round 3 against a real `uu app` on loopback (issue #39), without a browser: what one visitor can make
the server hold (page-file spellings, websockets to one kernel), the log an unknown kernel id writes, the Host
and Origin a request may name, and a seat whose page went without its unload beacon.

Memory and descriptor figures are bounds far from what the attacks cost before the fixes (hundreds of MiB,
thousands of descriptors), not timings; `uu bench --app --hostile` reports the figures themselves."""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from tornado.httpclient import AsyncHTTPClient, HTTPClientError, HTTPRequest
from tornado.websocket import websocket_connect

from conftest import run_async
from uu.server.appserver import AppServer, open_page
from uu.server.kernels import MAX_SOCKETS_PER_KERNEL
from uu.server.seats import AWAY_ENV

psutil = pytest.importorskip("psutil")

PROTOCOL = "v1.kernel.websocket.jupyter.org"
ALLOWED = "tutor.example"


def _labextension_file() -> str:
    """The largest file of the widget manager's or anywidget's labextension, as a path under /voila/labextensions/."""
    import jupyter_core.paths

    found = []
    for root in jupyter_core.paths.jupyter_path("labextensions"):
        for name in ("anywidget", "@jupyter-widgets/jupyterlab-manager"):
            for f in (Path(root) / name).rglob("*.js"):
                found.append((f.stat().st_size, f.relative_to(root).as_posix()))
    assert found, "no labextension files: is anywidget installed?"
    return max(found)[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[AppServer]:
    os.environ["UU_ALLOWED_HOSTS"] = ALLOWED
    try:
        app = AppServer(tmp_path_factory.mktemp("hostile"), max_kernels=4, extra_args=("--preheat", "0"))
    finally:
        del os.environ["UU_ALLOWED_HOSTS"]
    with app:
        app.wait_ready()
        yield app


def _rss_mib(server: AppServer) -> float:
    return psutil.Process(server.proc.pid).memory_info().rss / 2**20


def _fds(server: AppServer) -> int:
    return psutil.Process(server.proc.pid).num_fds()


async def _fetch(url: str, headers: dict[str, str] | None = None) -> tuple[int, bytes]:
    client = AsyncHTTPClient()
    resp = await client.fetch(HTTPRequest(url, headers=headers or {}, request_timeout=60), raise_error=False)
    return resp.code, resp.body or b""


async def _socket(base: str, kernel_id: str, headers: dict[str, str] | None = None) -> object:
    """A kernel websocket as a page opens it; the connection, or the HTTP status it was refused with."""
    port = base.rsplit(":", 1)[1].strip("/")
    request = HTTPRequest(f"ws://127.0.0.1:{port}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}",
                          headers={"Origin": f"http://127.0.0.1:{port}", **(headers or {})},
                          connect_timeout=60, request_timeout=60)
    try:
        return await websocket_connect(request, subprotocols=[PROTOCOL])
    except HTTPClientError as e:
        return e.code


def test_two_thousand_spellings_of_a_page_file_are_one_copy(server: AppServer) -> None:
    """Before: each spelling was a copy (1,300 GETs took the server from 92 to 326 MiB); here a 100-200 KB file
    asked for under 2,000 spellings would be 200-400 MiB."""
    path = _labextension_file()
    head, _, tail = path.partition("/static/")

    async def attack() -> list[int]:
        codes = []
        for n in range(2000):
            spelled = f"{head}/{'/' * (n % 50)}static/{'/' * (n // 50)}{tail}"
            codes.append((await _fetch(f"{server.url}voila/labextensions/{spelled}"))[0])
        return codes

    before = _rss_mib(server)
    codes = run_async(attack())
    grown = _rss_mib(server) - before
    assert set(codes) == {200}
    assert grown < 50, f"the server grew {grown:.0f} MiB"
    for bad in (f"{head}/static/./{tail}", f"{head}/static/../static/{tail}", f"{head}/static//"):
        assert run_async(_fetch(f"{server.url}voila/labextensions/{bad}"))[0] == 404, bad


def test_a_kernel_takes_a_few_websockets_and_the_rest_are_refused(server: AppServer) -> None:
    """300 websockets to one's own kernel held about 2,200 descriptors and 130 MiB, not given back."""
    status, page, _token = open_page(server.url)
    kernel_id = page.split('"kernelId": "', 1)[1][:36] if status == 200 else None
    assert kernel_id, page[:300]

    async def attack() -> tuple[list[object], int]:
        got = [await _socket(server.url, kernel_id) for _ in range(300)]
        held = _fds(server)
        for ws in got:
            if not isinstance(ws, int):
                ws.close()
        await asyncio.sleep(2)
        return got, held

    fds_before = _fds(server)
    got, fds_during = run_async(attack())
    opened = [ws for ws in got if not isinstance(ws, int)]
    assert len(opened) == MAX_SOCKETS_PER_KERNEL
    assert {ws for ws in got if isinstance(ws, int)} == {429}
    assert fds_during - fds_before < 20 * MAX_SOCKETS_PER_KERNEL, (fds_before, fds_during)
    log = server.log_text()
    assert log.count("one more refused") <= 4 and "Traceback" not in log  # a few lines, not 297


def test_a_websocket_to_an_unknown_kernel_is_one_line_in_the_log(server: AppServer) -> None:
    async def attack() -> list[object]:
        return [await _socket(server.url, str(uuid.uuid4())) for _ in range(5)]

    before = server.log_text()
    codes = run_async(attack())
    new = server.log_text()[len(before):]
    assert codes == [404] * 5
    # tornado's access line for each, and the first refusal's own (the next ones are counted): before, each
    # request wrote a traceback of about 45 lines
    assert "Traceback" not in new and new.count("\n") <= len(codes) + 1, new


def test_only_the_hosts_the_app_is_served_as(server: AppServer) -> None:
    """DNS rebinding: a name pointed at 127.0.0.1 by another site. Addresses, localhost and the listed names
    (`--allow-host`, here `UU_ALLOWED_HOSTS`) pass; any other Host is a 403, websockets included, and a
    websocket's Origin must be the host it asks for."""
    port = server.url.rsplit(":", 1)[1].strip("/")

    async def probe() -> dict[str, object]:
        out: dict[str, object] = {}
        for host in ("127.0.0.1", "localhost", f"{ALLOWED}", "[::1]", "evil.example", "127.0.0.1.evil.example"):
            out[host] = (await _fetch(f"{server.url}voila/static/voila.js", {"Host": f"{host}:{port}"}))[0]
        out["page"] = await _fetch(server.url, {"Host": f"evil.example:{port}"})
        status, page, _ = await asyncio.to_thread(open_page, server.url)
        kernel_id = page.split('"kernelId": "', 1)[1][:36]
        out["ws forged host"] = await _socket(server.url, kernel_id, {"Host": f"evil.example:{port}",
                                                                      "Origin": f"http://evil.example:{port}"})
        out["ws foreign origin"] = await _socket(server.url, kernel_id, {"Origin": f"http://evil.example:{port}"})
        ws = await _socket(server.url, kernel_id)
        out["ws own origin"] = "open" if not isinstance(ws, int) else ws
        if not isinstance(ws, int):
            ws.close()
        return out

    out = run_async(probe())
    for host in ("127.0.0.1", "localhost", ALLOWED, "[::1]"):
        assert out[host] == 200, host
    assert out["evil.example"] == out["127.0.0.1.evil.example"] == 403
    code, body = out["page"]
    assert code == 403 and b"--allow-host" in body and b"kernelId" not in body
    assert out["ws forged host"] == 403 and out["ws foreign origin"] == 403 and out["ws own origin"] == "open"


def test_a_seat_whose_page_went_without_its_beacon_is_free_soon(tmp_path: Path) -> None:
    """Cap 1: a learner's page goes as a crashed tab does (its websocket ends, no unload beacon). The next
    learner was told "full" for up to 15 minutes (the idle culler); now within the away time and a reap."""
    from uu.benchmarks.learner import EmulatedLearner
    from uu.benchmarks.voila_wire import LearnerError

    away_s = 3.0
    os.environ[AWAY_ENV] = str(away_s)
    try:
        app = AppServer(tmp_path, max_kernels=1, extra_args=("--preheat", "0"))
    finally:
        del os.environ[AWAY_ENV]

    async def scenario() -> dict[str, object]:
        out: dict[str, object] = {}
        first = EmulatedLearner(app.url, timeout=120)
        await first.arrive()
        second = EmulatedLearner(app.url, timeout=120)
        try:
            await second.arrive()
            out["second while seated"] = "in"
        except LearnerError as e:
            out["second while seated"] = str(e)
        await first.vanish()
        t0 = time.monotonic()
        third = EmulatedLearner(app.url, timeout=120)
        while True:
            try:
                await third.arrive()
                break
            except LearnerError:
                if time.monotonic() - t0 > 60:
                    raise
                third = EmulatedLearner(app.url, timeout=120)
                await asyncio.sleep(0.5)
        out["free after s"] = time.monotonic() - t0
        await third.leave()
        return out

    with app:
        app.wait_ready()
        out = run_async(scenario())
        log = app.log_text()
    assert "503" in str(out["second while seated"])  # the "tutor is full" page
    assert float(out["free after s"]) < away_s + 10  # the away time, the reaper's round and a shutdown
    assert "its page has had no connection for 3 s" in log
