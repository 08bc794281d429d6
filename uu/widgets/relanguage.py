"""Changing the language where the learner is (`App.set_lang`): every screen built again in the new language,
each on the same place: a lesson replayed to the same step with its quiz answers, the game replayed to the same
move, the sandbox on the same position and timeline, a review on the same game."""

from __future__ import annotations

from typing import Any

from uu.i18n import _, current_language
from uu.widgets.common import ScreenBase
from uu.widgets.home import HomeScreen
from uu.widgets.language import relabel_picker
from uu.widgets.lesson import LessonScreen
from uu.widgets.progress import GameSaved
from uu.widgets.review import ReviewScreen
from uu.widgets.sandbox import SandboxScreen
from uu.words.lesson_refusals import LessonRunner

__all__ = ["rebuild_in_language"]


def rebuild_in_language(app: Any) -> ScreenBase:
    """Build `app`'s screens again in the language in use; returns the one to show (the one shown before, or the
    home when that screen is gone). `app` is the uu.widgets.tutor_app.App (typed loosely: that module imports this)."""
    shown = app.screen
    # the same lessons in the same order (the shipped ones by their order, then the teacher's)
    order = {lesson.id: i for i, lesson in enumerate(app.lessons)}
    app.lessons = sorted((app._in_language(src) for src in app._sources),
                          key=lambda lesson: order.get(lesson.id, len(order)))
    with app.home_button.hold_sync():
        app.home_button.description = _("Home")
        app.home_button.tooltip = _("All lessons and the game")
    relabel_picker(app.lang_picker)
    if app.lang_picker.value != current_language():
        app.lang_picker.value = current_language()
    if app.classroom is not None and app.classroom.name is not None:
        app.class_label.value = app._class_words(app.classroom.name)
    if app._class_box is not None:
        from uu.widgets.classname import ClassNameBox

        name = app.classroom.name if app.classroom is not None else None
        app._class_box = ClassNameBox(app)
        if name is not None:
            app._class_box.show_name(name)
    # each lesson screen again, on its lesson in the new language, replayed to the same step
    screens, app.lesson_screens = app.lesson_screens, {}
    for lid, old in screens.items():
        runner = LessonRunner(app.lesson(lid))
        runner.quiz_first = dict(old.runner.quiz_first)
        runner.resume(list(old.runner.history))
        screen = LessonScreen(runner, on_change=app._lesson_changed, next_lesson=app._next_lesson(lid))
        app.lesson_screens[lid] = screen
        if shown is old:
            shown = screen
    # the game: the same deal and moves, replayed (as a reload does)
    if app.play_screen is not None:
        was_shown = shown is app.play_screen
        app.play_saved = app._play_settings()
        game = app._game_in_progress()
        app.game_saved = GameSaved.model_validate(game) if game is not None else None
        app.play_screen = None
        if was_shown:
            shown = app._make_play()
    # the sandbox: the same position and the same timeline, redrawn
    if app.sandbox_screen is not None:
        old_sandbox = app.sandbox_screen
        app.sandbox_screen = SandboxScreen()
        app.sandbox_screen.take_state(old_sandbox)
        if shown is old_sandbox:
            shown = app.sandbox_screen
    if app.review_screen is not None:
        old_review = app.review_screen
        app.review_screen = ReviewScreen(old_review.record, old_review.player, on_open=app.open_in_sandbox,
                                          on_home=app.show_home)
        if shown is old_review:
            shown = app.review_screen
    app.home = HomeScreen(app)
    if shown not in (app.play_screen, app.sandbox_screen, app.review_screen) and \
            not isinstance(shown, LessonScreen):
        shown = app.home
    return shown
