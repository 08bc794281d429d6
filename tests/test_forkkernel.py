"""Kernels forked from the zygote (uu/server/forkkernel.py) behave as launched kernels do, for what the app relies on."""

from __future__ import annotations

import asyncio
import json
import os
import re
import signal
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from jupyter_client.manager import AsyncKernelManager
from jupyter_client.provisioning import KernelProvisionerFactory

from conftest import run_async
from uu.server import forkkernel
from uu.server.forkkernel import ForkedKernel, ForkProvisioner, Zygote, forkable

pytestmark = pytest.mark.skipif(sys.platform != "linux", reason="kernels are forked on Linux only")


@pytest.fixture
def fork_provisioner():
    """Kernel managers made in the test get the fork provisioner (the factory is a process-wide singleton)."""
    factory = KernelProvisionerFactory.instance()
    before = factory.default_provisioner_name
    factory.default_provisioner_name = "uu-fork"
    yield
    factory.default_provisioner_name = before
    Zygote.stop()


async def _start(env: dict[str, str] | None = None, cwd: str | None = None) -> AsyncKernelManager:
    km = AsyncKernelManager(kernel_name="python3")
    await km.start_kernel(env={**os.environ, **(env or {})}, cwd=cwd)
    return km


async def _run(km: AsyncKernelManager, code: str, timeout: float = 30) -> dict[str, Any]:
    """Execute `code`; the value of `_out` (repr'd) comes back as "out", an error's name as "error"."""
    printed: list[dict[str, Any]] = []
    kc = km.client()
    kc.start_channels()
    try:
        await kc.wait_for_ready(timeout=timeout)
        reply = await kc.execute_interactive(code + "\nprint(repr(_out))", timeout=timeout,
                                             output_hook=printed.append)
    finally:
        kc.stop_channels()
    text = "".join(m["content"].get("text", "") for m in printed if m["msg_type"] == "stream")
    return {"status": reply["content"]["status"], "error": reply["content"].get("ename"), "out": text.strip()}


def _gone(pid: int, within: float = 10) -> bool:
    end = time.monotonic() + within
    while time.monotonic() < end:
        if forkkernel._start_time(pid) is None:
            return True
        time.sleep(0.05)
    return False


def test_the_provisioner_is_registered_for_jupyter_client():
    """pyproject's entry point: the name `uu.server.voila_config` asks jupyter_client for."""
    assert KernelProvisionerFactory.instance()._check_availability("uu-fork")
    assert KernelProvisionerFactory.instance().provisioners["uu-fork"].load() is ForkProvisioner


def test_only_this_interpreters_python_kernel_is_forked(monkeypatch):
    args = ["-m", "ipykernel_launcher", "-f", "/tmp/k.json"]
    assert forkable([sys.executable, *args])
    assert not forkable(["/bin/sh", *args]), "another program is launched, not forked"
    assert not forkable([sys.executable, "-m", "other_kernel", "-f", "k.json"])
    monkeypatch.setenv(forkkernel.FORK_ENV, "0")
    assert not forkable([sys.executable, *args]), "UU_FORK_KERNELS=0 turns forking off"


def test_a_forked_kernel_runs_code_in_its_own_process_with_the_env_and_cwd_asked(fork_provisioner, tmp_path):
    async def go():
        km = await _start(env={"UU_TEST_MARK": "forked <b>"}, cwd=str(tmp_path))
        try:
            assert isinstance(km.provisioner, ForkProvisioner)
            assert isinstance(km.provisioner.process, ForkedKernel), "the kernel was launched, not forked"
            pid = km.provisioner.pid
            assert os.getpgid(pid) == pid, "the kernel leads its own process group (interrupts reach only it)"
            got = await _run(km, "import os, sys\n_out = (os.getpid(), os.getppid(), os.environ['UU_TEST_MARK'],"
                                 " os.getcwd(), 'ipykernel' in sys.modules, __name__,"
                                 " get_ipython().history_manager.enabled)")
            assert got["status"] == "ok", got
            kpid, ppid, mark, cwd, has_ipykernel, name, history = eval(got["out"])
            assert history is False, "a learner's kernel keeps no input history (no shared SQLite file)"
            assert kpid == pid and ppid == Zygote._current.pid, "forked by the zygote"
            assert (mark, Path(cwd), has_ipykernel, name) == ("forked <b>", tmp_path, True, "__main__")
        finally:
            await km.shutdown_kernel(now=True)
        assert _gone(pid), "the shut-down kernel's process is gone (reaped by the zygote)"

    run_async(go())


def test_forked_kernels_get_their_own_random_state_and_can_be_interrupted(fork_provisioner):
    """Two kernels forked from one zygote do not share `random`'s state (a learner's new game must not be
    everyone's); an interrupt stops a running cell as in a launched kernel."""

    async def go():
        kms = [await _start(), await _start()]
        try:
            draws = [(await _run(km, "import random\n_out = random.random()"))["out"] for km in kms]
            assert draws[0] != draws[1]
            km = kms[0]
            kc = km.client()
            kc.start_channels()
            await kc.wait_for_ready(timeout=30)
            msg_id = kc.execute("import time\ntime.sleep(60)")
            await asyncio.sleep(1.0)
            await km.interrupt_kernel()
            reply = await kc._async_get_shell_msg(timeout=20)
            while reply["parent_header"].get("msg_id") != msg_id:
                reply = await kc._async_get_shell_msg(timeout=20)
            kc.stop_channels()
            assert reply["content"]["ename"] == "KeyboardInterrupt"
        finally:
            for km in kms:
                await km.shutdown_kernel(now=True)

    run_async(go())


