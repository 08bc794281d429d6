"""One screen: whenever the learner is asked to act, what they need is in the window, with no scrolling.

Driven in headless Chromium against `uu app` (conftest `voila_url`) at 1280x800 and on a 390x844 phone, only
by clicks, through the contract in docs/architecture.md: data-role="prompt" (what the learner is asked
now), "choice" (an answer to a question), "next" (Next, Next lesson), "feedback" (the answer to the last
move), and the table's data-legal="true". At every step of a lesson that asks something, the prompt and at
least one element to choose (a lit card or place, or a choice) lie inside the window and inside every
scrolling box around them (their bounding boxes), and the page itself has not scrolled; after each right
move the next prompt is in view; the end card with "Next lesson" is in view. The test never scrolls. Nothing of
the table runs under the panel, and the opponents' rows on top are in view, covered by nothing (tests/test_i18n_e2e.py
checks the same on a phone in French and German, whose longer words make the panel taller).

The lessons walked are a set that covers every kind of step (a page, a question, a move of each decision
kind: Baby, action, answer on the Neigh pile, target, use, sacrifice, discard, choose, order; a goal by free
play). Set UU_E2E_ALL_LESSONS=1 to walk all 24 lessons at both sizes (the slower check: 48 walks, about
12 minutes on a busy 2-core machine).
Also: ten decisions of a game, the others' moves played back one at a time (each caption on show for at
least 400 ms) and at once when skipped, in a game and in a lesson (its scripted bots), a click on a card that
cannot be chosen answered with why, and axe-core on every screen at both sizes.
"""

from __future__ import annotations

import os
import re

import pytest
from test_e2e import (
    ARTIFACTS,
    LOAD_MS,
    STEP_MS,
    axe_serious,
    click_plan,
    exact,
    key_selector,
    lesson_file,
    lesson_ids,
    open_home,
    table_move,
    table_version,
    wait_new_table,
)

pytest.importorskip("playwright", reason="playwright (the test extra) is not installed")
from playwright.sync_api import Page, expect  # noqa: E402

pytestmark = pytest.mark.browser

SIZES = [(1280, 800), (390, 844)]
# every kind of step: setup (a Baby), deck (action, use, target, choose, order, page, question), neigh
# (answers on the pile), replacement (use, sacrifice, goals), magic (discard, targets in a goal)
COVER = ["setup", "deck", "neigh", "replacement", "magic"]
LESSONS = lesson_ids() if os.environ.get("UU_E2E_ALL_LESSONS") else COVER

# Is the element fully inside the window and inside every box around it that clips (a panel, the table's
# middle)? Returns the reason when not, else "".
_IN_VIEW_JS = """
(e) => {
  const r = e.getBoundingClientRect();
  if (r.width === 0 || r.height === 0) return 'not shown';
  const inside = (b) => r.top >= b.top - 1 && r.left >= b.left - 1 && r.bottom <= b.bottom + 1 && r.right <= b.right + 1;
  if (!inside({top: 0, left: 0, bottom: innerHeight, right: innerWidth})) return `outside the window: ${JSON.stringify(r)}`;
  for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
    const s = getComputedStyle(a);
    if ([s.overflowX, s.overflowY].some((o) => o !== 'visible') && !inside(a.getBoundingClientRect()))
      return `clipped by ${a.className}`;
    if (s.position === 'fixed') break;  // boxes around a fixed one do not clip it
  }
  return '';
}
"""


# Is the table whole beside (or above) the lesson's panel? Nothing of it runs under the panel (its bar, its middle,
# the viewer's seat), and the opponents' rows at the top (each one's name and first card; the first two: a table
# of three, as the lessons have; more scroll) are in view, covered by nothing (the panel, the viewer's seat docked
# at the bottom), unless the table scrolled its middle itself to bring a lit element into view. Returns what is
# wrong, else "".
_TABLE_WHOLE_JS = """
() => {
  const panel = document.querySelector('.uu-game-screen > .uu-panel');
  const table = document.querySelector('.uu-game-screen > .uu-table');
  if (!panel || !table) return 'no lesson or game screen';
  const box = (e) => e.getBoundingClientRect();
  const meet = (a, b) => a.top < b.bottom - 1 && b.top < a.bottom - 1 && a.left < b.right - 1 && b.left < a.right - 1;
  const out = [];
  for (const sel of ['.uu-t-top', '.uu-t-scroll', '.uu-t-me']) {
    const e = table.querySelector(sel);
    if (e && meet(box(e), box(panel))) out.push(`${sel} runs under the panel`);
  }
  const scroll = table.querySelector('.uu-t-scroll');
  for (const seat of [...table.querySelectorAll('.uu-t-opp')].slice(0, 2)) {
    const name = seat.querySelector('.uu-t-seat-name').textContent;
    for (const part of [seat.querySelector('.uu-t-stable-place'), seat.querySelector('.uu-t-card')]) {
      if (!part) continue;
      const r = box(part);
      if (meet(r, box(panel))) out.push(`${name}'s row meets the panel`);
      if (scroll && scroll.scrollTop > 0) continue;
      for (const [x, y] of [[r.left + 3, r.top + 3], [r.right - 3, r.top + 3], [r.left + 3, r.bottom - 3], [r.right - 3, r.bottom - 3]]) {
        const hit = document.elementFromPoint(x, y);
        if (!hit || !part.contains(hit)) {
          const by = hit ? (hit.closest('.uu-panel, .uu-t-me, .uu-t-seat, .uu-t-preview') || hit).className : 'nothing';
          out.push(`${name}'s ${part.className} is covered at (${Math.round(x)}, ${Math.round(y)}) by ${by}`);
          break;
        }
      }
    }
  }
  return out.join('; ');
}
"""


