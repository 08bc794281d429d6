"""The README's screenshots: serve the app with `uu app`, drive Debian's Chromium through it, save PNGs.

    .venv/bin/python docs/screenshots.py            # writes docs/screenshots/*.png (1280x800, and a phone)
    .venv/bin/python docs/screenshots.py home in_fr  # only these (the names of the functions below)

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

from uu.i18n import LANGUAGE_NAMES, language
from uu.i18n import _ as translated
from uu.scenario import build_game, parse_scenario
from uu.server.appserver import AppServer
from uu.table.seat_view import legal_actions
from uu.tutor.check import shipped_lessons
from uu.tutor.lesson_runner import LessonRunner

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "docs" / "screenshots"
CHROMIUM = os.environ.get("CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
CHROME_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync"]
VIEWPORT = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
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


def lesson_plan(lesson_id: str) -> list[tuple[str, list[str] | None, str]]:
    """[(what, the table's keys to click or None, progress text after it)] that finishes the lesson (as
    tests/test_e2e.py): "next" on a page, "choice" (the right one) on a question, "move" on a move step."""
    path = next(p for p in shipped_lessons() if LessonRunner(p).lesson.id == lesson_id)
    runner = LessonRunner(path)
    plan: list[tuple[str, list[str] | None, str]] = []
    while not runner.done:
        st = runner.step
        if st.kind == "page":
            what, keys = "next", None
            runner.next()
        elif st.kind == "question":
            what, keys = str(st.question.answer), None
            runner.choose(st.question.answer)
        else:
            action = runner.answer()
            legal = runner.game.legal_actions
            [keys] = [a["gesture"] for a in legal_actions(runner.game, runner.learner)
                      if legal[a["id"]] == action][:1]
            what = "move"
            runner.try_move(action)
        k, n = runner.progress
        plan.append((what, keys, "lesson complete" if runner.done else f"Step {k} of {n}"))
    return plan


def click_keys(screen, keys: list[str]) -> None:
    """A gesture on the table: each element by its data-key, once it is lit (data-legal="true")."""
    for key in keys:
        quoted = key.replace("\\", "\\\\").replace('"', '\\"')
        target = screen.locator(f'.uu-t [data-key="{quoted}"][data-legal="true"]:visible').first
        expect(target).to_be_visible(timeout=STEP_MS)
        target.click()


def play_lesson(page: Page, lesson_id: str, clicks: int):
    """Open a lesson from the home screen and make its first `clicks` steps; returns the lesson screen."""
    page.locator(f"button.uu-lesson-{lesson_id}").click()
    screen = page.locator(f".uu-lesson.uu-lesson-{lesson_id}")
    expect(screen.locator(".uu-t")).to_be_visible(timeout=STEP_MS)
    for what, keys, after in lesson_plan(lesson_id)[:clicks]:
        if what == "next":
            screen.locator("button.uu-next").click()
        elif what == "move":
            assert keys is not None
            click_keys(screen, keys)
        else:
            screen.locator("button.uu-choice").nth(int(what) - 1).click()
        expect(screen.locator(".uu-progress")).to_contain_text(after, timeout=STEP_MS)
    return screen


def scroll_to(locator, block: str = "start") -> None:
    locator.evaluate("(e, block) => e.scrollIntoView({block})", block)


def home(page: Page, url: str) -> None:
    open_home(page, url)
    save(page, "home")


def lesson_step(page: Page, url: str) -> None:
    open_home(page, url)
    screen = play_lesson(page, "goal", clicks=2)           # the first page and a question, then a move
    lit = screen.locator(".uu-t [data-legal='true'][data-zone='hand']").first
    expect(lit).to_be_visible(timeout=STEP_MS)
    lit.click()                                             # a card chosen: its places light up
    page.mouse.move(5, 5)                                   # no card preview over the table
    save(page, "lesson-step")


def lesson_phone(page: Page, url: str) -> None:
    page.set_viewport_size(PHONE)
    open_home(page, url)
    screen = play_lesson(page, "neigh", clicks=1)          # on a phone: the pile, your Neighs, the sheet
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    save(page, "lesson-phone")


def wrong_move(page: Page, url: str) -> None:
    """A legal move the step does not ask for: what it would do, on the table, with Try again there."""
    open_home(page, url)
    page.locator("button.uu-lesson-turn").click()
    screen = page.locator(".uu-lesson.uu-lesson-turn")
    for what, keys, after in lesson_plan("turn")[:2]:
        if what == "next":
            screen.locator("button.uu-next").click()
        else:
            screen.locator("button.uu-choice").nth(int(what) - 1).click()
        expect(screen.locator(".uu-progress")).to_contain_text(after, timeout=STEP_MS)
    click_keys(screen, ["deck"])                            # DRAW: legal, but the step asks for a Unicorn
    expect(screen.locator(".uu-t-banner")).to_contain_text("What would happen", timeout=STEP_MS)
    page.mouse.move(5, 5)
    save(page, "lesson-wrong-move")


def neigh_lesson(page: Page, url: str) -> None:
    open_home(page, url)
    screen = play_lesson(page, "neigh", clicks=1)          # a card on the pile waits for your answer
    expect(screen.locator(".uu-t .uu-t-stack [data-zone='pile']").first).to_be_visible(timeout=STEP_MS)
    page.mouse.move(5, 5)                                   # no card preview over the pile
    save(page, "lesson-neigh-pile")


def turn_number(screen) -> int:
    m = re.search(r"Turn (\d+)", screen.locator(".uu-t .uu-t-turn").first.inner_text())
    return int(m.group(1)) if m else 0


def advance_to_your_move(screen, turn: int) -> None:
    """Step the bots ("Bot: next") and make the learner's moves (a card of the hand first, then its place)
    until it is the learner's decision on turn `turn` or later."""
    screen.locator(".uu-more-settings").click()
    screen.locator(".uu-step-mode input").check()
    screen.locator(".uu-more-settings").click()
    bot = screen.locator("button.uu-bot-next")
    legal = ".uu-t [data-legal='true']"
    for _ in range(300):
        if turn_number(screen) >= turn and not (bot.is_visible() and bot.is_enabled()):
            break                                           # your decision, a few turns in
        if screen.locator(".uu-result .uu-banner").count():
            break
        old = screen.locator(".uu-t").get_attribute("data-version")
        if bot.is_visible() and bot.is_enabled():
            bot.click()
        else:
            for _step in range(4):
                hand = screen.locator(legal + "[data-zone='hand']:visible")
                (hand if hand.count() else screen.locator(legal + ":visible")).first.click()
                if screen.locator(legal).count() == 0:
                    break
        screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=STEP_MS)


