"""`uu bench --app`: how the Voila app feels to a class, measured on this machine.

    from uu.bench_app import bench_app
    result = bench_app(learners=30, clicks=30)     # a JSON-able dict; prints nothing

Two kinds of learner. One learner in a real browser (headless Debian Chromium through Playwright, one browser
context per page), for what a learner sees. And emulated learners (`uu.bench_ws.EmulatedLearner`): the page's
HTTP requests and kernel websocket messages without a browser, for a class. In a classroom every learner has a
computer of their own and only the server runs here; 30 Chromiums on this machine would measure mostly
themselves (the browser burst of earlier versions saw 0 of 30 pages interactive within 90 s), while 30
emulated learners cost the server what 30 pages cost it and this machine little else (`harness_cpu_s` says
how little; `server_cpu_s` is the server process's own CPU in each step).

`uu app` is started as `python -m uu.app --port N --no-browser --preheat N` (N = `preheat`, 0 by default here
whatever `uu app`'s own default) from an empty directory, exactly what a teacher runs. Wherever the benchmark
waits for the pool, it waits until the server and its kernels are idle: a pool kernel's process exists well
before it has run the notebook, and the earlier version, which counted processes, sent its bursts into a pool
still starting (see `uu.voila_config.IOPUB_TIMEOUT_S` for what that did). In order:

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
   learner's first move when it is the learner's turn (so every click changes the table; the game is seeded,
   so the sequence is the same on every run). `clicks` clicks; also `settled`: until the screen stopped
   changing.
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
   (`uu.forkkernel`) and of the server (psutil), learners connected. `mib_per_learner` is a kernel's PSS
   (shared pages split among their sharers: forked kernels share the zygote's) plus its share of the
   server's growth; `mib_per_learner_rss` the same with RSS, which counts shared pages in every kernel.
9. **the server log** of the emulated steps: every warning or error line not on the list of known harmless
   ones (a faithful emulation causes none: no refused message types, nothing ignored).

`browser_burst=True` adds the older measure: `learners` Chromium pages opening at once on this machine, then
all of them clicking (`browser_burst`, `browser_clicks_under_load`).

Targets (reported next to the figures, never asserted): p95 click -> update < 50 ms for one learner and
< 250 ms with 30 (the think-time model); a new learner interactive < 2.5 s (the browser, median); 30
arriving together all interactive < 10 s (emulated); < 100 MB per learner.
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from uu.appserver import AppServer
from uu.bench_ws import (
    EmulatedLearner,
    arrive_together,
    click_summary,
    play,
    summary,
    tight_loop,
)

__all__ = ["CHROME_ARGS", "CHROMIUM", "HOME_READY", "bench_app", "click_latency_js"]

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Debian's Chromium through Playwright (no downloaded browser); see docs/jupyter-notes.md.
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The home screen is interactive when its lesson buttons are drawn (widgets render once the page's widget
# manager is connected to the kernel) and enabled.
HOME_READY = ".uu-home-screen button.uu-open-lesson:not([disabled])"
WARM_PAGES = 5
PAGE_TIMEOUT_MS = 90_000
TARGETS = {"click_p95_ms_one_learner": 50, "click_p95_ms_under_load": 250, "new_learner_interactive_s": 2.5,
           "burst_all_interactive_s": 10, "mb_per_learner": 100}
# Server log lines that every kernel start or page visit writes and that say nothing is wrong.
HARMLESS_LOG = ("is not trusted", "Kernel is running over TCP without encryption", "websocket_ping_timeout",
                "Setting websocket_ping_timeout", "Starting buffering for", "Adapting from protocol version",
                "Kernel started:", "Kernel shutdown:", "Using pre-heated kernel", "is filled with",
                "Culling kernels", "Voilà is running at", "the tutor is at")
_TROUBLE = re.compile(r"WARNING|ERROR|CRITICAL|Traceback|not allowed|Ignoring|Exception", re.I)

# In the page, before any of its scripts: marks (ms since the navigation started) for `breakdown_ms`. It
# wraps WebSocket to see when the kernel websocket is created and opened, and reads the header of each
# binary frame (jupyter_server's v1 protocol, see uu.bench_ws.encode_v1) for the kernel_info_reply and the
# widget states; a MutationObserver sees the home become interactive.
_MARKS_JS = """
(() => {
  const marks = window.__uuMarks = {};
  const ready = %s;
  const Native = window.WebSocket;
  const text = new TextDecoder();
  window.WebSocket = class extends Native {
    constructor(...args) {
      super(...args);
      marks.wsCreate ??= performance.now();
      this.addEventListener('open', () => { marks.wsOpen ??= performance.now(); });
      this.addEventListener('message', (ev) => {
        const now = performance.now();
        if (!(ev.data instanceof ArrayBuffer)) return;
        try {
          const v = new DataView(ev.data);
          const n = Number(v.getBigUint64(0, true));
          const at = i => Number(v.getBigUint64(8 * (i + 1), true));
          const part = (i, j) => text.decode(new Uint8Array(ev.data, at(i), at(j) - at(i)));
          const type = JSON.parse(part(1, 2)).msg_type;
          if (type === 'kernel_info_reply') marks.kernelInfo ??= now;
          if (type === 'comm_msg' && marks.states === undefined && ev.data.byteLength > 4096
              && n > 5 && part(4, 5).includes('"update_states"')) marks.states = now;
        } catch (e) { marks.error = String(e); }
      });
    }
  };
  const seen = new MutationObserver(() => {
    if (marks.interactive === undefined && document.querySelector(ready)) {
      marks.interactive = performance.now(); seen.disconnect(); }
  });
  document.addEventListener('DOMContentLoaded', () =>
    seen.observe(document.body, {subtree: true, childList: true, attributes: true}));
})();
""" % repr(HOME_READY)

_BREAKDOWN_JS = """
() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const res = performance.getEntriesByType('resource');
  const m = window.__uuMarks || {};
  return {html: nav.responseEnd, domContentLoaded: nav.domContentLoadedEventEnd, load: nav.loadEventEnd,
          wsCreated: m.wsCreate, wsOpen: m.wsOpen, kernelInfo: m.kernelInfo, states: m.states,
          interactive: m.interactive, requests: res.length + 1,
          kbytes: (res.reduce((a, r) => a + r.encodedBodySize, 0) + nav.encodedBodySize) / 1024};
}
"""

# In the page: click, then time until the table is drawn again. Before the next click it waits until the
# screen has been quiet for `settle` ms, so the next button is picked from the fully updated screen.
_CLICK_JS = """
async ({n, timeoutMs, settleMs}) => {
  const root = document.querySelector('.uu-play-screen');
  const view = () => root.querySelector('.uu-t');
  const shown = (b) => b && !b.disabled && b.offsetParent !== null;
  // the next button: "Bot: next", else the learner's first move, else (game over) "New game"; waits for
  // one to be on offer (the choices may still be arriving after the board)
  const pickNow = () => {
    const bot = root.querySelector('button.uu-bot-next');
    if (shown(bot)) return bot;
    // the table's first move, from its list of moves (one click, one action: the list may be folded)
    const act = root.querySelector('.uu-t button.uu-t-move');
    if (act) return act;
    return root.querySelector('.uu-result .uu-banner') ? root.querySelector('button.uu-new-game') : null;
  };
  const pick = async () => {
    const until = performance.now() + timeoutMs;
    let b = pickNow();
    while (!b && performance.now() < until) { await new Promise(r => setTimeout(r, 5)); b = pickNow(); }
    return b || root.querySelector('button.uu-new-game');
  };
  // resolves with the time of the last change seen on the screen once it has been quiet for settleMs
  const quiet = () => new Promise(res => {
    let last = null;
    let timer = setTimeout(done, settleMs);
    const giveUp = setTimeout(done, 3000);
    const obs = new MutationObserver(() => {
      last = performance.now(); clearTimeout(timer); timer = setTimeout(done, settleMs); });
    obs.observe(root, {subtree: true, childList: true, characterData: true, attributes: true});
    function done() { obs.disconnect(); clearTimeout(timer); clearTimeout(giveUp); res(last); }
  });
  const out = [];
  for (let i = 0; i < n; i++) {
    const btn = await pick();
    // the table drawn again: its data-version changes (marking the click itself changes other attributes)
    const table = view();
    const changed = new Promise(res => {
      const obs = new MutationObserver(() => { obs.disconnect(); clearTimeout(t); res(performance.now()); });
      const t = setTimeout(() => { obs.disconnect(); res(null); }, timeoutMs);
      obs.observe(table, {attributes: true, attributeFilter: ['data-version']});
    });
    const label = (btn.textContent || '').trim();
    const t0 = performance.now();
    btn.click();
    const t1 = await changed;
    const t2 = await quiet();
    out.push({ms: t1 === null ? null : t1 - t0, settledMs: t1 === null ? null : Math.max(t1, t2 || t1) - t0,
              label});
  }
  return out;
}
"""


def click_latency_js() -> str:
    """The in-page measuring function (for tests and other harnesses): `page.evaluate(js, {n, timeoutMs,
    settleMs})` on a page showing the play screen returns `{ms, settledMs, label}` per click: `ms` until the
    table is drawn again (its data-version changes), `settledMs` until the last change on the screen (buttons, prompt, log) before it
    stays quiet for `settleMs` (both null: no update seen)."""
    return _CLICK_JS


# ---- server-side measures --------------------------------------------------------------------------------
def _cmdline(p: Any) -> list[str]:
    try:
        return p.cmdline()
    except Exception:
        return []


def _is_kernel(p: Any) -> bool:
    """A kernel process: launched (`-m ipykernel_launcher`) or forked by the zygote (`uu.forkkernel`: the zygote's
    children, which carry its command line)."""
    if any("ipykernel" in part for part in _cmdline(p)):
        return True
    try:
        parent = p.parent()
    except Exception:
        return False
    return parent is not None and "uu.forkkernel" in _cmdline(p) and "uu.forkkernel" in _cmdline(parent)


def _memory(server_pid: int) -> dict[str, Any]:
    """RSS/USS/PSS (MiB) of the server and of each kernel process (psutil). Forked kernels share the zygote's
    pages, which RSS counts in full in every kernel: PSS (shared pages split among their sharers) is the fair
    cost of a learner, and USS the least."""
    mib = 1024 * 1024
    try:
        import psutil
    except ImportError:
        return {"error": "psutil is not installed: no memory figures"}
    server = psutil.Process(server_pid)
    kernels = [p for p in server.children(recursive=True) if _is_kernel(p)]

    def info(p: Any) -> tuple[float, float | None, float | None]:
        try:
            full = p.memory_full_info()
            return full.rss / mib, full.uss / mib, getattr(full, "pss", None) and full.pss / mib
        except (psutil.AccessDenied, AttributeError):
            return p.memory_info().rss / mib, None, None
        except psutil.NoSuchProcess:
            return float("nan"), None, None

    krss, kuss, kpss = [], [], []
    for k in kernels:
        rss, uss, pss = info(k)
        if rss == rss:  # not nan
            krss.append(rss)
            if uss is not None:
                kuss.append(uss)
            if pss is not None:
                kpss.append(pss)
    zygotes = [p for p in server.children() if "uu.forkkernel" in _cmdline(p)]
    zygote_pss = info(zygotes[0])[2] if zygotes else None
    srss, suss, _ = info(server)
    r = lambda x: None if x is None else round(x, 1)  # noqa: E731
    return {"kernels": len(krss), "kernel_rss_mib_median": r(summary(krss)["median"]),
            "kernel_rss_mib_max": r(max(krss) if krss else None),
            "kernel_uss_mib_median": r(summary(kuss)["median"]),
            "kernel_pss_mib_median": r(summary(kpss)["median"]), "zygote_pss_mib": r(zygote_pss),
            "kernels_rss_mib_total": r(sum(krss)), "server_rss_mib": r(srss), "server_uss_mib": r(suss)}


def _server_cpu_s(server_pid: int) -> float | None:
    """CPU seconds used so far by the server process itself (Voila/tornado: pages, static files, websockets;
    not its kernels)."""
    try:
        import psutil

        t = psutil.Process(server_pid).cpu_times()
        return t.user + t.system
    except Exception:
        return None


class _Phase:
    """Wall time, the server's CPU, its kernels' CPU (and the zygote's: every process under the server) and
    this process's own CPU (the emulated learners, Playwright's client) over one step of the benchmark. A
    kernel that exits during the step takes its CPU with it."""

    def __init__(self, server_pid: int):
        self.pid = server_pid
        self.t0 = time.perf_counter()
        self.server0 = _server_cpu_s(server_pid)
        self.tree0 = _tree_cpu_s(server_pid)[0]
        self.own0 = time.process_time()

    def done(self) -> dict[str, float | None]:
        server = _server_cpu_s(self.pid)
        server_s = None if server is None or self.server0 is None else round(server - self.server0, 2)
        tree = _tree_cpu_s(self.pid)[0]
        return {"wall_s": round(time.perf_counter() - self.t0, 2), "server_cpu_s": server_s,
                "kernels_cpu_s": None if server_s is None else round(tree - self.tree0 - server_s, 2),
                "harness_cpu_s": round(time.process_time() - self.own0, 2)}


def _preheat_args(preheat: int) -> tuple[str, ...]:
    return ("--preheat", str(preheat))  # always explicit: `uu app` has a pool by default


def _tree_cpu_s(server_pid: int) -> tuple[float, int]:
    """(CPU seconds used so far by the server and its kernels, number of kernel processes)."""
    import psutil

    total, kernels = 0.0, 0
    try:
        server = psutil.Process(server_pid)
        procs = [server, *server.children(recursive=True)]
    except psutil.Error:
        return 0.0, 0
    for p in procs:
        try:
            t = p.cpu_times()
            total += t.user + t.system
            kernels += p is not server and _is_kernel(p)
        except psutil.Error:
            pass
    return total, kernels


def _wait_for_pool(server_pid: int, preheat: int, timeout: float = 300) -> float:
    """Seconds until the pool is ready: at least `preheat` kernel processes, and the server and its kernels
    idle (under 0.1 s of CPU in a second). A kernel process exists well before it has run the notebook, so
    counting processes alone is not enough (an earlier version of this benchmark sent its burst into a pool
    that was still starting)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        before, _ = _tree_cpu_s(server_pid)
        time.sleep(1.0)
        after, kernels = _tree_cpu_s(server_pid)
        if kernels >= preheat and after - before < 0.1:
            break
    return round(time.perf_counter() - t0, 1)


