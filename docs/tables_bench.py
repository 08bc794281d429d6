"""Capacity of tables for several people (issue 43): N tables of K learners, every learner a client of its seat
as a kernel is (uu/together/client.py: a long poll, a move when it has one), against the tables API served by a
tornado process of its own (uu/server/tables.py, what `uu app --class` adds). Reports a move reaching every
other seat's screen (p50, p95, max: from the move's answer to each other client's long poll answering with it),
moves made, and the server process's CPU time and peak memory.

    .venv/bin/python docs/tables_bench.py [--tables 8] [--seats 4] [--seconds 60]
"""

from __future__ import annotations

import argparse
import random
import resource
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

SERVER = """
import asyncio, sys, tornado.web
from uu.server.tables import open_hub, table_handlers
async def main():
    tornado.web.Application(table_handlers("/", open_hub(sys.argv[2]))).listen(int(sys.argv[1]), "127.0.0.1")
    print("ready", flush=True)
    await asyncio.Event().wait()
asyncio.run(main())
"""


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--tables", type=int, default=8)
    p.add_argument("--seats", type=int, default=4)
    p.add_argument("--seconds", type=float, default=60.0)
    a = p.parse_args()
    from uu.together.client import TableClient

    port = free_port()
    db = Path(tempfile.mkdtemp()) / "class.sqlite"
    proc = subprocess.Popen([sys.executable, "-c", SERVER, str(port), str(db)], stdout=subprocess.PIPE, text=True)
    assert proc.stdout is not None and proc.stdout.readline().strip() == "ready"
    url = f"http://127.0.0.1:{port}/uu/tables"
    made_at: dict[tuple[str, int], float] = {}  # (table, revision) -> when the move making it was answered
    reach: list[float] = []
    moves = [0]
    lock = threading.Lock()
    stop = time.monotonic() + a.seconds

    def learner(code: str, token: str, seed: int) -> None:
        client, rng, revision = TableClient(url, timeout=30), random.Random(seed), -1
        while time.monotonic() < stop:
            screen = client.view(code, token, revision=revision, wait=5) if revision >= 0 else \
                client.view(code, token)
            now = time.monotonic()
            with lock:
                at = made_at.get((code, screen["revision"]))
                if at is not None and screen["revision"] != revision:
                    reach.append(now - at)
            revision = screen["revision"]
            if screen["phase"] != "playing":
                break
            if screen["actions"]:
                try:
                    after = client.move(code, token, rng.choice(screen["actions"])["id"], screen["version"])
                except Exception:
                    continue
                with lock:
                    made_at[(code, after["revision"])] = time.monotonic()
                    moves[0] += 1
                revision = after["revision"]

    threads = []
    for t in range(a.tables):
        c = TableClient(url)
        made = c.make("L0", {"players": a.seats})
        tokens = [made["token"]] + [c.join(made["code"], f"L{i}")["token"] for i in range(1, a.seats)]
        c.start(made["code"], made["token"])
        threads += [threading.Thread(target=learner, args=(made["code"], tok, t * 10 + i))
                    for i, tok in enumerate(tokens)]
    load = Path("/proc/loadavg").read_text().split()[:3]
    started = time.monotonic()
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    wall = time.monotonic() - started
    stat = Path(f"/proc/{proc.pid}/stat").read_text().split()
    cpu = (int(stat[13]) + int(stat[14])) / 100  # utime + stime, in clock ticks (100 a second on Linux)
    peak = next(line for line in Path(f"/proc/{proc.pid}/status").read_text().splitlines()
                if line.startswith("VmHWM")).split()[1]
    proc.terminate()
    proc.wait()
    reach.sort()
    q = statistics.quantiles(reach, n=100) if len(reach) > 2 else [0.0] * 99
    print(f"{a.tables} tables x {a.seats} learners, {wall:.0f} s, load before {' '.join(load)}")
    print(f"moves {moves[0]} ({moves[0] / wall:.1f}/s); a move reaching another screen: p50 {q[49] * 1000:.0f} ms, "
          f"p95 {q[94] * 1000:.0f} ms, max {reach[-1] * 1000 if reach else 0:.0f} ms ({len(reach)} deliveries)")
    print(f"server: CPU {cpu:.1f} s ({100 * cpu / wall:.0f}% of one core), peak memory {int(peak) / 1024:.0f} MiB; "
          f"this client process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")


if __name__ == "__main__":
    main()
