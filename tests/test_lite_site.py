"""The built static site (`python3 dev.py lite`, uu/lite), checked from its folder: `python3 dev.py lite-check`
builds it and runs this file with UU_LITE_SITE set to it (without that variable every test here skips: the
first build downloads tens of MB and takes minutes, too much for `python3 dev.py test`).

- Node: the site's own Pyodide and wheels, no browser and no network (uu/lite/smoke.mjs): the App on each
  screen, a lesson step and a game move, on Python 3.14 with the engine as plain Python.
- Chromium: the folder served by `python3 -m http.server` on 127.0.0.1; lesson 1 played to its end by clicking
  lit cards and choices (tests/test_e2e.py `finish_lesson`), its progress kept across a reload, a `?lesson=`
  link, and a move in a game. Every request is routed: any that leaves the site fails the test.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SITE = os.environ.get("UU_LITE_SITE", "")
pytestmark = pytest.mark.skipif(not SITE, reason="the static site is checked by `python3 dev.py lite-check` "
                                "(it sets UU_LITE_SITE to the built folder)")
LOAD_MS = 240_000  # cold start on a busy 2-core machine: Pyodide, 30 wheels, the app


def test_the_sites_python_builds_the_app_on_every_screen_without_a_browser() -> None:
    node = shutil.which("node")
    assert node is not None, "node is needed (apt-get install nodejs)"
    r = subprocess.run([node, str(ROOT / "uu" / "lite" / "smoke.mjs"), SITE], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    assert seen["ok"] and seen["lessons"] >= 24 and seen["lesson_step"] >= 2 and seen["game_log"] > 0
    assert seen["python"].startswith("3.14.")
    assert seen["engine_module"].endswith(".py")  # the engine as plain Python (no compiled modules there)


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen([sys.executable, "-m", "http.server", "-d", SITE, "-b", "127.0.0.1", str(port)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}/"
    for _ in range(100):
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            time.sleep(0.1)
    yield url
    server.terminate()
    server.wait(10)


@pytest.mark.browser
def test_lesson_one_and_a_game_move_in_the_static_site(page, site_url: str, monkeypatch) -> None:
    pytest.importorskip("playwright")
    import test_e2e
    from playwright.sync_api import expect
    from test_e2e import finish_lesson, table_move

    outside: list[str] = []

    def route(r) -> None:  # noqa: ANN001 (playwright's Route)
        if r.request.url.startswith(site_url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    monkeypatch.setattr(test_e2e, "LOAD_MS", LOAD_MS)  # open_home's wait: a cold start, no kernel pool
    finish_lesson(page, site_url, "goal", shots=False)

    # progress is in the browser: a reload (the kernel starts again) shows the lesson done
    page.goto(site_url, wait_until="commit")
    row = page.locator(".uu-lesson-row").filter(has=page.locator("button.uu-lesson-goal"))
    expect(row).to_contain_text("done", timeout=LOAD_MS)

    # a link to a lesson opens it
    page.goto(site_url + "?lesson=neigh", wait_until="commit")
    expect(page.locator(".uu-lesson.uu-lesson-neigh .uu-progress")).to_contain_text("Step 1 of", timeout=LOAD_MS)

    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=60_000)
    assert table_move(page, screen) >= 1
    assert page.locator(".uu-error-box").count() == 0
    assert "Traceback" not in page.inner_text("body")
    assert outside == [], outside
