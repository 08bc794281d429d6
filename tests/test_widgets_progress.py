"""Progress kept in the browser (uu/widgets/progress.py): what the App saves, restored into a new App as the
browser sends it on a reload (`{"type": "restore", "items": {key: text}}`); malformed input ignored; forget."""

from __future__ import annotations

import json
from typing import Any

import pytest

from uu.engine.actions import Action
from uu.widgets import App
from uu.widgets.progress import KEY, MAX_CHARS, encode_history, parse_saved


def reload_into(state: Any, raw: bool = False) -> App:
    """A new App (a new kernel) given what the browser kept."""
    app = App()
    text = state if raw else json.dumps(state)
    app.store._on_message(app.store, {"type": "restore", "items": {KEY: text, "uu-other": "x"}}, [])
    return app


def first_lesson_with_a_move(app: App) -> str:
    """A lesson whose first steps include a move on the table, opened and answered up to that move."""
    for lesson in app.lessons:
        screen = app.open_lesson(lesson.id)
        for _ in range(len(lesson.script) - 1):
            assert screen.click_answer()
            if any(isinstance(a, Action) for _i, a in screen.runner.history):
                return lesson.id
        app.forget()
    raise AssertionError("no lesson with a move")


def finish(app: App, lesson_id: str) -> None:
    screen = app.open_lesson(lesson_id)
    while not screen.runner.done:
        assert screen.click_answer()


def test_restore_lessons_done_step_reached_and_quiz():
    app = App()
    partial = first_lesson_with_a_move(app)
    done = next(lesson.id for lesson in app.lessons if lesson.id != partial)
    finish(app, done)
    state = app.store.state
    assert state["lessons"][done]["status"] == "done"
    assert state["lessons"][partial]["status"] == "in progress"

    new = reload_into(state)
    assert new.status(done) == "done" and new.status(partial) == "in progress"
    assert new.step_of(partial) == app.step_of(partial)
    assert new.home.lessons.row(partial)["status"] == "in progress"
    assert new.home.lessons.row(partial)["where"] == " · step {} of {}".format(*app.step_of(partial))
    assert new.home.lessons.row(done)["button"] == "Review"
    old, screen = app.lesson_screens[partial].runner, new.open_lesson(partial)
    assert screen.runner.progress == old.progress
    assert screen.runner.history == old.history  # replayed: the same table as before the reload
    assert new.open_lesson(done).runner.quiz_results == app.lesson_screens[done].runner.quiz_results
    assert new.open_lesson(done).runner.done


def test_play_settings_restored_and_saved():
    app = reload_into({"v": 1, "play": {"name": "Ada", "players": 4, "targeting": "neigh-first", "seed": 7,
                                        "level": "hard"}})
    play = app.open_play()
    assert play.settings().model_dump() == {"name": "Ada", "players": 4, "targeting": "neigh-first", "seed": 7,
                                            "level": "hard"}
    play.name_input.value = "Grace"
    assert app.store.state["play"]["name"] == "Grace"
    play.level_input.value = "normal"
    assert app.store.state["play"]["level"] == "normal"
    old = reload_into({"v": 1, "play": {"name": "Ada", "players": 4, "targeting": "neigh-first", "seed": 7}})
    assert old.open_play().settings().level == "normal"  # progress saved before levels existed still loads


@pytest.mark.parametrize("text", [
    "not json", "[]", "null", '{"v": 2}', '{"lessons": 5}', '{"lessons": {"goal": {"status": "hacked"}}}',
    '{"lessons": {"goal": {"status": "done", "step": -1}}}', '{"play": {"players": 99}}',
    '{"lessons": {"goal": {"status": "done", "history": [[true, null]]}}}',
    "[" * 100_000, '{"x": "' + "a" * MAX_CHARS + '"}',
])
def test_malformed_or_hostile_progress_is_ignored(text):
    app = reload_into(text, raw=True)
    assert all(app.status(lesson.id) == "not started" for lesson in app.lessons)
    assert app.error is None
    app.open_play()  # default settings
    for items in (None, 5, [], {KEY: 5}):
        app.store._on_message(app.store, {"type": "restore", "items": items}, [])
    assert parse_saved({KEY: text}) is None


def test_unknown_lessons_dropped_and_history_that_no_longer_fits_restarts():
    app = App()
    lid = app.lessons[0].id
    bad = [[0, {"kind": "play", "card": "No Such Card"}]]
    app = reload_into({"v": 1, "lessons": {"nope": {"status": "done"},
                                           lid: {"status": "in progress", "step": 2, "history": bad}}})
    assert app.status("nope") == "not started" and "nope" not in app.store.state["lessons"]
    assert app.status(lid) == "in progress"
    screen = app.open_lesson(lid)
    assert screen.runner.progress[0] == 1 and app.error is None


