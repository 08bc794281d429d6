"""A classroom server no one can lock out (issue #26): every request here comes from 127.0.0.1, as behind a
reverse proxy, where no per-address limit applies.

- Browserless requests of `/` (no cookie, someone's seat cookie, a forged ticket) get the first page
  (uu/server/shell.py), start no kernel and never keep a browser out.
- A tab replaced by another tab of the same browser says so at once, with a way to take the seat back; a tab
  whose kernel was shut down says so at once.
- Only widget messages and the kernel's status reach a page (uu/server/kernels.py).
- The preheat pool refills after its kernels die.
- A link longer than the app reads gets a message; link text shown back has no direction characters.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import signal
import time
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest

from conftest import run_async
from uu.scenario.link import link_query
from uu.server import kernels, shell
from uu.server.appserver import AppServer, _get, open_page
from uu.server.seats import COOKIE, new_token

# ---- the first page and its ticket -----------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_ticket_is_taken_once_by_its_own_token_within_its_time():
    clock = Clock()
    tickets = shell.Tickets(ttl=60, clock=clock)
    a, b = new_token(), new_token()
    ticket = tickets.issue(a)
    assert not tickets.redeem(b, ticket)  # someone else's seat cookie with it: nothing
    assert tickets.redeem(a, ticket)
    assert not tickets.redeem(a, ticket)  # once
    late = tickets.issue(a)
    clock.now += 61
    assert not tickets.redeem(a, late)
    issued, nonce, mac = tickets.issue(a).split(".")
    for forged in (f"{issued}.{nonce}.{'A' * len(mac)}", f"{int(issued) - 1}.{nonce}.{mac}", "", None, "x" * 500,
                   f"{issued}.{nonce}", shell.Tickets(clock=clock).issue(a)):
        assert not tickets.redeem(a, forged), forged
    assert not tickets.redeem(None, tickets.issue(a))


def test_the_first_page_carries_its_ticket_and_no_kernel():
    ticket = shell.Tickets().issue(new_token())
    page = shell.first_page(ticket, "/")
    assert shell.ticket_in(page) == ticket
    assert "kernelId" not in page and "window.location.reload()" in page
    assert shell.NO_SCRIPT_TEXT in page and f"max-age={int(shell.TICKET_TTL_S)}" in page
    assert shell.ticket_in("<html>") is None
    long_page = shell.long_link_page("/base/")
    assert "too long" in long_page and "href='/base/'" in long_page and "16,384" in long_page


# ---- links ---------------------------------------------------------------------------------------------------


def test_link_text_comes_without_control_or_direction_characters():
    marks = "\u202e\u202a\u202b\u202c\u202d\u2066\u2067\u2068\u2069\u200e\u200f\u200b\x07\ufeff"
    query = link_query("http://h/?lesson=ne" + "".join(f"%{b:02X}" for b in marks.encode()) + "igh")
    assert query == {"lesson": "neigh"}
    assert link_query("http://h/?lesson=") == {"lesson": ""}  # an empty one is a bad link: it gets a message
    many = "&".join(f"x{i}=1" for i in range(50))
    assert link_query(f"http://h/?{many}&lesson=neigh") == {"lesson": "neigh"}  # was silently dropped


# ---- what reaches the page -----------------------------------------------------------------------------------


def test_only_widget_messages_and_status_may_reach_the_page():
    ok = kernels.page_may_receive
    for msg_type in ("status", "comm_open", "comm_msg", "comm_close"):
        assert ok("iopub", msg_type)
    for msg_type in ("stream", "error", "execute_result", "execute_input", "debug_event", "shutdown_reply"):
        assert not ok("iopub", msg_type, {"data": {"text/plain": "x"}})
    view = {"data": {kernels.WIDGET_VIEW: {"model_id": "m"}, "text/plain": "VBox()"}}
    assert ok("iopub", "display_data", view)
    assert not ok("iopub", "display_data", {"data": {"text/html": "<b>/srv/app.py</b>"}})
    assert not ok("iopub", "display_data", {"data": {kernels.WIDGET_VIEW: {}, "text/html": "x"}})
    assert ok("shell", "kernel_info_reply") and ok("shell", "comm_info_reply")
    assert not ok("shell", "execute_reply") and not ok("shell", "inspect_reply")
    assert not ok("stdin", "input_request") and not ok(None, "status")


def test_the_page_connection_drops_a_stream_and_passes_a_widget_message(monkeypatch, caplog):
    """`PageConnection.handle_outgoing_message` on messages serialized as the kernel sends them; what the
    kernel wrote goes to the server's log instead."""
    from jupyter_client.session import Session
    from jupyter_server.services.kernels.connection.channels import ZMQChannelsWebsocketConnection

    passed: list[str] = []
    monkeypatch.setattr(ZMQChannelsWebsocketConnection, "handle_outgoing_message",
                        lambda self, stream, msg_list: passed.append(stream))
    session = Session(key=b"secret")
    connection = kernels.PageConnection.__new__(kernels.PageConnection)
    connection.session = session

    def wire(msg_type: str, content: dict[str, Any]) -> list[bytes]:
        return session.serialize(session.msg(msg_type, content))

    connection.handle_outgoing_message("iopub", wire("stream", {"name": "stderr", "text": "Traceback ... pid"}))
    connection.handle_outgoing_message("iopub", wire("error", {"ename": "KeyError", "traceback": []}))
    connection.handle_outgoing_message("iopub", [b"not", b"a message"])
    assert passed == []
    assert "Traceback ... pid" in caplog.text
    connection.handle_outgoing_message("iopub", wire("comm_msg", {"comm_id": "c", "data": {}}))
    connection.handle_outgoing_message("shell", wire("kernel_info_reply", {"status": "ok"}))
    assert passed == ["iopub", "shell"]