# Why the feedback's sentence cannot be read, "" when it can: its box cuts it off (a box shorter than its text),
# a box around it hides it without scrolling, or, once the sheet is scrolled to it, its last line is not in the
# window or is covered (by the sheet's buttons, the table). The sheet is scrolled back to its top afterwards.
FEEDBACK_READABLE_JS = """
(fb) => {
  const out = [];
  if (fb.scrollHeight > fb.clientHeight + 1) out.push(`its box shows ${fb.clientHeight} of ${fb.scrollHeight} px`);
  const panel = fb.closest('.uu-panel');
  if (!panel) return out.join('; ');  // replaced while being read (its box was judged)
  const r0 = fb.getBoundingClientRect();
  for (let a = fb.parentElement; a && a !== panel.parentElement; a = a.parentElement) {
    const s = getComputedStyle(a), b = a.getBoundingClientRect();
    if (['hidden', 'clip'].includes(s.overflowY) && (r0.top < b.top - 1 || r0.bottom > b.bottom + 1))
      out.push(`hidden by ${a.className} (overflow ${s.overflowY})`);
  }
  const lines = [...fb.querySelectorAll(':scope > p, :scope > b')];
  const last = lines.length ? lines[lines.length - 1] : fb;
  last.scrollIntoView({block: 'center'});  // as a learner scrolls the sheet to it
  const r = last.getBoundingClientRect();
  if (r.top < 0 || r.bottom > innerHeight + 1) out.push(`its last line is outside the window: ${JSON.stringify(r)}`);
  for (const x of [r.left + 4, r.right - 4]) {
    const hit = document.elementFromPoint(x, r.bottom - 4);
    if (!hit || !fb.contains(hit)) { out.push(`its last line is covered by ${hit ? hit.className : 'nothing'}`); break; }
  }
  panel.scrollTop = 0;
  return out.join('; ');
}
"""


def check_table_whole(page: Page, where: str) -> None:
    """The table is not covered by the panel, and the opponents' rows are in view (see _TABLE_WHOLE_JS), once
    the screen has settled; the pointer is moved off the table first (a card's preview opens on hover)."""
    page.mouse.move(1, 1)
    problem = ""
    for _ in range(10):
        problem = str(page.evaluate(_TABLE_WHOLE_JS))
        if not problem:
            return
        page.wait_for_timeout(200)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screen-table-covered.png"))
    raise AssertionError(f"{where}: {problem}")


def not_in_view(locator) -> str:
    """"" if the element is fully in view, else why not."""
    return locator.evaluate(_IN_VIEW_JS)


def page_not_scrolled(page: Page) -> None:
    assert page.evaluate("() => [window.scrollX, window.scrollY, document.scrollingElement.scrollTop]") == [0, 0, 0]


def _settled(screen, selector: str, every: bool) -> list[str]:
    """Why each element matching `selector` is not in view ("" when it is), once the screen has settled
    (a widget's new value may still be arriving: asked again for up to 3 s)."""
    problems: list[str] = []
    for _ in range(15):
        found = screen.locator(selector)
        try:
            problems = [not_in_view(found.nth(i)) for i in range(found.count())]
        except Exception as e:  # the element was replaced while being measured
            problems = [str(e)]
        if problems and (all(p == "" for p in problems) if every else "" in problems):
            return problems
        screen.page.wait_for_timeout(200)
    ARTIFACTS.mkdir(exist_ok=True)
    screen.page.screenshot(path=str(ARTIFACTS / "screen-not-in-view.png"))
    return problems


def check_prompt(page: Page, screen, where: str) -> None:
    selector = "[data-role='prompt']:visible"
    expect(screen.locator(selector).first).to_be_visible(timeout=STEP_MS)
    problems = _settled(screen, selector, every=True)
    assert problems and all(p == "" for p in problems), f"{where}: the prompt is not in view ({problems})"
    page_not_scrolled(page)


def check_feedback(page: Page, screen, where: str) -> None:
    """The feedback is in view, or on a phone its first line is, and its whole sentence can be read by
    scrolling the bottom sheet (FEEDBACK_READABLE_JS: never cut off in a box of its own)."""
    fb = screen.locator("[data-role='feedback']").first
    expect(fb).to_be_visible(timeout=STEP_MS)
    if page.viewport_size and page.viewport_size["width"] > 700:
        check_one_in_view(screen, "[data-role='feedback']", where)
        return
    head = fb.locator(":scope > b, :scope > p").first
    problems = _settled(screen, "[data-role='feedback'] > :is(b, p) >> nth=0", every=True)
    assert problems == [""] or not head.count(), f"{where}: the feedback's first line is not in view: {problems}"
    problem = fb.evaluate(FEEDBACK_READABLE_JS)
    assert not problem, f"{where}: the feedback cannot be read whole: {problem}"
    page_not_scrolled(page)


