"""The emulated learner of `uu bench --app` (uu/benchmarks/learner.py): its websocket encoding, its reading of the page,
and, against a running `uu app`, that it becomes interactive and that a click updates the board, with the
same messages a page in Chromium sends. No timings are asserted (they are the benchmark's to report)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
import urllib.error
import urllib.request

import pytest

from conftest import run_async
from uu.benchmarks.learner import EmulatedLearner
from uu.benchmarks.voila_wire import (
    decode_v1,
    encode_v1,
    fetch_keepalive,
    message_detail,
    page_assets,
    page_views,
)

# What the page sends from the moment its websocket opens until the home is drawn (ipywidgets 8's widget
# manager on Voila 0.5), as (channel, msg_type, detail): checked against Chromium below.
START_UP = [("shell", "kernel_info_request", ""), ("shell", "comm_open", "jupyter.widget.control"),
            ("shell", "comm_msg", "request_states"), ("shell", "comm_close", ""),
            ("shell", "comm_msg", "custom:restore")]  # the progress store reads localStorage as it renders


def test_v1_frames_round_trip_and_match_jupyter_servers_encoding():
    from jupyter_server.services.kernels.connection.base import (
        deserialize_msg_from_ws_v1,
        serialize_msg_to_ws_v1,
    )

    parts = [b'{"msg_type": "comm_msg"}', b"{}", b"{}", b'{"comm_id": "x", "data": {}}', b"\x00\x01buffer"]
    frame = encode_v1("shell", parts)
    assert decode_v1(frame) == ("shell", parts)
    # the server's own codec reads ours and writes what we read: the same bytes both ways
    assert deserialize_msg_from_ws_v1(frame) == ("shell", parts)
    assert serialize_msg_to_ws_v1(parts, "iopub") == encode_v1("iopub", parts)
    assert decode_v1(encode_v1("control", [])) == ("control", [])


def test_reads_the_kernel_view_and_assets_of_a_voila_page():
    output = {"data": {"application/vnd.jupyter.widget-view+json": {"model_id": "abc123", "version_major": 2},
                       "text/plain": "App(...)"}, "output_type": "display_data"}
    html = ('<link rel="stylesheet" href="/voila/templates/lab/static/index.css?v=1">'
            '<script src="https://elsewhere.example/x.js"></script>'
            f'<script type="application/vnd.voila.cell-output+json">\n {json.dumps(output)}\n</script>'
            '<script type="application/vnd.voila.cell-output+json">{"data": {"text/plain": "1"}}</script>'
            '<script src="/voila/static/voila.js"></script>')
    assert page_views(html) == ["abc123"]
    assert page_assets(html) == ["/voila/templates/lab/static/index.css?v=1", "/voila/static/voila.js"]
    assert message_detail({"data": {"method": "custom", "content": {"event": "click"}}}) == "custom:click"
    assert message_detail({"comm_id": "c", "target_name": "jupyter.widget.control", "data": {}}) == \
        "jupyter.widget.control"


def test_assets_come_over_a_browsers_few_persistent_connections():
    """Like Chromium on HTTP/1.1: at most 6 connections, each reused for request after request; bodies read by
    Content-Length or chunked; a status other than 200 is an error for that asset only."""
    accepted = 0

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal accepted
        accepted += 1
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):  # the client closed
            await answer(reader, writer)
        writer.close()

    async def answer(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while request := await reader.readuntil(b"\r\n\r\n"):
            path = request.split(b" ")[1].decode()
            if path == "/missing":
                writer.write(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n")
            elif path.startswith("/chunked"):
                writer.write(b"HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n"
                             b"5\r\nhello\r\n6\r\n world\r\n0\r\n\r\n")
            else:
                body = path.encode() * 3
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
            await writer.drain()
            if reader.at_eof():
                break

    async def go():
        server = await asyncio.start_server(serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        paths = [f"/a{i}.js" for i in range(40)] + ["/chunked", "/missing"]
        try:
            got = await fetch_keepalive("127.0.0.1", port, paths, connections=6, timeout=20)
        finally:
            server.close()
            await server.wait_closed()
        return got

    got = run_async(go())
    assert accepted <= 6, f"{accepted} connections for 42 requests"
    assert got["/a7.js"] == b"/a7.js" * 3 and got["/chunked"] == b"hello world"
    assert isinstance(got["/missing"], Exception) and "404" in str(got["/missing"])
    assert len(got) == 42


def _kernel_gone(base_url: str, kernel_id: str, timeout: float = 15) -> bool:
    deadline = time.time() + timeout
    while time.time() < deadline:
        try:
            urllib.request.urlopen(f"{base_url}api/kernels/{kernel_id}", timeout=5).close()
        except urllib.error.HTTPError as e:
            if e.code == 404:
                return True
        time.sleep(0.3)
    return False


def test_emulated_learner_gets_the_home_and_a_click_updates_the_board(voila_url):
    async def scenario() -> tuple[EmulatedLearner, list]:
        learner = EmulatedLearner(voila_url, assets=None, timeout=90)
        try:
            await learner.arrive()
            assert learner.home_ready() and learner.kernel_id
            assert set(learner.timings) >= {"html_s", "ws_open_s", "states_s", "interactive_s"}
            assert learner.sent_log == START_UP
            await learner.open_play()
            clicks = [await learner.click() for _ in range(3)]
        finally:
            await learner.leave()  # closes the websocket and sends the unload beacon
        return learner, clicks

    learner, clicks = run_async(scenario())
    for click in clicks:  # each click changed the board and the kernel finished handling it
        assert click.board_ms is not None and click.idle_ms is not None, click
        assert click.label
        assert click.messages >= 3 and click.kbytes > 0, click   # its reply, busy and idle at least
    assert clicks[0].label.startswith("baby ")  # the seeded game starts with the learner choosing a Baby
    assert learner.sent_log[-1] == ("shell", "comm_msg", "custom:click")
    assert learner.problems == []
    assert _kernel_gone(voila_url, learner.kernel_id), "the beacon did not free the kernel"


def test_emulated_learner_opens_a_lesson_from_the_homes_list(voila_url):
    async def scenario() -> EmulatedLearner:
        learner = EmulatedLearner(voila_url, assets=None, timeout=90)
        try:
            await learner.arrive()
            listed = learner.models[learner.lesson_list() or ""]["rows"]
            assert [r["id"] for r in listed][:2] == ["goal", "setup"] and listed[0]["button"] == "Start"
            await learner.open_lesson("goal")
        finally:
            await learner.leave()
        return learner

    learner = run_async(scenario())
    assert learner.sent_log == [*START_UP, ("shell", "comm_msg", "custom:open")]
    assert learner.find("uu-lesson-goal") and learner.problems == []


def record_sent(page) -> list[tuple[str, str, str]]:
    """What the page sends on its websockets from now on, as (channel, msg_type, detail)."""
    sent: list[tuple[str, str, str]] = []

    def on_websocket(ws) -> None:
        def record(payload) -> None:
            if isinstance(payload, bytes | bytearray):  # the v1 protocol: binary frames only
                channel, parts = decode_v1(bytes(payload))
                header, content = json.loads(parts[0]), json.loads(parts[3])
                sent.append((channel, header["msg_type"], message_detail(content)))
            else:
                sent.append(("text", "", ""))

        ws.on("framesent", record)

    page.on("websocket", on_websocket)
    return sent


@pytest.mark.browser
def test_the_emulation_sends_what_the_page_in_chromium_sends(page, voila_url):
    """The messages a real page sends from start-up to a click on "Play a game" are the ones the emulated
    learner sends (their types, comm targets and methods, in order)."""
    from playwright.sync_api import expect

    from uu.benchmarks.app_browser import HOME_READY

    sent = record_sent(page)
    page.goto(voila_url, wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=90_000)
    page.wait_for_timeout(500)  # nothing else is sent once the home is drawn
    assert sent == START_UP
    page.locator("button.uu-play").first.click()
    expect(page.locator(".uu-play-screen .uu-t").first).to_be_visible(timeout=30_000)
    assert sent == [*START_UP, ("shell", "comm_msg", "custom:click")]


@pytest.mark.browser
def test_a_lesson_opened_in_chromium_sends_what_the_emulation_sends(page, voila_url):
    """A click on a lesson's button of the home sends one custom message to the lesson list's model, the one
    `EmulatedLearner.open_lesson` sends (test_emulated_learner_opens_a_lesson_from_the_homes_list)."""
    from playwright.sync_api import expect

    from uu.benchmarks.app_browser import HOME_READY

    sent = record_sent(page)
    page.goto(voila_url, wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=90_000)
    page.wait_for_timeout(500)
    page.locator("button.uu-lesson-goal").click()
    expect(page.locator(".uu-lesson.uu-lesson-goal .uu-progress")).to_contain_text("Step 1 of", timeout=30_000)
    assert sent == [*START_UP, ("shell", "comm_msg", "custom:open")]


def test_hostile_bench_measures_seats_and_a_flood_on_loopback():
    """`uu bench --app --hostile`, small and quick: one visitor's page-file spellings and websockets to one
    kernel stay within their bounds (issue #39), browserless GETs start no kernel and a learner gets in
    during them, unconnected pages hold no seat once the time to connect has passed, connected pages reach the
    cap and the next is refused, a replaced tab is told (close code 4001) and its kernel ends, and a flooded
    kernel ends at its ceiling while another learner's clicks go on."""
    from uu.benchmarks.hostile import bench_hostile
    from uu.cli import build_parser

    assert build_parser().parse_args(["bench", "--app", "--hostile"]).hostile
    r = bench_hostile(cap=2, bare=3, connect_timeout=4, clickers=1, think=0.3, flood_messages=400,
                      flood_bytes=900_000, flood_seconds=60, kernel_memory_mb=1000, browserless=60,
                      flood_clients=6, inbound_bytes_per_s=10**9,  # unpaced, so the flood reaches the ceiling
                      spellings=300, sockets=30)
    resources = r["resources"]
    assert resources["spellings_served"] == 300 and resources["page_file_bytes"] > 50_000
    assert resources["sockets_opened"] == 3 and resources["sockets_refused_statuses"] == [429], resources
    assert resources["after_sockets_closed"]["fds"] <= resources["while_sockets_held"]["fds"]
    browserless = r["browserless"]
    assert browserless["answered_200"] == 60 and browserless["kernels_started_by_browserless"] == 0
    assert browserless["learner_got_the_app"], browserless
    seats = r["seats"]
    assert seats["unconnected_statuses"] == [200, 200, 200]
    assert seats["connected_learners_served"] == 2 and seats["next_learner_refused"]
    assert seats["unconnected_kernels_still_running"] == 0 and seats["connected_kernels_still_running"] == 2
    tab = r["replaced_tab"]
    assert tab["replaced_close_code"] == 4001 and tab["replaced_kernel_gone"], tab
    assert tab["taken_back_close_code"] == 4001 and tab["taken_back_interactive"], tab
    flood = r["flood"]
    assert flood["messages_sent"] > 0 and flood["victim_kernel_ended"], flood
    assert flood["victim_kernel_peak_rss_mib"] < 1000
    assert flood["others_click_to_board_ms"]["n"] > 0 and flood["others_click_to_board_ms"]["failed"] == 0
    assert r["server_log_lines_out_of_memory"] >= 1
    verdict = r["verdict"]
    assert verdict["browserless_start_no_kernel"] and verdict["a_learner_gets_in_during_a_browserless_flood"]
    assert verdict["unconnected_pages_hold_no_seat"] and verdict["cap_reached_only_by_connected_pages"]
    assert verdict["replaced_tab_told"]
    assert verdict["page_file_spellings_bounded"] and verdict["sockets_per_kernel_bounded"]
    assert verdict["socket_descriptors_bounded"], resources
    assert flood["server_inbound_bytes_per_s"] == 10**9


def test_inbound_pace_lets_a_burst_through_then_slows_a_flood():
    import uu.server.pace
    import uu.server.patches

    now = [0.0]
    pace = uu.server.pace.InboundPace(rate=1000, burst=2000, clock=lambda: now[0])
    assert pace.wait(300) == 0 and pace.wait(1700) == 0  # a burst (a paste) passes at once
    assert pace.wait(500) == pytest.approx(0.5)  # then the rate: 500 bytes wait half a second
    now[0] = 10.0
    assert pace.wait(100) == 0  # refilled (up to the burst)
    assert uu.server.patches.patch_websocket_pace() and uu.server.patches.patch_websocket_pace()  # idempotent
    from voila.tornado.kernel_websocket_handler import VoilaKernelWebsocketHandler

    assert getattr(VoilaKernelWebsocketHandler, "_uu_paced", False)
