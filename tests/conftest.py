"""Shared fixtures. Browser/Voila part: a `uu app` server on a free loopback port, and Debian's Chromium for
pytest-playwright (never a downloaded browser; see shared/reference/jupyter-stack.md section 3.4)."""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
# Config files that would weaken the app if Voila read them from the working directory.
HOSTILE_VOILA_PY = "c.VoilaConfiguration.strip_sources = False\nc.VoilaConfiguration.show_tracebacks = True\n"
HOSTILE_VOILA_JSON = '{"VoilaConfiguration": {"strip_sources": false, "show_tracebacks": true}}'


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROME_ARGS}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def voila_url(tmp_path_factory):
    """`uu app --no-browser --port N` started from an unrelated directory that holds hostile Voila config
    files, on a free port; yields the base URL."""
    cwd = tmp_path_factory.mktemp("elsewhere")
    (cwd / "voila.py").write_text(HOSTILE_VOILA_PY)
    (cwd / "voila.json").write_text(HOSTILE_VOILA_JSON)
    uu_command = Path(sys.executable).with_name("uu")
    command = [str(uu_command), "app"] if uu_command.exists() else [sys.executable, "-m", "uu.app"]
    port = free_port()
    log_path = tmp_path_factory.mktemp("voila") / "voila.log"
    env = {**os.environ, "UU_MAX_KERNELS": "30"}  # every page load of the session costs a kernel
    with open(log_path, "w") as log:
        proc = subprocess.Popen([*command, "--port", str(port), "--no-browser"], cwd=cwd, env=env,
                                stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/"
    deadline = time.time() + 60
    try:
        while True:
            try:  # a static file: spawns no kernel
                urllib.request.urlopen(url + "voila/static/voila.js", timeout=2).close()
                break
            except OSError:
                if proc.poll() is not None or time.time() > deadline:
                    raise RuntimeError(f"voila did not start:\n{log_path.read_text()}") from None
                time.sleep(0.2)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
