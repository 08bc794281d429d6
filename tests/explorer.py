"""The screen explorer (issue 38): no learner is ever stuck, whatever they click.

It drives `uu app` in Chromium through the page's contract only (docs/architecture.md: `data-role`,
`data-legal`, `data-key`, `data-waiting`, `data-version`), and after every action asks the screen one
question: does it offer something to do, with the prompt in view? Something to do is a lit card or place, a
choice, Next / Next lesson, or the preview's Try again (on the last lesson's end card, which has no Next
lesson: Restart), each inside the window; the prompt (`data-role="prompt"`)
must be inside the window and every box that clips it; the page must not have scrolled, show no error box or
traceback, and never rest on the table's "Sent. Waiting" (`data-waiting`) with nothing lit. A screen that does
not get there within `WAIT_MS` is a stuck state: its description and a screenshot go in the walk's figures.
How long each answer took is recorded (`Walk.slow`: answers after `QUICK_MS`), never failed on: a hang never
ends, a busy machine only makes it slow.

Lessons: the walk follows each lesson on a `LessonRunner` of its own (the same file, the same seeded bots, so
it knows every gesture the page will offer) and at each step, before the right answer: every scripted wrong
move (`mistakes:`; a legal one is previewed, then Try again; one the engine refuses is a click on its first,
unlit, element), on a goal step one legal move that is not the solution, a wrong answer to each question, one
click on an element that is not lit, Back once per lesson (then on again), and Restart on the end card.
`lesson_steps="goals"` makes the tries on goal steps only (the others get the right answer alone).

Games: from the home's Play, `players` seats at a bot level, the learner's moves chosen at random (seeded)
among the lit elements, with a click on an unlit element now and then and a reload every `reload_every`
moves: after the reload the same game must be back (the same cards in the same places, the learner in the
same seat).

    walk = Walk("1280x800")
    walk_lessons(page, url, lesson_paths, walk)          # a page of its own per size (a browser context)
    walk_game(page, url, players=3, level="easy", walk=walk, moves=40, seed=1)
    walk.summary()
"""

from __future__ import annotations

import json
import random
import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from playwright.sync_api import Page

from uu.bots import HeuristicBot
from uu.table.seat_view import gesture, legal_actions
from uu.words.lesson_refusals import LessonRunner

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "explorer"
HOME_READY = ".uu-home-screen button.uu-open-lesson:not([disabled])"
LEVELS = ["easy", "normal", "hard"]  # the play screen's Bots choices, in order
LOAD_MS = 90_000
WAIT_MS = 20_000   # a screen that offers nothing after this long is stuck
QUICK_MS = 2_000   # the figure reported: answers that took longer than this
SETTLE_MS = 3_000  # a button's effect is awaited this long (its answer changes the screen's signature)

# The screen's state, through the contract: what it offers, whether the prompt is in view, why not.
_STATE_JS = """
(sel) => {
  const screen = document.querySelector(sel);
  if (!screen) return {problem: `no screen ${sel}`, offer: '', sig: ''};
  const inView = (e) => {
    const r = e.getBoundingClientRect();
    if (r.width === 0 || r.height === 0) return 'not shown';
    const inside = (b) => r.top >= b.top - 1 && r.left >= b.left - 1 && r.bottom <= b.bottom + 1 && r.right <= b.right + 1;
    if (!inside({top: 0, left: 0, bottom: innerHeight, right: innerWidth})) return 'outside the window';
    for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) {
      const s = getComputedStyle(a);
      if ([s.overflowX, s.overflowY].some((o) => o !== 'visible') && !inside(a.getBoundingClientRect()))
        return `clipped by ${a.className}`;
      if (s.position === 'fixed') break;
    }
    return '';
  };
  const shown = (e) => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length) &&
    getComputedStyle(e).visibility !== 'hidden';
  const table = screen.querySelector('.uu-t');
  const offers = [['a lit card or place', ".uu-t [data-legal='true']"], ['a choice', "[data-role='choice']"],
                  ['Next', "[data-role='next']"], ['Try again', '.uu-t-banner button'],
                  // the others' moves played out one by one (a 5-player game's round takes longer than WAIT_MS
                  // at the Normal pace): watching them, or skipping to one's own move, is what is offered
                  ['Skip to my move', '.uu-t-caption .uu-t-skip']];
  let offer = '';
  // the last lesson's end card has no Next lesson: its Restart (and the page's Home) go on from there
  if (screen.querySelector('.uu-done')) offers.push(['Restart on the end card', 'button.uu-restart']);
  for (const [name, css] of offers) {
    if ([...screen.querySelectorAll(css)].some((e) => shown(e) && !e.disabled && !inView(e))) { offer = name; break; }
  }
  const prompts = [...screen.querySelectorAll("[data-role='prompt']")].filter(shown);
  const prompt = prompts.length ? (prompts.map(inView).find((p) => p) || '') : 'no prompt';
  const waiting = !!table && table.hasAttribute('data-waiting');
  const lit = offer === 'a lit card or place';
  const problems = [];
  if (!offer) problems.push('nothing to do is offered');
  if (prompt) problems.push(`the prompt: ${prompt}`);
  if (waiting && !lit && offer !== 'Skip to my move') problems.push('the table waits with nothing lit');
  if (window.scrollY || document.scrollingElement.scrollTop) problems.push('the page scrolled');
  if (document.querySelector('.uu-error-box')) problems.push('an error box: ' + document.querySelector('.uu-error-box').textContent.slice(0, 120));
  if (document.body.innerText.includes('Traceback')) problems.push('a traceback');
  const fb = screen.querySelector("[data-role='feedback']");
  const why = screen.querySelector('.uu-t-whynot');
  const progress = screen.querySelector('.uu-progress');
  const sig = [table ? table.getAttribute('data-version') : '', fb ? fb.innerHTML.length + fb.textContent : '',
               why && !why.hidden ? why.textContent : '', progress ? progress.textContent : '',
               screen.querySelector('.uu-t-banner') ? 'banner' : '', waiting ? 'waiting' : '',
               table ? table.querySelectorAll("[aria-pressed='true']").length : 0].join('|');
  return {problem: problems.join('; '), offer, sig, waiting};
}
"""


