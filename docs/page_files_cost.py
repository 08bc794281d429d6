"""What serving Voila's page files costs `uu app`'s server: with uu's handlers (uu/server/assetfiles.py) and with
Voila's own (`UU_FAST_FILES=0`), in turns, since the machine's own speed drifts and only runs made one after
the other compare. Each round, for each of the two:

- one server (`uu app --preheat 0`): every file a page loads, as a browser fetches them (6 persistent
  connections), again and again for 5 s; the server's CPU per file;
- `uu bench --app`'s class step (`class_burst`): `uu app --class` with its pool of 30 ready, and 30 emulated
  learners arriving together; all interactive after how long, and the server's CPU for it.

    .venv/bin/python docs/page_files_cost.py [rounds, default 3]
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
import tempfile
import time
from pathlib import Path

import psutil

from uu.benchmarks.app_browser import CHROME_ARGS, CHROMIUM, leave, open_home
from uu.benchmarks.app_load import _class_burst
from uu.benchmarks.voila_wire import fetch_keepalive
from uu.server.appserver import AppServer

LEARNERS = 30


async def recorded_files(workdir: Path) -> list[str]:
    """The files a page loads, as Chromium loads them (what `uu bench --app` records for its learners)."""
    from playwright.async_api import async_playwright

    files: list[str] = []
    with AppServer(workdir, extra_args=("--preheat", "0")) as server:
        await asyncio.to_thread(server.wait_ready)
        async with async_playwright() as p:
            browser = await p.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
            ctx, page, _s = await open_home(browser, server.url, requests=files)
            await leave(ctx, page)
            await browser.close()
    return list(dict.fromkeys(files))


async def per_file_ms(workdir: Path, files: list[str]) -> float:
    with AppServer(workdir, extra_args=("--preheat", "0")) as server:
        await asyncio.to_thread(server.wait_ready)
        await fetch_keepalive("127.0.0.1", server.port, files)  # each file read once
        proc = psutil.Process(server.proc.pid)
        before, rounds, t0 = sum(proc.cpu_times()[:2]), 0, time.perf_counter()
        while time.perf_counter() - t0 < 5:
            await fetch_keepalive("127.0.0.1", server.port, files)
            rounds += 1
        return (sum(proc.cpu_times()[:2]) - before) / (rounds * len(files)) * 1000


async def main(rounds: int) -> None:
    files = await recorded_files(Path(tempfile.mkdtemp()))
    print(json.dumps({"files_per_page": len(files)}), flush=True)
    for i in range(rounds):
        for fast in (True, False) if i % 2 == 0 else (False, True):
            os.environ["UU_FAST_FILES"] = "1" if fast else "0"  # read by each server started below
            workdir = Path(tempfile.mkdtemp())
            ms = await per_file_ms(workdir, files)
            burst = await _class_burst(workdir, LEARNERS, files)
            print(json.dumps({"handlers": "uu" if fast else "voila", "server_cpu_ms_per_file": round(ms, 3),
                              "class_all_interactive_s": burst["all_interactive_s"],
                              "class_server_cpu_s": burst.get("server_cpu_s"),
                              "class_kernels_cpu_s": burst.get("kernels_cpu_s")}), flush=True)


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 3))
