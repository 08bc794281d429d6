"""`uu bench --app`: how the Voila app feels to a class, measured on this machine.

    from uu.benchmarks.app_load import bench_app
    result = bench_app(learners=30, clicks=30)     # a JSON-able dict; prints nothing

Two kinds of learner. One learner in a real browser (headless Debian Chromium through Playwright, one browser
context per page), for what a learner sees. And emulated learners (`uu.benchmarks.learner.EmulatedLearner`): the page's
HTTP requests and kernel websocket messages without a browser, for a class. In a classroom every learner has a
computer of their own and only the server runs here; 30 Chromiums on this machine would measure mostly
themselves (the browser burst of earlier versions saw 0 of 30 pages interactive within 90 s), while 30
emulated learners cost the server what 30 pages cost it and this machine little else (`harness_cpu_s` says
how little; `server_cpu_s` is the server process's own CPU in each step).

`uu app` is started as `python -m uu.server.app --port N --no-browser --preheat N` (N = `preheat`, 0 by default here
whatever `uu app`'s own default) from an empty directory, exactly what a teacher runs. Wherever the benchmark
waits for the pool, it waits until the server and its kernels are idle: a pool kernel's process exists well
before it has run the notebook, and the earlier version, which counted processes, sent its bursts into a pool
still starting (see `uu.server.voila_config.IOPUB_TIMEOUT_S` for what that did). In order:

1. **cold start**, twice from a stopped server: launch -> port open -> `GET /` answered in full (the kernel
   started and ran the notebook) on the first launch; launch -> port open -> the home interactive in the
   browser (its lesson buttons visible and enabled) on the second. Everything below uses that second server.
2. **a new learner in the browser** on the warm server (with a pool, once it is ready): a fresh browser
   context opens the page until the home is interactive (`WARM_PAGES` times, one after the other). `breakdown_ms`: where the time goes, in ms since
   the navigation started, from the page's own clocks (Navigation/Resource Timing and marks set by a script
   that watches the kernel websocket): HTML received, DOMContentLoaded, the load event (every script the
   page needs before Voila starts), websocket created and open, `kernel_info_reply`, the widget states
   (`update_states`), interactive. The first page's same-host requests are kept as the emulated learners'
   asset list.
3. **click -> table update for that learner**, measured in the page (a MutationObserver on the table,
   no round trip through Playwright): on the play screen in step mode, each click is "Bot: next", or the
   learner's first move when it is the learner's turn (so every click changes the table; the game is dealt
   from a fixed seed, "Same deal every game", so the sequence is the same on every run). `clicks` clicks;
   also `settled`: until the screen stopped changing.
4. **the same learner emulated** (`emulated_one_learner`): steps 2 and 3 again with one emulated learner, on
   the same server in the same sitting, so the emulation can be compared with the browser. The emulated
   figures leave out the browser's own work (JavaScript, drawing).
5. **a burst**: `learners` emulated learners open the page at the same moment; the time until every one of
   them is interactive, each one's time and the median of each arrival step. With `preheat`, the burst
   starts once the pool has refilled after steps 2-4 (a class arriving some time after the teacher started
   the app).
6. **playing** (`play`): those learners open the play screen (step mode), then for `play_seconds` each one
   clicks after a think time drawn uniformly from `think` seconds (seeded): a learner reads the board between
   clicks. Click -> board update and click -> kernel idle, p50/p95; `by_window`: the same in 15-second
   windows, with how many pool kernels were ready again by each window's end. With `preheat` also when the
   pool had refilled after the burst (`pool_refilled_s`, from the burst's start; None if not within the
   play) and the clicks before and after.
7. **the tight loop** (`tight_loop`): the worst case, every learner clicking `clicks` times with no pause.
8. **memory**: RSS, USS and PSS of every kernel process, of the zygote the kernels are forked from
   (`uu.server.forkkernel`) and of the server (psutil), learners connected. `mib_per_learner` is a kernel's PSS
   (shared pages split among their sharers: forked kernels share the zygote's) plus its share of the
   server's growth; `mib_per_learner_rss` the same with RSS, which counts shared pages in every kernel.
9. **the server log** of the emulated steps: every warning or error line not on the list of known harmless
   ones (a faithful emulation causes none: no refused message types, nothing ignored).
10. **a class arriving** (`class_burst`): a second server started as a teacher starts it for a class, `uu app
   --class`, with the pool of kernels that keeps by default; once the pool is ready, `learners` emulated
   learners arrive together, as in step 5. Step 5 (`preheat` 0) is the worst case: a server with no kernel
   ready, or a pool a first class has just taken.

`browser_burst=True` adds the older measure: `learners` Chromium pages opening at once on this machine, then
all of them clicking (`browser_burst`, `browser_clicks_under_load`).

Targets (`TARGETS`, reported next to the figures, never asserted): p95 click -> update < 30 ms for one
learner and < 250 ms with 30 (the think-time model); a new learner interactive < 2.5 s (the browser, median);
30 arriving together all interactive < 6 s (emulated); < 100 MB per learner.
"""