def check_one_in_view(screen, selector: str, where: str) -> None:
    expect(screen.locator(selector).first).to_be_visible(timeout=STEP_MS)
    problems = _settled(screen, selector, every=False)
    assert "" in problems, f"{where}: none of {selector} in view: {problems[:3]}"


def walk_lesson(page: Page, url: str, lesson_id: str, size: tuple[int, int]) -> None:
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    open_home(page, url, width)
    page.set_viewport_size({"width": width, "height": height})
    page.locator(f"button.uu-lesson-{lesson_id}").click()
    screen = page.locator(f".uu-lesson.uu-lesson-{lesson_id}")
    progress = screen.locator(".uu-progress")
    for what, label, after in click_plan(lesson_file(lesson_id)):
        where = f"{lesson_id} at {width}x{height}, before {after}"
        check_prompt(page, screen, where)
        check_table_whole(page, where)
        if what in ("action", "wrong"):
            check_one_in_view(screen, ".uu-t [data-legal='true']", where)
            old = table_version(screen)
            for key in label:
                target = screen.locator(key_selector(key)).first
                expect(target).to_be_visible(timeout=STEP_MS)
                # each click of a gesture: something to choose is in view (the one the plan picks may be
                # another lit card further along a row, which the click then scrolls to)
                check_one_in_view(screen, ".uu-t [data-legal='true']", f"{where}, {key}")
                target.click()
            wait_new_table(page, screen, old)
            if what == "wrong":  # the preview on the table, marked, with Try again there and in view
                banner = screen.locator(".uu-t-banner")
                expect(banner).to_contain_text("What would happen", timeout=STEP_MS)
                assert not not_in_view(banner), f"{where}: the preview's banner is not in view"
                check_feedback(page, screen, where)
                old = table_version(screen)
                screen.locator(".uu-t-banner button").click()
                wait_new_table(page, screen, old)
                expect(screen.locator(".uu-t-banner")).to_have_count(0)
        elif what == "choice":
            check_one_in_view(screen, "[data-role='choice']:visible", where)
            screen.locator("[data-role='choice']:visible").filter(has_text=exact(str(label))).first.click()
        else:
            check_one_in_view(screen, "[data-role='next']:visible", where)
            screen.locator("button.uu-next").click()
        expect(progress).to_contain_text(after, timeout=STEP_MS)
        if what in ("action", "choice"):
            check_feedback(page, screen, f"{where} (feedback)")
    done = screen.locator(".uu-done")
    expect(done).to_contain_text("Lesson complete", timeout=STEP_MS)
    check_prompt(page, screen, f"{lesson_id} end")
    if lesson_id != lesson_ids()[-1]:
        next_lesson = screen.locator("button.uu-next-lesson[data-role='next']")
        expect(next_lesson).to_be_visible(timeout=STEP_MS)
        assert not not_in_view(next_lesson), f"{lesson_id}: Next lesson is not in view"
    assert "Traceback" not in page.inner_text("body")


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("lesson_id", LESSONS)
def test_every_asking_step_fits_on_one_screen(page: Page, voila_url, lesson_id, size):
    walk_lesson(page, voila_url, lesson_id, size)


def open_game(page: Page, url: str, size: tuple[int, int], pace: str | None = None):
    if pace:
        page.add_init_script(f"try {{ localStorage.setItem('uu-table-pace', '{pace}'); }} catch (e) {{}}")
    page.set_viewport_size({"width": size[0], "height": size[1]})
    open_home(page, url, size[0])
    page.set_viewport_size({"width": size[0], "height": size[1]})
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    return screen


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_ten_decisions_of_a_game_fit_on_one_screen(page: Page, voila_url, size):
    screen = open_game(page, voila_url, size, pace="off")
    for n in range(10):
        where = f"decision {n + 1} at {size[0]}x{size[1]}"
        expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
        check_prompt(page, screen, where)
        check_one_in_view(screen, ".uu-t [data-legal='true']", where)
        old = table_version(screen)
        for _ in range(6):  # a card in the hand first when one is lit, then its place or target
            lit = screen.locator(".uu-t [data-legal='true'][data-zone='hand']")
            if lit.count() == 0:
                lit = screen.locator(".uu-t [data-legal='true']")
            if lit.count() == 0 or table_version(screen) != old:
                break
            for i in range(lit.count()):
                if not not_in_view(lit.nth(i)):
                    lit.nth(i).click()
                    break
            else:
                raise AssertionError(f"{where}: no lit element in view")
        wait_new_table(page, screen, old)
        if screen.locator(".uu-result .uu-banner").count():
            break
    assert "Traceback" not in page.inner_text("body")


def _meets(a: dict | None, b: dict | None) -> bool:
    return bool(a and b and a["x"] < b["x"] + b["width"] - 1 and b["x"] < a["x"] + a["width"] - 1
                and a["y"] < b["y"] + b["height"] - 1 and b["y"] < a["y"] + a["height"] - 1)


