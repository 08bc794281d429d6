"""LessonScreen and App driven the way clicks drive them (`Button.click()` runs the handlers; a move is the
message the table sends on a click, `{"type": "choose", "id", "version"}`; no browser)."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from uu.tutor.check import shipped_lessons
from uu.tutor.lesson_model import load_lesson, parse_lesson
from uu.widgets import App, LessonScreen
from uu.widgets import lesson as lesson_module
from uu.words.lesson_refusals import LessonRunner

LESSONS = shipped_lessons()
XSS = "<img src=x onerror=alert(1)>"


def click_table(screen: LessonScreen, action) -> None:
    """What the browser sends when the learner makes `action`'s gesture on the table."""
    table = screen.table
    ids = [a["id"] for a in table.actions if screen.runner.game.legal_actions[a["id"]] == action]
    assert ids, (action, [a["description"] for a in table.actions])
    table._on_message(table, {"type": "choose", "id": ids[0], "version": table.version}, [])


def click_expected(screen: LessonScreen) -> None:
    """Click what the current step wants: Next on a page, a question's right choice, else the expected move
    on the table."""
    r = screen.runner
    st = r.step
    if st.kind == "page":
        assert screen.next_button.layout.display != "none"
        screen.next_button.click()
        return
    if st.kind == "question":
        b = screen.choice_for(st.question.answer)
        assert b is not None and b.layout.display != "none" and b.description == st.question.options[
            st.question.answer - 1]
        b.click()
        return
    if st.kind == "game":
        from uu.bots import HeuristicBot

        click_table(screen, HeuristicBot(1).choose(r.game))
        return
    want = r.answer()
    # the table lights the move: its gesture starts at an element drawn on the table
    [shown] = [a for a in screen.table.actions if r.game.legal_actions[a["id"]] == want][:1]
    assert shown["gesture"] and shown["description"]
    click_table(screen, want)


def test_every_lesson_is_shipped():
    assert len(LESSONS) >= 20


@pytest.mark.parametrize("path", LESSONS, ids=lambda p: Path(p).stem)
def test_click_through_every_lesson(path):
    screen = LessonScreen(LessonRunner(path))
    r = screen.runner
    n = len(r.lesson.script)
    assert f"uu-lesson-{r.lesson.id}" in screen._dom_classes
    clicks = 0
    while not r.done:
        k, _ = r.progress
        assert f"Step {k} of {n}" in screen.progress_label.value
        assert screen.narration.value or screen.task.value
        click_expected(screen)
        clicks += 1
        assert screen.error is None, screen.error
        assert screen.feedback is None or screen.feedback.kind in ("right", "info"), screen.feedback
        assert "RS" not in screen.narration.value and "seed 0" not in screen.narration.value
        assert clicks < 300
    assert r.problems == [], r.problems
    assert "Lesson complete" in screen.task.value and "lesson complete" in screen.progress_label.value
    assert "uu-recap" in screen.task.value and "right at the first try" in screen.task.value
    assert screen.table.actions == [] and screen.next_button.layout.display == "none"
    # the last table stays drawn, with nothing to choose on it
    assert screen.table.observation["players"] and screen.moves == []


def _first_wrong_move():
    """(lesson, step index, mistake) for the first scripted mistake of the `other` kind."""
    for path in LESSONS:
        lesson = load_lesson(path)
        for i, st in enumerate(lesson.script):
            for m in st.mistakes:
                if m.expect == "other":
                    return lesson, i, m
    pytest.skip("no lesson has a legal-but-wrong mistake")


def test_a_wrong_move_gets_its_feedback_and_changes_nothing():
    lesson, index, mistake = _first_wrong_move()
    screen = LessonScreen(LessonRunner(lesson))
    r = screen.runner
    while r.index < index:
        click_expected(screen)
    before = r.game.to_dict()
    wrong = r.mistake_action(mistake)
    assert wrong in screen.moves, "a legal wrong move is on offer on the table"
    click_table(screen, wrong)
    assert screen.error is None, screen.error
    assert screen.feedback.kind == "other"
    assert r.game.to_dict() == before and r.index == index
    assert "uu-fb-other" in screen.feedback_box.value
    from uu.table.seat_view import observe

    # the table shows what it would do, as a picture: nothing on it can be chosen ...
    assert "taken back" in screen.preview_note.value and screen.preview_back.layout.display != "none"
    assert screen.table.observation == observe(screen.feedback.preview, r.learner)
    assert screen.table.observation != observe(r.game, r.learner) and screen.table.actions == []
    screen.preview_back.click()  # ... then the live table again, where the right move still works
    assert screen.preview_note.value == "" and screen.preview_back.layout.display == "none"
    assert screen.table.observation == observe(r.game, r.learner) and wrong in screen.moves
    assert "uu-fb-other" in screen.feedback_box.value  # the feedback stays to be read
    click_expected(screen)
    assert screen.feedback.kind == "right" and r.index == index + 1


