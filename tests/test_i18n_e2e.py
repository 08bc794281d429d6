"""Every screen in French and German, in headless Chromium against one `uu app --class` (issue #27).

With `?lang=fr` and `?lang=de` the test opens the home, a lesson step, a question, a wrong move's preview, the
end card of a lesson, a game with a hint shown, the sandbox and the class view, reads the page's visible text
on each, and fails on any English word of the interface: the forbidden phrases are the English messages of
the catalog (uu/i18n/locale/<lang>/LC_MESSAGES/uu.po) that are short interface labels ("Next", "Try again",
"Hint", "Play a game", ...), minus those that read the same in that language ("Action" in French) and
proper names. A lesson whose translation (lessons/<lang>/<file>) is not there yet keeps its own English
words (the tutor falls back to English for it): those parts of the page are left out of the check, and the
test says so. One app start serves both languages. On a 390x844 phone, a lesson walked in each language keeps
the table whole beside its taller bottom sheet (tests/test_screen_e2e.py `check_table_whole`).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_e2e import (
    HOME_READY,
    LOAD_MS,
    STEP_MS,
    click_plan,
    key_selector,
    lesson_file,
    table_pace,
    table_version,
)
from test_screen_e2e import (
    FEEDBACK_READABLE_JS,
    check_one_in_view,
    check_prompt,
    check_table_whole,
    page_not_scrolled,
)

from uu.i18n import LANGUAGE_NAMES, _, language
from uu.i18n.catalogs import translations_from_po
from uu.server.appserver import AppServer
from uu.tutor.translation import translation_path

pytest.importorskip("playwright", reason="playwright (the test extra) is not installed")
from playwright.sync_api import Browser, Page, expect  # noqa: E402

pytestmark = pytest.mark.browser

TOKEN = "i18n-class-token-for-tests-0123"
LOCALE = Path(__file__).resolve().parents[1] / "uu" / "i18n" / "locale"
# a lesson with a page, a question and a step that lists a legal wrong move (its preview is shown)
LESSON = "deck"
# the same on a phone, the lesson of docs/screenshots/lesson-phone-fr.png (a question, a wrong move, moves)
PHONE_LESSON = "turn"
# the parts of a lesson screen that are the lesson's own words (its file, or its translation)
LESSON_WORDS = (".uu-narration", ".uu-task-box", ".uu-lesson-title", ".uu-choices", ".uu-feedback",
                ".uu-hint-text", ".uu-recap", ".uu-done-head h3 + p + p")
# the words other parts of the project translate, each with how to tell they are there yet
CARD_WORDS = (".uu-card-finder select", ".uu-card-found", ".uu-sb-card select", ".uu-card-name", ".uu-card-text", ".uu-t-name", ".uu-t-text", ".uu-t-ptext",
              ".uu-end-cards", ".uu-t-link b", ".uu-t-link-text")
ENGINE_WORDS = (".uu-t-log", ".uu-t-status", ".uu-t-caption", ".uu-t-option", ".uu-t-moves", ".uu-hint-box",
                ".uu-end-why", ".uu-sb-prompt", ".uu-sb-timeline", ".uu-sb-position", ".uu-t-whynot", ".uu-rules")
HOME_LESSON_WORDS = (".uu-lesson-row", ".uu-continue")
NOT_WORDS = {"OK", "Quiz", "Bots", "Phase", "Position", "Zone", "Name", "Options"}


def pending(lang: str) -> tuple[str, ...]:
    """The parts of the pages whose words would come from a missing translation (the lesson translations, the
    cards' table, the engine's and the words layer's messages): none may be missing."""
    from babel.messages.pofile import read_po

    out: list[str] = []
    root = LOCALE.parents[2]
    english = sorted(p.name for p in (root / "lessons").glob("*.yaml"))
    if any(not (root / "lessons" / lang / name).exists() for name in english):  # some lessons not translated yet
        out += [*LESSON_WORDS, *HOME_LESSON_WORDS]
    if not (root / "uu" / "cards" / "i18n" / f"{lang}.yaml").exists():
        out += CARD_WORDS
    with (LOCALE / lang / "LC_MESSAGES" / "uu.po").open("rb") as f:
        places = {loc[0].split("/")[1] for m in read_po(f) for loc in m.locations if "/" in loc[0]}
    if not {"engine", "words"} <= places:
        out += ENGINE_WORDS
    # every part is translated now: a missing one fails the test instead of leaving words out of the check
    assert not out, f"{lang}: these parts have no translation: {', '.join(out)}"
    return tuple(out)


def forbidden(lang: str) -> list[str]:
    """The English interface labels of the catalog that read differently in `lang`: messages of at most four
    words, starting with a capital, without a placeholder."""
    catalog = translations_from_po(LOCALE / lang / "LC_MESSAGES" / "uu.po")
    out = []
    for msgid, text in getattr(catalog, "_catalog", {}).items():
        if not isinstance(msgid, str) or not msgid or "{" in msgid or msgid in NOT_WORDS:
            continue
        words = re.sub(r"[.:!?…]+$", "", msgid).strip()
        if not words[:1].isupper() or len(words.split()) > 4 or text.strip() == msgid.strip():
            continue
        out.append(words)
    return sorted(set(out), key=len, reverse=True)


def english_in(text: str, lang: str) -> list[str]:
    return [w for w in forbidden(lang) if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]


def visible_text(page: Page, leave_out: tuple[str, ...] = ()) -> str:
    """The page's visible text, without the elements matching `leave_out` (hidden for the reading)."""
    return str(page.evaluate(
        """(sel) => {
          const style = document.createElement('style');
          style.textContent = '[data-i18n-out]{display:none!important}';
          document.head.append(style);
          const out = sel ? [...document.querySelectorAll(sel)] : [];
          for (const e of out) e.setAttribute('data-i18n-out', '');
          const text = document.body.innerText;
          for (const e of out) e.removeAttribute('data-i18n-out');
          style.remove();
          return text;
        }""",
        ", ".join(leave_out)))


def kept_names(lang: str) -> list[str]:
    """Card names that stay English in `lang` (the card table gives no printed name for them): proper names,
    not interface words."""
    from uu.cards import catalog
    from uu.cards.localized import card_name

    return sorted((c.name for c in catalog() if card_name(c.name, lang) == c.name), key=len, reverse=True)


def check(page: Page, lang: str, where: str, leave_out: tuple[str, ...] = ()) -> None:
    text = visible_text(page, leave_out).replace("\xa0", " ")
    for name in kept_names(lang):
        text = text.replace(name, " ")
    assert "Traceback" not in text
    bad = english_in(text, lang)
    if bad:  # where they are, for the failure message
        bad = [f"{w!r} in …{text[max(0, i - 60):i + 60]!r}…" for w in bad
               for i in [re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text).start()]]  # type: ignore[union-attr]
    assert not bad, f"{where} ({lang}): English words of the interface on the page: {bad}"