def check_preview_placed(page: Page, screen, where: str) -> None:
    """One card's preview is open, and it covers neither the table's bar (turn, phases, prompt, choices) nor any
    prompt (the lesson's is in its panel) nor the panel."""
    expect(screen.locator(".uu-t-preview:visible")).to_have_count(1, timeout=STEP_MS)
    # every box at one moment: the kernel's answer to a tap (its why-not) may grow the bar meanwhile, and the
    # table places the preview again in the same task
    boxes = page.evaluate("""() => {
      const box = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
        return r.width || r.height ? {x: r.left, y: r.top, width: r.width, height: r.height} : null; };
      const preview = [...document.querySelectorAll('.uu-t-preview')].find((e) => box(e));
      return {preview: box(preview), top: box(document.querySelector('.uu-t-top')),
              panel: box(document.querySelector('.uu-game-screen > .uu-panel')),
              prompts: [...document.querySelectorAll("[data-role='prompt']")].map(box).filter(Boolean)};
    }""")
    box = boxes["preview"]
    assert box and box["y"] >= 0 and box["y"] + box["height"] <= 844 + 1, (where, box)
    covered = [name for name in ("top", "panel") if _meets(box, boxes[name])]
    covered += [f"prompt {i}" for i, prompt in enumerate(boxes["prompts"]) if _meets(box, prompt)]
    assert not covered, f"{where}: the preview covers {covered} ({box})"


def long_press(page: Page, locator, ms: int = 800) -> None:
    box = locator.bounding_box()
    assert box, "nothing to press"
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.mouse.down()
    page.wait_for_timeout(ms)
    page.mouse.up()


def test_on_a_phone_the_tap_after_a_why_not_chooses_the_lit_card(page: Page, voila_url):
    """A tap on a card that cannot be chosen opens its preview and says why not; the learner's next tap, on a
    lit card of their hand beside the preview, closes the preview and chooses that card (it was lost: issue
    38)."""
    screen = open_game(page, voila_url, (390, 844), pace="off")
    old = table_version(screen)
    screen.locator(".uu-t [data-legal='true'][data-zone='nursery']").first.click()   # a Baby first
    wait_new_table(page, screen, old)
    hand = screen.locator(".uu-t-me [data-zone='hand'][data-legal='true']").first
    expect(hand).to_be_visible(timeout=STEP_MS)                      # the learner's Action phase
    unlit = screen.locator(".uu-t-opp [data-card]:not([data-legal='true'])").first
    unlit.click()
    expect(screen.locator(".uu-t-whynot")).to_be_visible(timeout=STEP_MS)
    preview = screen.locator(".uu-t-preview:visible")
    expect(preview).to_have_count(1)
    pbox, hbox = preview.bounding_box(), hand.bounding_box()
    assert pbox and hbox and hbox["y"] >= pbox["y"] + pbox["height"], (pbox, hbox)  # the card lies beside it
    old = table_version(screen)
    card = hand.get_attribute("data-card")
    hand.click()
    expect(preview).to_have_count(0)
    # chosen: step 1 (copies of one card in a hand share its key, so every copy of it shows as pressed)
    pressed = screen.locator(".uu-t-me [aria-pressed='true']")
    expect(pressed.first).to_be_visible(timeout=STEP_MS)
    assert {pressed.nth(i).get_attribute("data-card") for i in range(pressed.count())} == {card}
    assert table_version(screen) == old


def test_a_cards_preview_on_a_phone_hides_neither_the_bar_nor_the_prompt(page: Page, voila_url):
    """At 390x844 a hovered or last-tapped card opens no preview (it covered the table's bar and prompt): a long
    press opens it, placed below the bar and above the lesson's panel, and chooses nothing; a tap on a card
    that cannot be chosen opens it too; the next tap closes it."""
    screen = open_game(page, voila_url, (390, 844), pace="off")     # the first decision: a Baby, in the middle
    lit = screen.locator(".uu-t [data-legal='true'][data-card]").first
    unlit = screen.locator(".uu-t-me [data-zone='hand'][data-card]:not([data-legal])").first
    unlit.hover()
    page.wait_for_timeout(300)
    expect(screen.locator(".uu-t-preview:visible")).to_have_count(0)
    old = table_version(screen)
    long_press(page, lit)                                             # a lit card: its preview, not the move
    check_preview_placed(page, screen, "a long press on a lit card")
    page.wait_for_timeout(500)
    assert table_version(screen) == old and screen.locator(".uu-t [aria-pressed='true']").count() == 0
    page.mouse.click(200, screen.locator(".uu-t-me").bounding_box()["y"] - 6)  # the next tap, on the table
    expect(screen.locator(".uu-t-preview:visible")).to_have_count(0)
    assert table_version(screen) == old
    unlit.click()                                                     # a card that cannot be chosen: a look at it
    check_preview_placed(page, screen, "a tap on a card that cannot be chosen")
    expect(screen.locator(".uu-t-whynot")).to_be_visible(timeout=STEP_MS)   # and why not, in the bar
    check_preview_placed(page, screen, "with the answer why not")
    box = screen.locator(".uu-t-preview:visible").bounding_box()      # the next tap, on the preview itself:
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)  # it closes, nothing is chosen
    expect(screen.locator(".uu-t-preview:visible")).to_have_count(0)
    page.wait_for_timeout(500)
    assert table_version(screen) == old and screen.locator(".uu-t [aria-pressed='true']").count() == 0
    lit.click()                                                       # a tap on a lit card chooses it, no preview
    wait_new_table(page, screen, old)
    expect(screen.locator(".uu-t-preview:visible")).to_have_count(0)
    # a lesson step: the prompt is in the panel, below the table
    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-lesson-turn").click()
    lesson = page.locator(".uu-lesson.uu-lesson-turn")
    expect(lesson.locator(".uu-t-me [data-zone='hand'][data-card]").first).to_be_visible(timeout=STEP_MS)
    long_press(page, lesson.locator(".uu-t-me [data-zone='hand'][data-card]").first)
    check_preview_placed(page, lesson, "a long press in a lesson")
    page.mouse.click(200, 10)                                          # a tap off the table closes it too
    expect(lesson.locator(".uu-t-preview:visible")).to_have_count(0)
    assert "Traceback" not in page.inner_text("body")