def test_a_previews_banner_and_its_table_reach_the_browser_in_one_message(widgets_without_kernel):
    """The banner's Try again names the table's version: banner and table go together, so that no Try again
    can be pressed on the banner with the table before it (it was then ignored: issue 38)."""
    lesson, index, mistake = _first_wrong_move()
    screen = LessonScreen(LessonRunner(lesson))
    r = screen.runner
    while r.index < index:
        click_expected(screen)
    sent: list[set[str]] = []
    screen.table.send_state = lambda key=None: sent.append(set(key) if key is not None else {"*"})  # type: ignore[method-assign]
    click_table(screen, r.mistake_action(mistake))
    assert screen.table.banner and [keys for keys in sent if "banner" in keys]
    assert all("version" in keys for keys in sent if "banner" in keys), sent
    sent.clear()
    screen.table._on_message(screen.table, {"type": "banner", "version": screen.table.version}, [])  # Try again
    assert screen.table.banner == {} and [keys for keys in sent if "banner" in keys]
    assert all("version" in keys for keys in sent if "banner" in keys), sent


def test_hint_back_and_restart():
    screen = LessonScreen(LessonRunner(LESSONS[0]))
    r = screen.runner
    screen.hint_button.click()
    assert screen.hint_box.value and "Hint" in screen.hint_box.value
    click_expected(screen)
    click_expected(screen)
    assert r.index == 2
    screen.back_button.click()
    assert r.index == 1 and screen.error is None and screen.hint_box.value == ""
    assert "Step 2 of" in screen.progress_label.value
    screen.restart_button.click()
    assert r.index == 0 and r.history == [] and "Step 1 of" in screen.progress_label.value


def test_narration_markup_is_escaped():
    text = Path(LESSONS[0]).read_text(encoding="utf-8")
    first = load_lesson(LESSONS[0]).script[0].say.split("\n")[0]
    text = text.replace(first, f"{XSS} **Unstable Unicorns** {first}", 1)
    assert XSS in text
    screen = LessonScreen(LessonRunner(parse_lesson(text, "xss.yaml")))
    shown = screen.narration.value + screen.task.value
    assert "<img" not in shown
    assert "&lt;img src=x onerror=alert(1)&gt;" in shown
    assert "<b>Unstable Unicorns</b>" in shown  # Markdown still works


def test_an_error_in_a_callback_is_shown_and_the_screen_keeps_working(monkeypatch, caplog):
    screen = LessonScreen(LessonRunner(LESSONS[0]))
    r = screen.runner

    def broken(*a, **k):
        raise RuntimeError("the runner fell over <b>")

    monkeypatch.setattr(r, "next", broken)
    with caplog.at_level(logging.ERROR, logger=lesson_module.__name__):
        screen.next_button.click()
    assert screen.error == "Something went wrong: the runner fell over <b>"
    assert "the runner fell over &lt;b&gt;" in screen.error_box.value and "Traceback" not in screen.error_box.value
    assert any("on_next" in rec.getMessage() and rec.exc_info for rec in caplog.records)
    assert screen.narration.value or screen.task.value  # not blank
    monkeypatch.undo()
    screen.next_button.click()
    assert screen.error is None and screen.error_box.value == "" and r.index == 1


# ---- the App and its home screen ------------------------------------------------------------------------
def test_home_lists_the_lessons_in_order_with_progress():
    app = App(delay=0)
    assert app.error is None and app.screen is app.home
    ids = [lesson.id for lesson in app.lessons]
    assert ids == [load_lesson(p).id for p in sorted(LESSONS, key=lambda p: load_lesson(p).order)]
    lessons = app.home.lessons
    assert lessons.ids == ids and [r["id"] for r in lessons.rows] == ids and lessons.teacher_rows == []
    for lesson in app.lessons:
        row = lessons.row(lesson.id)
        assert (row["button"], row["status"], row["primary"]) == ("Start", "not started", True), row
        assert (row["order"], row["title"], row["status_class"]) == (lesson.order, lesson.title, "uu-status-new")
        assert row["tooltip"] == f"Start: {lesson.title}" and row["summary"] == lesson.spec.summary
    assert "uu-play" in app.home.play_button._dom_classes
    first = ids[0]
    assert lessons.click(first)
    screen = app.screen
    assert isinstance(screen, LessonScreen) and app.status(first) == "in progress"
    assert app.children[-1] is screen
    click_expected(screen)
    app.home_button.click()
    row = lessons.row(first)
    assert app.screen is app.home and (row["button"], row["status"]) == ("Continue", "in progress")
    assert row["status_class"] == "uu-status-progress" and row["where"] == f" · step 2 of {len(app.lessons[0].script)}"
    assert lessons.click(first)
    assert app.screen is screen and screen.runner.index == 1  # resumed where it was left
    while not screen.runner.done:
        click_expected(screen)
    assert app.status(first) == "done"
    app.home_button.click()
    row = lessons.row(first)
    assert (row["button"], row["status"], row["primary"], row["where"]) == ("Review", "done", False, "")
    assert app.status(ids[1]) == "not started" and lessons.row(ids[1])["button"] == "Start"