@dataclass
class Walk:
    """The figures of one walk (one window size)."""

    size: str
    actions: int = 0      # actions tried
    states: int = 0       # screens checked (one after every action, and each lesson's or game's first)
    stuck: list[str] = field(default_factory=list)
    slow: int = 0         # answered, but after QUICK_MS
    worst_ms: float = 0.0
    notes: list[str] = field(default_factory=list)  # what could not be tried (not a stuck state)

    def summary(self) -> dict[str, Any]:
        return {"size": self.size, "actions": self.actions, "states": self.states, "stuck": len(self.stuck),
                "slow_over_2s": self.slow, "worst_ms": round(self.worst_ms), "stuck_states": self.stuck[:20],
                "notes": self.notes[:20]}


def screen_state(page: Page, sel: str) -> dict[str, Any]:
    try:
        return page.evaluate(_STATE_JS, sel)
    except Exception as e:  # the page was navigating or the element replaced: asked again
        return {"problem": f"unreadable: {e}", "offer": "", "sig": "", "waiting": False}


def check(page: Page, sel: str, walk: Walk, where: str, before: str | None = None, settle_ms: int = SETTLE_MS) -> bool:
    """After an action (its screen signature before it: `before`): wait for its answer, then for the screen to
    offer something. Records the state; returns False (and records a stuck state) when it never does."""
    start = time.monotonic()
    walk.states += 1
    if before is not None:  # the action's answer first: a new table, feedback, step, banner
        while time.monotonic() - start < settle_ms / 1000 and screen_state(page, sel)["sig"] == before:
            page.wait_for_timeout(50)
    while True:
        state = screen_state(page, sel)
        if not state["problem"]:
            ms = (time.monotonic() - start) * 1000
            walk.worst_ms = max(walk.worst_ms, ms)
            walk.slow += ms > QUICK_MS
            return True
        if (time.monotonic() - start) * 1000 > WAIT_MS:
            ARTIFACTS.mkdir(parents=True, exist_ok=True)
            name = f"stuck-{walk.size}-{len(walk.stuck)}.png"
            page.screenshot(path=str(ARTIFACTS / name))
            walk.stuck.append(f"{walk.size} {where}: {state['problem']} ({name})")
            return False
        page.wait_for_timeout(100)


def act(page: Page, sel: str, walk: Walk, where: str, do: Any, settle_ms: int = SETTLE_MS) -> bool:
    """One action (`do()`: clicks), then `check` (`settle_ms`: how long its answer is awaited; short where
    none may come, such as a click on an unlit card where nothing can be chosen)."""
    before = screen_state(page, sel)["sig"]
    walk.actions += 1
    try:
        do()
    except Exception as e:  # an element that should be there is not: the learner could not do it either
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        name = f"stuck-{walk.size}-{len(walk.stuck)}.png"
        page.screenshot(path=str(ARTIFACTS / name))
        walk.stuck.append(f"{walk.size} {where}: could not act ({str(e).splitlines()[0][:160]}) ({name})")
        return False
    return check(page, sel, walk, where, before, settle_ms)