def _log_trouble(text: str) -> list[str]:
    """Warning and error lines of a server log, but for the known harmless ones."""
    return [line for line in text.splitlines()
            if _TROUBLE.search(line) and not any(h in line for h in HARMLESS_LOG)]


# ---- the browser part (Playwright, async) -----------------------------------------------------------------
async def _open_home(browser: Any, url: str, problems: list[str] | None = None, marks: bool = False,
                     requests: list[str] | None = None) -> tuple[Any, Any, float | None]:
    """A new learner: fresh context, open the page, wait for an interactive home. Returns (context, page,
    seconds or None if it never became interactive; the reason is appended to `problems`). `marks`: install
    the breakdown marks; `requests`: gets the path of every same-host GET the page makes (not the page itself,
    the kernel API or the websocket): the emulated learners' asset list."""
    ctx = await browser.new_context(viewport={"width": 1200, "height": 900})
    if marks:
        await ctx.add_init_script(_MARKS_JS)
    page = await ctx.new_page()
    if requests is not None:
        host = urlsplit(url).netloc

        def keep(req: Any) -> None:
            parts = urlsplit(req.url)
            path = parts.path + (f"?{parts.query}" if parts.query else "")
            if (req.method == "GET" and parts.netloc == host and parts.scheme == "http" and path != "/"
                    and not parts.path.startswith("/api/")):
                requests.append(path)

        page.on("request", keep)
    t0 = time.perf_counter()
    try:
        await page.goto(url, wait_until="commit", timeout=PAGE_TIMEOUT_MS)
        await page.locator(HOME_READY).first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        return ctx, page, time.perf_counter() - t0
    except Exception as e:
        if problems is not None:
            problems.append(f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}")
        return ctx, page, None


