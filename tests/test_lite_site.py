"""The built static site (`python3 dev.py lite`, uu/lite), checked from its folder: `python3 dev.py lite-check`
builds it and runs this file with UU_LITE_SITE set to it (without that variable every test here skips: the
first build downloads tens of MB and takes minutes, too much for `python3 dev.py test`).

- Node: the site's own Pyodide and wheels, no browser and no network (uu/lite/smoke.mjs): the App on each
  screen, a lesson step and a game move, on Python 3.14 with the engine as plain Python.
- Chromium: the folder served on 127.0.0.1 as `python3 -m http.server` serves it, with the headers of its
  `_headers` file (a host that honours it: its Content-Security-Policy then covers the Python worker too);
  lesson 1 played to its end by clicking lit cards and choices (tests/test_e2e.py `finish_lesson`), its
  progress kept across a reload, a `?lesson=` link, and a move in a game. Every request is routed: any that
  leaves the site fails the test.
- The site runs only its own code: links carrying code (in the query or the fragment, or to the address of the
  REPL page earlier builds had) run none of it; script from elsewhere and injected inline script are refused
  by the page's policy.
- From the first paint the page is the tutor's loading screen, in the learner's language, then the tutor: a
  screenshot and a look at the page every second, none with a code cell, a toolbar or a kernel's name.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
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
    # every standard module came from the bytecode the build put in the zip (compiling them was 5-7 s a start)
    assert seen["stdlib_modules"] == ["pyc"]
    # Python restored from the build's memory snapshot (uu/lite/boot.mjs): the widgets' imports already done, the
    # packages installed from the image known as installed (else the tutor's first import fetches 20 wheels
    # again), and random numbers of its own at each start (else every visit shuffles the same way)
    assert seen["restored"] is True
    assert seen["installed_on_import"] == []
    assert seen["random"] != seen["random_again"]
    # the tutor's start as the page's worker runs it (uu/lite/bridge.py): the loading stages in order, every
    # widget opened before the App is shown, None sent as null; a click from the page opens the game, and what
    # Python sends meanwhile answers that message, then "idle"
    assert seen["stages"] == ["import", "app", "draw"]
    assert seen["shown_opened"] and seen["nulls_kept"]
    assert seen["click_opened_play"] and seen["click_answered"]


@pytest.mark.parametrize("snapshot", ["missing", "damaged"])
def test_a_site_without_a_usable_memory_snapshot_starts_python_as_before(tmp_path: Path, snapshot: str) -> None:
    """A site without the snapshot (a build without Node, a host that lost the file), or with one that cannot be
    restored (damaged, or from another Pyodide), starts Python from scratch, and the tutor works the same."""
    node = shutil.which("node")
    assert node is not None, "node is needed (apt-get install nodejs)"
    shutil.copytree(Path(SITE) / "static" / "pyodide", tmp_path / "static" / "pyodide",
                    ignore=shutil.ignore_patterns("uu-snapshot.bin"))
    if snapshot == "damaged":
        (tmp_path / "static" / "pyodide" / "uu-snapshot.bin").write_bytes(gzip.compress(b"not Python's memory" * 999))
    r = subprocess.run([node, str(ROOT / "uu" / "lite" / "smoke.mjs"), str(tmp_path)], capture_output=True,
                       text=True, timeout=600)
    assert r.returncode == 0, r.stderr[-3000:]
    seen = json.loads(r.stdout.strip().splitlines()[-1])
    assert seen["ok"] and seen["restored"] is False and seen["installed_on_import"] == []


@pytest.fixture(scope="module")
def site_url() -> Iterator[str]:
    from uu.lite.bench import serve

    served = serve(Path(SITE))
    yield served.url
    served.stop()


def keep_on_site(page, site_url: str) -> list[str]:  # noqa: ANN001 (playwright's Page)
    """Route every request of the page's context: any that leaves the site is refused and listed."""
    outside: list[str] = []

    def route(r) -> None:  # noqa: ANN001 (playwright's Route)
        if r.request.url.startswith(site_url):
            r.continue_()
        else:
            outside.append(r.request.url)
            r.abort()

    page.context.route("**/*", route)
    return outside


APP_SHOWN = ".uu-app .uu-home-screen, .uu-app .uu-lesson"
# A link's code, as an attacker would write it for a Jupyter page: a widget whose front-end code would run in the
# page, on the site's origin, where it could rewrite the learner's progress.
ATTACK = ("import anywidget\n"
          "class W(anywidget.AnyWidget):\n"
          "    _esm = \"export default { render() { localStorage.setItem('uu-pwned', 'yes'); "
          "document.documentElement.dataset.pwned = 'yes'; } }\"\n"
          "display(W())")


