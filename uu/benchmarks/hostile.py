"""`uu bench --app --hostile`: a careless or hostile visitor against a local `uu app`, measured.

Everything runs against a server this command starts on 127.0.0.1 (`AppServer`), never another host, and every
part is bounded in count and time:

0. What one visitor can make the server hold (first, on the fresh server). `spellings` GETs of one page file
   (the largest labextension file) each spelled with other extra slashes, then `sockets` websockets to one
   page's kernel. Figures: the server's memory (RSS) and open file descriptors before, after the spellings,
   while the sockets are held and after they close; how many sockets opened (the bound: 3 per kernel,
   uu/server/kernels.py). Before issue #39 the spellings cost a copy each (hundreds of MiB) and the sockets
   about 7 descriptors each.

1. Browserless flood. `browserless` GETs of `/` from 127.0.0.1 (as behind a reverse proxy: no limit per
   address), without cookies, `flood_clients` at a time, while one emulated learner arrives (the cap is
   `cap`). Figures: the kernels those requests started (target 0: they get the first page,
   uu/server/shell.py), how many got an answer, and whether the learner got the app and in how long.
2. Seats. `bare` pages that run the first page's script but never connect (a tab closed at once, or a
   script that follows the ticket), then `cap` emulated learners whose pages connect, then one more learner.
   Figures: how many connected learners got in (target: all `cap`, the unconnected pages took no seat),
   whether the next one was refused (the cap holds), and, `connect_timeout` + a margin after the last
   unconnected page, how many of their kernels still run (target 0).
3. Replaced tab. A learner's page, then a second page of the same browser (its seat cookie), then the first
   takes the seat back. Figures: the close code the replaced page's websocket got (4001: "This tutor is open
   in another tab", uu/server/kernels.py) and how long after the new page's request, and whether the replaced
   kernel is gone.
4. Flood. `clickers` learners play (one click every `think` seconds) while one more page sends widget-creation
   messages of `flood_bytes` each (under the websocket's message limit) as fast as the server takes them,
   until `flood_messages`, `flood_seconds` or its kernel ends. Figures: the flooded kernel's peak memory (RSS;
   target: bounded by its ceiling, `UU_KERNEL_MEMORY_MB` of address space), whether it ended, and the
   others' click -> board p95 (target under 250 ms).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import os
import re
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

from tornado.httpclient import AsyncHTTPClient

from uu.benchmarks.crowd import click_summary
from uu.benchmarks.learner import EmulatedLearner
from uu.benchmarks.voila_wire import LearnerError, fetch_keepalive
from uu.server.appserver import AppServer, open_page
from uu.server.assetfiles import MAX_KEPT_TOTAL
from uu.server.forkkernel import DEFAULT_MEMORY_MB, MEMORY_ENV
from uu.server.kernels import MAX_SOCKETS_PER_KERNEL, REPLACED

__all__ = ["bench_hostile", "largest_page_file"]

_KERNEL_ID = re.compile(r'"kernelId":\s*"([0-9a-f-]{36})"')
WIDGET_PROTOCOL = "2.1.0"  # ipywidgets 8's; a comm_open without it creates no widget
MARGIN_S = 10.0
PACE_EVERY = 5  # flood messages between two waits for the kernel's reply  # after the time to connect: the reaper's interval and a shutdown


async def _status(url: str) -> tuple[int, str]:
    resp = await AsyncHTTPClient().fetch(url, raise_error=False, request_timeout=120)
    return resp.code, (resp.body or b"").decode(errors="replace")


async def _alive(base: str, kernel_id: str) -> bool:
    return (await _status(f"{base}api/kernels/{kernel_id}"))[0] == 200


def _kernel_pids(server: AppServer) -> set[int]:
    import psutil

    out: set[int] = set()
    for child in psutil.Process(server.proc.pid).children():
        if "uu.server.forkkernel" in " ".join(child.cmdline()):
            out |= {k.pid for k in child.children()}
        elif "ipykernel" in " ".join(child.cmdline()):
            out.add(child.pid)
    return out


def _rss_mib(pid: int) -> float | None:
    import psutil

    try:
        return psutil.Process(pid).memory_info().rss / 2**20
    except psutil.Error:
        return None


def largest_page_file() -> str:
    """The largest file of the widget manager's or anywidget's labextension (100-200 KB), as a path under
    /voila/labextensions/."""
    import jupyter_core.paths

    found = []
    for root in jupyter_core.paths.jupyter_path("labextensions"):
        for name in ("anywidget", "@jupyter-widgets/jupyterlab-manager"):
            for f in (Path(root) / name).rglob("*.js"):
                found.append((f.stat().st_size, f.relative_to(root).as_posix()))
    if not found:
        raise RuntimeError("no labextension files: is anywidget installed?")
    return max(found)[1]


def spellings_of(path: str, n: int) -> list[str]:
    """`n` distinct spellings of a labextension file's path: extra slashes before and after its `static/`."""
    head, _, tail = path.partition("/static/")
    return [f"/voila/labextensions/{head}/{'/' * (k % 50)}static/{'/' * (k // 50)}{tail}" for k in range(n)]


