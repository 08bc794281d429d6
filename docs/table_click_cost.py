"""What a click on the play screen costs the browser: `uu app` on a free port, one Chromium page on the play
screen in step mode, then clicks as `uu bench --app` makes them (`uu.benchmarks.app_browser`), each timed until
the table is drawn again; per click, what Chromium's own counters (CDP `Performance.getMetrics`) say its
script, style recalculation and layout took. Each run is a new server and a new deal.

    .venv/bin/python docs/table_click_cost.py [clicks, default 40] [runs, default 1]

To compare two versions of the table's code, run it, put the other version in place (for example
`git show ed01b56:uu/table/table.js > uu/table/table.js`), run it again, and take turns: the machine's own
speed drifts, so only runs made one after the other compare.
"""

from __future__ import annotations

import asyncio
import json
import sys
import tempfile
from pathlib import Path

from playwright.async_api import async_playwright

from uu.benchmarks.app_browser import (
    CHROME_ARGS,
    CHROMIUM,
    browser_click_summary,
    click_run,
    leave,
    open_home,
    open_play,
)
from uu.server.appserver import AppServer

COUNTERS = ("ScriptDuration", "RecalcStyleDuration", "LayoutDuration", "TaskDuration")


async def counters(cdp: object) -> dict[str, float]:
    got = await cdp.send("Performance.getMetrics")  # type: ignore[attr-defined]
    return {m["name"]: m["value"] for m in got["metrics"]}


async def main(clicks: int, runs: int) -> None:
    async with async_playwright() as p:
        browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
        for _ in range(runs):
            server = AppServer(Path(tempfile.mkdtemp()))
            try:
                await asyncio.to_thread(server.wait_port)
                ctx, page, _s = await open_home(browser, server.url)
                await open_play(page)
                cdp = await ctx.new_cdp_session(page)
                await cdp.send("Performance.enable")
                before = await counters(cdp)
                result = browser_click_summary(await click_run(page, clicks))
                after = await counters(cdp)
                result["ms_per_click"] = {k: round((after[k] - before[k]) * 1000 / clicks, 2) for k in COUNTERS}
                print(json.dumps(result), flush=True)
                await leave(ctx, page)
            finally:
                server.stop()
        await browser.close()


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 40, int(sys.argv[2]) if len(sys.argv) > 2 else 1))
