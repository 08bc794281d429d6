"""The README's screenshots: serve the app with `uu app`, drive Debian's Chromium through it, save PNGs.

    .venv/bin/python docs/screenshots.py            # writes docs/screenshots/*.png (viewport 1200x900)

Like the browser tests (tests/conftest.py): `uu app --no-browser --port N` on a free loopback port, started
from a temporary directory, and Playwright for Python driving /usr/bin/chromium (or $CHROMIUM), never a
downloaded browser. Only clicks and typing, as a learner would. An image larger than 250 KB as PNG is saved
as JPEG (quality 70) instead. Needs the test extra (`pip install -e '.[test]'`, which `dev.py` installs).
"""

from __future__ import annotations

import os
import re
import shutil
import sys
import tempfile
from pathlib import Path

from playwright.sync_api import Page, expect, sync_playwright

from uu.appserver import AppServer
from uu.tutor.check import shipped_lessons
from uu.tutor.runner import LessonRunner

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1200, "height": 900}
MAX_BYTES = 250 * 1024
LOAD_MS = 90_000
STEP_MS = 20_000

SANDBOX_YAML = """\
name: Should Ana poison Ben's Rhinocorn?
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action, number: 6}
stables:
  Ana: [Baby Unicorn (Red), Basic Unicorn (Red), Basic Unicorn (Yellow)]
  Ben: [Baby Unicorn (Blue), Rhinocorn, Basic Unicorn (Blue), Basic Unicorn (Indigo)]
  Cy: [Baby Unicorn (Green), Basic Unicorn (Green)]
hands:
  Ana: [Unicorn Poison, Basic Unicorn (Orange), Neigh]
  Ben: [Basic Unicorn (Purple)]
  Cy: [Neigh]
"""


def save(page: Page, name: str) -> Path:
    """A viewport screenshot as docs/screenshots/<name>.png, or .jpg when the PNG would be too big."""
    OUT.mkdir(parents=True, exist_ok=True)
    page.wait_for_timeout(400)  # let the last widget updates paint
    page.evaluate("() => document.fonts.ready.then(() => true)")   # the icon font (else a stray glyph)
    errors = page.locator(".uu-error-box")
    if errors.count():
        raise SystemExit(f"{name}: the app shows an error: {errors.all_inner_texts()}")
    data = page.screenshot(type="png")
    path = OUT / f"{name}.png"
    stale = OUT / f"{name}.jpg"
    if len(data) > MAX_BYTES:
        data = page.screenshot(type="jpeg", quality=70)
        path, stale = stale, path
    stale.unlink(missing_ok=True)
    path.write_bytes(data)
    print(f"{path.relative_to(ROOT)}: {len(data) // 1024} KB")
    return path


def open_home(page: Page, url: str) -> None:
    page.goto(url, wait_until="commit")
    expect(page.locator(".uu-home-screen button.uu-open-lesson:not([disabled])").first).to_be_visible(
        timeout=LOAD_MS)