_CAPTIONS_JS = """
() => {
  window.uuCaptions = [];
  const note = () => {
    const c = document.querySelector('.uu-play-screen .uu-t-caption');
    const shown = c && !c.hidden ? c.getAttribute('data-step') + '|' + c.textContent : null;
    const last = window.uuCaptions[window.uuCaptions.length - 1];
    if (!last || last.text !== shown) window.uuCaptions.push({text: shown, t: performance.now()});
  };
  new MutationObserver(note).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});
}
"""


def test_the_others_moves_are_shown_one_by_one_and_skipped_at_once(page: Page, voila_url):
    screen = open_game(page, voila_url, (1280, 800))
    page.evaluate(_CAPTIONS_JS)
    old = table_version(screen)
    screen.locator(".uu-t [data-legal='true']").first.click()       # the Baby: then the bots choose theirs
    wait_new_table(page, screen, old)
    captions = page.evaluate("() => window.uuCaptions")
    shown = [c for c in captions if c["text"]]
    assert len(shown) >= 2, captions                                 # the bots' Babies, one by one
    for a, b in zip(captions, captions[1:]):
        if a["text"]:
            assert b["t"] - a["t"] >= 400, (a, b)                       # each move on show for 400 ms at least
    # a move whose answer the bots play back, skipped: the new table comes at once
    page.evaluate(_CAPTIONS_JS)
    old = table_version(screen)
    for _ in range(3):
        lit = screen.locator(".uu-t [data-legal='true'][data-zone='hand']")
        lit = lit if lit.count() else screen.locator(".uu-t [data-legal='true']")
        if table_version(screen) != old or screen.locator(".uu-t[data-playing]").count() or lit.count() == 0:
            break
        lit.first.click()
    skip = screen.locator(".uu-t-skip")
    if skip.count():
        skip.click()
        wait_new_table(page, screen, old)
        after = [c for c in page.evaluate("() => window.uuCaptions") if c["text"]]
        assert len(after) <= 2, after                                  # skipped: no more moves played back
    assert "Traceback" not in page.inner_text("body")


def test_the_others_moves_played_out_from_a_table_that_was_not_the_learners_have_a_prompt(page: Page, voila_url):
    """While the others' moves are played out, the table's line says so and is the screen's prompt, also when
    the table on show before was not the learner's: slow bots' moves come in batches, and the explorer found a
    6-player Hard round with no prompt for over 20 s. Step mode draws that table deterministically."""
    screen = open_game(page, voila_url, (1280, 800))
    screen.locator(".uu-more-settings").click()
    screen.locator(".uu-step-mode input").check()
    old = table_version(screen)
    screen.locator(".uu-t [data-legal='true']").first.click()       # the Baby: the bots' turn, stepped
    wait_new_table(page, screen, old)
    expect(screen.locator(".uu-t [data-legal='true']")).to_have_count(0)
    bot = screen.locator("button.uu-bot-next")
    expect(bot).to_be_enabled(timeout=STEP_MS)
    bot.click()
    expect(screen.locator(".uu-t[data-playing='true'] .uu-t-status[data-role='prompt']")).to_contain_text(
        "moving", timeout=STEP_MS)


_LESSON_CAPTIONS_JS = _CAPTIONS_JS.replace(".uu-play-screen", ".uu-lesson")


def lesson_to(page: Page, screen, plan: list, stop: str) -> list:
    """Play `plan` (click_plan) on the lesson screen until its right move at the step whose progress reads
    `stop`; returns the rest of the plan, once that step's table is drawn (its move lit)."""
    while plan:
        what, label, after = plan[0]
        if what == "action" and screen.locator(".uu-progress").inner_text().strip().startswith(stop):
            expect(screen.locator(key_selector(label[0])).first).to_be_visible(timeout=STEP_MS)
            return plan
        plan = plan[1:]
        play_step(page, screen, what, label, after)
    raise AssertionError(f"no move to make at {stop}")


def play_step(page: Page, screen, what: str, label, after: str, on_preview=None) -> None:
    """One step of a lesson's click plan (test_e2e.click_plan): its move (a wrong one's preview: `on_preview()`,
    then back), its answer or Next; returns once the progress reads `after`."""
    if what in ("action", "wrong"):
        old = table_version(screen)
        for key in label:
            screen.locator(key_selector(key)).first.click()
        wait_new_table(page, screen, old)
        if what == "wrong":
            if on_preview is not None:
                on_preview()
            old = table_version(screen)
            screen.locator(".uu-t-banner button").click()
            wait_new_table(page, screen, old)
    elif what == "choice":
        screen.locator("[data-role='choice']:visible").filter(has_text=exact(str(label))).first.click()
    else:
        screen.locator("button.uu-next").click()
    expect(screen.locator(".uu-progress")).to_contain_text(after, timeout=STEP_MS)


