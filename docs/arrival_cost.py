"""What a class arriving costs `uu app` with no kernel ready: emulated learners (`uu.benchmarks.learner`, as
`uu bench --app` makes them) open the app at `uu app --preheat 0`, first one after the other, then all
together. Prints, for the learners one after the other, the server's CPU per learner and the median kernel's
CPU from its start to the learner's home; for those arriving together, the time until all are interactive
and the server's and their kernels' CPU.

    .venv/bin/python docs/arrival_cost.py [one after the other, default 10] [together, default 30]

To compare two versions, run it with each in turns (for example with `git checkout <commit> -- <files>` between
runs): the machine's own speed drifts, so only runs made one after the other compare.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

import psutil

from uu.benchmarks.crowd import arrive_together
from uu.server.appserver import AppServer


def _cpu(proc: psutil.Process) -> float:
    times = proc.cpu_times()
    return times.user + times.system


def _kernels(server: psutil.Process) -> list[psutil.Process]:
    """The learners' kernels: forked by the server's kernel-forking helper, so not the server's own children."""
    return [k for k in server.children(recursive=True) if k.ppid() != server.pid]


async def main(serial: int, together: int) -> None:
    with AppServer(Path(tempfile.mkdtemp()), max_kernels=serial + together + 10,
                   extra_args=("--preheat", "0")) as server:
        await asyncio.to_thread(server.wait_ready)
        await arrive_together(server.url, 1, None)  # the first learner warms the server's caches
        proc = psutil.Process(server.proc.pid)
        before = {k.pid for k in _kernels(proc)}
        start, waits = _cpu(proc), []
        for _ in range(serial):
            t = time.perf_counter()
            await arrive_together(server.url, 1, None)
            waits.append(time.perf_counter() - t)
        per_learner = (_cpu(proc) - start) / max(serial, 1)
        kernels = sorted(_cpu(k) for k in _kernels(proc) if k.pid not in before)
        if serial:
            print(f"{serial} one after the other: server CPU {1000 * per_learner:.0f} ms a learner, a kernel's CPU "
                  f"{1000 * kernels[len(kernels) // 2]:.0f} ms (median), each waited "
                  f"{sorted(waits)[len(waits) // 2]:.2f} s (median)")
        if together:
            before = {k.pid for k in _kernels(proc)}
            start = _cpu(proc)
            _learners, result = await arrive_together(server.url, together, None)
            kernels_cpu = sum(_cpu(k) for k in _kernels(proc) if k.pid not in before)
            if result["all_interactive_s"] is None:
                print(f"{together} together: {result['interactive']} interactive; {result['errors']}")
                return
            print(f"{together} together: all interactive in {result['all_interactive_s']:.2f} s, server CPU "
                  f"{_cpu(proc) - start:.2f} s, their kernels' CPU {kernels_cpu:.2f} s")


if __name__ == "__main__":
    counts = [int(a) for a in sys.argv[1:3]] + [10, 30][len(sys.argv[1:3]):]
    asyncio.run(main(counts[0], counts[1]))