def key_selector(key: str) -> str:
    quoted = key.replace("\\", "\\\\").replace('"', '\\"')
    return f'.uu-t [data-key="{quoted}"]'


def gesture_of(runner: LessonRunner, action: Any) -> list[str]:
    legal = runner.game.legal_actions
    for a in legal_actions(runner.game, runner.learner):
        if legal[a["id"]] == action:
            return list(a["gesture"])
    raise AssertionError(f"{action} is not on the table")


def click_keys(page: Page, sel: str, keys: list[str]) -> None:
    """Click each element of a gesture once it is lit (the table then waits for its next version)."""
    for key in keys:
        target = page.locator(f"{sel} {key_selector(key)}[data-legal='true']:visible").first
        target.wait_for(timeout=WAIT_MS)
        target.click(timeout=WAIT_MS)


def click_refused(page: Page, sel: str, keys: list[str]) -> None:
    """Click a move the engine refuses: each of its elements while they are lit, then the first that is not
    (answered with why not); Escape then drops what is left of the gesture."""
    for key in keys:
        found = page.locator(f"{sel} {key_selector(key)}:visible")
        if not found.count():
            break
        lit = found.first.get_attribute("data-legal") == "true"
        found.first.click(timeout=WAIT_MS)
        if not lit:
            break
    page.keyboard.press("Escape")


def click_unlit(page: Page, sel: str) -> bool:
    """Click one element of the table that is not lit (a card in an opponent's Stable first); False if none."""
    for css in (".uu-t-opp [data-zone='stable'][data-key]", ".uu-t [data-zone='discard'][data-key]",
                ".uu-t [data-key]"):
        found = page.locator(f"{sel} {css}:not([data-legal='true']):visible")
        if found.count():
            found.first.click(timeout=WAIT_MS)
            if page.locator(f"{sel} .uu-t [data-preview='open']").count():
                # a phone's look at the card lies over the table: closed as a learner's next tap would
                page.wait_for_timeout(300)
                page.keyboard.press("Escape")
            return True
    return False


def click_button(page: Page, sel: str, css: str, text: str | None = None) -> None:
    found = page.locator(f"{sel} {css}:visible")
    if text is not None:
        found = found.filter(has_text=re.compile(rf"^\s*{re.escape(text)}\s*$"))
    found.first.click(timeout=WAIT_MS)


def open_home(page: Page, url: str) -> None:
    """The home: by its Home button when the tutor is on show (the address would reopen the screen the learner
    was on, as a reload does), else by the address."""
    home = page.locator("button.uu-nav-home:visible")
    if page.url.startswith(url) and home.count():
        home.first.click(timeout=WAIT_MS)
    else:
        page.goto(url, wait_until="commit")
    page.locator(HOME_READY).first.wait_for(timeout=LOAD_MS)


# ---- lessons ---------------------------------------------------------------------------------------------
def _same(a: LessonRunner, b: LessonRunner) -> bool:
    return a.index == b.index and a.game.to_dict() == b.game.to_dict()


def _off_solution(runner: LessonRunner) -> Any:
    """A legal move of a goal step that is not the solution and leaves the step where it was (the turn ends
    without the goal: the step starts again); None if there is none."""
    for a in sorted(runner.learner_actions(), key=lambda a: a.kind != "draw"):  # DRAW first, as a newcomer
        f = runner.fork()
        fb = f.try_move(a)
        if fb.kind != "right" and _same(f, runner):
            return a
    return None


def _goes_on(runner: LessonRunner, a: Any) -> bool:
    """Does move `a` leave the learner on the same goal step, with moves made in it (Back returns to its start)?"""
    f = runner.fork()
    fb = f.try_move(a)
    return fb.ok and fb.kind != "right" and f.index == runner.index and not f.stuck