def test_a_pool_that_lost_a_kernel_drops_it_and_refills():
    """`PageKernelManager._refill_pool` on a stand-in for Voila's preheat manager."""

    class Done:
        def __init__(self, kernel_id: str | None):
            self.kernel_id = kernel_id

        def done(self) -> bool:
            return True

        def result(self) -> dict[str, str]:
            if self.kernel_id is None:
                raise RuntimeError("its start failed")
            return {"kernel_id": self.kernel_id}

    class Pool:
        def __init__(self):
            self._pools = {"app.ipynb": [Done("dead"), Done("alive"), Done(None)]}
            self.fills: list[str] = []

        def fill_if_needed(self, delay=None, notebook_name=None):
            self.fills.append(notebook_name)

    pool = Pool()
    kernels.PageKernelManager._refill_pool(pool, "dead")  # type: ignore[arg-type]
    assert [t.kernel_id for t in pool._pools["app.ipynb"]] == ["alive"] and pool.fills == ["app.ipynb"]


# ---- live servers ---------------------------------------------------------------------------------------------


def _kernel_starts(server: AppServer) -> int:
    return server.log_text().count("Kernel started:")


def _flood(url: str, n: int, cookie: str | None = None) -> list[tuple[int, str]]:
    """`n` requests of `/` at once, as a script does: no cookie (or the given Cookie header), no script run."""
    def one(_i: int) -> tuple[int, str]:
        cookies = {}
        if cookie:
            name, _, value = cookie.partition("=")
            cookies[name] = value
        status, page, _ = _get(url, cookies, 60)
        return status, page

    with concurrent.futures.ThreadPoolExecutor(10) as pool:
        return list(pool.map(one, range(n)))


def test_browserless_requests_and_long_links_start_no_kernel(tmp_path):
    """Cap 3, every request from 127.0.0.1: 60 cookie-less GETs, 20 with a seat cookie, 20 with a forged or
    someone else's ticket get the first page and start no kernel; a link longer than 16,384 characters gets its
    message; a learner then gets the page, and only that starts a kernel."""
    with AppServer(tmp_path, max_kernels=3, extra_args=("--preheat", "0")) as server:
        server.wait_ready()
        url = server.url
        token = new_token()
        other = shell.Tickets().issue(token)  # signed with another server's secret
        replies = (_flood(url, 60) + _flood(url, 20, f"{COOKIE}={token}")
                   + _flood(url, 20, f"{COOKIE}={token}; {shell.TICKET_COOKIE}={other}"))
        assert all(status == 200 and shell.ticket_in(page) and "kernelId" not in page for status, page in replies)
        status, page = _get(url + "?position=v1." + "A" * 17_000, {}, 60)[:2]
        assert status == 414 and "This link is too long" in page and "kernelId" not in page
        assert _kernel_starts(server) == 0
        status, page, _ = open_page(url)
        assert status == 200 and '"kernelId"' in page
        assert _kernel_starts(server) == 1


