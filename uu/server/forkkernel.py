"""Learners' kernels forked from a warm process instead of started from scratch (`uu app`, Linux only).

A kernel started the usual way (`python -m ipykernel_launcher`) spends about 0.6 s of CPU importing IPython,
ipykernel, ipywidgets and the tutor before it can run the app notebook, and it pays that for every learner:
30 learners arriving together on 2 cores queue for the imports alone for about 9 s (measured with
`uu bench --app`, see docs/performance.md). Here one helper process, the *zygote* (`python -m uu.server.forkkernel`, started by
the server on the first kernel launch), imports all of that once; each kernel is then an `os.fork()` of it that
goes straight to starting the kernel. The forked kernels also share the zygote's imported code in memory
(copy-on-write), so each learner costs less memory too.

`ForkProvisioner` is a jupyter_client kernel provisioner (entry point `uu-fork`, chosen by `uu.server.voila_config`)
that asks the zygote for a kernel when the command is the standard Python kernel of this interpreter, and
otherwise, or when the zygote cannot be used, launches the kernel as jupyter_client does (`LocalProvisioner`).
`UU_FORK_KERNELS=0` turns it off.

What a forked kernel does differently from a launched one, and why it is safe:
- It is not the server's child but the zygote's, so the server cannot `waitpid` it: `ForkedKernel` polls it
  by pid and start time (so a reused pid is never mistaken for it), and the zygote reaps it when it exits.
- The zygote holds no thread, no ZeroMQ context and no event loop when it forks (checked before each fork);
  each kernel creates its own after the fork, as a launched kernel does. `random` reseeds itself in a fork.
- It starts its own session (process group), like `start_new_session=True` in jupyter_client's launcher, so
  interrupts and kills reach it and its subprocesses but never the zygote. The zygote replies only once the
  child has done so.
- What a module does at import only when it finds a running kernel is done again in the kernel: ipywidgets
  registers its comm targets (without them, a page falls back to asking for each widget's state in turn).
- Environment variables read at import time are the zygote's, which are the server's; the variables the
  server passes for the kernel (JPY_SESSION_NAME and the rest) are set before the kernel starts. ipykernel
  reads JPY_PARENT_PID at import, so the parent is passed as an option instead.
- If the zygote exits (the server died: its stdin closes), the kernels notice their parent changed and exit,
  as a launched kernel does when the server dies (ipykernel's parent poller).
- Its logging and warnings, and what it writes to its stderr, go to the server's log, not to the learner's
  page (`uu.server.kernellog`).
- It has a memory ceiling (`MEMORY_ENV`, `_limit_memory`); a launched kernel (`UU_FORK_KERNELS=0`) has none.
"""

from __future__ import annotations

import json
import logging
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

from jupyter_client.connect import KernelConnectionInfo
from jupyter_client.provisioning import LocalProvisioner

log = logging.getLogger(__name__)

FORK_ENV = "UU_FORK_KERNELS"  # "0": launch kernels the usual way (for A/B measurements, or to rule this out)
# Imported once in the zygote, so that kernels start with them: the kernel itself and what the app notebook
# and a kernel's start-up import (found by listing sys.modules in a launched kernel after the notebook ran).
# (Measured with cProfile: after the first four, a kernel's initialize() still took 0.20 s, 0.13 s of it
# importing the debugger, debugpy, on the way; with the whole list, 0.05 s.)
PRELOAD = ("ipykernel.kernelapp", "ipykernel.ipkernel", "ipykernel.zmqshell", "ipykernel.comm",
           "ipykernel.debugger", "IPython.core.completer", "IPython.display", "IPython.extensions", "pdb",
           "faulthandler", "sqlite3", "psutil", "tornado.queues", "ipywidgets", "uu.widgets")
_LAUNCHER = ["-m", "ipykernel_launcher"]
MEMORY_ENV = "UU_KERNEL_MEMORY_MB"  # a forked kernel's address-space ceiling in MiB; "0": none
# An idle forked kernel maps about 0.8 GiB of address space (13 threads' stacks and malloc arenas, mostly
# untouched) and holds about 60 MiB; this leaves it about 0.7 GiB to grow before an allocation fails.
DEFAULT_MEMORY_MB = 1536


