"""`python -m uu.lite.bench [DIR]`: what a learner waits for in the static site, measured in Chromium.

The folder (default build/lite) is served as `python3 -m http.server` serves it, on 127.0.0.1, counting the
bytes sent (any request elsewhere is refused and counted). For each of `--runs` fresh browser contexts (an empty cache: a first visit):
`?lesson=goal` opened, and the time until the lesson's table is on screen; the bytes the server sent for that
visit (uncompressed, as that server sends them) and the requests the browser made (its worker's included). Then in the last page: "Play a
game", and `--moves` moves made by clicking lit cards on the table, each timed from the click to the next
table drawn (uu/table/table.js sets `data-version`). Prints one JSON object. Needs the test extra (Playwright)
and Debian's Chromium (or CHROMIUM=path).
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import statistics
import sys
import threading
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

CHROMIUM = os.environ.get("CHROMIUM") or "/usr/bin/chromium"
LEGAL = ".uu-play-screen .uu-t [data-legal='true']"


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


def _move(page: Any) -> float:
    """Click lit elements until the table changes (a card, then its place); seconds from the last click."""
    screen = page.locator(".uu-play-screen")
    old = screen.locator(".uu-t").get_attribute("data-version")
    for _ in range(8):
        page.wait_for_function(f"() => [...document.querySelectorAll(\"{LEGAL}\")].some(e => e.offsetParent)",
                               timeout=60_000)
        lit = screen.locator(".uu-t [data-legal='true'][data-zone='hand']:visible")
        if lit.count() == 0:
            lit = screen.locator(".uu-t [data-legal='true']:visible")
        t0 = time.perf_counter()
        lit.first.click()
        try:
            screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=1_000)
            return time.perf_counter() - t0
        except Exception:  # the first click of two (a card chosen: its places are lit now)
            continue
    raise RuntimeError("eight clicks on lit cards made no move")


def measure(site: Path, runs: int, moves: int) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    files = [p for p in site.rglob("*") if p.is_file()]
    size = sum(p.stat().st_size for p in files)
    out: dict[str, Any] = {"site_files": len(files), "site_mib": round(size / 2**20, 1)}
    served = serve(site)
    url = served.url
    loads: list[float] = []
    try:
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            for run in range(runs):
                context = browser.new_context(viewport={"width": 1280, "height": 800})
                outside: list[str] = []
                served.sent[0] = 0

                def route(r: Any, outside: list[str] = outside) -> None:
                    if r.request.url.startswith(url):
                        r.continue_()
                    else:
                        outside.append(r.request.url)
                        r.abort()

                context.route("**/*", route)
                page = context.new_page()
                requests: list[str] = []

                def seen(req: Any, requests: list[str] = requests) -> None:
                    requests.append(req.url)

                context.on("request", seen)
                t0 = time.perf_counter()
                page.goto(url + "?lesson=goal", wait_until="commit")
                page.locator(".uu-lesson.uu-lesson-goal .uu-t").wait_for(timeout=300_000)
                loads.append(time.perf_counter() - t0)
                out.update(requests_seen=len(requests), served_mib=round(served.sent[0] / 2**20, 1),
                           requests_outside=len(outside))
                if run == runs - 1:  # the clicks, in the last page
                    page.locator("button.uu-nav-home").click()
                    page.locator("button.uu-play").click()
                    clicks = [_move(page) for _ in range(moves)]
                    out.update(moves=len(clicks), click_to_table_median_s=round(statistics.median(clicks), 3),
                               click_to_table_max_s=round(max(clicks), 3))
                context.close()
            browser.close()
    finally:
        served.stop()
    out.update(runs=runs, lesson_visible_cold_s=[round(x, 1) for x in loads],
               lesson_visible_cold_median_s=round(statistics.median(loads), 1))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m uu.lite.bench",
                                 description=__doc__.split("\n\n")[0] if __doc__ else None)
    ap.add_argument("site", nargs="?", default="build/lite")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--moves", type=int, default=10)
    args = ap.parse_args(argv)
    print(json.dumps(measure(Path(args.site).resolve(), args.runs, args.moves)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