async def _reload_until_ready(page: Any) -> float | None:
    """What a learner facing a blank page does: reload it (once)."""
    t0 = time.perf_counter()
    try:
        await page.reload(wait_until="commit", timeout=PAGE_TIMEOUT_MS)
        await page.locator(HOME_READY).first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        return time.perf_counter() - t0
    except Exception:
        return None


async def _leave(ctx: Any, page: Any) -> None:
    """Navigate away first: the unload beacon lets Voila shut the kernel down (disable_check_xsrf)."""
    try:
        await page.goto("about:blank", timeout=10_000)
        await asyncio.sleep(0.05)
    except Exception:
        pass
    await ctx.close()


async def _open_play(page: Any) -> None:
    """Home -> play screen in step mode (the bots move one decision per "Bot: next" click)."""
    await page.locator("button.uu-play").first.click()
    screen = page.locator(".uu-play-screen")
    await screen.locator(".uu-t").first.wait_for(state="visible", timeout=60_000)
    await screen.locator(".uu-step-mode input").first.check()
    await page.wait_for_function(
        "() => { const b = document.querySelector('.uu-play-screen button.uu-bot-next');"
        " return b && b.offsetParent !== null; }", timeout=30_000)


async def _clicks(page: Any, n: int) -> list[dict[str, Any]]:
    return await page.evaluate(_CLICK_JS, {"n": n, "timeoutMs": 10_000, "settleMs": 40})


