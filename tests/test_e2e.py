"""Browser end-to-end: the app served by `uu app` (conftest `voila_url`), driven in headless Debian Chromium.

Only clicks and typing, as a learner would. What to press at each lesson step is computed in Python from
`LessonRunner` (the runner is deterministic: replaying its answers gives the table the page shows): Next, a
question's choice button with exactly that text, or a move's gesture on the table, whose elements are clicked
in the page through the table's data-* contract (only elements with data-legal="true", found by data-key; see
uu/table/table.js). Screenshots of each milestone go to
test-artifacts/ (gitignored). Under CI=true these tests must run; elsewhere they skip when Chromium is missing
(conftest `browser_type_launch_args`).

The walk to a lesson's end by clicking the table runs for a few lessons by default, chosen beside the ones
tests/test_screen_e2e.py walks at two sizes (together: a page, a question, every kind of move, a goal, a game
step, an impossible card): every lesson is replayed on the engine by `uu lesson check` in the suite, so the
browser walks check the screen, not the scripts. UU_E2E_ALL_LESSONS=1 walks all 24 here too.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from uu.scenario import build_game, parse_scenario
from uu.scenario.export import position_signature
from uu.table.seat_view import legal_actions
from uu.tutor.check import shipped_lessons
from uu.tutor.lesson_runner import LessonRunner

pytest.importorskip("playwright", reason="playwright (the test extra) is not installed")
from playwright.sync_api import Page, expect  # noqa: E402

pytestmark = pytest.mark.browser

ROOT = Path(__file__).resolve().parents[1]
ARTIFACTS = ROOT / "test-artifacts"
HOME_READY = ".uu-home-screen button.uu-open-lesson:not([disabled])"
LOAD_MS = 90_000      # page open -> widgets drawn (a kernel start and the notebook run; slow on a busy CI box)
STEP_MS = 20_000      # one click -> the screen updated


def shot(page: Page, name: str) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / f"e2e-{name}.png"), full_page=True)


def table_pace(page: Page, pace: str) -> None:
    """The pace the table plays the others' moves back at in this page (its menu's choice, kept in the browser:
    "slow", "normal", "fast" or "off"), from its next load. A test about something else than the playback
    plays a whole game faster: at the normal pace, most of a two-player game's minute was the bots' moves
    played back (the suite's time)."""
    page.add_init_script(f"localStorage.setItem('uu-table-pace', {pace!r})")


def open_home(page: Page, url: str, width: int = 1200) -> None:
    page.set_viewport_size({"width": width, "height": 900})
    page.goto(url, wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=LOAD_MS)
    expect(page.locator(".uu-home-screen")).to_contain_text("Lessons")


def no_error_shown(page: Page) -> None:
    boxes = page.locator(".uu-error-box")
    assert boxes.count() == 0, boxes.all_inner_texts()


def lesson_file(lesson_id: str) -> Path:
    """The lesson file the app itself loads (uu.tutor.check.shipped_lessons), found by its id."""
    for path in shipped_lessons():
        if LessonRunner(path).lesson.id == lesson_id:
            return path
    raise AssertionError(f"no shipped lesson with id {lesson_id!r}")


def gesture_of(runner: LessonRunner, action) -> list[str]:
    """The table's element keys to click, in order, for `action` (uu.table.seat_view.legal_actions)."""
    legal = runner.game.legal_actions
    for a in legal_actions(runner.game, runner.learner):
        if legal[a["id"]] == action:
            return a["gesture"]
    raise AssertionError(f"{action} is not on the table")


def click_plan(path: Path) -> list[tuple[str, str | list[str], str]]:
    """[(what, button text or the table keys to click, progress text after it)] that finishes the lesson:
    "Next" on a page step, the right choice of a question, the gesture of `runner.answer()` on a move step,
    and in a guided game the move the heuristic bot would make (the bots' answers are seeded, so the page shows the same game). One
    legal wrong move is made where the step lists one, as a newcomer would, to see its consequence."""
    from uu.bots import HeuristicBot

    runner = LessonRunner(path)
    learner_bot = HeuristicBot(1)
    plan = []
    while not runner.done:
        step = runner.step
        if step.kind == "page":
            label, fb, what = "Next", runner.next(), "next"
        elif step.kind == "question":
            label = step.question.options[step.question.answer - 1]
            fb, what = runner.choose(step.question.answer), "choice"
        else:
            if step.kind == "ask" and not plan_has_wrong(plan):
                wrong = [m for m in step.mistakes if m.expect == "other"]
                if wrong:
                    a = runner.mistake_action(wrong[0])
                    k, n = runner.progress
                    plan.append(("wrong", gesture_of(runner, a), f"Step {k} of {n}"))
                    assert runner.try_move(a).kind == "other"
            action = runner.answer() if step.kind != "game" else learner_bot.choose(runner.game)
            assert action is not None, f"{path.name} step {runner.progress}: no answer"
            label, fb, what = gesture_of(runner, action), runner.try_move(action), "action"
        assert fb.ok or step.kind == "game", (path.name, runner.progress, fb)
        k, n = runner.progress
        plan.append((what, label, "lesson complete" if runner.done else f"Step {k} of {n}"))
    assert not runner.problems, runner.problems
    return plan


def plan_has_wrong(plan: list[tuple[str, str | list[str], str]]) -> bool:
    return any(what == "wrong" for what, _label, _after in plan)


def exact(text: str) -> re.Pattern[str]:
    return re.compile(rf"^\s*{re.escape(text)}\s*$")


def lesson_ids() -> list[str]:
    return [LessonRunner(p).lesson.id for p in shipped_lessons()]


def table_version(screen) -> str:
    return screen.locator(".uu-t").get_attribute("data-version") or ""


def wait_new_table(page: Page, screen, old: str) -> None:
    screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=STEP_MS)