def walk_lesson(page: Page, path: Path, walk: Walk, steps: str = "all") -> None:
    """One lesson, opened from the home (already on show), to its end card and Restart. `steps`: "all" (the
    tries at every step) or "goals" (at goal steps only)."""
    runner = LessonRunner(path)
    lid = runner.lesson.id
    sel = f".uu-lesson.uu-lesson-{lid}"
    learner_bot = HeuristicBot(1)
    page.locator(f"button.uu-lesson-{lid}").first.click(timeout=WAIT_MS)
    page.locator(sel).first.wait_for(timeout=WAIT_MS)
    if not check(page, sel, walk, f"{lid} opened"):
        return
    tried: set[int] = set()
    backed = False
    for _ in range(400):
        if runner.done:
            break
        st = runner.step
        k = runner.index
        where = f"{lid} step {k + 1} ({st.kind})"
        if k not in tried and (steps == "all" or st.kind == "goal"):
            tried.add(k)
            if not _tries(page, sel, runner, walk, where):
                return
        if not backed and steps == "all" and k >= 1 and st.kind != "game":
            backed = True
            if not act(page, sel, walk, f"{where}: Back", lambda: click_button(page, sel, "button.uu-back")):
                return
            runner.back()
            continue
        # the right answer
        if st.kind == "page":
            ok = act(page, sel, walk, f"{where}: Next", lambda: click_button(page, sel, "button.uu-next"))
            runner.next()
        elif st.kind == "question":
            q = st.question
            text = q.options[q.answer - 1]
            ok = act(page, sel, walk, f"{where}: the right answer",
                     lambda t=text: click_button(page, sel, "button.uu-choice", t))  # type: ignore[misc]
            runner.choose(q.answer)
        else:
            move = learner_bot.choose(runner.game) if st.kind == "game" else runner.answer()
            if move is None:
                walk.stuck.append(f"{walk.size} {where}: the lesson has no answer here")
                return
            keys = gesture_of(runner, move)
            ok = act(page, sel, walk, f"{where}: {runner.describe(move)}", lambda ks=keys: click_keys(page, sel, ks))
            runner.try_move(move)
        if not ok:
            return
    if steps == "all":
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(ARTIFACTS / f"end-{lid}-{walk.size}.png"))  # each end card, for a look
        act(page, sel, walk, f"{lid} end card: Restart", lambda: click_button(page, sel, "button.uu-restart"))
        runner.restart()


def _tries(page: Page, sel: str, runner: LessonRunner, walk: Walk, where: str) -> bool:
    """The wrong things at this step; the lesson is where it was afterwards (the runner too)."""
    st = runner.step
    if st.kind == "question":
        for i, option in enumerate(st.question.options, 1):
            if i != st.question.answer:
                if not act(page, sel, walk, f"{where}: the wrong answer {option!r}",
                           lambda t=option: click_button(page, sel, "button.uu-choice", t)):  # type: ignore[misc]
                    return False
                runner.choose(i)
        return True
    if st.kind == "page":
        return True
    for m in st.mistakes if st.kind == "ask" else []:
        a = runner.mistake_action(m)
        legal = a in runner.learner_actions()
        if legal and m.expect == "other":
            keys = gesture_of(runner, a)
            if not act(page, sel, walk, f"{where}: the mistake {runner.describe(a)}",
                       lambda ks=keys: click_keys(page, sel, ks)):
                return False
            runner.try_move(a)
            if page.locator(f"{sel} .uu-t-banner button:visible").count():
                if not act(page, sel, walk, f"{where}: Try again",
                           lambda: click_button(page, sel, ".uu-t-banner button")):
                    return False
        else:  # refused by the engine: tried as a learner would, its elements clicked as far as they are lit
            keys = gesture(runner.game, runner.learner, a, 0)
            if not act(page, sel, walk, f"{where}: the refused mistake {runner.describe(a)}",
                       lambda ks=keys: click_refused(page, sel, ks)):
                return False
    if st.kind == "goal":
        a = _off_solution(runner)
        if a is not None:
            keys = gesture_of(runner, a)
            if not act(page, sel, walk, f"{where}: off the solution, {runner.describe(a)}",
                       lambda ks=keys: click_keys(page, sel, ks)):
                return False
            runner.try_move(a)
        else:  # a move the step goes on from (the goal not reached yet): made, then Back to the step's start
            a = next((x for x in runner.learner_actions() if x != runner.answer() and _goes_on(runner, x)), None)
            if a is None:
                walk.notes.append(f"{where}: every legal move but the solution reaches the goal")
            else:
                keys = gesture_of(runner, a)
                if not act(page, sel, walk, f"{where}: off the solution, {runner.describe(a)}",
                           lambda ks=keys: click_keys(page, sel, ks)):
                    return False
                runner.try_move(a)
                if not act(page, sel, walk, f"{where}: Back after it", lambda: click_button(page, sel, "button.uu-back")):
                    return False
                runner.back()
    if st.kind != "game":
        clicked: list[bool] = []
        if not act(page, sel, walk, f"{where}: a click on an unlit element",
                   lambda: clicked.append(click_unlit(page, sel)), 400 if st.kind in ("page", "question") else SETTLE_MS):
            return False
    return True


