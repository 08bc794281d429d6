"""No learner is ever stuck (issue 38): the screen explorer (tests/explorer.py) in Chromium against `uu app`.

By default a fixed sample: every lesson with a goal step, walked to its end card, with the wrong things tried
on each goal step (a legal move that is not the solution: the turn ends and the step starts again, which once
left the table waiting with nothing lit; a click on an unlit element), at 1280x800 and 390x844; and one game
of three players on a phone with random lit and unlit clicks and a reload. `UU_EXPLORE=full` walks every lesson with
every try at every step at both sizes, and games of 2 to 6 players at each bot level; its figures are printed
(and written to test-artifacts/explorer/figures.json) for docs/performance.md.
"""

from __future__ import annotations

import json
import os

import pytest

pytest.importorskip("playwright", reason="playwright (the test extra) is not installed")
from explorer import ARTIFACTS, Walk, walk_game, walk_lessons  # noqa: E402
from explorer import _progress as progress  # noqa: E402
from playwright.sync_api import Browser  # noqa: E402

from uu.tutor.check import shipped_lessons  # noqa: E402
from uu.words.lesson_refusals import LessonRunner  # noqa: E402

pytestmark = pytest.mark.browser

FULL = os.environ.get("UU_EXPLORE") == "full"
SIZES = {"1280x800": (1280, 800), "390x844": (390, 844)}
LEVELS = ["easy", "normal", "hard"]


def lessons_with_goals() -> list[str]:
    out = []
    for path in shipped_lessons():
        r = LessonRunner(path)
        if any(st.kind == "goal" for st in r.lesson.script):
            out.append(r.lesson.id)
    return out


def paths(ids: list[str]) -> list:
    by_id = {LessonRunner(p).lesson.id: p for p in shipped_lessons()}
    return [by_id[i] for i in ids]


def new_page(browser: Browser, size: str):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    if not FULL:  # the sample watches the others' moves at the fast pace (the suite's time); the full walk at the
        # normal pace, as a learner first sees them
        context.add_init_script("localStorage.setItem('uu-table-pace', 'fast')")
    return context, context.new_page()


def report(walk: Walk, name: str) -> None:
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    figures = walk.summary()
    print(name, json.dumps(figures))
    with open(ARTIFACTS / "figures.jsonl", "a") as f:
        f.write(json.dumps({"walk": name, **figures}) + "\n")


@pytest.mark.skipif(FULL, reason="UU_EXPLORE=full walks every lesson in test_every_lesson_every_step")
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("lesson_id", lessons_with_goals())
def test_every_goal_step_answers_every_click(browser: Browser, voila_url, lesson_id, size):
    """On a goal step, a legal move that misses the goal (DRAW first: lesson 1 "Win the game", lessons 16 and
    17) starts the step again on the same position: the table lights the moves again, the prompt in view."""
    context, page = new_page(browser, size)
    walk = Walk(size)
    try:
        walk_lessons(page, voila_url, paths([lesson_id]), walk, steps="goals")
    finally:
        context.close()
    report(walk, f"goals {lesson_id} {size}")
    assert not walk.stuck, walk.stuck
    assert not [n for n in walk.notes if "off the solution" in n], walk.notes
    assert walk.actions >= 3 and walk.states > walk.actions


@pytest.mark.parametrize("size", SIZES if FULL else ["390x844"])  # the sample: one game, on a phone
def test_a_game_answers_random_clicks_and_a_reload(browser: Browser, voila_url, size):
    context, page = new_page(browser, size)
    walk = Walk(size)
    try:
        if FULL:
            for players in range(2, 7):
                for i, level in enumerate(LEVELS):
                    walk_game(page, voila_url, players, level, walk, moves=24, seed=players * 10 + i,
                              reload_every=12)
                    progress(walk, f"game of {players} ({level})")
        else:
            walk_game(page, voila_url, 3, "easy", walk, moves=24, seed=1, reload_every=12)
    finally:
        context.close()
    report(walk, f"games {size}")
    assert not walk.stuck, walk.stuck
    assert walk.actions >= 10


@pytest.mark.skipif(not FULL, reason="the full walk: UU_EXPLORE=full")
@pytest.mark.parametrize("size", SIZES)
def test_every_lesson_every_step(browser: Browser, voila_url, size):
    context, page = new_page(browser, size)
    walk = Walk(size)
    try:
        walk_lessons(page, voila_url, list(shipped_lessons()), walk, steps="all")
    finally:
        context.close()
    report(walk, f"lessons {size}")
    assert not walk.stuck, walk.stuck