def test_only_widget_messages_reach_the_page_from_a_launched_kernel(tmp_path):
    """A page's websocket sends a comm_open of a widget model no one knows: the kernel writes a traceback with
    the server's paths and "No such comm" lines (a launched kernel, `UU_FORK_KERNELS=0`, sends its stderr as
    iopub streams: without uu.server.kernels.PageConnection the page received three of them) and none of it
    reaches the page; the page gets the comm_close and the kernel_info_reply it asked for."""
    from uu.benchmarks.learner import EmulatedLearner
    from uu.benchmarks.voila_wire import decode_v1

    async def probe(url: str) -> list[tuple[str, str, str]]:
        learner = EmulatedLearner(url, timeout=120)
        frames: list[tuple[str, str, str]] = []
        dispatch = learner._dispatch

        def spy(frame: bytes, now: float, n: int) -> None:
            channel, parts = decode_v1(frame)
            frames.append((channel, json.loads(parts[0])["msg_type"], b"".join(parts).decode(errors="replace")))
            dispatch(frame, now, n)

        learner._dispatch = spy  # type: ignore[method-assign]
        try:
            await learner.arrive()
            state = {"_model_name": "NoSuchModel", "_model_module": "no-such-module",
                     "_model_module_version": "9.9.9"}
            await learner.send("comm_open", {"comm_id": str(uuid.uuid4()), "target_name": "jupyter.widget",
                                             "data": {"state": state, "buffer_paths": []}},
                               metadata={"version": "2.1.0"})
            await learner.send("comm_msg", {"comm_id": str(uuid.uuid4()), "data": {"method": "update"}})
            await learner.request("kernel_info_request", {})
            await asyncio.sleep(1.0)  # anything the kernel still writes
        finally:
            await learner.leave()
        return frames

    os.environ["UU_FORK_KERNELS"] = "0"
    try:
        server = AppServer(tmp_path, max_kernels=3, extra_args=("--preheat", "0"))
    finally:
        del os.environ["UU_FORK_KERNELS"]
    with server:
        server.wait_ready()
        frames = run_async(probe(server.url))
        assert "Traceback" in server.log_text()  # what the kernel wrote: in the server's console instead
    kinds = {kind for _channel, kind, _text in frames}
    assert "comm_close" in kinds and "kernel_info_reply" in kinds
    assert not kinds & {"stream", "error", "execute_result"}, kinds
    text = "".join(t for _c, _k, t in frames)
    assert "Traceback" not in text and "site-packages" not in text and str(tmp_path) not in text


def test_the_pool_refills_after_its_kernels_die(tmp_path):
    """`--preheat 2`: both idle pool kernels killed; the pool starts two more, and a learner is served from it."""
    import psutil

    with AppServer(tmp_path, max_kernels=4, extra_args=("--preheat", "2")) as server:
        deadline = time.time() + 120

        def wait_filled(times: int) -> None:
            while server.log_text().count("is filled with 2 kernel(s)") < times:
                assert server.proc.poll() is None and time.time() < deadline, server.log_tail()
                time.sleep(0.3)

        wait_filled(1)
        zygote = [p for p in psutil.Process(server.proc.pid).children()
                  if "uu.server.forkkernel" in " ".join(p.cmdline())][0]
        first = {k.pid for k in zygote.children()}
        assert len(first) == 2
        for pid in first:
            os.kill(pid, signal.SIGKILL)
        while len({k.pid for k in zygote.children()} - first) < 2:  # two new kernels
            assert time.time() < deadline, server.log_tail()
            time.sleep(0.3)
        wait_filled(2)
        status, page, _ = open_page(server.url)
        assert status == 200 and '"kernelId"' in page
        kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', page).group(1)
        assert "Using pre-heated kernel" in server.log_text()
        assert _get(server.url + f"api/kernels/{kernel_id}", {}, 30)[0] == 200  # a live kernel, not a dead one


