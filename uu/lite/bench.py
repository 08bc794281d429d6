"""`python -m uu.lite.bench [DIR]`: what a learner waits for in the static site, beside the same under `uu app`,
measured in Chromium in the same run (docs/performance.md, "The static build", has the figures and the command).

The folder (default build/lite) is served as `python3 -m http.server` serves it (no `_headers`), on 127.0.0.1,
counting the bytes sent; any request that leaves the site is counted. `uu app` is started on a free
port (uu.server.appserver.AppServer). For each of `--runs` fresh browser profiles (on disk, with an empty cache):
- **cold**: the home opened, the time until it is ready (its lesson buttons enabled, the loading screen gone),
  then "Play a game" at once, the time until the game's table offers a move (both from the navigation);
- **second**: the same again in a new page of the same profile (the browser's disk cache kept: a second visit);
  its first screen (`home_second_s`) is the home or the game the first visit left, which the tutor reopens.
Then, in the last profile: `--moves` card plays in a game with the others' moves played at once ("At once"
pace): from the click to the table drawn again (`ms`) and until the learner is asked again (the screen
quiet, `settled`); and `--moves` quick moves in step mode (each click, "Bot: next" included, to the table drawn
again). The machine's load (1-minute average) is taken before and after each site. Prints one JSON object.
Needs the test extra (Playwright) and Debian's Chromium (or CHROMIUM=path).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import shutil
import statistics
import sys
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

__all__ = ["Served", "measure", "serve", "site_headers"]

CHROMIUM = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
               "--disable-component-update", "--disable-sync"]
HOME_READY = ".uu-home-screen button.uu-open-lesson:not([disabled])"
TABLE_READY = ".uu-play-screen .uu-t [data-legal='true']"
LOAD_MS = 300_000


def site_headers(site: Path) -> list[tuple[str, str]]:
    """The headers the site's `_headers` file asks for every path (`/*`), as Netlify or Cloudflare Pages send them."""
    path = site / "_headers"
    out: list[tuple[str, str]] = []
    if path.is_file():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.startswith("  ") and ":" in line:
                name, value = line.strip().split(":", 1)
                out.append((name.strip(), value.strip()))
    return out


class _Counting(http.server.SimpleHTTPRequestHandler):
    """`python3 -m http.server`'s handler, counting the bytes of every file it sends, and sending the headers of
    the site's `_headers` file when `headers` is set (a host that honours it)."""

    sent: list[int] = [0]
    headers_sent: list[tuple[str, str]] = []

    def end_headers(self) -> None:
        for name, value in self.headers_sent:
            self.send_header(name, value)
        super().end_headers()

    def copyfile(self, source: Any, outputfile: Any) -> None:
        while chunk := source.read(64 * 1024):
            outputfile.write(chunk)
            self.sent[0] += len(chunk)

    def log_message(self, format: str, *args: Any) -> None:
        pass