from __future__ import annotations

import asyncio
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from uu.benchmarks.app_browser import (
    CHROME_ARGS,
    CHROMIUM,
    WARM_PAGES,
    browser_learner,
    median_breakdown,
    run_browser_burst,
)
from uu.benchmarks.crowd import arrive_together, click_summary, play, tight_loop
from uu.benchmarks.learner import EmulatedLearner
from uu.benchmarks.measures import Phase, log_trouble, memory, preheat_args, wait_for_pool
from uu.benchmarks.stats import summary
from uu.server.appserver import AppServer, open_page

__all__ = ["bench_app"]

# Issue #23's targets for the click and the class arriving together; the others are the earlier ones.
TARGETS = {"click_p95_ms_one_learner": 30, "click_p95_ms_under_load": 250, "new_learner_interactive_s": 2.5,
           "burst_all_interactive_s": 6, "mb_per_learner": 100}

# ---- the emulated part ------------------------------------------------------------------------------------
async def _emulated_one(url: str, assets: list[str], clicks: int) -> dict[str, Any]:
    """Step 4: the browser's single learner again, emulated (same server, same sitting)."""
    times: list[float | None] = []
    steps: list[dict[str, float]] = []
    problems: list[str] = []
    noise = 0
    for _ in range(WARM_PAGES):
        async with EmulatedLearner(url, assets=assets) as learner:
            times.append(await learner.arrive())
            steps.append(learner.timings)
            problems += learner.problems
            noise += learner.known_noise
    async with EmulatedLearner(url, assets=assets) as learner:
        await learner.arrive()
        await learner.open_play()
        done = [await learner.click() for _ in range(clicks)]
        problems += learner.problems
        noise += learner.known_noise
    return {"new_learner_interactive_s": {**summary(times),
                                          "step_medians_s": median_breakdown(steps, digits=3)},
            "click_to_board_ms": click_summary(done), "problems": problems[:10],
            "known_kernel_noise": noise}


async def _watch_pool(server: AppServer, since: int, t0: float, stop: asyncio.Event) -> list[float]:
    """Seconds since `t0` at which each pool kernel was ready again (Voila logs "is filled with" once per
    refill kernel, counted in the log after offset `since`)."""
    seen: list[float] = []
    while not stop.is_set():
        n = server.log_text()[since:].count("is filled with")
        while len(seen) < n:
            seen.append(round(time.perf_counter() - t0, 1))
        await asyncio.sleep(0.25)
    return seen