def _usage(server: AppServer) -> dict[str, float]:
    import psutil

    p = psutil.Process(server.proc.pid)
    return {"rss_mib": round(p.memory_info().rss / 2**20, 1), "fds": p.num_fds()}


async def _one_socket(base: str, kernel_id: str) -> Any:
    """A kernel websocket as a page opens it: the connection, or the HTTP status it was refused with."""
    from tornado.httpclient import HTTPClientError, HTTPRequest
    from tornado.websocket import websocket_connect

    from uu.benchmarks.learner import PROTOCOL

    host = base.split("//", 1)[1].rstrip("/")
    request = HTTPRequest(f"ws://{host}/api/kernels/{kernel_id}/channels?session_id={uuid.uuid4()}",
                          headers={"Origin": f"http://{host}"}, connect_timeout=60, request_timeout=60)
    try:
        return await websocket_connect(request, subprotocols=[PROTOCOL])
    except HTTPClientError as e:
        return e.code


async def _resources(server: AppServer, spellings: int, sockets: int) -> dict[str, Any]:
    out: dict[str, Any] = {"before": _usage(server)}
    path = largest_page_file()
    port = int(server.url.rsplit(":", 1)[1].strip("/"))
    fetched = await fetch_keepalive("127.0.0.1", port, spellings_of(path, spellings), 6, 120)
    out["page_file"] = path
    out["page_file_bytes"] = max((len(b) for b in fetched.values() if isinstance(b, bytes)), default=0)
    out["spellings"] = spellings
    out["spellings_served"] = sum(isinstance(b, bytes) for b in fetched.values())
    out["after_spellings"] = _usage(server)
    status, page, _token = await asyncio.to_thread(open_page, server.url)
    found = _KERNEL_ID.search(page)
    if status != 200 or found is None:
        out["sockets_problem"] = f"no page: HTTP {status}"
        return out
    kernel_id = found.group(1)
    got = [await _one_socket(server.url, kernel_id) for _ in range(sockets)]
    opened = [ws for ws in got if not isinstance(ws, int)]
    out["sockets"] = sockets
    out["sockets_opened"] = len(opened)
    out["sockets_refused_statuses"] = sorted({ws for ws in got if isinstance(ws, int)})
    out["while_sockets_held"] = _usage(server)
    for ws in opened:
        ws.close()
    await asyncio.sleep(2)
    out["after_sockets_closed"] = _usage(server)
    await AsyncHTTPClient().fetch(f"{server.url}voila/api/shutdown/{kernel_id}", method="POST", body="_xsrf=",
                                  raise_error=False)
    return out


async def _unconnected_page(base: str) -> tuple[int, str]:
    """A page whose script ran (the first page, then the page with its ticket) and that never connects."""
    status, page, _token = await asyncio.to_thread(open_page, base, None, 120)
    return status, page