def walk_lessons(page: Page, url: str, paths: list[Path], walk: Walk, steps: str = "all") -> None:
    open_home(page, url)
    for path in paths:
        walk_lesson(page, path, walk, steps)
        _progress(walk, f"lesson {path.name}")
        click_button(page, "", "button.uu-nav-home")
        page.locator(HOME_READY).first.wait_for(timeout=WAIT_MS)


def _progress(walk: Walk, done: str) -> None:
    """The figures so far, one line per lesson or game walked (a long walk stopped early still says them)."""
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    with open(ARTIFACTS / "progress.jsonl", "a") as f:
        f.write(json.dumps({"done": done, "time": time.strftime("%H:%M:%S"), **walk.summary()}) + "\n")


# ---- games -----------------------------------------------------------------------------------------------
_SEATS_JS = """
(sel) => {
  const t = document.querySelector(`${sel} .uu-t`);
  if (!t) return null;
  const cards = [...t.querySelectorAll('[data-card]')].map((e) => [e.getAttribute('data-card'), e.getAttribute('data-zone'),
    e.getAttribute('data-owner') || ''].join('/')).sort();
  const me = t.querySelector('.uu-t-me .uu-t-seat-name');
  return {cards, me: me ? me.textContent : ''};
}
"""


def _watch_the_others(page: Page, sel: str) -> bool:
    """The others' moves playing out (Skip offered) are watched to their end, as a learner would: a round of
    five players at the Normal pace takes longer than WAIT_MS. False if they never end."""
    skip = page.locator(f"{sel} .uu-t-caption .uu-t-skip:visible")
    for _ in range(3 * WAIT_MS // 100):
        if not skip.count():
            return True
        page.wait_for_timeout(100)
    return False


def walk_game(page: Page, url: str, players: int, level: str, walk: Walk, moves: int = 40, seed: int = 0,
              reload_every: int = 15, unlit_every: int = 7) -> None:
    """A game of `players` seats at bot level `level` (one of LEVELS), played by random lit clicks."""
    rng = random.Random(seed)
    sel = ".uu-play-screen"
    where = f"game of {players} ({level})"
    open_home(page, url)
    page.locator("button.uu-play").first.click(timeout=WAIT_MS)
    page.locator(sel).first.wait_for(timeout=WAIT_MS)
    page.locator(f"{sel} .uu-players select").select_option(label=str(players))
    page.locator(f"{sel} .uu-level select").select_option(index=LEVELS.index(level))
    if not act(page, sel, walk, f"{where}: New game", lambda: click_button(page, sel, "button.uu-new-game")):
        return
    for n in range(1, moves + 1):
        if page.locator(f"{sel} .uu-result .uu-banner").count():
            break  # the game is over
        if n % unlit_every == 0:
            if not act(page, sel, walk, f"{where} move {n}: an unlit click", lambda: click_unlit(page, sel), 1000):
                return
        if n % reload_every == 0:
            # the table before the reload is the learner's next decision: the others' moves played out, and
            # the bots done thinking (a reload while they think lets them think again in the new kernel)
            _watch_the_others(page, sel)
            try:
                page.locator(f"{sel} .uu-t [data-legal='true']:visible, {sel} .uu-result .uu-banner").first.wait_for(
                    timeout=3 * WAIT_MS)
            except Exception:
                pass  # the check after the reload says what is wrong
            before = page.evaluate(_SEATS_JS, sel)
            page.reload(wait_until="commit")
            page.locator(f"{sel} .uu-t").first.wait_for(timeout=LOAD_MS)
            walk.actions += 1
            if not check(page, sel, walk, f"{where} move {n}: after a reload"):
                return
            after = page.evaluate(_SEATS_JS, sel)
            if after != before:
                walk.stuck.append(f"{walk.size} {where} move {n}: the reload did not bring the same game back")
                return
        lit = page.locator(f"{sel} .uu-t [data-legal='true']:visible")
        count = lit.count()
        if count == 0 and not _watch_the_others(page, sel):
            walk.stuck.append(f"{walk.size} {where} move {n}: the others' moves never ended")
            return
        count = lit.count()
        if count == 0:
            continue
        target = lit.nth(rng.randrange(count))
        if not act(page, sel, walk, f"{where} move {n}", lambda t=target: t.click(timeout=WAIT_MS)):
            return