def enabled() -> bool:
    return sys.platform == "linux" and os.environ.get(FORK_ENV, "1").strip() != "0"


# ---- the server side ---------------------------------------------------------------------------------------
def _start_time(pid: int) -> int | None:
    """The process's start time in clock ticks since boot (field 22 of /proc/<pid>/stat), None if it is gone
    or a zombie."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    fields = stat[stat.rindex(")") + 2:].split()  # the name in parentheses may hold spaces
    if fields[0] in ("Z", "X"):
        return None
    return int(fields[19])


class ForkedKernel:
    """The part of `subprocess.Popen` jupyter_client's provisioner uses, for a kernel that is not our child."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int, started: int):
        self.pid = pid
        self._started = started
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None and _start_time(self.pid) != self._started:
            self.returncode = 0  # its exit status went to the zygote, which reaped it
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        end = None if timeout is None else time.monotonic() + timeout
        while self.poll() is None:
            if end is not None and time.monotonic() > end:
                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout or 0)
            time.sleep(0.02)
        return self.returncode or 0

    def send_signal(self, signum: int) -> None:
        if self.poll() is None:
            os.kill(self.pid, signum)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)


class Zygote:
    """The server's handle on the zygote process: one per server process, started on first use."""

    _lock = threading.Lock()
    _current: Zygote | None = None

    def __init__(self) -> None:
        self.proc = subprocess.Popen([sys.executable, "-m", "uu.server.forkkernel"], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, close_fds=True)
        ready = self._read()
        if ready.get("ready") is not True:
            raise RuntimeError(f"the kernel zygote did not start: {ready}")
        self.pid = self.proc.pid

    @classmethod
    def get(cls) -> Zygote:
        """The running zygote, started if there is none (or the last one died). Call with `_lock` held."""
        if cls._current is None or cls._current.proc.poll() is not None:
            cls._current = Zygote()
        return cls._current

    def _read(self) -> dict[str, Any]:
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline()
        if not line:
            raise RuntimeError(f"the kernel zygote exited (status {self.proc.wait()})")
        return json.loads(line)

    def spawn(self, args: list[str], env: dict[str, str], cwd: str) -> tuple[int, int]:
        """Fork a kernel running `ipykernel_launcher args...`; returns (pid, start time)."""
        assert self.proc.stdin is not None
        self.proc.stdin.write(json.dumps({"args": args, "env": env, "cwd": cwd}).encode() + b"\n")
        self.proc.stdin.flush()
        reply = self._read()
        if "pid" not in reply:
            raise RuntimeError(f"the kernel zygote could not fork a kernel: {reply.get('error', reply)}")
        return int(reply["pid"]), int(reply["started"])

    @classmethod
    def spawn_kernel(cls, args: list[str], env: dict[str, str], cwd: str) -> tuple[int, int]:
        with cls._lock:
            return cls.get().spawn(args, env, cwd)

    @classmethod
    def stop(cls) -> None:
        """Close the zygote's stdin (it exits); its running kernels are left to the server's shutdown."""
        with cls._lock:
            if cls._current is not None and cls._current.proc.poll() is None:
                assert cls._current.proc.stdin is not None
                cls._current.proc.stdin.close()
                cls._current.proc.wait(timeout=10)
            cls._current = None


def forkable(cmd: list[str]) -> bool:
    """Whether `cmd` is the standard Python kernel of this interpreter, which the zygote can fork."""
    if not enabled() or len(cmd) < 3 or cmd[1:3] != _LAUNCHER:
        return False
    try:
        return os.path.samefile(cmd[0], sys.executable)
    except OSError:
        return False