def _browser_click_summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    out = summary([r["ms"] for r in results], digits=1)
    settled = summary([r.get("settledMs") for r in results], digits=1)
    out["settled"] = {k: settled[k] for k in ("median", "p95", "max")}
    slow = sorted((r for r in results if r["ms"] is not None), key=lambda r: -r["ms"])[:3]
    out["slowest"] = [f"{r['ms']:.0f} ms: {r['label'][:60]}" for r in slow]
    return out


def _median_breakdown(rows: list[dict[str, Any]], digits: int = 0) -> dict[str, Any]:
    keys = [k for k in rows[0] if isinstance(rows[0][k], int | float)] if rows else []
    return {k: summary([r.get(k) for r in rows], digits=digits)["median"] for k in keys}


async def _browser_learner(browser: Any, server: AppServer, clicks: int, out: dict[str, Any],
                           preheat: int) -> list[str]:
    """Steps 1b-3: cold start in the browser, new learners one after the other, one learner clicking. Returns
    the asset list the first warm page loaded. With a pool, the new learners come once it is ready (a warm
    server; it fills one kernel at a time, about 40 s for 30)."""
    port_s = await asyncio.to_thread(server.wait_port)
    ctx, page, home_s = await _open_home(browser, server.url)
    interactive = None if home_s is None else time.perf_counter() - server.t0
    out["cold_start"].update({"port_open_s_2": round(port_s, 3),
                              "interactive_home_s": None if interactive is None else round(interactive, 3)})
    await _leave(ctx, page)
    if preheat:
        out["warm_pool_wait_s"] = await asyncio.to_thread(_wait_for_pool, server.proc.pid, preheat)

    warm: list[float | None] = []
    rows: list[dict[str, Any]] = []
    assets: list[str] = []
    for i in range(WARM_PAGES):
        ctx, page, s = await _open_home(browser, server.url, marks=True, requests=assets if i == 0 else None)
        warm.append(s)
        if s is not None:
            await page.wait_for_timeout(50)  # the load event's end is recorded a moment after it fires
            rows.append(await page.evaluate(_BREAKDOWN_JS))
        await _leave(ctx, page)
    out["new_learner_interactive_s"] = summary(warm)
    out["new_learner_interactive_s"]["breakdown_ms"] = _median_breakdown(rows)

    ctx, page, s = await _open_home(browser, server.url)
    if s is None:
        raise RuntimeError("the clicking learner's page never became interactive")
    await _open_play(page)
    out["click_to_board_ms_one_learner"] = _browser_click_summary(await _clicks(page, clicks))
    await _leave(ctx, page)
    return list(dict.fromkeys(assets))