async def _browserless(server: AppServer, cap: int, requests: int, clients: int) -> dict[str, Any]:
    base = server.url
    started_before = server.log_text().count("Kernel started:")
    statuses: list[int] = []
    queue = list(range(requests))

    async def client() -> None:
        http = AsyncHTTPClient(force_instance=True)
        try:
            while queue:
                queue.pop()
                resp = await http.fetch(base, raise_error=False, request_timeout=60)
                statuses.append(resp.code)
        finally:
            http.close()

    t0 = time.perf_counter()
    flood = [asyncio.create_task(client()) for _ in range(clients)]
    await asyncio.sleep(0.5)  # the flood is under way when the learner arrives
    learner = EmulatedLearner(base, timeout=120)
    got_in, arrive_s, why = False, None, ""
    try:
        arrive_s = round(await learner.arrive(), 2)
        got_in = True
    except LearnerError as e:
        why = str(e)
    finally:
        await asyncio.gather(*flood)
        flood_s = time.perf_counter() - t0
        await learner.leave()
    started = server.log_text().count("Kernel started:") - started_before
    return {"browserless_gets": requests, "at_once": clients, "cap": cap, "flood_s": round(flood_s, 1),
            "answered_200": statuses.count(200), "other_statuses": sorted(set(statuses) - {200}),
            "kernels_started": started, "kernels_started_by_browserless": started - (1 if got_in else 0),
            "learner_got_the_app": got_in, "learner_interactive_s": arrive_s, "learner_problem": why}


async def _seats(server: AppServer, cap: int, bare: int, connect_timeout: float) -> dict[str, Any]:
    base = server.url
    t0 = time.perf_counter()
    bare_ids: list[str] = []
    statuses: list[int] = []
    for _ in range(bare):
        code, page = await _unconnected_page(base)
        statuses.append(code)
        found = _KERNEL_ID.search(page)
        if found:
            bare_ids.append(found.group(1))
    t_bare = time.perf_counter()  # the last unconnected page was handed out: its time to connect starts
    learners = [EmulatedLearner(base, timeout=120) for _ in range(cap)]
    served = 0
    try:
        for learner in learners:
            try:
                await learner.arrive()
                served += 1
            except LearnerError:
                pass
        extra = EmulatedLearner(base, timeout=120)
        try:
            await extra.arrive()
            over_cap_refused = False
        except LearnerError as e:
            over_cap_refused = "503" in str(e) or "full" in str(e)
        finally:
            await extra.leave()
        wait = connect_timeout + MARGIN_S - (time.perf_counter() - t_bare)
        if wait > 0:
            await asyncio.sleep(wait)
        held = sum([await _alive(base, k) for k in bare_ids])
        still_seated = sum([await _alive(base, x.kernel_id) for x in learners if x.kernel_id])
    finally:
        for learner in learners:
            await learner.leave()
    return {"unconnected_pages": bare, "unconnected_statuses": statuses,
            "connected_learners_served": served, "cap": cap, "next_learner_refused": over_cap_refused,
            "unconnected_pages_s": round(t_bare - t0, 1),
            "checked_s_after_the_last_unconnected_page": round(time.perf_counter() - t_bare, 1),
            "unconnected_kernels_still_running": held, "connected_kernels_still_running": still_seated}


async def _replaced_tab(server: AppServer) -> dict[str, Any]:
    """One browser (one seat cookie), two tabs: the second takes the seat, then the first takes it back."""
    base = server.url
    first = EmulatedLearner(base, timeout=120)
    second = EmulatedLearner(base, timeout=120)
    out: dict[str, Any] = {}
    try:
        await first.arrive()
        second.seat_token = first.seat_token
        t0 = time.perf_counter()
        await second.arrive()
        for _ in range(100):  # told at once: wait at most 5 s for the close to arrive here
            if first.closed_at is not None:
                break
            await asyncio.sleep(0.05)
        out["replaced_close_code"] = first.close_code
        out["replaced_told_ms"] = (round((first.closed_at - t0) * 1000) if first.closed_at else None)
        out["replaced_kernel_gone"] = first.kernel_id is not None and not await _alive(base, first.kernel_id)
        back = EmulatedLearner(base, timeout=120, seat_token=first.seat_token)  # "Use it here": a reload
        t1 = time.perf_counter()
        await back.arrive()
        for _ in range(100):
            if second.closed_at is not None:
                break
            await asyncio.sleep(0.05)
        out["taken_back_close_code"] = second.close_code
        out["taken_back_told_ms"] = round((second.closed_at - t1) * 1000) if second.closed_at else None
        out["taken_back_interactive"] = back.home_ready()
        await back.leave()
    finally:
        for learner in (first, second):
            await learner.leave()
    return out