def test_forget_clears_here_and_in_the_browser():
    sent: list[Any] = []
    app = reload_into({"v": 1, "lessons": {App().lessons[0].id: {"status": "done"}},
                       "play": {"name": "Ada"}})
    app.store.send = sent.append  # type: ignore[method-assign]
    app.home.forget_button.click()
    assert all(app.status(lesson.id) == "not started" for lesson in app.lessons)
    assert app.store.state == {} and sent == [{"type": "forget"}]
    assert app.open_play().settings().name == "You"


def test_only_the_first_restore_counts():
    app = reload_into({"v": 1, "lessons": {}})
    lid = app.lessons[0].id
    app.store._on_message(app.store, {"type": "restore", "items": {KEY: json.dumps(
        {"v": 1, "lessons": {lid: {"status": "done"}}})}}, [])
    assert app.status(lid) == "not started"


def test_a_reload_reopens_the_screen_that_was_open():
    app = App(delay=0)
    lesson = app.lessons[1]
    screen = app.open_lesson(lesson.id)
    screen.next_button.click() if screen.runner.step.kind == "page" else screen.click_answer()
    step = screen.runner.progress[0]
    state = app.store.state
    assert state["screen"] == f"lesson:{lesson.id}"
    again = reload_into(state)
    assert again.screen is not again.home and again.screen.runner.lesson.id == lesson.id
    assert again.screen.runner.progress[0] == step
    assert again.continue_target() == (lesson.id, f"Continue: {lesson.title}, step {step}")


def test_a_reload_reopens_the_game_in_progress():
    app = App(delay=0)
    play = app.open_play()
    for _ in range(6):                                    # a few of the learner's moves, the bots in between
        if play.game.pending is None:
            break
        play.click_move(play.moves[-1])
    state = app.store.state
    assert state["screen"] == "play" and state["game"]["seed"] == play.deal_seed
    again = reload_into(state)
    assert again.screen is again.play_screen
    assert again.play_screen.game.to_dict() == play.game.to_dict()   # the same position, the same deal
    broken = {**state, "game": {"seed": 1, "moves": [[0, {"kind": "play", "card": "No Such Card"}]]}}
    fresh = reload_into(broken)                            # moves that no longer fit: the deal from its start
    assert fresh.screen is fresh.play_screen and fresh.play_screen.history == []


class AnswersOtherwiseWhenAskedAgain:
    """A bot whose answer to the same position changes from one asking to the next, as the Hard bot's does (it
    thinks against the clock): on a reload it would not replay the game the learner saw."""

    asked = 0

    def __init__(self, *_args: object) -> None:
        pass

    def choose(self, game: Any) -> Action:
        AnswersOtherwiseWhenAskedAgain.asked += 1
        actions = game.pending.actions
        return actions[AnswersOtherwiseWhenAskedAgain.asked % len(actions)]


def test_a_reload_brings_back_the_bots_moves_the_learner_saw(monkeypatch: pytest.MonkeyPatch):
    """The 390x844 and 1280x800 game walks of the screen explorer (issue 38) came back after a reload to another
    game against Hard bots: only the learner's moves were kept, and the bots were asked again. Every seat's
    moves are kept now; a save made before (the learner's moves only) still loads."""
    import uu.widgets.play

    monkeypatch.setattr(uu.widgets.play, "make_bot", lambda level, seed: AnswersOtherwiseWhenAskedAgain())
    app = App(delay=0)
    play = app.open_play()
    for _ in range(30):  # until the bots have moved, in a game still going (only a game in progress is kept)
        if play.game.pending is None or len(play.game.moves) > len(play.history):
            break
        play.click_move(play.moves[0])
    assert len(play.game.moves) > len(play.history), "the bots moved too"
    assert play.game.pending is not None, "the game goes on"
    state = app.store.state
    again = reload_into(state)
    assert again.play_screen.game.to_dict() == play.game.to_dict()
    assert state["game"]["every_seat"] is True
    old = {**state, "game": {"seed": state["game"]["seed"], "moves": encode_history(list(enumerate(play.history)))}}
    before = reload_into(old)   # the learner's moves only: the bots asked again, as old saves were replayed
    assert before.screen is before.play_screen and before.play_screen.deal_seed == play.deal_seed
    assert before.play_screen.game.to_dict() != play.game.to_dict(), "these bots answer otherwise when asked again"


