"""Shared fixtures. Browser/Voila part: a `uu app` server on a free loopback port, and Debian's Chromium for
pytest-playwright (never a downloaded browser; see docs/jupyter-notes.md)."""

from __future__ import annotations

import asyncio
import concurrent.futures
import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from uu.server.appserver import AppServer

CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
# Config files that would weaken the app if Voila read them from the working directory.
HOSTILE_VOILA_PY = "c.VoilaConfiguration.strip_sources = False\nc.VoilaConfiguration.show_tracebacks = True\n"
HOSTILE_VOILA_JSON = '{"VoilaConfiguration": {"strip_sources": false, "show_tracebacks": true}}'
# The sandbox's tests (the session and its screen) start here: Ana must act, with Rhinocorn and a Basic Unicorn
# in hand (several choices) and a known top card of the deck.
SANDBOX_POSITION = """\
name: Sandbox test
players: [Ana, Ben]
options: {seed: 3}
turn: {player: Ana, phase: action}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue)]}
hands: {Ana: [Basic Unicorn (Red), Rhinocorn], Ben: [Basic Unicorn (Blue)]}
deck: [Unicorn Poison]
"""


def run_async(coro: Any) -> Any:
    """asyncio.run in a thread of its own: pytest-playwright's sync API leaves an event loop running in the
    test thread once a browser test has run, and asyncio.run refuses to start inside one."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@pytest.fixture
def widgets_without_kernel(monkeypatch: pytest.MonkeyPatch) -> None:
    """Widgets made in the test talk to no kernel, whatever ran before in this process: once any test has
    imported ipykernel, new widgets get its comms, whose kernel is None, and ipywidgets then sends no update
    at all, so a test that watches what a widget sends would see nothing (it failed so in CI under xdist)."""
    import comm
    from ipywidgets.widgets import widget as widget_module

    import uu.widgets.widgetopen

    monkeypatch.setattr(comm, "create_comm", lambda **kwargs: comm.DummyComm(**kwargs))
    monkeypatch.setitem(uu.widgets.widgetopen._WIDGET_OPEN, "open", widget_module.Widget.open)


@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    if not Path(CHROMIUM).exists():
        message = f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return {**browser_type_launch_args, "executable_path": CHROMIUM, "args": CHROME_ARGS}


@pytest.fixture(scope="session")
def voila_url(tmp_path_factory):
    """`uu app --no-browser --port N` started from an unrelated directory that holds hostile Voila config
    files, on a free port; yields the base URL."""
    cwd = tmp_path_factory.mktemp("elsewhere")
    (cwd / "voila.py").write_text(HOSTILE_VOILA_PY)
    (cwd / "voila.json").write_text(HOSTILE_VOILA_JSON)
    # the `uu` command itself, as a teacher runs it; every page load of the session may cost a kernel until
    # the culler frees it (24 lessons clicked through, plus the other browser tests: about 50 pages)
    with AppServer(cwd, max_kernels=80, console_script=True) as server:
        server.wait_ready()
        yield server.url
