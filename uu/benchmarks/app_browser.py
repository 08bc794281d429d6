"""The browser part of `uu bench --app`: one learner in Chromium (Playwright), how long the home takes to become
interactive and where that time goes, clicks; and the older burst of many Chromium pages. `uu.benchmarks.app_load`
runs it and says how the figures are taken."""

from __future__ import annotations

import asyncio
import os
import shutil
import time
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any, TypedDict
from urllib.parse import urlsplit

from uu.benchmarks.measures import wait_for_pool
from uu.benchmarks.stats import summary
from uu.server.appserver import AppServer

if TYPE_CHECKING:  # Playwright is imported by the bench that runs this, only when it runs
    from playwright.async_api import Browser, BrowserContext, Page, Request

__all__ = ["CHROME_ARGS", "CHROMIUM", "HOME_READY", "browser_learner", "run_browser_burst", "click_latency_js"]

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
# Debian's Chromium through Playwright (no downloaded browser); see docs/jupyter-notes.md.
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
# The home screen is interactive when its lesson buttons are drawn (widgets render once the page's widget
# manager is connected to the kernel) and enabled.
HOME_READY = ".uu-home-screen button.uu-open-lesson:not([disabled])"
WARM_PAGES = 5
PAGE_TIMEOUT_MS = 90_000
# Server log lines that every kernel start or page visit writes and that say nothing is wrong.
# In the page, before any of its scripts: marks (ms since the navigation started) for `breakdown_ms`. It
# wraps WebSocket to see when the kernel websocket is created and opened, and reads the header of each
# binary frame (jupyter_server's v1 protocol, see uu.benchmarks.voila_wire.encode_v1) for the kernel_info_reply and the
# widget states; a MutationObserver sees the home become interactive.
MARKS_JS = """
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

BREAKDOWN_JS = """
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
CLICK_JS = """
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
    return CLICK_JS


class ClickResult(TypedDict):
    """One click measured in the page (CLICK_JS)."""

    ms: float | None  # until the table was drawn again; None: no update seen
    settledMs: float | None  # until the screen stayed quiet
    label: str  # what was clicked


# ---- the browser part (Playwright, async) -----------------------------------------------------------------
async def open_home(browser: Browser, url: str, problems: list[str] | None = None, marks: bool = False,
                     requests: list[str] | None = None) -> tuple[BrowserContext, Page, float | None]:
    """A new learner: fresh context, open the page, wait for an interactive home. Returns (context, page,
    seconds or None if it never became interactive; the reason is appended to `problems`). `marks`: install
    the breakdown marks; `requests`: gets the path of every same-host GET the page makes (not the page itself,
    the kernel API or the websocket): the emulated learners' asset list."""
    ctx = await browser.new_context(viewport={"width": 1200, "height": 900})
    # the table plays the others' moves back at a pace the learner picks (a deliberate wait, 0.9 s a move by
    # default); what is measured here is the app, so this learner picks "At once" (uu/table/table.js)
    await ctx.add_init_script("try { localStorage.setItem('uu-table-pace', 'off'); } catch (e) {}")
    if marks:
        await ctx.add_init_script(MARKS_JS)
    page = await ctx.new_page()
    if requests is not None:
        host = urlsplit(url).netloc

        def keep(req: Request) -> None:
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


async def reload_until_ready(page: Page) -> float | None:
    """What a learner facing a blank page does: reload it (once)."""
    t0 = time.perf_counter()
    try:
        await page.reload(wait_until="commit", timeout=PAGE_TIMEOUT_MS)
        await page.locator(HOME_READY).first.wait_for(state="visible", timeout=PAGE_TIMEOUT_MS)
        return time.perf_counter() - t0
    except Exception:
        return None


async def leave(ctx: BrowserContext, page: Page) -> None:
    """Navigate away first: the unload beacon lets Voila shut the kernel down (disable_check_xsrf)."""
    try:
        await page.goto("about:blank", timeout=10_000)
        await asyncio.sleep(0.05)
    except Exception:
        pass
    await ctx.close()


async def open_play(page: Page) -> None:
    """Home -> play screen in step mode (the bots move one decision per "Bot: next" click), on the same deal
    every run: "Same deal every game" (seed 0), then "New game" (a game is otherwise a new deal, and one deal's
    clicks cost more than another's)."""
    await page.locator("button.uu-play").first.click()
    screen = page.locator(".uu-play-screen")
    await screen.locator(".uu-t").first.wait_for(state="visible", timeout=60_000)
    more = screen.locator(".uu-more-settings")
    if await more.count():  # the seed and step mode are among "More settings" (uu/widgets/play.py)
        await more.first.click()
    await screen.locator(".uu-fixed-seed input").first.check()
    drawn = await screen.locator(".uu-t").first.get_attribute("data-version")
    await screen.locator("button.uu-new-game").first.click()
    await page.wait_for_function(
        "old => { const t = document.querySelector('.uu-play-screen .uu-t');"
        " return t && t.getAttribute('data-version') !== old; }", arg=drawn, timeout=30_000)
    await screen.locator(".uu-step-mode input").first.check()
    await page.wait_for_function(
        "() => { const b = document.querySelector('.uu-play-screen button.uu-bot-next');"
        " return b && b.offsetParent !== null; }", timeout=30_000)


