"""What a click on the play screen costs `uu app`'s server and the learner's kernel, without a browser: one
emulated learner (`uu.benchmarks.learner`, as `uu bench --app` makes them) opens the play screen in step mode
and clicks as the benchmark's learners do; the server's and the kernel's CPU per click, and the click's time
from the message sent to its table received.

    .venv/bin/python docs/server_click_cost.py [clicks, default 150]

To compare two versions of the server, run it with each in turns: the machine's own speed drifts, so only runs
made one after the other compare.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from pathlib import Path

import psutil

from uu.benchmarks.crowd import arrive_together
from uu.server.appserver import AppServer


def _cpu(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


async def main(clicks: int) -> None:
    with AppServer(Path(tempfile.mkdtemp()), extra_args=("--preheat", "0")) as server:
        await asyncio.to_thread(server.wait_ready)
        learners, _burst = await arrive_together(server.url, 1, None)
        learner = learners[0]
        try:
            await learner.open_play()
            for _ in range(5):  # the first moves of a game warm its caches
                await learner.click()
            proc = psutil.Process(server.proc.pid)
            kernels = [k for k in proc.children(recursive=True) if k.ppid() != proc.pid]  # forked: not ours
            server_before, kernels_before = _cpu(proc), sum(_cpu(k) for k in kernels)
            times = [(await learner.click()).board_ms for _ in range(clicks)]
            server_ms = (_cpu(proc) - server_before) / clicks * 1000
            kernel_ms = (sum(_cpu(k) for k in kernels) - kernels_before) / clicks * 1000
        finally:
            await learner.leave()
    got = sorted(t for t in times if t is not None)
    print(f"{len(got)} clicks: median {got[len(got) // 2]:.1f} ms, p95 {got[int(len(got) * 0.95)]:.1f} ms; "
          f"CPU per click: server {server_ms:.2f} ms, kernel {kernel_ms:.2f} ms")


if __name__ == "__main__":
    asyncio.run(main(int(sys.argv[1]) if len(sys.argv) > 1 else 150))