def test_in_a_lesson_the_others_moves_are_shown_one_by_one_and_skipped_at_once(page: Page, voila_url):
    # lesson 15: at step 4 your SACRIFICE, then Bramble's and Clover's scripted ones; at step 6 your DESTROY,
    # then four decisions of the others before step 7's new position
    page.add_init_script("try { localStorage.setItem('uu-table-pace', 'off'); } catch (e) {}")
    open_home(page, voila_url, 1280)
    page.set_viewport_size({"width": 1280, "height": 800})
    page.locator("button.uu-lesson-effect-chain").click()
    screen = page.locator(".uu-lesson.uu-lesson-effect-chain")
    plan = lesson_to(page, screen, click_plan(lesson_file("effect-chain")), "Step 4 ")
    page.evaluate("() => localStorage.removeItem('uu-table-pace')")   # the pace a learner gets by default
    page.evaluate(_LESSON_CAPTIONS_JS)
    old = table_version(screen)
    for key in plan[0][1]:
        screen.locator(key_selector(key)).first.click()
    wait_new_table(page, screen, old)
    shown = [c for c in page.evaluate("() => window.uuCaptions") if c["text"]]
    assert [c["text"].split("|")[0] for c in shown] == ["0", "1", "2"], shown   # one step per decision
    for (i, who), c in zip(enumerate(["You SACRIFICE Stabby", "Bramble SACRIFICEs", "Clover SACRIFICEs"]), shown):
        assert c["text"].startswith(f"{i}|{who}"), (who, c)
    captions = page.evaluate("() => window.uuCaptions")
    for a, b in zip(captions, captions[1:]):
        if a["text"]:
            assert b["t"] - a["t"] >= 400, (a, b)                        # each on show for 400 ms at least
    plan = lesson_to(page, screen, plan[1:], "Step 6 ")
    page.evaluate(_LESSON_CAPTIONS_JS)
    old = table_version(screen)
    for key in plan[0][1]:
        screen.locator(key_selector(key)).first.click()
    skip = screen.locator(".uu-t-skip")
    expect(skip).to_be_visible(timeout=STEP_MS)
    skip.click()
    wait_new_table(page, screen, old)
    after = [c for c in page.evaluate("() => window.uuCaptions") if c["text"]]
    assert 1 <= len(after) <= 2, after                                   # skipped: no more moves played back
    expect(screen.locator(".uu-progress")).to_contain_text("Step 7 ")
    assert "Traceback" not in page.inner_text("body")