def key_selector(key: str) -> str:
    quoted = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'.uu-t [data-key="{quoted}"][data-legal="true"]'


def make_gesture(page: Page, screen, keys: list[str], keyboard: bool = False) -> None:
    """Click (or Tab to and press Enter on) each element of a gesture on the table, once it is lit; then wait
    for the next table."""
    old = table_version(screen)
    for key in keys:
        target = screen.locator(key_selector(key) + ":visible").first
        expect(target).to_be_visible(timeout=STEP_MS)
        if keyboard:
            tab_to(page, f"e.matches({key_selector(key)!r})")
            page.keyboard.press("Enter")
        else:
            target.click()
    wait_new_table(page, screen, old)


def tab_to(page: Page, condition: str, presses: int = 400) -> None:
    """Press Tab until the focused element fits `condition` (JS, on `e`)."""
    for _ in range(presses):
        page.keyboard.press("Tab")
        if page.evaluate(f"() => {{ const e = document.activeElement; return !!(e && ({condition})); }}"):
            return
    raise AssertionError(f"Tab never reached an element where {condition}")


def press(page: Page, button, keyboard: bool) -> None:
    if not keyboard:
        button.click()
        return
    # mark the one button to reach (pooled buttons are reused, so any older mark goes first)
    button.evaluate("(b) => { for (const e of document.querySelectorAll('[data-uu-target]')) "
                    "e.removeAttribute('data-uu-target'); b.setAttribute('data-uu-target', '1'); }")
    tab_to(page, "e.getAttribute('data-uu-target') === '1'")
    page.keyboard.press("Enter")


def finish_lesson(page: Page, url: str, lesson_id: str, width: int = 1280, keyboard: bool = False,
                  shots: bool = True, path: Path | None = None) -> None:
    """Open the lesson from home and finish it as the plan says, at `width` px, by mouse or keyboard. `path`:
    the lesson's file when it is not a shipped lesson (a teacher's own)."""
    path = path or lesson_file(lesson_id)
    plan = click_plan(path)
    table_pace(page, "fast")
    open_home(page, url, width)
    press(page, page.locator(f"button.uu-lesson-{lesson_id}"), keyboard)
    screen = page.locator(f".uu-lesson.uu-lesson-{lesson_id}")
    progress = screen.locator(".uu-progress")
    expect(progress).to_contain_text(f"Step 1 of {len(LessonRunner(path).lesson.script)}", timeout=STEP_MS)
    expect(screen.locator(".uu-t")).to_be_visible(timeout=STEP_MS)
    tag = f"{lesson_id}-{width}{'-keys' if keyboard else ''}"
    if shots:
        shot(page, f"{tag}-start")
    for i, (what, label, after) in enumerate(plan, 1):
        if what in ("action", "wrong"):
            assert isinstance(label, list)
            make_gesture(page, screen, label, keyboard)
        else:
            if what == "next":
                button = screen.locator("button.uu-next")
            else:
                button = screen.locator("button.uu-choice").filter(has_text=exact(str(label))).first
            expect(button).to_be_visible(timeout=STEP_MS)
            press(page, button, keyboard)
        expect(progress).to_contain_text(after, timeout=STEP_MS)
        if what == "wrong":  # its consequence is shown on the table, marked, then taken back
            expect(screen.locator(".uu-feedback .uu-fb-other")).to_be_visible(timeout=STEP_MS)
            expect(screen.locator(".uu-t-banner")).to_contain_text("What would happen")
            assert screen.locator(".uu-t [data-legal='true']").count() == 0  # a picture: nothing to choose
            if shots:
                shot(page, f"{tag}-{i:02d}-preview")
            old = table_version(screen)
            press(page, screen.locator(".uu-t-banner button"), keyboard)
            wait_new_table(page, screen, old)
            expect(screen.locator(".uu-t-banner")).to_have_count(0)
        elif what == "choice":
            expect(screen.locator(".uu-feedback .uu-fb-right")).to_be_visible(timeout=STEP_MS)
        no_error_shown(page)
        if shots:
            shot(page, f"{tag}-{i:02d}")
    expect(screen.locator(".uu-done")).to_contain_text("Lesson complete")
    expect(screen.locator(".uu-recap")).to_be_visible()
    expect(screen.locator(".uu-quiz-score")).to_contain_text("right at the first try")
    if shots:
        shot(page, f"{tag}-done")
    # the end card's head and the last step's feedback on a phone too: lesson 24's coach comment once pushed
    # "Lesson complete" out of its box (the explorer, tests/explorer.py, judges it as on every screen)
    from explorer import screen_state

    size = page.viewport_size
    page.set_viewport_size({"width": 390, "height": 844})
    for _try in range(50):  # the last move's table may still be on its way
        page.wait_for_timeout(100)
        state = screen_state(page, f".uu-lesson.uu-lesson-{lesson_id}")
        if not state["problem"]:
            break
    assert not state["problem"], f"{lesson_id}'s end card on a phone: {state['problem']}"
    feedback = screen.locator("[data-role='feedback']")
    if feedback.count() and feedback.first.is_visible():
        top = feedback.first.bounding_box()
        assert top is not None and top["y"] + 20 < 844, f"{lesson_id}: the last feedback is out of view"
    if shots:
        shot(page, f"{tag}-done-phone")
    if size is not None:
        page.set_viewport_size(size)
    press(page, page.locator("button.uu-nav-home"), keyboard)           # back home: the lesson is marked done
    row = page.locator(".uu-lesson-row").filter(has=page.locator(f"button.uu-lesson-{lesson_id}"))
    expect(row).to_contain_text("done", timeout=STEP_MS)
    expect(page.locator(f"button.uu-lesson-{lesson_id}")).to_have_text(exact("Review"))
    assert "Traceback" not in page.inner_text("body")