# ---- in a browser ---------------------------------------------------------------------------------------------

APP = ".uu-play button, button.uu-play"
NOTICE = ".uu-session-stopped"


@pytest.mark.browser
def test_a_browser_gets_the_app_through_a_flood_of_browserless_requests(browser, tmp_path):
    """Cap 3: while 150 browserless requests of `/` arrive (60 of them before the browser), a browser opens the
    tutor and gets the app; the only kernel started is the browser's. A link with a fragment that makes it
    longer than 16,384 characters gets the message in the browser."""
    from playwright.sync_api import expect

    with AppServer(tmp_path, max_kernels=3, extra_args=("--preheat", "0")) as server:
        server.wait_ready()
        assert len(_flood(server.url, 60)) == 60
        with concurrent.futures.ThreadPoolExecutor(1) as pool:
            more = pool.submit(_flood, server.url, 90)
            context = browser.new_context(viewport={"width": 1280, "height": 800})
            page = context.new_page()
            page.goto(server.url)
            expect(page.locator(APP).first).to_be_visible(timeout=60_000)
            assert all(status == 200 for status, _page in more.result())
        assert _kernel_starts(server) == 1
        long_page = context.new_page()
        long_page.goto(server.url + "#" + "x" * 17_000)
        expect(long_page.locator("#uu-shell")).to_contain_text("This link is too long", timeout=30_000)
        expect(long_page.get_by_role("link", name="Open the tutor's home")).to_be_visible()
        assert _kernel_starts(server) == 1
        context.close()


@pytest.mark.browser
def test_a_replaced_tab_says_so_and_can_take_the_seat_back(browser, tmp_path):
    """Two tabs of one browser: the first says "This tutor is open in another tab" as the second opens, and
    "Use it here" takes the seat back (the second tab then says so). A request carrying the browser's seat
    cookie without its ticket kills nothing; a kernel shut down from outside (the unload beacon's route) is told
    at once."""
    from playwright.sync_api import expect

    with AppServer(tmp_path, max_kernels=3, extra_args=("--preheat", "0")) as server:
        server.wait_ready()
        context = browser.new_context(viewport={"width": 1280, "height": 800})
        first, second = context.new_page(), context.new_page()
        first.goto(server.url)
        expect(first.locator(APP).first).to_be_visible(timeout=60_000)
        seat = next(c for c in context.cookies() if c["name"] == COOKIE)
        token = seat["value"]
        # HttpOnly (the page cannot read it), and kept across browser restarts (the class view's row)
        assert seat["httpOnly"] and seat["expires"] > time.time() + 300 * 86400

        assert _flood(server.url, 5, f"{COOKIE}={token}")[0][0] == 200  # someone else's cookie, no ticket
        time.sleep(1)
        assert first.locator(NOTICE).count() == 0
        expect(first.locator(APP).first).to_be_enabled()

        second.goto(server.url)
        expect(second.locator(APP).first).to_be_visible(timeout=60_000)
        expect(first.locator(NOTICE)).to_contain_text("This tutor is open in another tab", timeout=10_000)
        assert second.locator(NOTICE).count() == 0

        first.get_by_role("button", name="Use it here").click()
        expect(first.locator(APP).first).to_be_visible(timeout=60_000)
        expect(second.locator(NOTICE)).to_contain_text("This tutor is open in another tab", timeout=10_000)
        expect(first.locator(NOTICE)).to_have_count(0)
        first.screenshot(path=str(_artifacts() / "tab-taken-back.png"))
        second.screenshot(path=str(_artifacts() / "tab-replaced.png"))

        kernel_id = re.search(r'"kernelId": "([0-9a-f-]+)"', first.content()).group(1)
        beacon = urllib.request.Request(server.url + f"voila/api/shutdown/{kernel_id}", data=b"_xsrf=",
                                        method="POST")
        urllib.request.urlopen(beacon, timeout=30).close()
        expect(first.locator(NOTICE)).to_contain_text("Your session stopped", timeout=10_000)
        context.close()


def _artifacts() -> Path:
    folder = Path(__file__).resolve().parents[1] / "test-artifacts"
    folder.mkdir(exist_ok=True)
    return folder