def test_a_click_on_a_card_that_cannot_be_chosen_says_why(page: Page, voila_url):
    screen = open_game(page, voila_url, (1280, 800), pace="off")
    for _ in range(4):                                               # to the learner's Action phase
        if screen.locator(".uu-t [data-zone='hand'][data-card]:not([data-legal])").count() and \
                screen.locator(".uu-t [data-key='deck'][data-legal='true']").count():
            break
        old = table_version(screen)
        screen.locator(".uu-t [data-legal='true']").first.click()
        wait_new_table(page, screen, old)
    unlit = screen.locator(".uu-t [data-zone='nursery'][data-card], .uu-t [data-zone='stable'][data-card]")
    unlit.first.click(force=True)
    why = screen.locator(".uu-t-whynot")
    expect(why).to_be_visible(timeout=STEP_MS)
    assert len(why.inner_text().strip()) > 20


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
def test_axe_on_every_screen(page: Page, voila_url, size):
    width, height = size
    page.set_viewport_size({"width": width, "height": height})
    open_home(page, voila_url, width)
    page.set_viewport_size({"width": width, "height": height})
    bad = {"home": axe_serious(page, ".uu-home-screen")}
    page.locator("button.uu-lesson-goal").click()                      # a question, then a move, then the end
    screen = page.locator(".uu-lesson.uu-lesson-goal")
    plan = click_plan(lesson_file("goal"))
    for what, label, after in plan:
        if what == "choice" and "question" not in bad:
            bad["question"] = axe_serious(page, ".uu-lesson")
        if what == "action" and "move" not in bad:
            expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
            bad["move"] = axe_serious(page, ".uu-lesson")
        play_step(page, screen, what, label, after,
                  on_preview=lambda: bad.__setitem__("preview", axe_serious(page, ".uu-lesson")))
    bad["lesson end"] = axe_serious(page, ".uu-lesson")
    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-play").click()
    play = page.locator(".uu-play-screen")
    expect(play.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    bad["game"] = axe_serious(page, ".uu-play-screen")
    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-open-sandbox").click()
    expect(page.locator(".uu-sandbox-screen")).to_be_visible(timeout=STEP_MS)
    bad["sandbox"] = axe_serious(page, ".uu-sandbox-screen")
    assert not any(bad.values()), {k: v for k, v in bad.items() if v}


def test_reduced_motion_keeps_the_captions_and_drops_the_motion(page: Page, voila_url):
    page.emulate_media(reduced_motion="reduce")
    screen = open_game(page, voila_url, (1280, 800))
    page.evaluate(_CAPTIONS_JS)
    page.evaluate("() => { window.uuFlew = 0; new MutationObserver(() => { if (document.querySelector("
                  "'.uu-t-ghost')) window.uuFlew++; }).observe(document.body, {subtree: true, childList: true}); }")
    old = table_version(screen)
    screen.locator(".uu-t [data-legal='true']").first.click()       # the Baby: then the bots choose theirs
    wait_new_table(page, screen, old)
    assert len([c for c in page.evaluate("() => window.uuCaptions") if c["text"]]) >= 2  # captions stay
    assert page.evaluate("() => window.uuFlew") == 0                   # no card flies


def test_a_reload_after_leaving_a_lessons_link_reopens_the_game(page: Page, voila_url):
    """A page opened by a link to a lesson (?lesson=goal) keeps the link while the learner is on that lesson; once
    they leave it for a game, the address drops it, so that a reload reopens the game in progress, not the
    lesson (the link stayed: issue 38)."""
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{voila_url}?lesson=goal", wait_until="commit")
    expect(page.locator(".uu-lesson.uu-lesson-goal .uu-progress")).to_contain_text("Step 1 of", timeout=LOAD_MS)
    assert "lesson=goal" in page.url
    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-play").click()
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    table_move(page, screen)                                   # a game in progress: a Baby chosen
    expect(page).not_to_have_url(re.compile(r"[?&]lesson="), timeout=STEP_MS)
    seats = screen.locator(".uu-t-me [data-zone='stable'][data-card]").all_inner_texts()
    page.reload(wait_until="commit")
    expect(page.locator(".uu-play-screen .uu-t-me [data-zone='stable'][data-card]").first).to_be_visible(timeout=LOAD_MS)
    assert page.locator(".uu-lesson").count() == 0
    assert page.locator(".uu-play-screen .uu-t-me [data-zone='stable'][data-card]").all_inner_texts() == seats


# What the shown card preview covers of what the learner needs (its own card excepted), "" for nothing.
_PREVIEW_COVERS_JS = """() => {
  const pv = [...document.querySelectorAll('.uu-t-preview')].find((e) => { const r = e.getBoundingClientRect(); return r.width && r.height; });
  if (!pv) return 'no preview shown';
  const p = pv.getBoundingClientRect(), card = pv.parentElement, out = [];
  const meet = (r) => r.width && r.height && p.left < r.right - 1 && r.left < p.right - 1 && p.top < r.bottom - 1 && r.top < p.bottom - 1;
  for (const [what, css] of [['the table bar', '.uu-t-top'], ['a prompt', "[data-role='prompt']"],
      ['the caption', '.uu-t-caption'], ['Skip to my move', '.uu-t-skip'], ['a lit element', "[data-legal='true']"]]) {
    const hit = [...document.querySelectorAll(css)].find((e) => e !== card && !card.contains(e) && meet(e.getBoundingClientRect()));
    if (hit) out.push(`${what} (${hit.getAttribute('data-key') || hit.className})`);
  }
  return out.join(', ');
}"""


def hover_covers(page: Page, cards, where: str, limit: int = 8) -> list[str]:
    """Hover each of `cards` (at most `limit`): what its preview covers, for each that covers something."""
    out = []
    for i in range(min(cards.count(), limit)):
        card = cards.nth(i)
        try:
            card.hover(timeout=2_000)
        except Exception:  # redrawn meanwhile (a playback ended): the next one
            continue
        covers = page.evaluate(_PREVIEW_COVERS_JS)
        if covers and covers != "no preview shown":
            out.append(f"{where}, {card.get_attribute('data-key')}: {covers}")
    return out


def test_the_hover_preview_covers_nothing_the_learner_needs(page: Page, voila_url):
    """At 1280x800 a card's preview on hover covers neither the table's bar with its prompt line, the playback's
    caption and "Skip to my move", nor a lit element the learner may choose next (it sat on top of the window,
    over the bar: issue 38)."""
    screen = open_game(page, voila_url, (1280, 800), pace="slow")
    problems = hover_covers(page, screen.locator(".uu-t [data-card][data-legal='true']"), "choosing a Baby")
    old = table_version(screen)
    screen.locator(".uu-t [data-legal='true'][data-zone='nursery']").first.click()
    expect(screen.locator(".uu-t[data-playing='true']")).to_have_count(1, timeout=STEP_MS)  # the others' Babies
    problems += hover_covers(page, screen.locator(".uu-t [data-card]:not([data-card='hidden'])"), "a playback", 4)
    wait_new_table(page, screen, old)
    hand = screen.locator(".uu-t-me [data-zone='hand'][data-legal='true']")
    expect(hand.first).to_be_visible(timeout=STEP_MS)
    key = hand.first.get_attribute("data-key")
    hand.first.click()                                            # a card chosen: its places and targets lit
    pressed = screen.locator(".uu-t [aria-pressed='true']")
    expect(pressed.first).to_be_visible()
    # that card only (with its copies in the hand, if the deal gave two: copies share a key)
    assert {pressed.nth(i).get_attribute("data-key") for i in range(pressed.count())} == {key}
    problems += hover_covers(page, screen.locator(".uu-t [data-card]:not([data-card='hidden'])"), "choosing a place", 12)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screen-hover-preview.png"))
    assert not problems, problems


NINE_CARDS = """\
name: A hand of nine
players: [Ana, Ben]
turn: {player: Ana, phase: action, number: 3}
stables: {Ana: [Baby Unicorn (Red)], Ben: [Baby Unicorn (Blue)]}
hands:
  Ana: [Basic Unicorn (Red), Basic Unicorn (Orange), Basic Unicorn (Yellow), Basic Unicorn (Green),
        Basic Unicorn (Blue), Basic Unicorn (Indigo), Basic Unicorn (Purple), Rhinocorn, Unicorn Poison]
  Ben: [Neigh]
deck: [Narwhal, Basic Unicorn (Red)]
rest: box
"""


def test_on_a_phone_a_long_hand_says_more_cards_lie_to_the_side(page: Page, voila_url):
    """At 390x844 a hand of nine cards shows three or four of them, its row scrolling sideways: the hidden side
    fades, with an arrow (data-more on the row's part), and says so on both sides once scrolled (there was no
    cue: issue 38)."""
    from test_e2e import open_sandbox, paste_and_load

    screen = open_sandbox(page, voila_url, width=390)
    page.set_viewport_size({"width": 390, "height": 844})
    paste_and_load(screen, NINE_CARDS)
    expect(screen.locator(".uu-sb-position")).to_contain_text("A hand of nine", timeout=STEP_MS)
    screen.locator("button.uu-sb-start").click()
    row = screen.locator(".uu-t-me .uu-t-row[data-anchor^='hand:']")
    expect(row.locator("[data-card]")).to_have_count(9, timeout=STEP_MS)
    part = screen.locator(".uu-t-me .uu-t-part:has(> .uu-t-row[data-anchor^='hand:'])")
    expect(part).to_have_attribute("data-more", "right", timeout=STEP_MS)
    arrow = part.evaluate("(e) => getComputedStyle(e, '::after').content")
    assert arrow not in ("none", "normal", ""), arrow
    row.evaluate("(r) => { r.scrollLeft = (r.scrollWidth - r.clientWidth) / 2; }")
    expect(part).to_have_attribute("data-more", "left right")
    row.evaluate("(r) => { r.scrollLeft = r.scrollWidth; }")
    expect(part).to_have_attribute("data-more", "left")
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screen-long-hand-390.png"))


def test_on_a_phone_a_wrong_moves_preview_shows_the_card_it_sent_to_the_discard_pile(page: Page, voila_url):
    """At 390x844 a legal wrong move is previewed on the table: the cards it moved are brought into view in the
    table's scrolling middle (the Unicorn it destroyed, now on the discard pile, was cut off below: issue 38)."""
    from explorer import click_keys, gesture_of

    from uu.words.lesson_refusals import LessonRunner

    runner = LessonRunner(lesson_file("magical-unicorns"))
    wrong = next(m for m in runner.step.mistakes if m.expect == "other" and m.card == "Unicorn Poison")
    keys = gesture_of(runner, runner.mistake_action(wrong))
    page.set_viewport_size({"width": 390, "height": 844})
    open_home(page, voila_url, 390)
    page.set_viewport_size({"width": 390, "height": 844})
    page.locator("button.uu-lesson-magical-unicorns").click()
    sel = ".uu-lesson.uu-lesson-magical-unicorns"
    screen = page.locator(sel)
    expect(screen.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    click_keys(page, sel, keys)
    expect(screen.locator(".uu-t-banner")).to_contain_text("What would happen", timeout=STEP_MS)
    arrived = screen.locator(".uu-t-scroll [data-zone='discard'].uu-t-moved")
    expect(arrived.first).to_be_attached(timeout=STEP_MS)
    problems: list[str] = []
    for _ in range(15):  # once the frame that brings it into view is laid out
        problems = [not_in_view(arrived.nth(i)) for i in range(arrived.count())]
        if "" in problems:
            break
        page.wait_for_timeout(200)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screen-preview-discard-390.png"))
    assert "" in problems, problems


def test_on_a_phone_the_hinted_draw_is_brought_into_view(page: Page, voila_url):
    """At 390x844, in a game kept in the browser (tests/fixtures/draw_hint_game.json: a deal of seed 6 after 25
    of the learner's moves, where the hint's clear best move is DRAW while cards of the hand are lit too), Hint
    lights the deck and brings it into view in the table's middle (it lay below, under the learner's own
    area, while the lit hand was in view: issue 38)."""
    import json
    from pathlib import Path

    saved = (Path(__file__).parent / "fixtures" / "draw_hint_game.json").read_text()
    page.add_init_script(f"try {{ localStorage.setItem('uu-progress', {json.dumps(saved)}); }} catch (e) {{}}")
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(voila_url, wait_until="commit")
    screen = page.locator(".uu-play-screen")
    expect(screen.locator(".uu-t-me [data-zone='hand'][data-legal='true']").first).to_be_visible(timeout=LOAD_MS)
    screen.locator("button.uu-hint-button").click()
    deck = screen.locator(".uu-t [data-zone='deck'][data-hinted='true']")
    expect(deck).to_have_count(1, timeout=STEP_MS)
    problem = "not checked"
    for _ in range(15):  # once the frame that brings it into view is laid out
        problem = not_in_view(deck)
        if not problem:
            break
        page.wait_for_timeout(200)
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "screen-hinted-draw-390.png"))
    assert not problem, problem