class ForkProvisioner(LocalProvisioner):
    """`LocalProvisioner`, but the standard Python kernel is forked from the zygote."""

    async def launch_kernel(self, cmd: list[str], **kwargs: Any) -> KernelConnectionInfo:
        if not forkable(cmd):
            return await super().launch_kernel(cmd, **kwargs)
        import asyncio

        env = {str(k): str(v) for k, v in (kwargs.get("env") or os.environ).items()}
        cwd = str(kwargs.get("cwd") or Path.cwd())
        try:
            pid, started = await asyncio.to_thread(Zygote.spawn_kernel, cmd[3:], env, cwd)
        except Exception as e:  # a kernel must start anyway: the usual way, only slower
            log.warning("uu: forking a kernel failed (%s); launching it the usual way", e)
            return await super().launch_kernel(cmd, **kwargs)
        # ForkedKernel answers what LocalProvisioner asks of a Popen (poll, wait, send_signal, kill, pid)
        self.process = ForkedKernel(pid, started)  # type: ignore[assignment]
        self.pid = self.pgid = pid  # the kernel leads its own process group
        self.cwd = cwd
        return self.connection_info

    async def send_signal(self, signum: int) -> None:
        # LocalProvisioner signals the process group by id; a group whose kernel is gone may be someone else's
        if isinstance(self.process, ForkedKernel) and self.process.poll() is not None:
            return
        await super().send_signal(signum)


# ---- the zygote --------------------------------------------------------------------------------------------
def _reap(signum: int, frame: Any) -> None:
    try:
        while os.waitpid(-1, os.WNOHANG)[0] > 0:
            pass
    except ChildProcessError:
        pass


def _check_forkable() -> None:
    """A fork copies only the calling thread and would share a ZeroMQ context's sockets: refuse both."""
    if threading.active_count() != 1:
        raise RuntimeError(f"{threading.active_count()} threads in the zygote")
    zmq = sys.modules.get("zmq")
    if zmq is not None and getattr(zmq.Context, "_instance", None) is not None:
        raise RuntimeError("a ZeroMQ context exists in the zygote")


_reply_fd = -1  # the zygote's copy of its stdout, where its replies go


def memory_ceiling() -> int | None:
    """Bytes of address space a forked kernel may map (`MEMORY_ENV`), None for no ceiling."""
    try:
        mb = int(os.environ.get(MEMORY_ENV, DEFAULT_MEMORY_MB))
    except ValueError:
        mb = DEFAULT_MEMORY_MB
    return mb * 1024 * 1024 if mb > 0 else None


def _limit_memory() -> None:
    """Set the kernel's memory ceiling (RLIMIT_AS, inherited by anything it starts): a learner's kernel flooded
    with widget messages, or handed a huge paste, fails an allocation instead of taking the machine's memory
    from the class. The MemoryError then ends the kernel (`uu.server.kernellog`), and its page says so."""
    import resource

    ceiling = memory_ceiling()
    if ceiling is None:
        return
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, ceiling))