@pytest.mark.browser
def test_a_link_with_code_runs_none_of_it(page, site_url: str) -> None:
    """The page has no code prompt and no kernel: nothing reads code from its address. The address of the REPL
    page earlier builds had (JupyterLite's, which ran a link's `code=`) is not on the site any more."""
    import urllib.error
    import urllib.request
    from urllib.parse import quote

    outside = keep_on_site(page, site_url)
    code = quote(ATTACK)
    for link in (f"?lesson=goal&code={code}&execute=1&kernel=python",
                 f"index.html?lesson=goal#kernel=python&code={code}"):
        page.goto(site_url + link, wait_until="commit")
        page.wait_for_function(f"() => document.documentElement.dataset.pwned || "
                               f"document.querySelector({APP_SHOWN!r})", timeout=LOAD_MS)
        page.wait_for_timeout(2000)
        assert page.evaluate("document.documentElement.dataset.pwned || null") is None, link
        assert page.evaluate("localStorage.getItem('uu-pwned')") is None, link
        assert page.locator(APP_SHOWN).first.is_visible(), link
        assert "code" not in page.evaluate("location.href"), link  # the address the tutor reads: its own only
    with pytest.raises(urllib.error.HTTPError) as gone:
        urllib.request.urlopen(site_url + f"repl/index.html?kernel=python&code={code}")
    assert gone.value.code == 404
    assert outside == []


@pytest.mark.browser
def test_the_pages_refuse_script_from_elsewhere_and_injected_inline_script(page, site_url: str) -> None:
    import urllib.request

    outside = keep_on_site(page, site_url)
    for name in ("index.html",):
        with urllib.request.urlopen(site_url + name) as r:
            text = r.read().decode("utf-8")
            assert "script-src 'self'" in (r.headers.get("Content-Security-Policy") or "")  # from _headers
        assert '<meta http-equiv="Content-Security-Policy"' in text, name
    page.goto(site_url, wait_until="commit")
    page.locator(APP_SHOWN).first.wait_for(timeout=LOAD_MS)
    seen = page.evaluate("""() => new Promise(resolve => {
        const refused = [];
        document.addEventListener('securitypolicyviolation', e => refused.push(e.violatedDirective));
        const foreign = document.createElement('script');
        foreign.src = 'http://127.0.0.2:9/evil.js';
        document.head.appendChild(foreign);
        const inline = document.createElement('script');
        inline.textContent = 'window.uuInjected = 1';
        document.head.appendChild(inline);
        setTimeout(() => resolve({refused, injected: window.uuInjected || null}), 1000);
    })""")
    assert seen["injected"] is None
    assert len(seen["refused"]) >= 2 and all(d.startswith("script-src") for d in seen["refused"])
    assert outside == []  # refused before any request was made


@pytest.mark.browser
def test_lesson_one_and_a_game_move_in_the_static_site(page, site_url: str, monkeypatch) -> None:
    pytest.importorskip("playwright")
    import test_e2e
    from playwright.sync_api import expect
    from test_e2e import finish_lesson, table_move

    outside = keep_on_site(page, site_url)
    monkeypatch.setattr(test_e2e, "LOAD_MS", LOAD_MS)  # open_home's wait: a cold start in the browser
    finish_lesson(page, site_url, "goal", shots=False)

    # progress is in the browser: a reload (Python starts again) shows the lesson done
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

    # a reload lands in the game: the loading screen goes when the game is back (the App is position: fixed in a
    # game's layout, which the page once took for not drawn, and waited out its timeout)
    page.reload(wait_until="commit")
    page.wait_for_function("() => !document.getElementById('uu-loading')", timeout=LOAD_MS)
    assert page.locator(".uu-play-screen").first.is_visible()
    assert page.evaluate("window.uuLoadingTimes.shownBy") == "screen"
    assert outside == [], outside


# Every second while the site loads: is anything of a code console shown (a prompt or code cell, a toolbar, a
# banner, a kernel's name, a text field), is the loading screen shown, and what it says.
LOOK_JS = """() => {
  const shown = (el) => !!el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
  const code = [...document.querySelectorAll('.jp-CodeConsole-promptCell, .jp-CodeConsole-input, .jp-InputArea, '
    + '.jp-Cell-inputWrapper, .cm-editor, .cm-content, .jp-Toolbar, .jp-CodeConsole-banner, .jp-InputPrompt, '
    + '.jp-KernelName, .jp-Dialog, [contenteditable="true"], textarea')].filter(shown)
    .map((el) => el.className || el.tagName);
  const box = document.getElementById('uu-loading');
  const text = document.body ? document.body.innerText : '';
  return {code, loading: shown(box), says: shown(box) ? box.innerText : '',
          bar: box ? Number(box.querySelector('.uu-loading-bar')?.getAttribute('aria-valuenow') || 0) : null,
          app: shown(document.querySelector('.uu-app .uu-home-screen')),
          lang: document.querySelector('.uu-lang-picker select')?.value || null,
          kernelName: /Pyodide|Python \\(|In \\[/.test(text)};
}"""