def _widget_message(size: int) -> dict[str, Any]:
    """A comm_open creating an HTML widget whose value is `size` characters (as a forged page could)."""
    state = {"_model_name": "HTMLModel", "_model_module": "@jupyter-widgets/controls",
             "_model_module_version": "2.0.0", "_view_name": "HTMLView",
             "_view_module": "@jupyter-widgets/controls", "_view_module_version": "2.0.0", "value": "x" * size}
    return {"comm_id": str(uuid.uuid4()), "target_name": "jupyter.widget",
            "data": {"state": state, "buffer_paths": []}}


async def _flood(server: AppServer, clickers: int, think: float, flood_messages: int, flood_bytes: int,
                 flood_seconds: float) -> dict[str, Any]:
    base = server.url
    players = [EmulatedLearner(base, timeout=120) for _ in range(clickers)]
    victim = EmulatedLearner(base, timeout=120)
    clicks = []
    peak: dict[str, float] = {"victim": 0.0}
    stop = asyncio.Event()
    try:
        for p in players:
            await p.arrive()
            await p.open_play()
        before = _kernel_pids(server)
        await victim.arrive()
        new = sorted(_kernel_pids(server) - before)
        victim_pid = new[0] if len(new) == 1 else None

        async def play(p: EmulatedLearner) -> None:
            while not stop.is_set():
                try:
                    clicks.append(await p.click())
                except LearnerError:
                    pass
                await asyncio.sleep(think)

        async def watch() -> None:
            while not stop.is_set():
                rss = _rss_mib(victim_pid) if victim_pid else None
                if rss is not None:
                    peak["victim"] = max(peak["victim"], rss)
                await asyncio.sleep(0.25)

        sent = 0
        tasks = [asyncio.create_task(play(p)) for p in players] + [asyncio.create_task(watch())]
        t0 = time.perf_counter()
        ended_by = "messages"
        body = _widget_message(flood_bytes)
        while sent < flood_messages:
            if time.perf_counter() - t0 > flood_seconds:
                ended_by = "time"
                break
            if victim_pid is not None and _rss_mib(victim_pid) is None:
                ended_by = "kernel ended"
                break
            try:
                body["comm_id"] = str(uuid.uuid4())
                await victim.send("comm_open", body, metadata={"version": WIDGET_PROTOCOL})
                sent += 1
                if sent % PACE_EVERY == 0:  # as fast as the server takes them, not into this process's buffer
                    await asyncio.wait_for(victim.request("kernel_info_request", {}),
                                           max(1.0, flood_seconds - (time.perf_counter() - t0)))
            except TimeoutError:
                ended_by = "time"
                break
            except Exception:
                ended_by = "kernel ended" if victim_pid and _rss_mib(victim_pid) is None else "connection closed"
                break
        if ended_by != "kernel ended":  # until the kernel has handled them all (a reply comes after them)
            try:
                await asyncio.wait_for(victim.request("kernel_info_request", {}), flood_seconds)
            except (LearnerError, TimeoutError):
                pass
        flood_s = time.perf_counter() - t0
        await asyncio.sleep(3 * think + 1)  # clicks after the flood count too
        stop.set()
        await asyncio.gather(*tasks, return_exceptions=True)
        victim_ended = victim_pid is not None and _rss_mib(victim_pid) is None
    finally:
        stop.set()
        for p in [*players, victim]:
            await p.leave()
    ceiling = os.environ.get(MEMORY_ENV)
    from uu.server.pace import inbound_rate

    return {"server_inbound_bytes_per_s": inbound_rate(),"messages_sent": sent, "message_bytes": flood_bytes, "flood_s": round(flood_s, 1),
            "flood_ended_by": ended_by, "victim_kernel_peak_rss_mib": round(peak["victim"], 1),
            "victim_kernel_ended": victim_ended, "kernel_memory_ceiling_mib": ceiling,
            "others_click_to_board_ms": click_summary(clicks)}