def page_sends(widget, content) -> None:
    """What a custom message from the page does (the widget's registered handlers, as the comm calls them)."""
    widget._handle_custom_msg(content, [])


def test_the_page_opens_a_lesson_by_its_id_and_a_forged_one_is_ignored(caplog):
    app = App(delay=0)
    lessons, first = app.home.lessons, app.lessons[0].id
    forged = [{"type": "open", "id": "no-such-lesson"}, {"type": "open", "id": [first]}, {"type": "open"},
              {"type": "open", "id": first * 1000}, {"type": "open", "id": None}, {"type": "choose", "id": first},
              {"id": first}, "open", [first], None]
    with caplog.at_level(logging.ERROR):
        for content in forged:
            page_sends(lessons, content)
            assert app.screen is app.home and app.error is None and app.home.error is None, content
    assert not caplog.records
    assert not lessons.click("no-such-lesson") and app.screen is app.home
    page_sends(lessons, {"type": "open", "id": first})
    assert isinstance(app.screen, LessonScreen) and app.screen.runner.lesson.id == first


def test_app_opens_the_game_and_a_lesson_directly():
    app = App(start="play", delay=0)
    assert app.error is None and type(app.screen).__name__ == "PlayScreen"
    app.home_button.click()
    app.home.play_button.click()
    assert type(app.screen).__name__ == "PlayScreen"
    lid = load_lesson(LESSONS[3]).id
    app = App(start=lid)
    assert app.screen.runner.lesson.id == lid and app.screen.runner.progress[0] == 1


def test_a_navigation_error_is_shown_and_home_still_works():
    app = App(start="no-such-lesson")
    assert app.error is not None and "no-such-lesson" in app.error and app.screen is app.home
    assert "uu-error-box" in app.error_box.value
    assert app.home.lessons.click(app.lessons[0].id)
    assert app.error is None and isinstance(app.screen, LessonScreen)