def step_words(lang: str, after: str) -> str:
    """The progress line the plan expects ("Step 3 of 7", "lesson complete"), in `lang`."""
    with language(lang):
        m = re.match(r"Step (\d+) of (\d+)", after)
        if m:
            return _("Step {step} of {steps}").format(step=m.group(1), steps=m.group(2))
        return _("Step {step} of {steps} · lesson complete").split("·")[-1].strip()


def step_word(lang: str) -> str:
    """"Step" in `lang` (the start of the progress line)."""
    with language(lang):
        return _("Step {step} of {steps}").split("{step}")[0].strip()


def click_step(screen, path: Path, what: str, label: str | list[str]) -> None:
    """Make one entry of the lesson's click plan (tests/test_e2e.py `click_plan`) in any language: a move's
    gesture on the table (then the next table), Next, or the right option of a question."""
    if what in ("action", "wrong"):
        assert isinstance(label, list)
        old = table_version(screen)
        for key in label:
            target = screen.locator(key_selector(key) + ":visible").first
            expect(target).to_be_visible(timeout=STEP_MS)
            target.click()
        screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=STEP_MS)
    elif what == "next":
        screen.locator("button.uu-next").click()
    else:  # the right option of a question: the option's words are the lesson's, found by their position
        from uu.tutor.lesson_model import load_lesson

        asked = [st.question.options for st in load_lesson(path).script
                 if st.question is not None and str(label) in st.question.options]
        assert asked, f"no option {label!r} in {path.name}"
        # the question's buttons arrive in one widget message, but the list is read only once they all show
        # (reading it while the step before still leaves the screen found none: CI, fr on a phone)
        visible = screen.locator("button.uu-choice:visible")
        expect(visible.first).to_be_visible(timeout=STEP_MS)
        for _try in range(50):
            options = visible.all()
            if len(options) in {len(o) for o in asked}:
                break
            screen.page.wait_for_timeout(100)
        for b in options:
            if b.inner_text().strip() == str(label).strip():
                b.click()
                return
        # translated options: click the one the plan names by its place in the English list
        question = next(o for o in asked if len(o) == len(options))
        options[question.index(str(label))].click()