def bench_hostile(cap: int = 3, bare: int = 5, connect_timeout: float = 60.0, clickers: int = 2,
                  think: float = 0.5, flood_messages: int = 2000, flood_bytes: int = 900_000,
                  flood_seconds: float = 120.0, kernel_memory_mb: int = DEFAULT_MEMORY_MB,
                  inbound_bytes_per_s: int | None = None, browserless: int = 300, flood_clients: int = 20,
                  spellings: int = 2000, sockets: int = 300, workdir: Path | None = None) -> dict[str, Any]:
    """The five parts against one `uu app --preheat 0` on loopback (see the module docstring); one JSON
    object. `inbound_bytes_per_s`: the server's pace for what one page sends (None: `uu app`'s own, see
    `uu.server.pace.InboundPace`)."""
    spellings = max(1, min(spellings, 2500))  # distinct spellings: up to 50 x 50
    sockets = max(1, min(sockets, 1000))
    bare = max(0, min(bare, 50))
    browserless = max(0, min(browserless, 2000))
    flood_clients = max(1, min(flood_clients, 50))
    flood_messages = max(0, min(flood_messages, 10_000))
    flood_seconds = max(1.0, min(flood_seconds, 600.0))
    out: dict[str, Any] = {"bench": "app-hostile", "server": "127.0.0.1 (loopback only)"}
    from uu.server.pace import INBOUND_ENV

    saved = {name: os.environ.get(name) for name in (MEMORY_ENV, INBOUND_ENV)}
    os.environ[MEMORY_ENV] = str(kernel_memory_mb)  # the server and its kernels inherit these
    if inbound_bytes_per_s is not None:
        os.environ[INBOUND_ENV] = str(inbound_bytes_per_s)
    try:
        with tempfile.TemporaryDirectory(prefix="uu-bench-hostile-") as tmp:
            folder = workdir or Path(tmp)
            # every page of this bench comes from this machine (127.0.0.1, as behind a reverse proxy), which
            # has no limit of pages per address
            with AppServer(folder, max_kernels=cap, connect_timeout=connect_timeout,
                           extra_args=("--preheat", "0")) as server:
                server.wait_ready()

                async def run() -> None:
                    out["resources"] = await _resources(server, spellings, sockets)
                    out["browserless"] = await _browserless(server, cap, browserless, flood_clients)
                    out["seats"] = await _seats(server, cap, bare, connect_timeout)
                    out["replaced_tab"] = await _replaced_tab(server)
                    out["flood"] = await _flood(server, min(clickers, cap - 1), think, flood_messages,
                                                flood_bytes, flood_seconds)

                # in a thread of its own: the caller may have an event loop running (pytest-playwright's sync
                # API leaves one), and asyncio.run refuses to start inside one
                with concurrent.futures.ThreadPoolExecutor(1) as pool:
                    pool.submit(asyncio.run, run()).result()
                out["server_log_lines_out_of_memory"] = server.log_text().count("uu kernel: out of memory")
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
    b, s, t, f = out["browserless"], out["seats"], out["replaced_tab"], out["flood"]
    r = out["resources"]
    p95 = f["others_click_to_board_ms"].get("p95")
    kept_mib = MAX_KEPT_TOTAL / 2**20
    out["verdict"] = {
        # the page files kept (at most MAX_KEPT_TOTAL) and a few MiB of the server's own buffers
        "page_file_spellings_bounded": r["after_spellings"]["rss_mib"] - r["before"]["rss_mib"] <= kept_mib + 8,
        "sockets_per_kernel_bounded": r.get("sockets_opened") == MAX_SOCKETS_PER_KERNEL,
        # each open kernel websocket: its socket and the ZeroMQ sockets of the kernel's channels (about 7)
        "socket_descriptors_bounded": "while_sockets_held" in r and (
            r["while_sockets_held"]["fds"] - r["after_spellings"]["fds"] <= 12 * MAX_SOCKETS_PER_KERNEL + 12),
        "browserless_start_no_kernel": b["kernels_started_by_browserless"] == 0,
        "a_learner_gets_in_during_a_browserless_flood": b["learner_got_the_app"],
        "unconnected_pages_hold_no_seat": s["unconnected_kernels_still_running"] == 0,
        "cap_reached_only_by_connected_pages": s["connected_learners_served"] == cap and s["next_learner_refused"],
        "replaced_tab_told": t.get("replaced_close_code") == REPLACED and t.get("replaced_kernel_gone") is True,
        "flooded_kernel_bounded": f["victim_kernel_peak_rss_mib"] <= kernel_memory_mb,
        "others_click_p95_under_250ms": p95 is not None and p95 < 250,
    }
    return out

if __name__ == "__main__":
    print(json.dumps(bench_hostile()))