def test_a_broken_lesson_file_is_reported_on_home(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("name: broken\nplayers: [A]\n")
    app = App(lessons=[LESSONS[0], bad])
    assert len(app.lessons) == 1 and app.load_problems
    [problem] = app.home.lessons.problems
    assert "could not be loaded" in problem and problem in app.load_problems


def test_home_lessons_are_one_widget_sent_again_only_when_a_row_changes():
    app = App()
    lessons = app.home.lessons
    changed: list[str] = []
    lessons.observe(lambda change: changed.append(change["name"]), names=["rows", "teacher_rows", "broken", "problems"])
    app.show_home()
    app.show_home()
    assert changed == [], "a home with nothing new sent its lessons again"
    first = app.lessons[0].id
    app.open_lesson(first)
    app.show_home()
    assert changed == ["rows"] and app.home.lessons is lessons
    assert lessons.row(first)["status"] == "in progress"
    assert [r["status"] for r in lessons.rows[1:]] == ["not started"] * (len(app.lessons) - 1)


def test_home_says_which_lesson_shows_a_card():
    app = App()
    finder = app.home.card_finder
    assert len(finder.options) == 85  # "Pick a card…" and the 84 cards of the base deck
    finder.value = "Super Neigh"
    assert "Super Neigh is shown in:" in app.home.card_found.value
    finder.value = ""
    assert app.home.card_found.value == ""


def test_a_click_made_on_an_older_table_is_refused_in_plain_words():
    screen = LessonScreen(LessonRunner(LESSONS[0]))
    while screen.runner.step is not None and screen.runner.step.kind not in ("ask", "goal"):
        click_expected(screen)
    table = screen.table
    old_version, old_id = table.version, table.actions[0]["id"]
    assert screen.click_answer()
    assert table.version > old_version
    progress, log = screen.runner.progress, len(screen.runner.game.log)
    # sent before the browser drew the newer table: refused
    table._on_message(table, {"type": "choose", "id": old_id, "version": old_version}, [])
    assert screen.error is None and "older table" in screen.feedback_box.value
    assert "Traceback" not in screen.feedback_box.value
    assert screen.runner.progress == progress and len(screen.runner.game.log) == log


def test_no_move_is_offered_on_a_page_or_a_question():
    screen = LessonScreen(LessonRunner(LESSONS[0]))
    r = screen.runner
    while not r.done:
        if r.step.kind in ("page", "question"):
            assert screen.table.actions == [] and screen.table.observation["players"]
        click_expected(screen)


def lesson_path(stem: str) -> str:
    return next(str(p) for p in LESSONS if Path(p).stem == stem)


def walk_to(screen: LessonScreen, step: int) -> None:
    while screen.runner.progress[0] < step:
        click_expected(screen)


def test_the_scripted_bots_moves_are_played_back_one_decision_at_a_time():
    # lesson 15, step 4: your SACRIFICE, then the two scripted bots' (Bramble's, then Clover's)
    screen = LessonScreen(LessonRunner(lesson_path("15-effect-chain")))
    walk_to(screen, 4)
    st = screen.runner.step
    assert [b.as_ for b in st.bots] == ["Bramble", "Clover"]
    version = screen.table.version
    click_expected(screen)
    replay = screen.table.replay
    assert replay["from"] == version and screen.table.version == version + 1
    assert [(s["seat"], s["yours"], s["lines"]) for s in replay["steps"]] == [
        (0, True, ["You SACRIFICE Stabby the Unicorn."]),
        (1, False, ["Bramble SACRIFICEs Basic Unicorn (Blue)."]),
        (2, False, ["Clover SACRIFICEs Greedy Flying Unicorn."]),
    ]
    assert [[(m["name"], m["from"], m["to"]) for m in s["moved"]] for s in replay["steps"]] == [
        [("Stabby the Unicorn", ["stable", 0], ["discard", -1])],
        [("Basic Unicorn (Blue)", ["stable", 1], ["discard", -1])],
        [("Greedy Flying Unicorn", ["stable", 2], ["discard", -1])],
    ]


# the lessons with a step whose completion makes two or more scripted bot moves
SEVERAL_BOTS = [p for p in LESSONS if any(len(st.bots) >= 2 for st in load_lesson(p).script)]


@pytest.mark.parametrize("path", SEVERAL_BOTS, ids=lambda p: Path(p).stem)
def test_each_scripted_bot_move_is_a_step_of_its_own_after_the_learners(path):
    """Every step whose completion makes two or more scripted bot moves: the learner's move (if any) comes
    first, then a step for each scripted move, by its seat, in the script's order, captioned with its card."""
    screen = LessonScreen(LessonRunner(path))
    r, seen = screen.runner, 0
    while not r.done:
        st, shown = r.step, screen.table.version
        click_expected(screen)
        steps = screen.table.replay.get("steps", []) if screen.table.version != shown else []
        if len(st.bots) < 2 or r.lesson.script[r.index - 1] is not st:
            continue
        seen += 1
        if st.kind in ("ask", "goal"):
            assert steps[0]["seat"] == r.learner and steps[0]["yours"], steps[0]
        theirs = [s for s in steps if not s["yours"]]
        at = 0
        for bot in st.bots:       # in order, each a step of that seat whose caption names the card
            seat = r.scenario.players.index(bot.as_)
            while at < len(theirs) and not (theirs[at]["seat"] == seat and
                                            (bot.card is None or bot.card in theirs[at]["lines"][0])):
                at += 1
            assert at < len(theirs), (st.say[:40], bot, [(s["seat"], s["lines"][:1]) for s in theirs])
            at += 1
        assert all(s["seat"] != r.learner for s in theirs)
    assert seen >= 1


def test_a_step_whose_next_step_has_its_own_position_plays_the_moves_back_first():
    # lesson 15, step 6: your DESTROY, Clover's Greedy Flying Unicorn, the bots' draws; step 7 starts anew
    screen = LessonScreen(LessonRunner(lesson_path("15-effect-chain")))
    walk_to(screen, 6)
    old = screen.runner.game
    click_expected(screen)
    assert screen.runner.game is not old and screen.runner.progress[0] == 7
    steps = screen.table.replay["steps"]
    assert [s["seat"] for s in steps] == [0, 2, 1, 2] and steps[0]["yours"]
    assert steps[0]["lines"][0] == "You DESTROY Basic Unicorn (Blue) from Bramble's Stable."
    assert steps[2]["lines"][0] == "Bramble DRAWs 1 card." and steps[3]["lines"][0] == "Clover DRAWs 1 card."
    # the new position is on the table; Back to the step before shows it again with nothing to play back
    screen.back_button.click()
    assert screen.runner.progress[0] == 6 and screen.table.replay == {}