async def _browser_burst(browser: Any, server: AppServer, learners: int, clicks: int,
                         out: dict[str, Any]) -> None:
    """The older burst: `learners` Chromium pages on this machine opening at once, then all clicking."""
    t0 = time.perf_counter()
    problems: list[str] = []
    opened = await asyncio.gather(*[_open_home(browser, server.url, problems) for _ in range(learners)])
    burst_wall = time.perf_counter() - t0
    each = [s for _, _, s in opened]
    out["browser_burst"] = {"learners": learners, "all_interactive_s": round(burst_wall, 3)
                            if all(s is not None for s in each) else None,
                            "interactive": sum(s is not None for s in each), "each_s": summary(each),
                            "problems": sorted(set(problems))}
    reloads = [await _reload_until_ready(pg) for _, pg, s in opened if s is None]
    out["browser_burst"]["reloaded"] = len(reloads)
    out["browser_burst"]["reload_s"] = summary(reloads) if reloads else None
    live = [pg for _, pg, _s in opened if await pg.locator(HOME_READY).count()]
    await asyncio.gather(*[_open_play(pg) for pg in live])
    results = await asyncio.gather(*[_clicks(pg, clicks) for pg in live], return_exceptions=True)
    flat = [r for res in results if not isinstance(res, BaseException) for r in res]
    errors = sum(isinstance(res, BaseException) for res in results)
    out["browser_clicks_under_load"] = {"learners": len(live), "page_errors": errors,
                                        **_browser_click_summary(flat)}
    await asyncio.gather(*[_leave(c, pg) for c, pg, _ in opened])


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
                                          "step_medians_s": _median_breakdown(steps, digits=3)},
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
        out["burst_pool_wait_s"] = await asyncio.to_thread(_wait_for_pool, pid, preheat)
    log_mark = len(server.log_text())
    mem_before = await asyncio.to_thread(_memory, pid)
    t_burst = time.perf_counter()
    stop = asyncio.Event()
    watcher = asyncio.create_task(_watch_pool(server, log_mark, t_burst, stop)) if preheat else None
    class_: list[EmulatedLearner] = []
    try:
        phase = _Phase(pid)
        class_, burst = await arrive_together(server.url, learners, assets)
        out["burst"] = {**burst, **phase.done()}
        ok = [x for x in class_ if x.home_ready()]

        phase = _Phase(pid)
        opened = await asyncio.gather(*[x.open_play() for x in ok], return_exceptions=True)
        failed = [f"{type(e).__name__}: {e}" for e in opened if isinstance(e, BaseException)]
        ok = [x for x, e in zip(ok, opened, strict=True) if not isinstance(e, BaseException)]
        out["open_play"] = {"learners": len(ok), "errors": sorted(set(failed))[:5], **phase.done()}

        phase = _Phase(pid)
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

        phase = _Phase(pid)
        out["tight_loop"] = {"learners": len(ok), "clicks_each": clicks,
                             **click_summary(await tight_loop(ok, clicks)), **phase.done()}

        mem = await asyncio.to_thread(_memory, pid)
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
        trouble = _log_trouble(server.log_text()[log_mark:])
        out["server_log"] = {"warnings_or_errors": len(trouble), "first": trouble[:5]}


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
        server = AppServer(workdir, max_kernels=learners + WARM_PAGES + 10, extra_args=_preheat_args(preheat))
        try:
            try:
                assets = await _browser_learner(browser, server, clicks, out, preheat)
                out["assets_recorded"] = len(assets)
                if preheat:  # the emulated learner, too, gets a page from a full pool
                    out["emulated_pool_wait_s"] = await asyncio.to_thread(_wait_for_pool, server.proc.pid, preheat)
                log_mark = len(server.log_text())
                out["emulated_one_learner"] = await _emulated_one(server.url, assets, clicks)
                trouble = _log_trouble(server.log_text()[log_mark:])
                out["emulated_one_learner"]["server_log"] = {"warnings_or_errors": len(trouble),
                                                             "first": trouble[:5]}
                await asyncio.sleep(1.0)  # the beacons free the kernels of the pages above
                await _emulated_class(server, out, learners, clicks, preheat, think, play_seconds, seed, assets)
                if browser_burst:
                    if preheat:
                        out["browser_burst_pool_wait_s"] = await asyncio.to_thread(
                            _wait_for_pool, server.proc.pid, preheat)
                    await _browser_burst(browser, server, learners, clicks, out)
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

    from uu import forkkernel
    from uu.app import NODELAY_ENV

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
            with AppServer(workdir, max_kernels=5, extra_args=_preheat_args(preheat)) as server:
                port_s = server.wait_port()
                with urllib.request.urlopen(server.url, timeout=120) as resp:
                    status, body = resp.status, resp.read()
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
        "mb_per_learner": under(None if mib is None else mib * 1.048576, TARGETS["mb_per_learner"]),
    }


if __name__ == "__main__":  # python -m uu.bench_app [learners] [clicks]: a quick run by hand
    import json

    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(bench_app(*args), indent=2))