def play(page: Page, url: str) -> None:
    open_home(page, url)
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t .uu-t-turn")).to_contain_text("Setup", timeout=STEP_MS)
    advance_to_your_move(screen, 4)
    hand = screen.locator(".uu-t [data-legal='true'][data-zone='hand']:visible")
    if hand.count():
        hand.first.click()                                  # a card chosen: its places light up
    page.mouse.move(5, 5)
    save(page, "play")


def others_moves(page: Page, url: str) -> None:
    """The bots' moves played back one at a time, each with its caption (on a phone)."""
    page.set_viewport_size(PHONE)
    open_home(page, url)
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    screen.locator(".uu-t [data-legal='true']").first.click()  # your Baby; then the bots choose theirs
    caption = screen.locator(".uu-t-caption:not([hidden])")
    expect(caption).to_be_visible(timeout=STEP_MS)
    page.wait_for_timeout(300)
    save(page, "play-others-phone")


def hint(page: Page, url: str) -> None:
    open_home(page, url)
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t .uu-t-turn")).to_contain_text("Setup", timeout=STEP_MS)
    screen.locator(".uu-level select").select_option(label="Hard: thinks ahead like the hint")
    screen.locator("button.uu-new-game").click()   # a new deal, against Hard bots
    page.wait_for_timeout(1500)
    expect(screen.locator(".uu-t .uu-t-turn")).to_contain_text("Setup", timeout=STEP_MS)
    advance_to_your_move(screen, 5)
    screen.locator("button.uu-hint-button").click()
    verdict = re.compile("best move|about as good|just as good")   # "best" only when the estimate separates it
    expect(screen.locator(".uu-hint-box .uu-hint-why")).to_contain_text(verdict, timeout=STEP_MS)
    screen.locator(".uu-hint-box details summary").click()   # the numbers behind it
    page.mouse.move(5, 5)
    save(page, "hint")


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
    game = build_game(parse_scenario(SANDBOX_YAML))
    [keys] = [a["gesture"] for a in legal_actions(game, game.pending.player)
              if game.describe(game.legal_actions[a["id"]]) == move]
    click_keys(play_panel, keys)                                # on the table: the card, then its target
    expect(play_panel.locator(".uu-sb-timeline button.uu-tl-node")).not_to_have_count(1, timeout=STEP_MS)
    expect(play_panel.locator(".uu-sb-prompt")).to_contain_text("Ana (you) decides", timeout=STEP_MS)
    play_panel.locator(".uu-sb-preview-toggle input").check()    # what "respond Neigh" and "pass" would do
    expect(play_panel.locator(".uu-sb-preview .uu-preview").first).to_be_visible(timeout=STEP_MS)
    scroll_to(play_panel.locator(".uu-sb-prompt"))              # the prompt, the controls and the table
    save(page, "sandbox")