def test_leaving_the_screen_a_link_opened_drops_the_link_from_the_address():
    """A page opened by ?lesson= keeps its link while on that lesson; once the learner goes on to a game the
    browser is told to drop it (a reload reopened the lesson, not the game: issue 38). Without a link nothing
    is sent; a bad link's home drops it too."""
    app = App(delay=0)
    sent: list[Any] = []
    app.store.send = sent.append  # type: ignore[method-assign]
    lid = app.lessons[1].id
    app.store._on_message(app.store, {"type": "restore", "items": {}, "href": f"http://h/?lesson={lid}"}, [])
    assert app.screen.runner.lesson.id == lid and {"type": "unlink"} not in sent
    app.screen.click_answer()                                    # on the link's lesson: the link stays
    assert {"type": "unlink"} not in sent
    app.open_play()
    assert sent.count({"type": "unlink"}) == 1 and app.store.state["screen"] == "play"
    app.show_home()
    assert sent.count({"type": "unlink"}) == 1                   # once
    plain = App(delay=0)
    plain.store.send = sent.append  # type: ignore[method-assign]
    plain.store._on_message(plain.store, {"type": "restore", "items": {}, "href": "http://h/"}, [])
    plain.open_play()
    assert sent.count({"type": "unlink"}) == 1
    bad = App(delay=0)
    bad.store.send = sent.append  # type: ignore[method-assign]
    bad.store._on_message(bad.store, {"type": "restore", "items": {}, "href": "http://h/?lesson=nope"}, [])
    bad.open_play()
    assert sent.count({"type": "unlink"}) == 2


def restore_answer(app: App, state: Any = None) -> list[Any]:
    """What the store sends the browser when the browser's view sends what it kept (`state`, None: nothing)."""
    sent: list[Any] = []
    app.store.send = sent.append  # type: ignore[method-assign]
    items = {KEY: json.dumps(state)} if state is not None else {}
    app.store._on_message(app.store, {"type": "restore", "items": items}, [])
    return sent


def test_progress_made_before_the_browser_view_loaded_is_written():
    """A busy page may show the home before the store's view has loaded: what the learner did meanwhile set
    `state`, which changes no more once the view is there, so the answer to its restore carries it to be written."""
    app = App(delay=0)
    screen = app.open_lesson(app.lessons[0].id)
    screen.next_button.click() if screen.runner.step.kind == "page" else screen.click_answer()
    step = screen.runner.progress[0]
    [answer] = restore_answer(app)                     # nothing kept in this browser yet
    assert answer["type"] == "write"
    assert answer["state"]["lessons"][app.lessons[0].id]["step"] == step == 2
    assert reload_into(answer["state"]).step_of(app.lessons[0].id)[0] == step   # what the next page gets


def test_the_name_joined_before_the_browser_view_loaded_is_written(tmp_path, monkeypatch):
    """The class view's name box is on the home: a name joined before the store's view loaded is written."""
    from test_teacher import _bound_kernel

    from uu.server.classroom import CLASS_DB_ENV
    from uu.server.seats import new_token

    db = tmp_path / "c.sqlite3"
    monkeypatch.setenv(CLASS_DB_ENV, str(db))
    app = App(delay=0)
    assert app.classroom is not None
    app.classroom.kernel_id = _bound_kernel(db, new_token())
    box = app.class_box()
    assert box is not None
    box.name_input.value = "Ada"
    box.join_button.click()
    kept = {"v": 1, "lessons": {app.lessons[1].id: {"status": "done"}}}  # and what the browser kept is merged
    [answer] = restore_answer(app, kept)
    assert answer["state"]["learner"]["name"] == "Ada"
    assert answer["state"]["lessons"][app.lessons[1].id]["status"] == "done"
    app.classroom.stop()


def test_nothing_to_write_sends_nothing():
    """A visit that changed nothing keeps nothing ("Forget my progress" leaves the browser empty)."""
    assert restore_answer(App(delay=0)) == []


def test_in_a_kernel_a_save_waits_for_the_message_under_way_and_is_made_once(monkeypatch):
    """A move's table is sent before the progress it makes is written (uu.widgets.common.AfterMessage): in a
    kernel, saves asked while a message is handled are made once, after it; outside one, at once."""
    import asyncio

    from conftest import run_async
    from uu.widgets import common

    made: list[int] = []
    common.AfterMessage(lambda: made.append(0))()
    assert made == [0]  # no kernel here: at once

    async def in_a_kernel() -> list[int]:
        monkeypatch.setattr(common, "_kernel_loop", asyncio.get_running_loop)
        later = common.AfterMessage(lambda: made.append(len(made)))
        later()
        later()
        seen = list(made)
        await asyncio.sleep(0)
        return seen

    assert run_async(in_a_kernel()) == [0] and made == [0, 1]


def test_the_app_says_when_the_browsers_progress_is_taken_in() -> None:
    """The class `uu-restored` appears once the browser's restore message is handled, and not before: the static
    site's loading screen waits for it (uu/lite/page.js), so the learner's first click lands on the screen
    they will use."""
    from uu.widgets.tutor_app import App

    app = App()
    assert "uu-restored" not in app._dom_classes
    app.store._on_message(app.store, {"type": "restore", "items": {}, "href": "http://h/?lesson=neigh",
                                      "browser": "en"}, [])
    assert "uu-restored" in app._dom_classes
    assert app.screen is app.lesson_screens["neigh"]  # the link's screen open by then