def exact(text: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def lesson_plan(lesson_id: str) -> list[tuple[str, str]]:
    """[(button text, progress text after the click)] that finishes the lesson (as tests/test_e2e.py)."""
    path = next(p for p in shipped_lessons() if LessonRunner(p).lesson.id == lesson_id)
    runner = LessonRunner(path)
    plan = []
    while not runner.done:
        if runner.step.kind == "page":
            label, _ = "Next", runner.next()
        else:
            action = runner.answer()
            label = runner.describe(action)
            runner.try_move(action)
        k, n = runner.progress
        plan.append((label, "lesson complete" if runner.done else f"Step {k} of {n}"))
    return plan


def play_lesson(page: Page, lesson_id: str, clicks: int):
    """Open a lesson from the home screen and make its first `clicks` clicks; returns the lesson screen."""
    page.locator(f"button.uu-lesson-{lesson_id}").click()
    screen = page.locator(f".uu-lesson.uu-lesson-{lesson_id}")
    expect(screen.locator(".uu-board")).to_be_visible(timeout=STEP_MS)
    for label, after in lesson_plan(lesson_id)[:clicks]:
        if label == "Next":
            button = screen.locator("button.uu-next")
        else:
            button = screen.locator(".uu-actions button.uu-action").filter(has_text=exact(label)).first
        button.click()
        expect(screen.locator(".uu-progress")).to_contain_text(after, timeout=STEP_MS)
    return screen


def scroll_to(locator, block: str = "start") -> None:
    locator.evaluate("(e, block) => e.scrollIntoView({block})", block)


def home(page: Page, url: str) -> None:
    open_home(page, url)
    save(page, "home")


def lesson_step(page: Page, url: str) -> None:
    open_home(page, url)
    screen = play_lesson(page, "goal", clicks=1)           # the first page, then the move step
    expect(screen.locator(".uu-actions button.uu-action").first).to_be_visible(timeout=STEP_MS)
    save(page, "lesson-step")


def neigh_lesson(page: Page, url: str) -> None:
    open_home(page, url)
    screen = play_lesson(page, "neigh", clicks=2)          # Ana plays Unicorn Poison; Bramble Neighs it
    expect(screen.locator(".uu-pile .uu-card").first).to_be_visible(timeout=STEP_MS)
    scroll_to(screen.locator(".uu-pile"), "end")            # the pile at the bottom, the question above
    save(page, "lesson-neigh-pile")


def turn_number(screen) -> int:
    m = re.search(r"Turn (\d+)", screen.locator(".uu-turn-line").first.inner_text())
    return int(m.group(1)) if m else 0


def play(page: Page, url: str) -> None:
    open_home(page, url)
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-board .uu-turn-line")).to_contain_text("Setup", timeout=STEP_MS)
    screen.locator(".uu-step-mode input").check()
    bot = screen.locator("button.uu-bot-next")
    for _ in range(300):
        if turn_number(screen) >= 4 and not (bot.is_visible() and bot.is_enabled()):
            break                                           # your decision, a few turns in
        if screen.locator(".uu-result .uu-banner").count():
            break
        before = screen.locator(".uu-log").inner_html()
        if bot.is_visible() and bot.is_enabled():
            bot.click()
        else:
            screen.locator(".uu-actions button.uu-action").first.click()
        page.wait_for_function("([sel, old]) => document.querySelector(sel).innerHTML !== old",
                               arg=[".uu-play-screen .uu-log", before], timeout=STEP_MS)
    scroll_to(page.locator(".uu-nav-home").first)
    save(page, "play")


def sandbox(page: Page, url: str) -> None:
    open_home(page, url)
    page.locator("button.uu-open-sandbox").click()
    screen = page.locator(".uu-sandbox-screen")
    expect(screen.locator(".uu-sb-position .uu-seat").first).to_be_visible(timeout=STEP_MS)
    screen.locator(".uu-sb-yaml textarea").fill(SANDBOX_YAML)
    screen.locator("button.uu-sb-load").click()
    expect(screen.locator(".uu-sb-position")).to_contain_text("Rhinocorn", timeout=STEP_MS)
    screen.locator("button.uu-sb-start").click()
    play_panel = screen.locator(".uu-sandbox-play")
    expect(play_panel.locator(".uu-sb-prompt")).to_contain_text("Ana (you) decides", timeout=STEP_MS)
    move = "play Unicorn Poison → Rhinocorn in Ben's Stable"     # the bots answer and play on (auto-play)
    play_panel.locator(".uu-actions button.uu-action").filter(has_text=exact(move)).click()
    expect(play_panel.locator(".uu-sb-timeline button.uu-tl-node")).not_to_have_count(1, timeout=STEP_MS)
    expect(play_panel.locator(".uu-sb-prompt")).to_contain_text("Ana (you) decides", timeout=STEP_MS)
    play_panel.locator(".uu-sb-preview-toggle input").check()    # what "respond Neigh" and "pass" would do
    expect(play_panel.locator(".uu-sb-preview .uu-preview").first).to_be_visible(timeout=STEP_MS)
    scroll_to(page.locator(".uu-nav-home").first)
    save(page, "sandbox")


def main() -> int:
    if not Path(CHROMIUM).exists():
        print(f"Chromium not found at {CHROMIUM} (apt-get install chromium, or set CHROMIUM)",
              file=sys.stderr)
        return 1
    with tempfile.TemporaryDirectory(prefix="uu-screenshots-") as tmp:
        with AppServer(Path(tmp), console_script=True) as server:
            server.wait_ready()
            url = server.url
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=CHROMIUM, args=CHROME_ARGS)
                try:
                    for shoot in (home, lesson_step, neigh_lesson, play, sandbox):
                        page = browser.new_page(viewport=VIEWPORT)
                        try:
                            shoot(page, url)
                        finally:
                            page.close()             # frees its kernel (the unload beacon)
                finally:
                    browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