async def click_run(page: Page, n: int) -> list[ClickResult]:
    return await page.evaluate(CLICK_JS, {"n": n, "timeoutMs": 10_000, "settleMs": 40})


def browser_click_summary(results: list[ClickResult]) -> dict[str, Any]:
    out = summary([r["ms"] for r in results], digits=1)
    settled = summary([r.get("settledMs") for r in results], digits=1)
    out["settled"] = {k: settled[k] for k in ("median", "p95", "max")}
    slow = sorted((r for r in results if r["ms"] is not None), key=lambda r: -(r["ms"] or 0.0))[:3]
    out["slowest"] = [f"{r['ms']:.0f} ms: {r['label'][:60]}" for r in slow]
    return out


def median_breakdown(rows: Sequence[Mapping[str, float | None]], digits: int = 0) -> dict[str, float | None]:
    keys = [k for k in rows[0] if isinstance(rows[0][k], int | float)] if rows else []
    return {k: summary([r.get(k) for r in rows], digits=digits)["median"] for k in keys}


async def browser_learner(browser: Browser, server: AppServer, clicks: int, out: dict[str, Any],
                           preheat: int) -> list[str]:
    """Steps 1b-3: cold start in the browser, new learners one after the other, one learner clicking. Returns
    the asset list the first warm page loaded. With a pool, the new learners come once it is ready (a warm
    server; it fills one kernel at a time, about 40 s for 30)."""
    port_s = await asyncio.to_thread(server.wait_port)
    ctx, page, home_s = await open_home(browser, server.url)
    interactive = None if home_s is None else time.perf_counter() - server.t0
    out["cold_start"].update({"port_open_s_2": round(port_s, 3),
                              "interactive_home_s": None if interactive is None else round(interactive, 3)})
    await leave(ctx, page)
    if preheat:
        out["warm_pool_wait_s"] = await asyncio.to_thread(wait_for_pool, server.proc.pid, preheat)

    warm: list[float | None] = []
    rows: list[dict[str, float | None]] = []  # each page's marks (BREAKDOWN_JS), ms by name
    assets: list[str] = []
    for i in range(WARM_PAGES):
        ctx, page, s = await open_home(browser, server.url, marks=True, requests=assets if i == 0 else None)
        warm.append(s)
        if s is not None:
            await page.wait_for_timeout(50)  # the load event's end is recorded a moment after it fires
            rows.append(await page.evaluate(BREAKDOWN_JS))
        await leave(ctx, page)
    out["new_learner_interactive_s"] = summary(warm)
    out["new_learner_interactive_s"]["breakdown_ms"] = median_breakdown(rows)

    ctx, page, s = await open_home(browser, server.url)
    if s is None:
        raise RuntimeError("the clicking learner's page never became interactive")
    await open_play(page)
    out["click_to_board_ms_one_learner"] = browser_click_summary(await click_run(page, clicks))
    await leave(ctx, page)
    return list(dict.fromkeys(assets))


async def run_browser_burst(browser: Browser, server: AppServer, learners: int, clicks: int,
                         out: dict[str, Any]) -> None:
    """The older burst: `learners` Chromium pages on this machine opening at once, then all clicking."""
    t0 = time.perf_counter()
    problems: list[str] = []
    opened = await asyncio.gather(*[open_home(browser, server.url, problems) for _ in range(learners)])
    burst_wall = time.perf_counter() - t0
    each = [s for _, _, s in opened]
    out["browser_burst"] = {"learners": learners, "all_interactive_s": round(burst_wall, 3)
                            if all(s is not None for s in each) else None,
                            "interactive": sum(s is not None for s in each), "each_s": summary(each),
                            "problems": sorted(set(problems))}
    reloads = [await reload_until_ready(pg) for _, pg, s in opened if s is None]
    out["browser_burst"]["reloaded"] = len(reloads)
    out["browser_burst"]["reload_s"] = summary(reloads) if reloads else None
    live = [pg for _, pg, _s in opened if await pg.locator(HOME_READY).count()]
    await asyncio.gather(*[open_play(pg) for pg in live])
    results = await asyncio.gather(*[click_run(pg, clicks) for pg in live], return_exceptions=True)
    flat = [r for res in results if not isinstance(res, BaseException) for r in res]
    errors = sum(isinstance(res, BaseException) for res in results)
    out["browser_clicks_under_load"] = {"learners": len(live), "page_errors": errors,
                                        **browser_click_summary(flat)}
    await asyncio.gather(*[leave(c, pg) for c, pg, _ in opened])