def _become_kernel(request: dict[str, Any], ready_fd: int) -> None:
    """In the forked child: become what `python -m ipykernel_launcher <args>` would be, and run it."""
    os.setsid()
    # a kernel holding the reply pipe open would hide the zygote's death from the server
    os.close(_reply_fd)
    os.write(ready_fd, b"1")
    os.close(ready_fd)
    for sig in (signal.SIGCHLD, signal.SIGTERM, signal.SIGPIPE):
        signal.signal(sig, signal.SIG_DFL)
    signal.signal(signal.SIGINT, signal.default_int_handler)
    # fds 0 and 1 are the zygote's pipes to the server: the kernel gets /dev/null and the server's stderr
    devnull = os.open(os.devnull, os.O_RDWR)
    os.dup2(devnull, 0)
    os.dup2(2, 1)
    os.close(devnull)
    sys.stdin = open(0, closefd=False)  # noqa: SIM115 (fds of the process, kept open for its lifetime)
    sys.stdout = open(1, "w", closefd=False)  # noqa: SIM115
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    # The kernel's parent poller exits the kernel when its parent changes; its parent is the zygote. ipykernel
    # reads JPY_PARENT_PID when the class is defined, which was in the zygote: pass it as an option too.
    _limit_memory()  # from the kernel's environment (the server's)
    parent = str(os.getppid())
    os.environ["JPY_PARENT_PID"] = parent
    # capture_fd_output off: what is written to the process's stderr (a C library, a fault handler) stays in the
    # server's log; ipykernel would send it to the page as a stream (uu.server.kernels drops it there anyway)
    # HistoryManager off: IPython would keep every learner's cell inputs in one SQLite file shared by all the
    # kernels (a thread writing it in each); nobody reads a learner kernel's history
    sys.argv = ["ipykernel_launcher", *request["args"], f"--IPKernelApp.parent_handle={parent}",
                "--IPKernelApp.capture_fd_output=False", "--HistoryManager.enabled=False"]
    from ipykernel import kernelapp

    # IPKernelApp.launch_instance, with one step added: ipywidgets registers its comm targets ("jupyter.widget",
    # "jupyter.widget.control") when it is imported in a running kernel, and here it was imported before there
    # was one. Without them a page cannot ask for the widgets' state in one message.
    app = kernelapp.IPKernelApp.instance()
    app.initialize()
    if "ipywidgets" in sys.modules:
        sys.modules["ipywidgets"].register_comm_target()
    from uu.server.kernellog import logs_to_server

    logs_to_server()  # after initialize(), which made sys.stderr the page's stream: logs go to the server
    app.start()


def _spawn(request: dict[str, Any]) -> dict[str, Any]:
    _check_forkable()
    ready_r, ready_w = os.pipe()
    pid = os.fork()
    if pid == 0:
        code = 1
        try:
            os.close(ready_r)
            _become_kernel(request, ready_w)
            code = 0
        except SystemExit as e:
            code = e.code if isinstance(e.code, int) else 1
        except BaseException:
            import traceback

            traceback.print_exc()
        finally:
            os._exit(code)
    os.close(ready_w)
    done = os.read(ready_r, 1)  # the child has its own session: signals to its group cannot reach us
    os.close(ready_r)
    started = _start_time(pid)
    if done != b"1" or started is None:
        return {"error": "the forked kernel exited at once"}
    return {"pid": pid, "started": started}


def _warm() -> None:
    """Load what every App loads from files: the card catalog and the shipped lessons (both cached)."""
    from uu.cards import catalog
    from uu.tutor.check import shipped_lessons
    from uu.tutor.lesson_model import load_lesson

    catalog()
    for path in shipped_lessons():
        load_lesson(path)


def main() -> None:
    # as ipykernel_launcher does: the working directory is not on sys.path while the kernel's modules load
    if sys.path and (sys.path[0] == "" or Path(sys.path[0]) == Path.cwd()):
        del sys.path[0]
    global _reply_fd
    _reply_fd = os.dup(1)
    reply = os.fdopen(_reply_fd, "wb", buffering=0)
    os.dup2(2, 1)  # a stray print in an import must not corrupt the replies
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl+C is for the server, which then closes our stdin
    import importlib

    # debugpy (imported by ipykernel.debugger) warns once per process that frozen modules may hide
    # breakpoints; nobody debugs the tutor's kernels (ipykernel's own kernelspec helper sets this too)
    os.environ.setdefault("PYDEVD_DISABLE_FILE_VALIDATION", "1")
    for name in PRELOAD:
        importlib.import_module(name)
    _warm()
    # Objects made so far are never collected here: a kernel's collections then leave them alone instead of
    # walking (and so copying, page by page) the zygote's whole heap
    import gc

    gc.collect()
    gc.freeze()
    signal.signal(signal.SIGCHLD, _reap)
    reply.write(b'{"ready": true}\n')
    for line in sys.stdin.buffer:
        try:
            answer = _spawn(json.loads(line))
        except Exception as e:
            answer = {"error": f"{type(e).__name__}: {e}"}
        reply.write(json.dumps(answer).encode() + b"\n")


if __name__ == "__main__":
    main()