async def _emulated_class(server: AppServer, out: dict[str, Any], learners: int, clicks: int, preheat: int,
                          think: tuple[float, float], play_seconds: float, seed: int, assets: list[str]) -> None:
    """Steps 5-9 (see the module docstring)."""
    pid = server.proc.pid
    if preheat:
        out["burst_pool_wait_s"] = await asyncio.to_thread(wait_for_pool, pid, preheat)
    log_mark = len(server.log_text())
    mem_before = await asyncio.to_thread(memory, pid)
    t_burst = time.perf_counter()
    stop = asyncio.Event()
    watcher = asyncio.create_task(_watch_pool(server, log_mark, t_burst, stop)) if preheat else None
    class_: list[EmulatedLearner] = []
    try:
        phase = Phase(pid)
        class_, burst = await arrive_together(server.url, learners, assets)
        out["burst"] = {**burst, **phase.done()}
        ok = [x for x in class_ if x.home_ready()]

        phase = Phase(pid)
        opened = await asyncio.gather(*[x.open_play() for x in ok], return_exceptions=True)
        failed = [f"{type(e).__name__}: {e}" for e in opened if isinstance(e, BaseException)]
        ok = [x for x, e in zip(ok, opened, strict=True) if not isinstance(e, BaseException)]
        out["open_play"] = {"learners": len(ok), "errors": sorted(set(failed))[:5], **phase.done()}

        phase = Phase(pid)
        t_play = time.perf_counter()
        played = await play(ok, play_seconds, think, seed)
        out["play"] = {"learners": len(ok), "seconds": play_seconds,
                       "think_s": {"uniform": list(think), "seed": seed},
                       "clicks_per_s": round(len(played) / play_seconds, 2),
                       **click_summary([c for _, _, c in played]), **phase.done()}
        refills: list[float] = []
        if watcher is not None:
            stop.set()
            refills = await watcher
            watcher = None
            consumed = min(learners, preheat)
            done_at = refills[consumed - 1] if len(refills) >= consumed else None
            out["play"]["pool_refilled_s"] = done_at  # since the burst started; None: not within the play
            out["play"]["pool_kernels_refilled"] = f"{min(len(refills), consumed)} of {consumed}"
            if done_at is not None:
                cut = t_burst + done_at - t_play  # in the play phase's clock
                out["play"]["while_pool_refilled"] = click_summary([c for _, t, c in played if t < cut])
                out["play"]["after_pool_refilled"] = click_summary([c for _, t, c in played if t >= cut])
        out["play"]["by_window"] = _windows(played, play_seconds, refills, t_play - t_burst)

        phase = Phase(pid)
        out["tight_loop"] = {"learners": len(ok), "clicks_each": clicks,
                             **click_summary(await tight_loop(ok, clicks)), **phase.done()}

        mem = await asyncio.to_thread(memory, pid)
        out["memory"] = {"before_burst": mem_before, "with_learners": mem}
        if mem.get("kernels") and "server_rss_mib" in mem_before:
            growth = (mem["server_rss_mib"] or 0) - (mem_before.get("server_rss_mib") or 0)
            # PSS when the system gives it: with forked kernels, RSS counts the zygote's shared pages in each
            kernel = mem["kernel_pss_mib_median"] or mem["kernel_rss_mib_median"] or 0
            per = kernel + max(growth, 0) / max(mem["kernels"], 1)
            out["memory"]["mib_per_learner"] = round(per, 1)
            out["memory"]["mib_per_learner_rss"] = round(
                (mem["kernel_rss_mib_median"] or 0) + max(growth, 0) / max(mem["kernels"], 1), 1)
    finally:
        stop.set()
        if watcher is not None:
            watcher.cancel()
        await asyncio.gather(*[x.leave() for x in class_], return_exceptions=True)
        problems = [p for x in class_ for p in x.problems]
        out["emulation_problems"] = {"count": len(problems), "first": sorted(set(problems))[:5],
                                     "known_kernel_noise": sum(x.known_noise for x in class_)}
        await asyncio.sleep(1.0)  # the shutdown beacons' log lines
        trouble = log_trouble(server.log_text()[log_mark:])
        out["server_log"] = {"warnings_or_errors": len(trouble), "first": trouble[:5]}


async def _class_burst(workdir: Path, learners: int, assets: list[str]) -> dict[str, Any]:
    """Step 10: `learners` arriving together at the app as a teacher serves a class, `uu app --class`, with the
    pool of kernels it keeps by default (`uu.server.app.pool_size`), once that pool is ready."""
    from uu.server.app import pool_size

    cap = learners + WARM_PAGES + 10
    pool = pool_size(None, class_view=True, cap=cap)  # what `uu app --class` keeps under the server's cap
    (workdir / "class").mkdir(exist_ok=True)
    server = AppServer(workdir / "class", max_kernels=cap, extra_args=("--class",))
    class_: list[EmulatedLearner] = []
    try:
        await asyncio.to_thread(server.wait_ready)
        out: dict[str, Any] = {"command": "uu app --class", "pool": pool,
                               "pool_wait_s": await asyncio.to_thread(wait_for_pool, server.proc.pid, pool)}
        phase = Phase(server.proc.pid)
        class_, burst = await arrive_together(server.url, learners, assets)
        return {**out, **burst, **phase.done()}
    finally:
        await asyncio.gather(*[x.leave() for x in class_], return_exceptions=True)
        server.stop()


def _windows(played: list[tuple[int, float, Any]], seconds: float, refills: list[float], offset: float,
             width: float = 15.0) -> list[dict[str, Any]]:
    """The play phase in `width`-second windows: clicks, p50/p95 of click -> board, and how many pool kernels
    were ready again by the window's end (`refills`: seconds since the burst; `offset`: the play's start in
    that clock)."""
    out = []
    start = 0.0
    while start < seconds:
        end = min(start + width, seconds)
        part = summary([c.board_ms for _, t, c in played if start <= t < end], digits=1)
        out.append({"from_s": start, "to_s": end, "clicks": part["n"], "median_ms": part["median"],
                    "p95_ms": part["p95"], "pool_kernels_refilled": sum(r <= offset + end for r in refills)})
        start = end
    return out


