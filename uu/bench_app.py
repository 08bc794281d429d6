"""`uu bench --app`: how the Voila app feels to a class, measured in a real browser.

    from uu.bench_app import bench_app
    result = bench_app(learners=30, clicks=30)     # a JSON-able dict; prints nothing

What it does, in order (one headless Debian Chromium, one browser context per learner, `uu app` started as
`python -m uu.app --port N --no-browser` from an empty directory, exactly what a teacher runs):

1. **cold start**, twice from a stopped server: launch -> port open -> `GET /` answered in full (the kernel
   started and ran the notebook) on the first launch; launch -> port open -> the home screen interactive in
   the browser (its lesson buttons visible and enabled) on the second. On the first server also the server
   side of a burst without browsers (`burst_http`: `learners` simultaneous `GET /`, time until all answered).
2. **a new learner on a warm server**: a fresh browser context opens the page until the home is interactive
   (`WARM_PAGES` times, one after the other; the median is reported).
3. **click -> board update for one learner**, measured *in the page* (a MutationObserver on the board view,
   no round trip through Playwright): on the play screen in step mode, each click is the "Bot: next"
   button, or the learner's first move when it is the learner's turn (so every click changes the board;
   the game is seeded, so the sequence is the same on every run). `clicks` clicks, median and p95; also
   `settled`: until the whole screen (buttons, prompt, log) has stopped changing.
4. **a burst**: `learners` new learners open the page at the same moment; the time until every one of them
   has an interactive home (and each one's own time). All the browsers run on this machine, so they compete
   with the server for the CPU. A page still blank after `PAGE_TIMEOUT_MS` is reloaded once, as a learner
   would (`burst.reloaded`).
5. **clicks under load**: those `learners` pages then open the play screen and click `clicks` times, all at
   once; the p95 over every click.
6. **memory**: RSS and USS of every kernel process (one per learner) and of the server (psutil).

Targets (reported next to the figures, never asserted): p95 click -> update < 50 ms for one learner and
< 250 ms with 30; a new learner interactive < 2.5 s; 30 arriving together all interactive < 10 s;
< 100 MB per learner.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from uu.appserver import AppServer

__all__ = ["CHROME_ARGS", "CHROMIUM", "HOME_READY", "bench_app", "click_latency_js"]

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Debian's Chromium through Playwright (no downloaded browser); shared/reference/jupyter-stack.md section 3.4.
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The home screen is interactive when its lesson buttons are drawn (widgets render once the page's widget
# manager is connected to the kernel) and enabled.
HOME_READY = ".uu-home-screen button.uu-open-lesson:not([disabled])"
WARM_PAGES = 5
PAGE_TIMEOUT_MS = 90_000
TARGETS = {"click_p95_ms_one_learner": 50, "click_p95_ms_under_load": 250, "new_learner_interactive_s": 2.5,
           "burst_all_interactive_s": 10, "mb_per_learner": 100}

# In the page: click, then time until the board view changes. Before the next click it waits until the
# screen has been quiet for `settle` ms, so the next button is picked from the fully updated screen.
_CLICK_JS = """
async ({n, timeoutMs, settleMs}) => {
  const root = document.querySelector('.uu-play-screen');
  const view = root.querySelector('.uu-board-view');
  const shown = (b) => b && !b.disabled && b.offsetParent !== null;
  // the next button: "Bot: next", else the learner's first move, else (game over) "New game"; waits for
  // one to be on offer (the choices may still be arriving after the board)
  const pickNow = () => {
    const bot = root.querySelector('button.uu-bot-next');
    if (shown(bot)) return bot;
    const act = [...root.querySelectorAll('button.uu-action')].find(shown);
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
    const changed = new Promise(res => {
      const obs = new MutationObserver(() => { obs.disconnect(); clearTimeout(t); res(performance.now()); });
      const t = setTimeout(() => { obs.disconnect(); res(null); }, timeoutMs);
      obs.observe(view, {subtree: true, childList: true, characterData: true});
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
    board view first changes, `settledMs` until the last change on the screen (buttons, prompt, log) before it
    stays quiet for `settleMs` (both null: no update seen)."""
    return _CLICK_JS


# ---- small helpers ------------------------------------------------------------------------------------
def _pct(values: list[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no values."""
    v = sorted(values)
    if not v:
        return None
    k = max(0, min(len(v) - 1, int(round(q / 100 * len(v) + 0.5)) - 1))
    return v[k]


def _summary(values: list[float | None], scale: float = 1.0, digits: int = 3) -> dict[str, Any]:
    ok = [x * scale for x in values if x is not None]
    r = lambda x: None if x is None else round(x, digits)  # noqa: E731
    return {"n": len(values), "failed": len(values) - len(ok), "median": r(statistics.median(ok) if ok else None),
            "p95": r(_pct(ok, 95)), "min": r(min(ok) if ok else None), "max": r(max(ok) if ok else None)}


def _http_burst(url: str, n: int) -> dict[str, Any]:
    """The server side of a burst, without browsers: `n` simultaneous `GET /` (each one a kernel start and
    the notebook run), time until every page is answered in full."""
    from concurrent.futures import ThreadPoolExecutor

    def get(_: int) -> float | None:
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(url, timeout=300) as resp:
                resp.read()
                return time.perf_counter() - t if resp.status == 200 else None
        except OSError:
            return None

    t0 = time.perf_counter()
    with ThreadPoolExecutor(n) as pool:
        each = list(pool.map(get, range(n)))
    wall = time.perf_counter() - t0
    return {"requests": n, "all_200_s": round(wall, 3) if all(e is not None for e in each) else None,
            "each_s": _summary(each)}


def _memory(server_pid: int) -> dict[str, Any]:
    """RSS/USS (MiB) of the server and of each kernel process (psutil; /proc fallback for RSS only)."""
    mib = 1024 * 1024
    try:
        import psutil
    except ImportError:  # RSS from /proc only
        return {"error": "psutil is not installed: no memory figures"}
    server = psutil.Process(server_pid)
    kernels = [p for p in server.children(recursive=True)
               if any("ipykernel" in part for part in _cmdline(p))]

    def info(p: Any) -> tuple[float, float | None]:
        try:
            full = p.memory_full_info()
            return full.rss / mib, full.uss / mib
        except (psutil.AccessDenied, AttributeError):
            return p.memory_info().rss / mib, None
        except psutil.NoSuchProcess:
            return float("nan"), None

    krss, kuss = [], []
    for k in kernels:
        rss, uss = info(k)
        if rss == rss:  # not nan
            krss.append(rss)
            if uss is not None:
                kuss.append(uss)
    srss, suss = info(server)
    r = lambda x: None if x is None else round(x, 1)  # noqa: E731
    return {"kernels": len(krss), "kernel_rss_mib_median": r(statistics.median(krss) if krss else None),
            "kernel_rss_mib_max": r(max(krss) if krss else None),
            "kernel_uss_mib_median": r(statistics.median(kuss) if kuss else None),
            "kernels_rss_mib_total": r(sum(krss)), "server_rss_mib": r(srss), "server_uss_mib": r(suss)}


def _preheat_args(preheat: int) -> tuple[str, ...]:
    return ("--preheat", str(preheat)) if preheat else ()


def _wait_for_pool(server_pid: int, preheat: int, timeout: float = 180) -> float:
    """Seconds until the server has at least `preheat` kernel processes (the pool refilled; learners' kernels
    were freed when their pages left)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        if (_memory(server_pid).get("kernels") or 0) >= preheat:
            break
        time.sleep(0.5)
    time.sleep(2.0)  # a kernel process exists a moment before it has run the notebook
    return round(time.perf_counter() - t0, 1)


def _cmdline(p: Any) -> list[str]:
    try:
        return p.cmdline()
    except Exception:
        return []


# ---- the browser part (Playwright, async: many learners at once) ------------------------------------------
async def _open_home(browser: Any, url: str, problems: list[str] | None = None) -> tuple[Any, Any, float | None]:
    """A new learner: fresh context, open the page, wait for an interactive home. Returns (context, page,
    seconds or None if it never became interactive; the reason is appended to `problems`)."""
    ctx = await browser.new_context(viewport={"width": 1200, "height": 900})
    page = await ctx.new_page()
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
    await screen.locator(".uu-board").first.wait_for(state="visible", timeout=60_000)
    await screen.locator(".uu-step-mode input").first.check()
    await page.wait_for_function(
        "() => { const b = document.querySelector('.uu-play-screen button.uu-bot-next');"
        " return b && b.offsetParent !== null; }", timeout=30_000)


async def _clicks(page: Any, n: int) -> list[dict[str, Any]]:
    return await page.evaluate(_CLICK_JS, {"n": n, "timeoutMs": 10_000, "settleMs": 40})


def _click_summary(results: list[dict[str, Any]]) -> dict[str, Any]:
    out = _summary([r["ms"] for r in results], digits=1)
    settled = _summary([r.get("settledMs") for r in results], digits=1)
    out["settled"] = {k: settled[k] for k in ("median", "p95", "max")}
    slow = sorted((r for r in results if r["ms"] is not None), key=lambda r: -r["ms"])[:3]
    out["slowest"] = [f"{r['ms']:.0f} ms: {r['label'][:60]}" for r in slow]
    return out


async def _browser_part(learners: int, clicks: int, workdir: Path, out: dict[str, Any], preheat: int = 0) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS, headless=True)
        try:
            # 1b. cold start in the browser: a stopped server, launch, open the page as soon as the port is open
            server = AppServer(workdir, max_kernels=learners + WARM_PAGES + 10, extra_args=_preheat_args(preheat))
            try:
                port_s = await asyncio.to_thread(server.wait_port)
                ctx, page, home_s = await _open_home(browser, server.url)
                interactive = None if home_s is None else time.perf_counter() - server.t0
                out["cold_start"].update({"port_open_s_2": round(port_s, 3),
                                          "interactive_home_s": None if interactive is None else round(interactive, 3)})
                await _leave(ctx, page)

                # 2. new learners on the warm server, one after the other
                warm: list[float | None] = []
                for _ in range(WARM_PAGES):
                    ctx, page, s = await _open_home(browser, server.url)
                    warm.append(s)
                    await _leave(ctx, page)
                out["new_learner_interactive_s"] = _summary(warm)

                # 3. one learner clicking
                ctx, page, s = await _open_home(browser, server.url)
                if s is None:
                    raise RuntimeError("the clicking learner's page never became interactive")
                await _open_play(page)
                one = await _clicks(page, clicks)
                out["click_to_board_ms_one_learner"] = _click_summary(one)
                await _leave(ctx, page)
                await asyncio.sleep(1.0)  # the beacons free the kernels of the pages above

                # 4. a burst of arrivals (with a preheated pool: once the pool has refilled, as in a class
                # that arrives some time after the teacher started the app)
                if preheat:
                    out["burst_pool_wait_s"] = await asyncio.to_thread(_wait_for_pool, server.proc.pid, preheat)
                mem_before = await asyncio.to_thread(_memory, server.proc.pid)
                t0 = time.perf_counter()
                problems: list[str] = []
                opened = await asyncio.gather(*[_open_home(browser, server.url, problems) for _ in range(learners)])
                burst_wall = time.perf_counter() - t0
                each = [s for _, _, s in opened]
                out["burst"] = {"learners": learners, "all_interactive_s": round(burst_wall, 3)
                                if all(s is not None for s in each) else None,
                                "interactive": sum(s is not None for s in each), "each_s": _summary(each),
                                "problems": sorted(set(problems))}
                # learners left with a blank page reload it, one after the other
                reloads = []
                for _, pg, s in opened:
                    if s is None:
                        reloads.append(await _reload_until_ready(pg))
                out["burst"]["reloaded"] = len(reloads)
                out["burst"]["reload_s"] = _summary(reloads) if reloads else None
                ready = [s for _, _, s in opened if s is not None] + [r for r in reloads if r is not None]

                # 5. all of them clicking at once
                live = [pg for _, pg, _s in opened]
                live = live if len(ready) == len(live) else [pg for pg in live if await pg.locator(HOME_READY).count()]
                await asyncio.gather(*[_open_play(pg) for pg in live])
                results = await asyncio.gather(*[_clicks(pg, clicks) for pg in live], return_exceptions=True)
                flat: list[dict[str, Any]] = []
                errors = 0
                for res in results:
                    if isinstance(res, BaseException):
                        errors += 1
                    else:
                        flat += res
                out["click_to_board_ms_under_load"] = {"learners": len(live), "page_errors": errors,
                                                       **_click_summary(flat)}

                # 6. memory with every learner connected
                mem = await asyncio.to_thread(_memory, server.proc.pid)
                out["memory"] = {"before_burst": mem_before, "with_learners": mem}
                if mem.get("kernels") and "server_rss_mib" in mem_before:
                    growth = (mem["server_rss_mib"] or 0) - (mem_before.get("server_rss_mib") or 0)
                    per = (mem["kernel_rss_mib_median"] or 0) + max(growth, 0) / max(mem["kernels"], 1)
                    out["memory"]["mib_per_learner"] = round(per, 1)
                await asyncio.gather(*[_leave(c, pg) for c, pg, _ in opened])
            except Exception:
                out["server_log_tail"] = server.log_tail(1500)
                raise
            finally:
                server.stop()
        finally:
            await browser.close()


def bench_app(learners: int = 30, clicks: int = 30, preheat: int = 0) -> dict[str, Any]:
    """Measure the served app (see the module docstring). Returns JSON-able data; prints nothing.
    On a failure the figures gathered so far are returned with an `error` entry."""
    import voila

    from uu.app import NODELAY_ENV

    out: dict[str, Any] = {
        "learners": learners, "clicks": clicks, "voila": getattr(voila, "__version__", "?"),
        "tcp_nodelay": os.environ.get(NODELAY_ENV, "1").strip() != "0", "cpus": os.cpu_count(),
        "chromium": CHROMIUM, "preheat": preheat, "targets": TARGETS, "cold_start": {}}
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="uu-bench-app-") as tmp:
        workdir = Path(tmp)
        try:
            if not Path(CHROMIUM).exists():
                raise RuntimeError(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)")
            # 1a. cold start over HTTP: launch -> port open -> GET / answered in full
            server = AppServer(workdir, max_kernels=learners + 5, extra_args=_preheat_args(preheat))
            try:
                port_s = server.wait_port()
                with urllib.request.urlopen(server.url, timeout=120) as resp:
                    status, body = resp.status, resp.read()
                http_s = time.perf_counter() - server.t0
                out["cold_start"].update({"port_open_s": round(port_s, 3), "http_200_s": round(http_s, 3),
                                          "http_status": status, "page_kb": round(len(body) / 1024, 1),
                                          "kernel_ran": b'"kernelId"' in body})
                if preheat:
                    out["burst_http_pool_wait_s"] = _wait_for_pool(server.proc.pid, preheat)
                out["burst_http"] = _http_burst(server.url, learners)
            finally:
                server.stop()
            asyncio.run(_browser_part(learners, clicks, workdir, out, preheat))
        except Exception as e:  # report what was measured and why it stopped
            out["error"] = f"{type(e).__name__}: {e}"
    out["seconds"] = round(time.perf_counter() - started, 1)
    out["meets_targets"] = _verdict(out)
    return out


def _verdict(out: dict[str, Any]) -> dict[str, bool | None]:
    def get(*keys: str) -> Any:
        d: Any = out
        for k in keys:
            d = d.get(k) if isinstance(d, dict) else None
        return d

    def under(value: Any, target: float) -> bool | None:
        return None if value is None else value < target

    return {
        "click_p95_ms_one_learner": under(get("click_to_board_ms_one_learner", "p95"),
                                          TARGETS["click_p95_ms_one_learner"]),
        "click_p95_ms_under_load": under(get("click_to_board_ms_under_load", "p95"),
                                         TARGETS["click_p95_ms_under_load"]),
        "new_learner_interactive_s": under(get("new_learner_interactive_s", "median"),
                                           TARGETS["new_learner_interactive_s"]),
        "burst_all_interactive_s": under(get("burst", "all_interactive_s"), TARGETS["burst_all_interactive_s"]),
        "mb_per_learner": under(None if get("memory", "mib_per_learner") is None
                                else get("memory", "mib_per_learner") * 1.048576, TARGETS["mb_per_learner"]),
    }


if __name__ == "__main__":  # python -m uu.bench_app [learners] [clicks]: a quick run by hand
    import json

    args = [int(a) for a in sys.argv[1:3]]
    print(json.dumps(bench_app(*args), indent=2))
