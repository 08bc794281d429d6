"""What `uu bench --app` reads off the server: its and its kernels' memory and CPU, the pool of warm kernels,
and trouble in its log."""

from __future__ import annotations

import re
import time
from typing import Any

from uu.benchmarks.stats import summary

__all__ = ["Phase", "log_trouble", "memory", "preheat_args", "wait_for_pool"]

HARMLESS_LOG = ("is not trusted", "Kernel is running over TCP without encryption", "websocket_ping_timeout",
                "Setting websocket_ping_timeout", "Starting buffering for", "Adapting from protocol version",
                "Kernel started:", "Kernel shutdown:", "Using pre-heated kernel", "is filled with",
                "Culling kernels", "Voilà is running at", "the tutor is at")
TROUBLE = re.compile(r"WARNING|ERROR|CRITICAL|Traceback|not allowed|Ignoring|Exception", re.I)


# ---- server-side measures --------------------------------------------------------------------------------
def cmdline(p: Any) -> list[str]:
    try:
        return p.cmdline()
    except Exception:
        return []


def is_kernel(p: Any) -> bool:
    """A kernel process: launched (`-m ipykernel_launcher`) or forked by the zygote (`uu.server.forkkernel`: the zygote's
    children, which carry its command line)."""
    if any("ipykernel" in part for part in cmdline(p)):
        return True
    try:
        parent = p.parent()
    except Exception:
        return False
    return parent is not None and "uu.server.forkkernel" in cmdline(p) and "uu.server.forkkernel" in cmdline(parent)


def memory(server_pid: int) -> dict[str, Any]:
    """RSS/USS/PSS (MiB) of the server and of each kernel process (psutil). Forked kernels share the zygote's
    pages, which RSS counts in full in every kernel: PSS (shared pages split among their sharers) is the fair
    cost of a learner, and USS the least."""
    mib = 1024 * 1024
    try:
        import psutil
    except ImportError:
        return {"error": "psutil is not installed: no memory figures"}
    server = psutil.Process(server_pid)
    kernels = [p for p in server.children(recursive=True) if is_kernel(p)]

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
    zygotes = [p for p in server.children() if "uu.server.forkkernel" in cmdline(p)]
    zygote_pss = info(zygotes[0])[2] if zygotes else None
    srss, suss, _ = info(server)
    r = lambda x: None if x is None else round(x, 1)  # noqa: E731
    return {"kernels": len(krss), "kernel_rss_mib_median": r(summary(krss)["median"]),
            "kernel_rss_mib_max": r(max(krss) if krss else None),
            "kernel_uss_mib_median": r(summary(kuss)["median"]),
            "kernel_pss_mib_median": r(summary(kpss)["median"]), "zygote_pss_mib": r(zygote_pss),
            "kernels_rss_mib_total": r(sum(krss)), "server_rss_mib": r(srss), "server_uss_mib": r(suss)}


def server_cpu_s(server_pid: int) -> float | None:
    """CPU seconds used so far by the server process itself (Voila/tornado: pages, static files, websockets;
    not its kernels)."""
    try:
        import psutil

        t = psutil.Process(server_pid).cpu_times()
        return t.user + t.system
    except Exception:
        return None


class Phase:
    """Wall time, the server's CPU, its kernels' CPU (and the zygote's: every process under the server) and
    this process's own CPU (the emulated learners, Playwright's client) over one step of the benchmark. A
    kernel that exits during the step takes its CPU with it."""

    def __init__(self, server_pid: int):
        self.pid = server_pid
        self.t0 = time.perf_counter()
        self.server0 = server_cpu_s(server_pid)
        self.tree0 = tree_cpu_s(server_pid)[0]
        self.own0 = time.process_time()

    def done(self) -> dict[str, float | None]:
        server = server_cpu_s(self.pid)
        server_s = None if server is None or self.server0 is None else round(server - self.server0, 2)
        tree = tree_cpu_s(self.pid)[0]
        return {"wall_s": round(time.perf_counter() - self.t0, 2), "server_cpu_s": server_s,
                "kernels_cpu_s": None if server_s is None else round(tree - self.tree0 - server_s, 2),
                "harness_cpu_s": round(time.process_time() - self.own0, 2)}


def preheat_args(preheat: int) -> tuple[str, ...]:
    return ("--preheat", str(preheat))  # always explicit: `uu app` has a pool by default


def tree_cpu_s(server_pid: int) -> tuple[float, int]:
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
            kernels += p is not server and is_kernel(p)
        except psutil.Error:
            pass
    return total, kernels


def wait_for_pool(server_pid: int, preheat: int, timeout: float = 300) -> float:
    """Seconds until the pool is ready: at least `preheat` kernel processes, and the server and its kernels
    idle (under 0.1 s of CPU in a second). A kernel process exists well before it has run the notebook, so
    counting processes alone is not enough (an earlier version of this benchmark sent its burst into a pool
    that was still starting)."""
    t0 = time.perf_counter()
    while time.perf_counter() - t0 < timeout:
        before, _ = tree_cpu_s(server_pid)
        time.sleep(1.0)
        after, kernels = tree_cpu_s(server_pid)
        if kernels >= preheat and after - before < 0.1:
            break
    return round(time.perf_counter() - t0, 1)


def log_trouble(text: str) -> list[str]:
    """Warning and error lines of a server log, but for the known harmless ones."""
    return [line for line in text.splitlines()
            if TROUBLE.search(line) and not any(h in line for h in HARMLESS_LOG)]