async def _run(learners: int, clicks: int, workdir: Path, out: dict[str, Any], preheat: int,
               think: tuple[float, float], play_seconds: float, seed: int, browser_burst: bool) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS, headless=True)
        server = AppServer(workdir, max_kernels=learners + WARM_PAGES + 10, extra_args=preheat_args(preheat))
        try:
            try:
                assets = await browser_learner(browser, server, clicks, out, preheat)
                out["assets_recorded"] = len(assets)
                if preheat:  # the emulated learner, too, gets a page from a full pool
                    out["emulated_pool_wait_s"] = await asyncio.to_thread(wait_for_pool, server.proc.pid, preheat)
                log_mark = len(server.log_text())
                out["emulated_one_learner"] = await _emulated_one(server.url, assets, clicks)
                trouble = log_trouble(server.log_text()[log_mark:])
                out["emulated_one_learner"]["server_log"] = {"warnings_or_errors": len(trouble),
                                                             "first": trouble[:5]}
                await asyncio.sleep(1.0)  # the beacons free the kernels of the pages above
                await _emulated_class(server, out, learners, clicks, preheat, think, play_seconds, seed, assets)
                out["class_burst"] = await _class_burst(workdir, learners, assets)
                if browser_burst:
                    if preheat:
                        out["browser_burst_pool_wait_s"] = await asyncio.to_thread(
                            wait_for_pool, server.proc.pid, preheat)
                    await run_browser_burst(browser, server, learners, clicks, out)
            finally:
                await browser.close()
        except Exception:
            out["server_log_tail"] = server.log_tail(1500)
            raise
        finally:
            server.stop()


def bench_app(learners: int = 30, clicks: int = 30, preheat: int = 0, think: tuple[float, float] = (2.0, 4.0),
              play_seconds: float = 60.0, seed: int = 0, browser_burst: bool = False) -> dict[str, Any]:
    """Measure the served app (see the module docstring). Returns JSON-able data; prints nothing.
    On a failure the figures gathered so far are returned with an `error` entry."""
    import voila

    from uu.server import forkkernel
    from uu.server.patches import NODELAY_ENV

    out: dict[str, Any] = {
        "learners": learners, "clicks": clicks, "voila": getattr(voila, "__version__", "?"),
        "tcp_nodelay": os.environ.get(NODELAY_ENV, "1").strip() != "0", "fork_kernels": forkkernel.enabled(),
        "cpus": os.cpu_count(),
        "load_average_before": _loadavg(), "chromium": CHROMIUM, "preheat": preheat, "targets": TARGETS,
        "cold_start": {}}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="uu-bench-app-") as tmp:
        workdir = Path(tmp)
        try:
            if not Path(CHROMIUM).exists():
                raise RuntimeError(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)")
            # 1a. cold start over HTTP: launch -> port open -> GET / answered in full
            with AppServer(workdir, max_kernels=5, extra_args=preheat_args(preheat)) as server:
                port_s = server.wait_port()
                status, page, _token = open_page(server.url)  # the first page, then the page with its ticket
                body = page.encode()
                http_s = time.perf_counter() - server.t0
                out["cold_start"].update({"port_open_s": round(port_s, 3), "http_200_s": round(http_s, 3),
                                          "http_status": status, "page_kb": round(len(body) / 1024, 1),
                                          "kernel_ran": b'"kernelId"' in body})
            asyncio.run(_run(learners, clicks, workdir, out, preheat, think, play_seconds, seed, browser_burst))
        except Exception as e:  # report what was measured and why it stopped
            out["error"] = f"{type(e).__name__}: {e}"
    out["load_average_after"] = _loadavg()
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["meets_targets"] = _verdict(out)
    return out


def _loadavg() -> list[float] | None:
    """The machine's load averages (1, 5, 15 min): other work on the machine shows here."""
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def _verdict(out: dict[str, Any]) -> dict[str, bool | None]:
    def get(*keys: str) -> Any:
        d: Any = out
        for k in keys:
            d = d.get(k) if isinstance(d, dict) else None
        return d

    def under(value: Any, target: float) -> bool | None:
        return None if value is None else value < target

    mib = get("memory", "mib_per_learner")
    return {
        "click_p95_ms_one_learner": under(get("click_to_board_ms_one_learner", "p95"),
                                          TARGETS["click_p95_ms_one_learner"]),
        "click_p95_ms_under_load": under(get("play", "p95"), TARGETS["click_p95_ms_under_load"]),
        "new_learner_interactive_s": under(get("new_learner_interactive_s", "median"),
                                           TARGETS["new_learner_interactive_s"]),
        "burst_all_interactive_s": under(get("burst", "all_interactive_s"), TARGETS["burst_all_interactive_s"]),
        "class_burst_all_interactive_s": under(get("class_burst", "all_interactive_s"),
                                               TARGETS["burst_all_interactive_s"]),
        "mb_per_learner": under(None if mib is None else mib * 1.048576, TARGETS["mb_per_learner"]),
    }


if __name__ == "__main__":  # python -m uu.benchmarks.app_load [learners] [clicks]: a quick run by hand
    import json

    counts = [int(a) for a in sys.argv[1:3]] + [30, 30]
    print(json.dumps(bench_app(learners=counts[0], clicks=counts[1]), indent=2))