def step_text(lang: str, step: int, steps: int) -> str:
    """The lesson's progress line ("Étape 2 sur 7") in `lang`."""
    with language(lang):
        return translated("Step {step} of {steps}").format(step=step, steps=steps)


def in_language(lang: str):
    """The home and a lesson step ("A turn in four phases", step 2) in `lang` (`?lang=`), at 1280x800 and on a
    phone: home-<lang>, home-phone-<lang>, lesson-step-<lang>, lesson-phone-<lang>."""
    def shoot(page: Page, url: str) -> None:
        for size, suffix in ((VIEWPORT, ""), (PHONE, "-phone")):
            page.set_viewport_size(size)
            open_home(page, f"{url}?lang={lang}")
            with language(lang):   # a preheated kernel learns the link's language with the page's first message
                lessons = translated("Lessons")
            expect(page.locator(".uu-lang-picker select")).to_have_value(LANGUAGE_NAMES[lang], timeout=STEP_MS)
            expect(page.locator(".uu-home-screen")).to_contain_text(lessons, timeout=STEP_MS)
            save(page, f"home{suffix}-{lang}")
            page.goto(f"{url}?lang={lang}&lesson=turn", wait_until="commit")
            screen = page.locator(".uu-lesson.uu-lesson-turn")
            [(what, _keys, after)] = lesson_plan("turn")[:1]     # Next, to "Step 2 of N"
            m = re.fullmatch(r"Step 2 of (\d+)", after)
            assert what == "next" and m, (what, after)
            steps = int(m.group(1))
            expect(screen.locator(".uu-progress")).to_contain_text(step_text(lang, 1, steps), timeout=LOAD_MS)
            screen.locator("button.uu-next").click()
            expect(screen.locator(".uu-progress")).to_contain_text(step_text(lang, 2, steps), timeout=STEP_MS)
            page.mouse.move(5, 5)
            save(page, f"{'lesson-step' if not suffix else 'lesson-phone'}-{lang}")
            page.evaluate("() => localStorage.clear()")    # the next size starts as a first visit
    shoot.__name__ = f"in_{lang}"
    return shoot


CLASS_TOKEN = "screenshot-token-0123"


def class_view(browser, tmp: Path) -> None:
    """The teacher's class view (`uu app --class`): two learners joined, one in the first lesson."""
    args = ("--class", "--class-db", str(tmp / "class.sqlite3"), "--class-token", CLASS_TOKEN, "--preheat", "0")
    with AppServer(tmp, console_script=True, extra_args=args) as server:
        server.wait_ready()
        learners = []
        for name in ("Ada", "Grace"):
            page = browser.new_page(viewport=VIEWPORT)
            open_home(page, server.url)
            box = page.locator(".uu-class-box")
            box.locator(".uu-class-name input").fill(name)
            box.locator("button.uu-class-join").click()
            expect(box.locator(".uu-class-msg")).to_contain_text(f"as {name}", timeout=STEP_MS)
            learners.append(page)
        ada = learners[0]
        ada.locator("button.uu-open-lesson").first.click()           # Ada starts the course
        ada.locator("button.uu-next").first.click()
        teacher = browser.new_page(viewport={"width": 1200, "height": 420})
        teacher.goto(f"{server.url}uu/class?token={CLASS_TOKEN}")
        expect(teacher.locator("#connected td.name", has_text="Grace")).to_be_visible(timeout=STEP_MS)
        expect(teacher.locator("#connected")).to_contain_text("Your goal", timeout=15_000)
        save(teacher, "class-view")
        for page in (*learners, teacher):
            page.close()


def main(names: list[str]) -> int:
    shots = [home, lesson_step, neigh_lesson, wrong_move, lesson_phone, play, others_moves, hint, sandbox,
             in_language("fr"), in_language("de")]
    unknown = set(names) - {f.__name__ for f in shots} - {"class_view"}
    if unknown:
        print(f"no such screenshot: {', '.join(sorted(unknown))}", file=sys.stderr)
        return 2
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
                    for shoot in shots:
                        if names and shoot.__name__ not in names:
                            continue
                        page = browser.new_page(viewport=VIEWPORT)
                        try:
                            shoot(page, url)
                        finally:
                            page.close()             # frees its kernel (the unload beacon)
                    if not names or "class_view" in names:
                        class_tmp = Path(tmp) / "class"
                        class_tmp.mkdir()
                        class_view(browser, class_tmp)
                finally:
                    browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