@pytest.mark.browser
def test_the_page_is_the_tutors_loading_screen_then_the_tutor_never_a_code_cell(page, site_url: str,
                                                                                   tmp_path: Path) -> None:
    """A first visit in French: a screenshot and a look at the page every second until the home is shown
    (UU_LITE_SHOTS=dir keeps the screenshots to look at). Then the learner types code and Shift+Enter: nothing
    runs."""
    shots = Path(os.environ.get("UU_LITE_SHOTS") or tmp_path)
    shots.mkdir(parents=True, exist_ok=True)
    outside = keep_on_site(page, site_url)
    fetched: list[str] = []
    page.context.on("request", lambda r: fetched.append(r.url.rsplit("/", 1)[-1].split("?")[0]))
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(site_url + "?lang=fr", wait_until="commit")
    looks = []
    deadline = time.monotonic() + LOAD_MS / 1000
    while time.monotonic() < deadline:
        try:
            look = page.evaluate(LOOK_JS)
            page.screenshot(path=str(shots / f"loading-{len(looks):03d}.png"))
        except Exception:  # the page between two states: look again
            time.sleep(0.2)
            continue
        looks.append(look)
        if look["app"] and not look["loading"]:
            break
        time.sleep(1)
    assert looks and looks[-1]["app"], looks[-3:]
    assert looks[-1]["lang"] == "Français"  # the tutor is shown in the learner's language at once, not redrawn in it
    assert [look["code"] for look in looks if look["code"]] == []
    assert not any(look["kernelName"] for look in looks)
    # the tutor's page all along: its loading screen, or the tutor itself
    assert all(look["loading"] or look["app"] for look in looks[1:])
    said = " ".join(look["says"] for look in looks)
    assert "Ouverture du tuteur" in said, list(dict.fromkeys(look["says"] for look in looks))
    # every stage reached, in order (a look a second can miss a short one: the page's own record of them)
    reached = page.evaluate("window.uuLoadingTimes")
    # it went because the tutor's first screen was ready (drawn, the browser's progress taken in), not on its
    # few seconds' timeout
    assert reached["shownBy"] == "screen", reached
    stages = ["download", "page", "python", "import", "app", "draw", "shown"]
    assert [reached[s] for s in stages] == sorted(reached[s] for s in stages), reached
    bars = [look["bar"] for look in looks if look["loading"]]
    assert bars == sorted(bars)  # the progress only goes forward
    # the tutor's packages came installed in one file (uu/lite/boot.mjs), not as wheels unzipped one by one;
    # only pydantic-core, which has compiled modules, and what it needs go through Pyodide's loader
    assert "uu-site.bin" in fetched and "uu-pyodide.mjs" in fetched
    assert sorted({name.split("-")[0] for name in fetched if name.endswith(".whl")}) == ["pydantic_core",
                                                                                         "typing_extensions"]

    cells = page.locator(".jp-CodeConsole .jp-Cell").count()
    page.mouse.click(1270, 790)  # a corner of the page, off any button
    page.keyboard.type("import js; js.document.title = 'typed'")
    page.keyboard.press("Shift+Enter")
    page.keyboard.press("Control+Enter")
    page.wait_for_timeout(2000)
    assert page.locator(".jp-CodeConsole .jp-Cell").count() == cells
    assert page.title() != "typed" and page.evaluate(LOOK_JS)["code"] == []
    assert outside == []


@pytest.mark.browser
def test_a_site_that_cannot_start_python_says_so_at_once(page, tmp_path: Path) -> None:
    """A host that lost the packages' file (or a browser that cannot unpack it): the worker's start fails, and the
    loading screen says so in plain words within seconds, not after its three minutes without progress."""
    from uu.lite.bench import serve

    shutil.copytree(SITE, tmp_path / "site", ignore=shutil.ignore_patterns("uu-site.bin"))
    served = serve(tmp_path / "site")
    try:
        outside = keep_on_site(page, served.url)
        page.goto(served.url + "?lang=de", wait_until="commit")
        box = page.locator("#uu-loading[data-stage='failed']")
        box.wait_for(timeout=60_000)
        assert "konnte nicht starten" in box.inner_text()
        assert "Traceback" not in page.inner_text("body") and page.locator(".uu-app").count() == 0
        assert outside == []
    finally:
        served.stop()