# beside test_screen_e2e.py's setup, deck, neigh, replacement and magic
WALKED = ["effect-chain", "impossible", "guided-game"]  # with test_screen_e2e.py's five (the suite's time)


@pytest.mark.parametrize("lesson_id", lesson_ids() if os.environ.get("UU_E2E_ALL_LESSONS") else WALKED)
def test_finish_a_lesson_by_clicking_the_table(page: Page, voila_url, lesson_id):
    finish_lesson(page, voila_url, lesson_id)


def short_lesson_with_moves() -> str:
    """The lesson with the fewest plan entries among those that have a move on the table."""
    plans = {lid: click_plan(lesson_file(lid)) for lid in lesson_ids()}
    with_moves = [lid for lid, plan in plans.items() if any(what == "action" for what, _l, _a in plan)]
    return min(with_moves, key=lambda lid: len(plans[lid]))


def test_finish_a_lesson_at_360_px(page: Page, voila_url):
    lesson_id = short_lesson_with_moves()
    finish_lesson(page, voila_url, lesson_id, width=360, shots=False)
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= 361, f"the page scrolls sideways at 360 px: {scroll}"


def test_finish_a_lesson_by_keyboard_alone(page: Page, voila_url):
    finish_lesson(page, voila_url, short_lesson_with_moves(), keyboard=True, shots=False)


def axe_serious(page: Page, selector: str) -> list:
    axe = pytest.importorskip("axe_playwright_python", reason="axe-playwright-python (test extra) missing")
    if not page.evaluate("() => typeof window.axe !== 'undefined'"):
        page.add_script_tag(path=str(Path(axe.__file__).with_name("axe.min.js")))
    result = page.evaluate(f"async () => await axe.run(document.querySelector({selector!r}))")
    return [(v["id"], v["impact"], v["help"], [n["target"] for n in v["nodes"]][:3])
            for v in result["violations"] if v["impact"] in ("serious", "critical")]


def test_axe_on_home_and_a_lesson(page: Page, voila_url):
    lesson_id = short_lesson_with_moves()
    plan = click_plan(lesson_file(lesson_id))
    open_home(page, voila_url)
    assert not axe_serious(page, ".uu-home-screen"), axe_serious(page, ".uu-home-screen")
    page.locator(f"button.uu-lesson-{lesson_id}").click()
    screen = page.locator(f".uu-lesson.uu-lesson-{lesson_id}")
    for what, label, _after in plan:                 # up to the first move: the table has lit cards
        if what == "action":
            break
        button = screen.locator("button.uu-next" if what == "next" else "button.uu-choice").filter(
            has_text=exact("Next" if what == "next" else str(label))).first
        old = screen.locator(".uu-progress").inner_text()
        button.click()
        expect(screen.locator(".uu-progress")).not_to_have_text(old, timeout=STEP_MS)
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    bad = axe_serious(page, f".uu-lesson.uu-lesson-{lesson_id}")
    assert not bad, bad


def lit_or_over(page: Page, screen) -> bool:
    """Waits until the learner has something lit on the table or the game is over; True when over."""
    page.wait_for_function(
        "() => !!document.querySelector('.uu-play-screen .uu-result .uu-banner') || "
        "[...document.querySelectorAll(\".uu-play-screen .uu-t [data-legal='true']\")]"
        ".some(e => e.offsetParent !== null)", timeout=STEP_MS)
    return screen.locator(".uu-result .uu-banner").count() > 0


def table_move(page: Page, screen) -> int:
    """Click lit elements of the table until it changes: a card in the hand when one is lit (a gesture of two
    steps: the card, then its place or target), else the first lit element. Returns the clicks made."""
    legal = ".uu-t [data-legal='true']"
    old = table_version(screen)
    for clicks in range(1, 9):
        lit = screen.locator(legal + "[data-zone='hand']:visible")
        if lit.count() == 0:
            lit = screen.locator(legal + ":visible")
        if lit.count() == 0:
            raise AssertionError("nothing lit on the table")
        lit.first.click()
        # one read (read apart, the old version and the next table's lit elements could both be seen)
        if screen.locator(".uu-t").evaluate(
                "(t, old) => t.getAttribute('data-version') !== old || t.hasAttribute('data-waiting')", old):
            wait_new_table(page, screen, old)
            return clicks
    raise AssertionError("eight clicks on lit elements made no move")