@pytest.fixture(scope="module")
def class_app(tmp_path_factory):
    cwd = tmp_path_factory.mktemp("i18n")
    args = ("--class", "--class-db", str(cwd / "class.sqlite3"), "--class-token", TOKEN, "--preheat", "0")
    with AppServer(cwd, max_kernels=12, console_script=True, extra_args=args) as server:
        server.wait_ready()
        yield server.url


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_every_screen_in_the_language(browser: Browser, class_app: str, lang: str) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    url = class_app
    # home: the link's ?lang= wins over the browser's English
    page.goto(f"{url}?lang={lang}", wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=LOAD_MS)
    with language(lang):
        lessons_word = _("Lessons")
    expect(page.locator(".uu-home-screen")).to_contain_text(lessons_word, timeout=STEP_MS)
    # ipywidgets' select holds the option's label: each language named in itself
    expect(page.locator(".uu-lang-picker select")).to_have_value(LANGUAGE_NAMES[lang])
    later = pending(lang)
    check(page, lang, "home", later)

    # a lesson: a step, a question, a wrong move's preview, the end card
    path = lesson_file(LESSON)
    assert translation_path(path, lang).exists(), f"lessons/{lang}/{path.name} is missing"
    leave = later
    page.goto(f"{url}?lang={lang}&lesson={LESSON}", wait_until="commit")
    screen = page.locator(f".uu-lesson.uu-lesson-{LESSON}")
    progress = screen.locator(".uu-progress")
    expect(screen.locator(".uu-t")).to_be_visible(timeout=LOAD_MS)
    expect(progress).to_contain_text(f"{step_word(lang)} 1", timeout=STEP_MS)
    # the page and the table say which language their words are in (screen readers, hyphenation)
    assert page.evaluate("() => document.documentElement.lang") == lang
    expect(screen.locator(".uu-t")).to_have_attribute("lang", lang)
    check(page, lang, "a lesson step", leave)
    seen = set()
    for what, label, after in click_plan(path):
        if what == "choice" and "question" not in seen:
            seen.add("question")
            check(page, lang, "a question", leave)
        click_step(screen, path, what, label)
        if what == "wrong":
            expect(screen.locator(".uu-t-banner")).to_be_visible(timeout=STEP_MS)
            check(page, lang, "a wrong move's preview", leave)
            old = table_version(screen)
            screen.locator(".uu-t-banner button").click()
            screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=STEP_MS)
            seen.add("wrong")
        else:
            expect(progress).to_contain_text(step_words(lang, after), timeout=STEP_MS)
    expect(screen.locator(".uu-done")).to_be_visible(timeout=STEP_MS)
    check(page, lang, "the end card", leave)
    assert {"question", "wrong"} <= seen

    # a game with a hint shown
    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-play").click()
    play = page.locator(".uu-play-screen")
    expect(play.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    play.locator("button.uu-hint-button").click()
    # a new deal each game: with a single legal move the hint says there is nothing to weigh instead
    shown = play.locator(".uu-hint-box .uu-hint, .uu-feedback .uu-fb").first
    expect(shown).to_be_visible(timeout=STEP_MS)
    check(page, lang, "a game with a hint", later)
    if play.locator(".uu-hint-box .uu-hint").count():
        # the hint's badge on the table is drawn by table.css from the table's words (a CSS variable)
        hinted = play.locator(".uu-t [data-hinted='true']").first
        expect(hinted).to_be_visible(timeout=STEP_MS)
        badge = hinted.evaluate("(e) => getComputedStyle(e, '::before').content")
        with language(lang):
            assert _("Hint") in badge, badge

    # the sandbox
    page.locator("button.uu-nav-home").click()
    page.locator("button.uu-open-sandbox").click()
    expect(page.locator(".uu-sandbox-screen")).to_be_visible(timeout=STEP_MS)
    check(page, lang, "the sandbox", later)

    # the class view, in the teacher's language (the link's ?lang=; their browser says English)
    page.goto(f"{url}uu/class?token={TOKEN}&lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    check(page, lang, "the class view", later)
    page.context.close()


def test_the_choice_is_kept_and_a_change_keeps_the_place(browser: Browser, class_app: str) -> None:
    """The picker changes the words where the learner is; the choice wins over the browser's language next time."""
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="de-DE")
    page = context.new_page()
    page.goto(f"{class_app}?lesson=setup", wait_until="commit")
    screen = page.locator(".uu-lesson.uu-lesson-setup")
    expect(screen.locator(".uu-progress")).to_contain_text("Schritt 1", timeout=LOAD_MS)  # the browser's German
    screen.locator("button.uu-next").click() if screen.locator("button.uu-next:visible").count() else None
    before = screen.locator(".uu-progress").inner_text()
    step = re.search(r"\d+", before)
    page.locator(".uu-lang-picker select").select_option(label=LANGUAGE_NAMES["fr"])
    expect(page.locator(".uu-lesson.uu-lesson-setup .uu-progress")).to_contain_text(
        f"Étape {step.group(0) if step else 1}", timeout=STEP_MS)
    page.wait_for_timeout(500)  # the choice is written to the browser's storage
    page.goto(class_app, wait_until="commit")  # a reload: the saved French wins over the browser's German
    expect(page.locator(".uu-lang-picker select")).to_have_value(LANGUAGE_NAMES["fr"], timeout=LOAD_MS)
    expect(page.locator(".uu-lesson.uu-lesson-setup .uu-progress")).to_contain_text("Étape", timeout=STEP_MS)
    context.close()


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_a_lesson_on_a_phone_leaves_the_table_whole(browser: Browser, class_app: str, lang: str) -> None:
    """On a 390x844 phone in French and German, whose longer words make the lesson's bottom sheet taller, at
    every step of a lesson (pages, a question, a wrong move's preview, moves): nothing of the table runs under
    the sheet, the opponents' rows are in view and covered by nothing, and the prompt and something to choose
    are in the window with no page scrolling (tests/test_screen_e2e.py checks the same in English)."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US").new_page()
    path = lesson_file(PHONE_LESSON)
    page.goto(f"{class_app}?lang={lang}&lesson={PHONE_LESSON}", wait_until="commit")
    screen = page.locator(f".uu-lesson.uu-lesson-{PHONE_LESSON}")
    progress = screen.locator(".uu-progress")
    expect(screen.locator(".uu-t")).to_be_visible(timeout=LOAD_MS)
    expect(progress).to_contain_text(f"{step_word(lang)} 1", timeout=STEP_MS)
    for what, label, after in click_plan(path):
        where = f"{PHONE_LESSON} in {lang} at 390x844, before {after}"
        check_prompt(page, screen, where)
        check_table_whole(page, where)
        lit = {"action": ".uu-t [data-legal='true']", "wrong": ".uu-t [data-legal='true']",
               "choice": "[data-role='choice']:visible", "next": "[data-role='next']:visible"}[what]
        check_one_in_view(screen, lit, where)
        click_step(screen, path, what, label)
        if what == "wrong":  # the preview on the table, with its banner: the table still whole
            expect(screen.locator(".uu-t-banner")).to_be_visible(timeout=STEP_MS)
            check_table_whole(page, f"{where}, a wrong move's preview")
            old = table_version(screen)
            screen.locator(".uu-t-banner button").click()
            screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=STEP_MS)
        else:
            expect(progress).to_contain_text(step_words(lang, after), timeout=STEP_MS)
    expect(screen.locator(".uu-done")).to_be_visible(timeout=STEP_MS)
    page.context.close()


# ---- the sandbox's options and errors, the game's end, and text wider than its box (issue 41) -------------------

SHOTS = Path("/tmp/shots-lang")
# English words that no French or German sentence of the interface holds (card names kept in English are taken
# out first): what was left in English before issue 41 ("Bramble wins", "What-if position", pydantic's "List
# should have at least 2 items after validation", "shuffled into the deck")
SENTENCE_ENGLISH = ("wins", "What-if", "should", "after validation", "not valid", "shuffled", "out of the game",
                    "declare-first", "neigh-first", "deck_out", "hand_limit", "baby_moves", "open_hand_pull",
                    "win_threshold", "nursery-only", "unicorn-effects", "reshuffle")
WON = ("name: x\nplayers: [Ana, Ben]\nstables:\n  Ana: [Baby Unicorn (Red), Basic Unicorn (Red), Basic Unicorn "
       "(Orange), Basic Unicorn (Yellow), Basic Unicorn (Green), Basic Unicorn (Blue), Basic Unicorn (Indigo)]\n"
       "  Ben: [Baby Unicorn (Pink)]\nturn: {player: Ana, phase: action}\n")
NOT_YAML = "name: x\nplayers: [Ana, Ben\n"
TOO_FEW = "name: x\nplayers: [Ana]\n"

# Text wider than its box: an element that cuts its text with an ellipsis (ipywidgets' description labels,
# checkbox labels and buttons do) and whose text is wider than it; an element with text of its own whose text
# runs past its box where the box clips it (overflow hidden or clip, a button), or past the window; a select
# whose chosen label is wider than the select. An element that cuts its own text is checked wherever it is:
# every ipywidgets box scrolls (overflow auto), so leaving out all that is inside a scrolling box hid the cut
# labels of the sandbox's options. Only text running past the window is left alone inside a box that scrolls.
OVERFLOW_JS = """() => {
  const out = [];
  const canvas = document.createElement('canvas').getContext('2d');
  const shown = (e) => { const r = e.getBoundingClientRect(), s = getComputedStyle(e);
    return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
  const scrolls = (e) => { for (let a = e; a; a = a.parentElement) {
    const s = getComputedStyle(a); if (['auto', 'scroll'].includes(s.overflowX)) return true; } return false; };
  for (const e of document.querySelectorAll('body *')) {
    if (!shown(e)) continue;
    const s = getComputedStyle(e), box = e.getBoundingClientRect();
    const say = (why) => out.push(`${why}: <${e.tagName.toLowerCase()} class="${e.className}">`
      + ` ${(e.innerText || e.value || '').trim().slice(0, 60)}`);
    if (e.tagName === 'SELECT') {
      const label = e.selectedOptions.length ? e.selectedOptions[0].textContent : '';
      canvas.font = s.font;
      if (label && canvas.measureText(label).width > e.clientWidth - 24) say('select label wider than the select');
      continue;
    }
    if (s.textOverflow === 'ellipsis' && (e.innerText || '').trim() && e.scrollWidth > e.clientWidth + 1) {
      say('text cut off with an ellipsis'); continue;
    }
    const own = [...e.childNodes].filter((n) => n.nodeType === 3 && n.textContent.trim());
    if (!own.length) continue;
    const clips = ['hidden', 'clip'].includes(s.overflowX) || e.tagName === 'BUTTON';
    if (clips && e.scrollWidth > e.clientWidth + 1) { say('text cut off'); continue; }
    const inScroller = scrolls(e);
    for (const n of own) {
      const range = document.createRange(); range.selectNodeContents(n);
      const r = range.getBoundingClientRect();
      if (r.width === 0) continue;
      if (!inScroller && r.right > window.innerWidth + 1) { say('text past the window'); break; }
      if (clips && (r.right > box.right + 1 || r.left < box.left - 1)) { say('text past its box'); break; }
    }
  }
  return out;
}"""


def overflowing(page: Page) -> list[str]:
    return list(page.evaluate(OVERFLOW_JS))


def check_layout(page: Page, where: str) -> None:
    bad = overflowing(page)
    assert not bad, f"{where}: text wider than its box: {bad[:8]}"


def shot(page: Page, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)


def check_sentences(page: Page, lang: str, where: str, root: str = "body") -> None:
    text = str(page.locator(root).first.evaluate(
        "(e) => e.innerText + ' ' + [...e.querySelectorAll('select option')].map((o) => o.textContent).join(' | ')"))
    for name in kept_names(lang):
        text = text.replace(name, " ")
    found = [w for w in SENTENCE_ENGLISH if re.search(rf"(?<![\w-]){re.escape(w)}(?![\w-])", text)]
    assert not found, f"{where} ({lang}): English on the page: {found} in {text[:300]!r}"


def paste_and_load(page: Page, text: str) -> None:
    page.locator(".uu-sb-yaml textarea").fill(text)
    page.locator("button.uu-sb-load").click()


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_sandbox_its_errors_and_the_games_end_in_the_language(browser: Browser, class_app: str,
                                                                  lang: str) -> None:
    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    page.goto(f"{class_app}?lang={lang}", wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=LOAD_MS)
    page.locator("button.uu-open-sandbox").click()
    sandbox = page.locator(".uu-sandbox-screen")
    expect(sandbox).to_be_visible(timeout=STEP_MS)
    check(page, lang, "the sandbox")
    check_sentences(page, lang, "the sandbox's options")
    # errors of pasted text: not YAML, and YAML that does not validate
    message = page.locator(".uu-msg-load")
    for bad, what in ((NOT_YAML, "not YAML"), (TOO_FEW, "too few players")):
        paste_and_load(page, bad)
        expect(message).not_to_be_empty(timeout=STEP_MS)
        expect(message).to_contain_text("YAML" if what == "not YAML" else "2", timeout=STEP_MS)
        check_sentences(page, lang, f"the sandbox's message for {what}", ".uu-msg-load")
        assert "Traceback" not in message.inner_text()
    # the game's end: a position already won ends as soon as it is played from
    paste_and_load(page, WON)
    expect(message).to_be_empty(timeout=STEP_MS)
    page.locator("button.uu-sb-start").click()
    result = page.locator(".uu-sandbox-screen .uu-result").first
    expect(result).to_be_visible(timeout=STEP_MS)
    expect(result).to_contain_text("Ana", timeout=STEP_MS)
    check_sentences(page, lang, "the game's end in the sandbox", ".uu-sandbox-screen .uu-result")
    page.context.close()


@pytest.mark.parametrize("size", [(1280, 800), (390, 844)], ids=["desktop", "phone"])
@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_no_text_is_wider_than_its_box(browser: Browser, class_app: str, lang: str, size: tuple[int, int]) -> None:
    """The home, every step of a lesson (its feedback after a wrong move included, its rule boxes open), the
    sandbox with its options and a message, and the sandbox's game over, in each language at both sizes; a
    screenshot of each is saved under /tmp/shots-lang for a look."""
    w, h = size
    tag = f"{lang}-{w}x{h}"
    page = browser.new_context(viewport={"width": w, "height": h}, locale="en-US").new_page()
    page.goto(f"{class_app}?lang={lang}", wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=LOAD_MS)
    check_layout(page, f"the home ({tag})")
    shot(page, f"home-{tag}")

    path = lesson_file(PHONE_LESSON)
    page.goto(f"{class_app}?lang={lang}&lesson={PHONE_LESSON}", wait_until="commit")
    screen = page.locator(f".uu-lesson.uu-lesson-{PHONE_LESSON}")
    expect(screen.locator(".uu-t")).to_be_visible(timeout=LOAD_MS)
    progress = screen.locator(".uu-progress")
    for i, (what, label, after) in enumerate(click_plan(path)):
        page.evaluate("() => document.querySelectorAll('details').forEach((d) => { d.open = true; })")
        check_layout(page, f"{PHONE_LESSON} ({tag}) before {after}")
        click_step(screen, path, what, label)
        if what == "wrong":
            expect(screen.locator(".uu-t-banner")).to_be_visible(timeout=STEP_MS)
            expect(screen.locator(".uu-feedback").first).not_to_be_empty(timeout=STEP_MS)
            check_layout(page, f"{PHONE_LESSON} ({tag}), a wrong move's feedback")
            shot(page, f"lesson-feedback-{tag}")
            old = table_version(screen)
            screen.locator(".uu-t-banner button").click()
            screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=STEP_MS)
        else:
            expect(progress).to_contain_text(step_words(lang, after), timeout=STEP_MS)
        if i == 0:
            shot(page, f"lesson-{tag}")
    expect(screen.locator(".uu-done")).to_be_visible(timeout=STEP_MS)
    check_layout(page, f"{PHONE_LESSON} ({tag}), the end card")

    page.locator("button.uu-nav-home").click()
    # with progress kept, the home shows its "Forget my progress" button too
    expect(page.locator("button.uu-forget")).to_be_visible(timeout=STEP_MS)
    check_layout(page, f"the home with progress ({tag})")
    shot(page, f"home-progress-{tag}")
    page.locator("button.uu-open-sandbox").click()
    expect(page.locator(".uu-sandbox-screen")).to_be_visible(timeout=STEP_MS)
    paste_and_load(page, TOO_FEW)
    expect(page.locator(".uu-msg-load")).not_to_be_empty(timeout=STEP_MS)
    check_layout(page, f"the sandbox with a message ({tag})")
    shot(page, f"sandbox-{tag}")
    paste_and_load(page, WON)
    # the load answered first (its message cleared): a click on "Play from here" before it went to the screen
    # the load then replaced, and the game never started (CI-like load, en and de on a phone)
    expect(page.locator(".uu-msg-load")).to_be_empty(timeout=STEP_MS)
    page.locator("button.uu-sb-start").click()
    expect(page.locator(".uu-sandbox-screen .uu-result").first).to_be_visible(timeout=STEP_MS)
    check_layout(page, f"the sandbox's game over ({tag})")
    shot(page, f"game-over-{tag}")
    page.context.close()


# ---- the lesson's feedback on a phone: the whole sentence readable, the table whole (issue 41) ----------------



@pytest.mark.parametrize("lang", ["en", "fr", "de"])
def test_a_lessons_feedback_on_a_phone_is_read_whole(browser: Browser, class_app: str, lang: str) -> None:
    """On a 390x844 phone, after every answer of a lesson (a question, a wrong move and its preview, moves), the
    feedback's whole sentence can be read in the bottom sheet, by scrolling the sheet if need be (never cut off
    in a box of its own, never the page scrolled), and the table is still whole beside the sheet."""
    page = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-US").new_page()
    path = lesson_file(PHONE_LESSON)
    page.goto(f"{class_app}?lang={lang}&lesson={PHONE_LESSON}", wait_until="commit")
    screen = page.locator(f".uu-lesson.uu-lesson-{PHONE_LESSON}")
    progress = screen.locator(".uu-progress")
    expect(screen.locator(".uu-t")).to_be_visible(timeout=LOAD_MS)
    expect(progress).to_contain_text(f"{step_word(lang)} 1", timeout=STEP_MS)
    read = 0
    for what, label, after in click_plan(path):
        lit = {"action": ".uu-t [data-legal='true']", "wrong": ".uu-t [data-legal='true']",
               "choice": "[data-role='choice']:visible", "next": "[data-role='next']:visible"}[what]
        check_one_in_view(screen, lit, f"{PHONE_LESSON} in {lang}, before {what} {label}")  # the step is drawn
        click_step(screen, path, what, label)
        where = f"{PHONE_LESSON} in {lang} at 390x844, after {what} {label}"
        if what == "wrong":
            expect(screen.locator(".uu-t-banner")).to_be_visible(timeout=STEP_MS)
        else:
            expect(progress).to_contain_text(step_words(lang, after), timeout=STEP_MS)
        fb = screen.locator(".uu-feedback .uu-fb:visible")
        if fb.count():
            page.wait_for_timeout(300)  # the sheet settles to its new height
            problem = fb.first.evaluate(FEEDBACK_READABLE_JS)
            if problem:
                SHOTS.mkdir(exist_ok=True)
                page.screenshot(path=str(SHOTS / f"feedback-cut-{lang}.png"))
            assert not problem, f"{where}: the feedback cannot be read whole: {problem}"
            page_not_scrolled(page)
            check_table_whole(page, where)
            read += 1
        if what == "wrong":
            old = table_version(screen)
            screen.locator(".uu-t-banner button").click()
            screen.locator(f".uu-t:not([data-version='{old}'])").wait_for(timeout=STEP_MS)
    assert read >= 3, f"{PHONE_LESSON}: only {read} answers had feedback to read"
    page.context.close()



# ---- the game's review and the class view (issue 41) -----------------------------------------------------------

REVIEW_MS = 120_000  # the review grades every decision of the game (a few seconds; slow on a busy machine)


@pytest.mark.parametrize("lang", ["fr", "de"])
def test_the_review_of_a_game_and_the_class_view_in_the_language(browser: Browser, class_app: str,
                                                                 lang: str) -> None:
    """A two-player game played to its end, then "Review my game" (its chart, its turning points, its
    decisions), then the teacher's class view (a game alone puts no learner in it: its headings, counts and
    empty lists): no English word of the interface, no English sentence, no text wider than its box, at 1280x800
    and 390x844 (screenshots under /tmp/shots-lang)."""
    from test_e2e import lit_or_over, table_move, wait_new_table

    page = browser.new_context(viewport={"width": 1280, "height": 800}, locale="en-US").new_page()
    table_pace(page, "off")  # the words are checked at the game's end: its moves drawn at once
    page.goto(f"{class_app}?lang={lang}", wait_until="commit")
    expect(page.locator(HOME_READY).first).to_be_visible(timeout=LOAD_MS)
    page.locator("button.uu-play").click()
    play = page.locator(".uu-play-screen")
    expect(play.locator(".uu-t [data-legal='true']").first).to_be_visible(timeout=STEP_MS)
    play.locator(".uu-players select").select_option("2")
    old = table_version(play)
    play.locator("button.uu-new-game").click()
    wait_new_table(page, play, old)
    for _move in range(400):
        if lit_or_over(page, play):
            break
        table_move(page, play)
    expect(play.locator(".uu-result .uu-banner")).to_be_visible(timeout=STEP_MS)
    check(page, lang, "the game's end")
    check_sentences(page, lang, "the game's end")
    play.locator("button.uu-review-game").click()
    review = page.locator(".uu-review-screen")
    expect(review.locator("svg.uu-review-chart")).to_be_visible(timeout=REVIEW_MS)
    for w, h in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        check(page, lang, f"the review at {w}x{h}")
        check_sentences(page, lang, f"the review at {w}x{h}")
        check_layout(page, f"the review ({lang}, {w}x{h})")
        shot(page, f"review-{lang}-{w}x{h}")
    chart = str(review.locator("svg.uu-review-chart").get_attribute("aria-label") or "")
    assert chart and not english_in(chart, lang), f"the chart's label ({lang}): {chart!r}"

    # the class view: the teacher's link says the language
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{class_app}uu/class?token={TOKEN}&lang={lang}")
    expect(page.locator("html")).to_have_attribute("lang", lang)
    for w, h in ((1280, 800), (390, 844)):
        page.set_viewport_size({"width": w, "height": h})
        page.wait_for_timeout(300)
        check(page, lang, f"the class view at {w}x{h}")
        check_sentences(page, lang, f"the class view at {w}x{h}")
        check_layout(page, f"the class view ({lang}, {w}x{h})")
        shot(page, f"class-{lang}-{w}x{h}")
    page.context.close()