def test_a_forked_kernels_logs_and_warnings_go_to_the_server_not_the_page(fork_provisioner, capfd):
    """Errors logged in the kernel (the tutor's, ipykernel's, ipywidgets' own) and warnings go to the server's
    stderr (the zygote's, which is this test's here), never to the page as `stream` messages."""
    code = ("import logging, warnings, ipywidgets\n"
            "logging.getLogger('uu.widgets').error('secret-one /srv/path.py')\n"
            "logging.getLogger('ipykernel.comm').warning('secret-two No such comm')\n"
            "warnings.warn('secret-three')\n"
            "ipywidgets.Button().log.error('secret-four')\n"
            "_out = 'done'")

    async def go():
        km = await _start()
        try:
            return await _run(km, code)
        finally:
            await km.shutdown_kernel(now=True)

    got = run_async(go())
    assert got["status"] == "ok" and got["out"] == "'done'", got  # only the cell's own print reached the page
    server_log = capfd.readouterr().err
    for marker in ("secret-one", "secret-two", "secret-three", "secret-four"):
        assert marker in server_log, (marker, server_log[-2000:])


def test_a_forked_kernel_has_a_memory_ceiling_and_a_logged_memory_error_ends_it(fork_provisioner):
    """UU_KERNEL_MEMORY_MB sets the kernel's address-space ceiling: a bigger allocation fails in that kernel
    only. A MemoryError that a message handler caught and logged ends the kernel (it is not restarted, and
    its page says so: tests/test_app_smoke.py)."""

    async def go():
        km = await _start(env={forkkernel.MEMORY_ENV: "1200"})
        pid = km.provisioner.pid
        try:
            got = await _run(km, "import resource\n_out = resource.getrlimit(resource.RLIMIT_AS)")
            assert eval(got["out"]) == (1200 * 2**20, 1200 * 2**20), got
            got = await _run(km, "try:\n    b = bytearray(1500 * 2**20)\n    _out = 'allocated'\n"
                                 "except MemoryError:\n    _out = 'refused'")
            assert got["out"] == "'refused'", got
            kc = km.client()
            kc.start_channels()
            await kc.wait_for_ready(timeout=30)
            kc.execute("import logging\ntry:\n    raise MemoryError()\nexcept MemoryError:\n"
                       "    logging.getLogger('ipykernel.comm').error('in a handler', exc_info=True)")
            assert _gone(pid, within=15), "the kernel went on after running out of memory"
            kc.stop_channels()
        finally:
            if forkkernel._start_time(pid) is not None:
                await km.shutdown_kernel(now=True)
            else:
                km.provisioner.process = None
                await km.cleanup_resources()

    run_async(go())
    assert forkkernel.memory_ceiling() == forkkernel.DEFAULT_MEMORY_MB * 2**20


def test_kernels_exit_when_the_zygote_dies(fork_provisioner):
    """As a launched kernel exits when the server dies: the zygote dies with the server (its stdin closes)."""

    async def go():
        km = await _start()
        pid = km.provisioner.pid
        await _run(km, "_out = 1")
        zygote = Zygote._current
        assert zygote is not None
        os.kill(zygote.pid, signal.SIGKILL)
        zygote.proc.wait()
        assert _gone(pid, within=15), "the kernel outlived the zygote"
        km.provisioner.process = None  # nothing left to shut down
        await km.cleanup_resources()

    run_async(go())
    # the next kernel gets a new zygote
    assert Zygote.get().proc.poll() is None


def test_a_forked_kernel_whose_pid_was_reused_counts_as_gone():
    """The zygote reaps its kernels, so their pids can be reused: a kernel is identified by pid and start time."""
    me = ForkedKernel(os.getpid(), forkkernel._start_time(os.getpid()) + 1)
    assert me.poll() == 0, "another process with the kernel's pid is not the kernel"
    me.send_signal(signal.SIGTERM)  # and it is never signalled (this test process would die)
    alive = ForkedKernel(os.getpid(), forkkernel._start_time(os.getpid()))
    assert alive.poll() is None


def test_uu_app_forks_learners_kernels_and_leaves_none_behind(tmp_path):
    """`uu app`: a page's kernel is a child of the zygote, itself the server's child, and listens on Unix
    sockets only; when the server stops, the zygote and every kernel are gone."""
    import psutil

    from uu.server.appserver import AppServer, open_page

    with AppServer(tmp_path, extra_args=("--preheat", "0")) as server:
        server.wait_ready()
        status, page, _token = open_page(server.url)
        assert status == 200 and '"kernelId"' in page
        app = psutil.Process(server.proc.pid)
        zygotes = [p for p in app.children() if "uu.server.forkkernel" in " ".join(p.cmdline())]
        assert len(zygotes) == 1, [p.cmdline() for p in app.children()]
        kernels = zygotes[0].children()
        assert kernels, "the page's kernel was not forked"
        launched = [p for p in app.children() if "ipykernel_launcher" in " ".join(p.cmdline())]
        assert not launched, "a kernel was launched the usual way"
        # uu.server.voila_config: the kernels' channels are Unix sockets, no localhost TCP port to race for
        folder = re.search(r"Storing connection files in (\S+?)\.?$", server.log_text(), re.M)
        assert folder, server.log_tail()
        infos = [json.loads(f.read_text()) for f in Path(folder.group(1)).glob("kernel-*.json")]
        assert infos and {info["transport"] for info in infos} == {"ipc"}, infos
        pids = [zygotes[0].pid, *(k.pid for k in kernels)]
    assert all(_gone(pid, within=20) for pid in pids), "a zygote or kernel outlived the server"