@pytest.mark.parametrize("width", [1200, 360])
def test_play_a_full_game_by_clicking_the_table(page: Page, voila_url, width):
    table_pace(page, "fast" if width > 700 else "off")  # the playback on a wide screen, quicker
    open_home(page, voila_url, width=width)
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    screen.locator(".uu-players select").select_option("2")   # two players: a full game in about a minute
    old = table_version(screen)
    screen.locator("button.uu-new-game").click()
    wait_new_table(page, screen, old)
    expect(screen.locator(".uu-t .uu-t-seat")).to_have_count(2, timeout=STEP_MS)
    shot(page, "play-start")
    moves, two_step = 0, 0
    for _ in range(400):
        if lit_or_over(page, screen):
            break
        clicks = table_move(page, screen)
        moves += 1
        two_step += clicks >= 2
        no_error_shown(page)
        if moves == 3:
            shot(page, "play-turns")
            expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
            bad = axe_serious(page, ".uu-play-screen")        # the play screen, cards lit
            assert not bad, bad
    expect(screen.locator(".uu-result .uu-banner")).to_contain_text("Game over", timeout=STEP_MS)
    assert moves >= 5 and two_step >= 1, (moves, two_step)    # cards were played: card, then its place
    assert screen.locator(".uu-t [data-legal='true']").count() == 0
    scroll = page.evaluate("() => document.documentElement.scrollWidth")
    assert scroll <= width + 1, f"the page scrolls sideways at {width} px: {scroll}"
    shot(page, f"play-over-{width}")
    first_line = screen.locator(".uu-t-log details").first   # "why?" opens the rule statements
    first_line.locator("summary").click()
    expect(first_line.locator(".uu-t-why").first).to_be_visible()
    assert "Traceback" not in page.inner_text("body")