@dataclass
class Served:
    """A folder served from a thread (`serve`): its address, and the bytes of files sent so far (`sent[0]`)."""

    server: http.server.ThreadingHTTPServer
    url: str
    sent: list[int]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def serve(site: Path, headers: bool = True) -> Served:
    """The folder served on 127.0.0.1 (a free port) from a thread. `headers`: as a host that honours `_headers`
    serves it."""
    sent = [0]
    handler_class = type("Handler", (_Counting,), {"headers_sent": site_headers(site) if headers else [],
                                                   "sent": sent})
    handler = functools.partial(handler_class, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return Served(server, f"http://127.0.0.1:{server.server_address[1]}/", sent)


def _load() -> float:
    return round(os.getloadavg()[0], 2)


def _visit(page: Any, url: str, stages: list[dict[str, int]] | None = None) -> tuple[float, float]:
    """Open the home, then "Play a game" as soon as it is ready: (seconds to the home, to the game's table).
    `stages` gets when each stage of the static site's loading screen began (uu/lite/page.js)."""
    t0 = time.perf_counter()
    page.goto(url, wait_until="commit")
    # the tutor's first screen: the home, or on a second visit the game the first one left (`uu app` may draw
    # that at once); the static site's loading screen gone
    page.wait_for_function(f"""() => !document.getElementById('uu-loading') && [
        ...document.querySelectorAll({HOME_READY!r} + ', ' + {TABLE_READY!r})].some(e => e.offsetParent)""",
                           timeout=LOAD_MS)
    home = time.perf_counter() - t0
    if stages is not None:
        stages.append(page.evaluate("() => window.uuLoadingTimes || {}"))
    # a second visit reopens the game the first one left (the progress kept in the browser): its table comes
    # without a click
    deadline = time.perf_counter() + LOAD_MS / 1000
    clicked_at: float | None = None
    while not page.locator(TABLE_READY).first.is_visible():
        play = page.locator(".uu-home-screen button.uu-play").first
        # one click, then the wait for its table: clicking again while the screen changes would wait for a button
        # that is going away (2 s lost, Playwright's own wait); again only if the page lost the click
        if (clicked_at is None or time.perf_counter() - clicked_at > 10) and play.is_visible():
            try:
                play.click(timeout=2_000)
                clicked_at = time.perf_counter()
            except Exception:  # the home replaced by the screen the progress names meanwhile
                pass
        if time.perf_counter() > deadline:
            raise TimeoutError("the game's table never offered a move")
        page.wait_for_timeout(20)
    return home, time.perf_counter() - t0


def _new_game(page: Any, step: bool) -> None:
    """The same deal every time ("Same deal every game", then "New game"), in step mode or not."""
    screen = page.locator(".uu-play-screen")
    more = screen.locator(".uu-more-settings")
    if more.count() and not screen.locator(".uu-fixed-seed input").first.is_visible():
        more.first.click()
    screen.locator(".uu-fixed-seed input").first.check()
    drawn = screen.locator(".uu-t").first.get_attribute("data-version")
    screen.locator("button.uu-new-game").first.click()
    page.wait_for_function("old => { const t = document.querySelector('.uu-play-screen .uu-t');"
                           " return t && t.getAttribute('data-version') !== old; }", arg=drawn, timeout=60_000)
    box = screen.locator(".uu-step-mode input").first
    if box.is_checked() != step:
        box.click()
    if step:
        page.wait_for_function("() => { const b = document.querySelector('.uu-play-screen button.uu-bot-next');"
                               " return b && b.offsetParent !== null; }", timeout=60_000)
    page.wait_for_timeout(500)


def _clicks(page: Any, n: int) -> list[dict[str, Any]]:
    from uu.benchmarks.app_browser import click_latency_js

    result: list[dict[str, Any]] = page.evaluate(click_latency_js(), {"n": n, "timeoutMs": 20_000, "settleMs": 40})
    return result


def _median_s(values: list[float | None]) -> float | None:
    got = [v for v in values if v is not None]
    return round(statistics.median(got) / 1000, 3) if got else None


def _one_site(pw: Any, url: str, runs: int, moves: int, served: Served | None) -> dict[str, Any]:
    out: dict[str, Any] = {"load_before": _load()}
    cold: list[tuple[float, float]] = []
    second: list[tuple[float, float]] = []
    stages: list[dict[str, int]] = []
    outside: list[str] = []
    for run in range(runs):
        # a browser profile of its own, on disk: an empty cache for the first visit, and the disk cache a real
        # browser keeps for the second (a context without a profile keeps a small cache in memory, too small for
        # the interpreter's files: a second visit there fetched every byte again)
        profile = tempfile.mkdtemp(prefix="uu-lite-bench-")
        context = pw.chromium.launch_persistent_context(profile, executable_path=CHROMIUM, args=CHROME_ARGS,
                                                        viewport={"width": 1280, "height": 800})
        # the others' moves at once ("At once" pace, uu/table/table.js): the app is measured, not the pace
        context.add_init_script("try { localStorage.setItem('uu-table-pace', 'off'); } catch (e) {}")

        # requests that leave the site are listed, not stopped: routing them through Playwright would turn the
        # browser's cache off, and a second visit would be a first one again
        def seen(request: Any, outside: list[str] = outside) -> None:
            if not request.url.startswith((url, "data:", "blob:")):
                outside.append(request.url)

        context.on("request", seen)
        if served is not None:
            served.sent[0] = 0
        page = context.pages[0] if context.pages else context.new_page()
        cold.append(_visit(page, url, stages))
        if served is not None:
            out["cold_served_mib"] = round(served.sent[0] / 2**20, 1)
            served.sent[0] = 0
        first, page = page, context.new_page()
        first.close()
        second.append(_visit(page, url, stages))
        if served is not None:
            out["second_served_mib"] = round(served.sent[0] / 2**20, 1)
        if run == runs - 1 and moves:
            _new_game(page, step=False)
            plays = _clicks(page, moves)
            _new_game(page, step=True)
            quick = _clicks(page, moves)
            out.update(card_play_table_median_s=_median_s([c["ms"] for c in plays]),
                       card_play_asked_again_median_s=_median_s([c["settledMs"] for c in plays]),
                       quick_move_median_s=_median_s([c["ms"] for c in quick]),
                       moves=len(plays), quick_moves=len(quick))
        context.close()
        shutil.rmtree(profile, ignore_errors=True)
    out.update(home_cold_s=[round(h, 2) for h, _ in cold], table_cold_s=[round(t, 2) for _, t in cold],
               home_second_s=[round(h, 2) for h, _ in second], table_second_s=[round(t, 2) for _, t in second],
               table_cold_median_s=round(statistics.median(t for _, t in cold), 2),
               table_second_median_s=round(statistics.median(t for _, t in second), 2),
               requests_outside=len(outside), load_after=_load())
    if any(stages):  # the static site: when each loading stage began, the last cold and second visits (ms)
        out.update(stages_cold_ms=stages[-2], stages_second_ms=stages[-1])
    return out


def measure(site: Path, runs: int, moves: int, with_app: bool = True) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    files = [p for p in site.rglob("*") if p.is_file()]
    out: dict[str, Any] = {"site_files": len(files),
                           "site_mib": round(sum(p.stat().st_size for p in files) / 2**20, 1),
                           "cpus": os.cpu_count(), "runs": runs}
    served = serve(site, headers=False)
    try:
        with sync_playwright() as pw:
            out["lite"] = _one_site(pw, served.url, runs, moves, served)
            if with_app:
                from uu.benchmarks.measures import wait_for_pool
                from uu.server.app import DEFAULT_PREHEAT
                from uu.server.appserver import AppServer

                with tempfile.TemporaryDirectory() as tmp, AppServer(Path(tmp)) as app:
                    app.wait_port()
                    app.wait_ready()
                    wait_for_pool(app.proc.pid, DEFAULT_PREHEAT)  # its kernels ready, as a class finds them
                    out["app"] = _one_site(pw, app.url, runs, moves, None)
    finally:
        served.stop()
    if with_app and out["lite"].get("card_play_table_median_s") and out["app"].get("card_play_table_median_s"):
        out["card_play_lite_over_app"] = round(out["lite"]["card_play_table_median_s"]
                                               / out["app"]["card_play_table_median_s"], 2)
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m uu.lite.bench",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("site", nargs="?", default="build/lite")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--moves", type=int, default=10)
    ap.add_argument("--no-app", action="store_true", help="the static site only, not `uu app` beside it")
    args = ap.parse_args(argv)
    print(json.dumps(measure(Path(args.site).resolve(), args.runs, args.moves, with_app=not args.no_app)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