def test_hard_bots_and_a_hint_in_the_browser(page: Page, voila_url):
    open_home(page, voila_url)
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    screen.locator(".uu-players select").select_option("2")
    screen.locator(".uu-level select").select_option(label="Hard: thinks ahead like the hint")
    old = table_version(screen)
    screen.locator("button.uu-new-game").click()
    wait_new_table(page, screen, old)
    screen.locator("button.uu-hint-button").click()
    why = screen.locator(".uu-hint-box .uu-hint-why")
    expect(why).to_contain_text(re.compile("best move|about as good|just as good"), timeout=STEP_MS)
    # the hinted move lit on the table itself, on a card or place the learner may choose now
    expect(screen.locator(".uu-t [data-hinted='true'][data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    table = screen.locator(".uu-hint-box details table.uu-hint")
    expect(table).to_be_hidden()                                  # the numbers are one click away
    screen.locator(".uu-hint-box details summary").click()
    expect(table).to_be_visible()
    bad = axe_serious(page, ".uu-play-screen")
    assert not bad, bad
    for _ in range(4):                                            # the Hard bots answer the learner's moves
        if lit_or_over(page, screen):
            break
        table_move(page, screen)
        no_error_shown(page)
    expect(screen.locator(".uu-hint-box .uu-hint-why")).to_have_count(0)  # the hint was for the move made
    assert "Traceback" not in page.inner_text("body")


NAME = "<img src=x onerror=window.uuXss=1>"        # 32 characters: within the name field's 40


def test_markup_in_a_player_name_is_shown_as_text(page: Page, voila_url):
    open_home(page, voila_url)
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t")).to_be_visible(timeout=STEP_MS)
    name = screen.locator(".uu-name input")
    name.fill(NAME)
    name.press("Enter")
    screen.locator("button.uu-new-game").click()
    expect(screen.locator(".uu-t")).to_contain_text(NAME, timeout=STEP_MS)   # the literal text is shown
    page.wait_for_timeout(300)
    assert page.evaluate("() => window.uuXss") is None, "an onerror handler from the name ran"
    assert screen.locator("img[src='x']").count() == 0
    no_error_shown(page)
    shot(page, "play-name-escaped")


_HOSTILE_JS = """
async ({kernelId, code}) => {
  const id = () => Math.random().toString(16).slice(2) + Math.random().toString(16).slice(2);
  const session = id();
  const msg = (type, channel, content) => JSON.stringify({
    header: {msg_id: id(), username: 'hostile', session, msg_type: type, version: '5.3',
             date: new Date().toISOString()},
    parent_header: {}, metadata: {}, content, channel, buffers: []});
  const ws = new WebSocket(location.origin.replace(/^http/, 'ws') + '/api/kernels/' + kernelId + '/channels');
  await new Promise((res, rej) => { ws.onopen = res; ws.onerror = () => rej(new Error('websocket refused')); });
  const seen = [];
  const replied = new Promise(res => {
    ws.onmessage = (ev) => {
      if (typeof ev.data !== 'string') return;
      const t = JSON.parse(ev.data).header.msg_type;
      seen.push(t);
      if (t === 'comm_info_reply') res();
    };
  });
  const exec = {code, silent: false, store_history: false, user_expressions: {}, allow_stdin: false,
                stop_on_error: true};
  ws.send(msg('execute_request', 'shell', exec));
  ws.send(msg('execute_request', 'control', exec));
  ws.send(msg('inspect_request', 'shell', {code: 'app', cursor_pos: 3, detail_level: 1}));
  ws.send(msg('comm_info_request', 'shell', {}));   // allowed: its reply means the kernel saw everything above
  await Promise.race([replied, new Promise(r => setTimeout(r, 20000))]);
  ws.close();
  return seen;
}
"""


def test_a_hostile_page_cannot_run_code_in_its_kernel(page: Page, voila_url, tmp_path):
    """From inside the learner's own page (same origin, the page's kernel id): execute_request on the shell
    and control channels and inspect_request are dropped; widget messages are still answered."""
    open_home(page, voila_url)
    match = re.search(r'"kernelId"\s*:\s*"([0-9a-f-]+)"', page.content())
    assert match, "no kernel id in the page"
    marker = tmp_path / "code-ran"
    code = f"open({str(marker)!r}, 'w').write('ran')"
    seen = page.evaluate(_HOSTILE_JS, {"kernelId": match.group(1), "code": code})
    assert "comm_info_reply" in seen, seen
    for reply in ("execute_reply", "execute_input", "execute_result", "inspect_reply", "stream"):
        assert reply not in seen, seen
    page.wait_for_timeout(500)
    assert not marker.exists(), "the kernel ran code sent by the page"
    page.locator("button.uu-play").click()                  # the app still works on that kernel
    expect(page.locator(".uu-play-screen .uu-t")).to_be_visible(timeout=STEP_MS)


# ---- the what-if sandbox ---------------------------------------------------------------------------------
SANDBOX_YAML = """\
name: Sandbox e2e position
players: [Ana, Ben, Cy]
turn: {player: Ana, phase: action, number: 3}
stables:
  Ana: [Baby Unicorn (Red), Rhinocorn]
  Ben: [Baby Unicorn (Blue), Basic Unicorn (Blue)]
  Cy: [Baby Unicorn (Green)]
hands:
  Ana: [Basic Unicorn (Red), Unicorn Poison]
  Ben: [Basic Unicorn (Orange)]
  Cy: [Basic Unicorn (Yellow)]
deck: [Basic Unicorn (Purple), Basic Unicorn (Indigo), Basic Unicorn (Green)]
discard: [Unicorn Poison]
rest: box
"""
SANDBOX_MOVE = "play Basic Unicorn (Red) into Ana's Stable"

# {seat name: {"Stable": [card names], "Hand": [card names]}} as a table (.uu-seat rows) shows them.
_ZONES_JS = """
(root) => {
  const out = {};
  for (const seat of root.querySelectorAll('.uu-seat')) {
    const name = seat.querySelector('.uu-player-head b').textContent.trim();
    out[name] = {};
    for (const row of seat.querySelectorAll(':scope > div')) {
      const label = row.querySelector(':scope > .uu-zone-label');
      if (!label) continue;
      out[name][label.textContent.replace(':', '').trim()] =
        [...row.querySelectorAll('.uu-card-name')].map(c => c.textContent.trim());
    }
  }
  return out;
}
"""


def shown_zones(locator) -> dict[str, dict[str, list[str]]]:
    return locator.evaluate(_ZONES_JS)


def open_sandbox(page: Page, url: str, width: int = 1200):
    open_home(page, url, width)
    page.locator("button.uu-open-sandbox").click()
    screen = page.locator(".uu-sandbox-screen")
    expect(screen.locator(".uu-sb-position .uu-seat").first).to_be_visible(timeout=STEP_MS)
    return screen


def paste_and_load(screen, text: str) -> None:
    box = screen.locator(".uu-sb-yaml textarea")
    box.fill(text)               # an input event: the widget's value follows (continuous_update)
    screen.locator("button.uu-sb-load").click()


def export_text(screen) -> str:
    area = screen.locator(".uu-sb-export-text textarea")
    expect(area).to_be_visible(timeout=STEP_MS)
    return area.input_value()


def game_zones(game) -> dict[str, dict[str, list[str]]]:
    return {name: {"Stable": game.stable(i), "Hand": game.hand(i)} for i, name in enumerate(game.players)}


def test_sandbox_load_play_and_export(page: Page, voila_url):
    loaded = build_game(parse_scenario(SANDBOX_YAML, "SANDBOX_YAML"))
    screen = open_sandbox(page, voila_url)
    shot(page, "sandbox-start")
    fits_its_panel(screen.locator(".uu-sb-yaml"), screen.locator(".uu-sandbox-build"))

    # load the position by pasting it: the table shows every Stable and hand as the scenario says
    paste_and_load(screen, SANDBOX_YAML)
    position = screen.locator(".uu-sb-position")
    expect(position).to_contain_text("Sandbox e2e position", timeout=STEP_MS)
    expect(position).to_contain_text("Rhinocorn")
    assert shown_zones(position) == game_zones(loaded)
    expect(screen.locator(".uu-msg-load .uu-field-error")).to_have_count(0)
    no_error_shown(page)
    shot(page, "sandbox-loaded")

    # the export box already holds the built position; it loads back to the same position
    text = export_text(screen)
    assert "Rhinocorn" in text and "Sandbox e2e position" in text
    back = build_game(parse_scenario(text, "exported from the sandbox"))
    assert game_zones(back) == game_zones(loaded)
    assert position_signature(back) == position_signature(loaded)

    # play on from here: Ana (the seat to decide) is you; bots wait for "Bot: next" (auto-play off); one move
    screen.locator("button.uu-sb-start").click()
    play = screen.locator(".uu-sandbox-play")
    expect(play.locator(".uu-sb-prompt")).to_contain_text("Ana (you) decides", timeout=STEP_MS)
    auto = play.locator("button.uu-sb-auto")
    expect(auto).to_have_class(re.compile(r"\bmod-active\b"))
    auto.click()
    expect(auto).not_to_have_class(re.compile(r"\bmod-active\b"), timeout=STEP_MS)
    # the table, drawn as Ana (the seat deciding) sees it: every Stable as built, her cards lit
    table = play.locator(".uu-t")
    expect(table.locator("[data-card='Rhinocorn']").first).to_be_visible(timeout=STEP_MS)
    assert table_stables(table) == {p: z["Stable"] for p, z in game_zones(loaded).items()}
    expect(table.locator("[data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    bad = axe_serious(page, ".uu-sandbox-screen")        # the sandbox's play panel, cards lit
    assert not bad, bad
    shot(page, "sandbox-play")
    # the move by clicking lit elements: the card in her hand, then her Stable
    make_gesture(page, play, sandbox_gesture(loaded, SANDBOX_MOVE))
    current = play.locator(".uu-sb-timeline button.uu-tl-current")
    expect(current).to_contain_text(SANDBOX_MOVE, timeout=STEP_MS)
    expect(play.locator(".uu-sb-prompt")).to_contain_text("Waiting for Ben", timeout=STEP_MS)
    expect(play.locator("button.uu-sb-bot-next")).to_be_enabled()
    no_error_shown(page)

    # the same move in Python, from the pasted text
    expected = build_game(parse_scenario(SANDBOX_YAML))
    [action] = [a for a in expected.pending.actions if expected.describe(a) == SANDBOX_MOVE]
    expected.push(action)
    assert "Basic Unicorn (Red)" in expected.stable(0)

    # the export box follows the table: the position after the move, which loads back to the same position
    expect(screen.locator(".uu-sb-export-text textarea")).to_have_value(re.compile("Ben's action phase"),
                                                                        timeout=STEP_MS)
    text = export_text(screen)
    after = build_game(parse_scenario(text, "exported after a move"))
    assert game_zones(after) == game_zones(expected)
    assert (after.deck_size, after.discard, after.turn) == \
        (expected.deck_size, expected.discard, expected.turn)
    assert position_signature(after) == position_signature(expected)
    link = screen.locator(".uu-sb-download a.uu-download")
    expect(link).to_have_attribute("download", "position.yaml")
    fits_its_panel(screen.locator(".uu-sb-export-text"), screen.locator(".uu-sandbox-play"))
    shot(page, "sandbox-exported")


def fits_its_panel(box, panel) -> None:
    """A full-width text box ends inside its panel (its margins used to push it a few pixels past the edge)."""
    b, p = box.bounding_box(), panel.bounding_box()
    assert b and p and b["x"] + b["width"] <= p["x"] + p["width"] + 0.5, (b, p)


def table_stables(table) -> dict[str, list[str]]:
    """{seat name: [card names in its Stable]} as the table draws them (its data-* contract)."""
    return table.evaluate(
        "(root) => { const out = {}; for (const e of root.querySelectorAll(\"[data-zone='stable'][data-card]\")) "
        "{ const o = e.getAttribute('data-owner'); (out[o] = out[o] || []).push(e.getAttribute('data-card')); } "
        "return out; }")


def sandbox_gesture(game, description: str) -> list[str]:
    """The table keys to click, in order, for the deciding seat's move described so (the engine's words)."""
    seat = game.pending.player
    [gesture] = [a["gesture"] for a in legal_actions(game, seat)
                 if game.describe(game.legal_actions[a["id"]]) == description]
    return gesture


def test_sandbox_move_on_the_table_at_360_px(page: Page, voila_url):
    screen = open_sandbox(page, voila_url, width=360)
    paste_and_load(screen, SANDBOX_YAML)
    expect(screen.locator(".uu-sb-position")).to_contain_text("Sandbox e2e position", timeout=STEP_MS)
    screen.locator("button.uu-sb-start").click()
    play = screen.locator(".uu-sandbox-play")
    expect(play.locator(".uu-sb-prompt")).to_contain_text("Ana (you) decides", timeout=STEP_MS)
    make_gesture(page, play, sandbox_gesture(build_game(parse_scenario(SANDBOX_YAML)), SANDBOX_MOVE))
    expect(play.locator(".uu-sb-timeline button.uu-tl-node").nth(1)).to_contain_text(SANDBOX_MOVE,
                                                                                     timeout=STEP_MS)
    no_error_shown(page)


def test_sandbox_move_with_every_hand_open(page: Page, voila_url):
    """View as "everything": the analyst's table (every hand face up) still lights the deciding seat's moves."""
    screen = open_sandbox(page, voila_url)
    paste_and_load(screen, SANDBOX_YAML)
    expect(screen.locator(".uu-sb-position")).to_contain_text("Sandbox e2e position", timeout=STEP_MS)
    screen.locator("button.uu-sb-start").click()
    play = screen.locator(".uu-sandbox-play")
    expect(play.locator(".uu-sb-prompt")).to_contain_text("Ana (you) decides", timeout=STEP_MS)
    play.locator(".uu-sb-viewer select").select_option(label="everything (all hands open)")
    expect(play.locator(".uu-t [data-card='Basic Unicorn (Orange)']")).to_have_count(1, timeout=STEP_MS)  # Ben's
    bad = axe_serious(page, ".uu-sandbox-screen")
    assert not bad, bad
    make_gesture(page, play, sandbox_gesture(build_game(parse_scenario(SANDBOX_YAML)), SANDBOX_MOVE))
    expect(play.locator(".uu-sb-timeline button.uu-tl-node").nth(1)).to_contain_text(SANDBOX_MOVE,
                                                                                     timeout=STEP_MS)
    no_error_shown(page)


def test_sandbox_axe_while_building(page: Page, voila_url):
    screen = open_sandbox(page, voila_url)
    bad = axe_serious(page, ".uu-sandbox-screen")        # the build panel
    assert not bad, bad
    paste_and_load(screen, SANDBOX_YAML)
    expect(screen.locator(".uu-sb-position")).to_contain_text("Sandbox e2e position", timeout=STEP_MS)


def test_sandbox_malformed_yaml_shows_a_message(page: Page, voila_url):
    screen = open_sandbox(page, voila_url)
    position = screen.locator(".uu-sb-position")
    before = shown_zones(position)
    message = screen.locator(".uu-msg-load .uu-field-error")
    for i, (bad, says) in enumerate([
        ("name: broken\nplayers: [Ana, Ben\nturn: {player: Ana}\n", r"line 3: not valid YAML"),
        ("name: typo\nplayers: [Ana, Ben]\nstables:\n  Ana: [Basic Unicorn (Plaid)]\n",
         r"line 4, stables\.Ana\.0: no card named 'Basic Unicorn \(Plaid\)'"),
        ("name: baby in hand\nplayers: [Ana, Ben]\nhands:\n  Ana: [Baby Unicorn (Red)]\n",
         r"line 4, hands\.Ana: Baby Unicorn \(Red\) is a Baby Unicorn; Babies are only ever in a Stable"),
    ], 1):
        paste_and_load(screen, bad)
        expect(message).to_have_text(re.compile(says), timeout=STEP_MS)
        assert "Traceback" not in page.inner_text("body")
        no_error_shown(page)
        assert shown_zones(position) == before          # the built position is unchanged
        shot(page, f"sandbox-bad-yaml-{i}")

    # the screen still works: a valid paste loads and the message goes away
    paste_and_load(screen, SANDBOX_YAML)
    expect(position).to_contain_text("Sandbox e2e position", timeout=STEP_MS)
    expect(message).to_have_count(0)
    assert shown_zones(position)["Ana"]["Stable"] == ["Baby Unicorn (Red)", "Rhinocorn"]
    no_error_shown(page)
    shot(page, "sandbox-bad-yaml-recovered")


def test_oversized_upload_and_paste_are_refused_in_the_browser(page: Page, voila_url):
    """uu's page refuses a file or text over uu.yamlfile.MAX_BYTES before the widget sends it, with a message
    (uu/server/voila_template/index.html.j2); the controls keep working afterwards."""
    from uu.yamlfile import MAX_BYTES

    sent: list[int] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(len(payload))))
    screen = open_sandbox(page, voila_url)
    assert sent  # the page's kernel websocket is watched
    with page.expect_file_chooser() as chooser:  # the widget's <input type=file> is not in the document
        screen.locator(".uu-sb-upload").click()
    chooser.value.set_files(files=[{"name": "big.yaml", "mimeType": "text/yaml",
                                    "buffer": b"name: big\n#" + b"x" * MAX_BYTES}])
    expect(page.locator(".uu-too-big")).to_contain_text("That file is too large", timeout=STEP_MS)
    screen.locator(".uu-sb-yaml textarea").fill("players: [Ana, Ben]\n#" + "x" * MAX_BYTES)
    expect(page.locator(".uu-too-big")).to_contain_text("That text is too long", timeout=STEP_MS)
    assert not sent or max(sent) < MAX_BYTES, sent  # neither reached the websocket
    paste_and_load(screen, "players: [Ana, Ben]\nturn: {number: " + "9" * 5000 + "}\n")
    expect(screen.locator(".uu-msg-load")).to_contain_text("more than 4,300 digits", timeout=STEP_MS)


def stored_progress(page: Page) -> dict:
    """What the app keeps in this browser's localStorage (uu/widgets/progress.js), {} if nothing."""
    return page.evaluate("() => JSON.parse(localStorage.getItem('uu-progress') || '{}')")


def lesson_row(page: Page, lesson_id: str):
    return page.locator(".uu-lesson-row").filter(has=page.locator(f"button.uu-lesson-{lesson_id}"))


def test_progress_survives_a_reload_and_can_be_forgotten(page: Page, voila_url):
    done_id = short_lesson_with_moves()
    finish_lesson(page, voila_url, done_id, shots=False)
    # part of another lesson: its first answers, up to a step past the first (no wrong move on the way)
    partial, prefix = next((lid, plan[:2]) for lid in lesson_ids() if lid != done_id
                           for plan in [click_plan(lesson_file(lid))]
                           if len(plan) > 3 and all(what != "wrong" for what, _l, _a in plan[:2]))
    n = len(LessonRunner(lesson_file(partial)).lesson.script)
    press(page, page.locator(f"button.uu-lesson-{partial}"), False)
    screen = page.locator(f".uu-lesson.uu-lesson-{partial}")
    progress = screen.locator(".uu-progress")
    for what, label, after in prefix:
        if what == "action":
            make_gesture(page, screen, label)
        else:
            button = (screen.locator("button.uu-next") if what == "next" else
                      screen.locator("button.uu-choice").filter(has_text=exact(str(label))).first)
            expect(button).to_be_visible(timeout=STEP_MS)
            button.click()
        expect(progress).to_contain_text(after, timeout=STEP_MS)
    step = int(re.search(r"Step (\d+)", prefix[-1][2]).group(1))
    page.wait_for_function(f"() => (JSON.parse(localStorage.getItem('uu-progress') || '{{}}').lessons || {{}})"
                           f"[{partial!r}]?.step === {step}", timeout=STEP_MS)

    page.reload(wait_until="commit")  # a new page: a new kernel, only the browser remembers
    # the screen that was open comes back: the lesson, at the step reached
    expect(progress).to_contain_text(f"Step {step} of {n}", timeout=LOAD_MS)
    shot(page, "progress-restored")
    page.locator("button.uu-nav-home").click()
    expect(lesson_row(page, done_id)).to_contain_text("(done)", timeout=STEP_MS)
    expect(lesson_row(page, partial)).to_contain_text(f"in progress · step {step} of {n}", timeout=STEP_MS)
    expect(page.locator(f"button.uu-lesson-{partial}")).to_have_text(exact("Continue"))
    title = LessonRunner(lesson_file(partial)).lesson.title
    expect(page.locator("button.uu-continue")).to_have_text(exact(f"Continue: {title}, step {step}"))
    page.locator("button.uu-continue").click()
    expect(progress).to_contain_text(f"Step {step} of {n}", timeout=STEP_MS)

    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-forget").click()
    expect(lesson_row(page, done_id)).to_contain_text("not started", timeout=STEP_MS)
    page.wait_for_function("() => !Object.keys(localStorage).some((k) => k.startsWith('uu'))", timeout=STEP_MS)
    page.reload(wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=LOAD_MS)
    page.wait_for_timeout(1000)  # time for a restore, were anything left to restore
    rows = page.locator(".uu-lesson-row")
    assert rows.count() == len(lesson_ids())
    assert all("not started" in t for t in rows.all_inner_texts()), rows.all_inner_texts()
    assert stored_progress(page) == {}
    no_error_shown(page)


# Holds the render of the progress store's view (uu/widgets/progress.js) until the page calls
# uuReleaseProgress(), as a busy page does that draws the home first: anywidget imports the module from a Blob.
_HOLD_PROGRESS_VIEW = """
(() => {
  let release;
  const held = new Promise((resolve) => { release = resolve; });
  window.uuReleaseProgress = () => release();
  window.uuHeldRender = held;
  const Real = window.Blob;
  window.Blob = class extends Real {
    constructor(parts, options) {
      const text = parts && typeof parts[0] === 'string' ? parts[0] : '';
      if (text.includes('const KEY = "uu-progress"') && text.includes('export default { render };'))
        parts = [text.replace('export default { render };',
          'export default { render: async (ctx) => { await window.uuHeldRender; return render(ctx); } };')];
      super(parts, options);
    }
  };
})();
"""


def test_progress_made_before_the_store_is_drawn_is_kept(page: Page, voila_url):
    """Under load the store's view may be drawn after the home is on screen: a lesson begun before then (or a
    name joined on the class box) is written once the view is there, and the next page reopens it."""
    page.add_init_script(_HOLD_PROGRESS_VIEW)
    open_home(page, voila_url)
    assert page.locator(".uu-progress-store").count() == 0          # the store's view is not drawn yet
    lesson_id = lesson_ids()[0]
    page.locator(f"button.uu-lesson-{lesson_id}").click()
    screen = page.locator(f".uu-lesson.uu-lesson-{lesson_id}")
    screen.locator("button.uu-next").click()
    expect(screen.locator(".uu-progress")).to_contain_text("Step 2 of", timeout=STEP_MS)
    page.wait_for_timeout(500)
    assert stored_progress(page) == {}
    page.evaluate("() => window.uuReleaseProgress()")
    expect(page.locator(".uu-progress-store")).to_have_attribute("data-storage", "yes", timeout=STEP_MS)
    page.wait_for_function(f"() => (JSON.parse(localStorage.getItem('uu-progress') || '{{}}').lessons || {{}})"
                           f"[{lesson_id!r}]?.step === 2", timeout=STEP_MS)
    page.reload(wait_until="commit")   # the held render again: the progress is read once the view is drawn
    page.wait_for_timeout(500)
    page.evaluate("() => window.uuReleaseProgress()")
    expect(page.locator(f".uu-lesson.uu-lesson-{lesson_id} .uu-progress")).to_contain_text("Step 2 of",
                                                                                       timeout=LOAD_MS)
    no_error_shown(page)


def test_the_app_works_when_local_storage_throws(page: Page, voila_url):
    """Private modes and disabled storage throw on any use of localStorage: no progress is kept, and the
    app works as before."""
    page.add_init_script("Object.defineProperty(window, 'localStorage', "
                         "{get() { throw new DOMException('denied', 'SecurityError'); }});")
    open_home(page, voila_url)
    expect(page.locator(".uu-progress-store")).to_have_attribute("data-storage", "no", timeout=STEP_MS)
    lesson_id = lesson_ids()[0]
    page.locator(f"button.uu-lesson-{lesson_id}").click()
    expect(page.locator(f".uu-lesson.uu-lesson-{lesson_id} .uu-progress")).to_contain_text("Step 1 of",
                                                                                       timeout=STEP_MS)
    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-forget").click()
    expect(lesson_row(page, lesson_id)).to_contain_text("not started", timeout=STEP_MS)
    no_error_shown(page)
