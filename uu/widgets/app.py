"""`App`: the whole tutor in one widget. Home, lesson and play screens switch inside one kernel (one VBox
whose children change), so Voila serves a single notebook.

    app = App()                  # the home screen
    app = App(start="setup")     # straight into a lesson (by id); App(start="play") for a game,
                                 # App(start="sandbox") for the what-if sandbox
    app.open_lesson("neigh"); app.open_play(); app.open_sandbox(); app.show_home()
    app.screen                   # the screen shown now (HomeScreen, LessonScreen, PlayScreen or SandboxScreen)
    app.status("setup")          # "not started" | "in progress" | "done" (kept for the session)

Lesson screens, the game and the sandbox are kept while the App lives, so leaving one and coming back
resumes it.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

import ipywidgets as widgets

from uu.tutor.check import shipped_lessons
from uu.tutor.model import Lesson, load_lesson
from uu.tutor.runner import LessonRunner
from uu.widgets.common import ScreenBase, built_whole, error_html, make_button, readable, style_widget
from uu.widgets.home import HomeScreen
from uu.widgets.lesson import LessonScreen
from uu.widgets.play import PlayScreen
from uu.widgets.sandbox import SandboxScreen

log = logging.getLogger(__name__)

__all__ = ["App"]


class App(widgets.VBox):
    def __init__(self, start: str = "home", lessons: list[Lesson] | list[str | Path] | None = None,
                 delay: float = 0.3, **kwargs: Any):
        with built_whole():  # the whole app in one message per widget
            self._build(start, lessons, delay, **kwargs)

    def _build(self, start: str, lessons: list[Any] | None, delay: float, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.add_class("uu-app")
        self.add_class("uu-root")
        self.delay = delay
        self.error: str | None = None
        self.error_box = widgets.HTML()
        self.error_box.add_class("uu-error")
        self.lessons: list[Lesson] = []
        self.load_problems: list[str] = []
        self._load(lessons)
        self.progress: dict[str, str] = {}
        self.lesson_screens: dict[str, LessonScreen] = {}
        self.play_screen: PlayScreen | None = None
        self.sandbox_screen: SandboxScreen | None = None
        self.home_button = make_button("Home", ("uu-home", "uu-nav-home"), self._nav_home,
                                       tooltip="All lessons and the game")
        self.nav = widgets.HBox([self.home_button], layout=widgets.Layout(align_items="center"))
        self.nav.add_class("uu-nav")
        self.home = HomeScreen(self)
        self.screen: ScreenBase = self.home
        self.style_html = style_widget()
        self._show(self.home)
        self._guard(self._open_start, start)

    # ---- lessons and progress -------------------------------------------------------------------------
    def _load(self, lessons: list[Any] | None) -> None:
        sources = shipped_lessons() if lessons is None else lessons
        for src in sources:
            if isinstance(src, Lesson):
                self.lessons.append(src)
                continue
            try:
                self.lessons.append(load_lesson(src))
            except Exception as e:
                log.exception("cannot load lesson %s", src)
                self.load_problems.append(f"A lesson could not be loaded: {e}")
        self.lessons.sort(key=lambda lesson: lesson.order)

    def lesson(self, lesson_id: str) -> Lesson:
        for lesson in self.lessons:
            if lesson.id == lesson_id:
                return lesson
        raise ValueError(f"there is no lesson {lesson_id!r}; lessons: {', '.join(x.id for x in self.lessons)}")

    def status(self, lesson_id: str) -> str:
        return self.progress.get(lesson_id, "not started")

    def step_of(self, lesson_id: str) -> tuple[int, int]:
        screen = self.lesson_screens.get(lesson_id)
        if screen is None:
            return 1, len(self.lesson(lesson_id).script)
        return screen.runner.progress

    def _lesson_changed(self, screen: LessonScreen) -> None:
        lid = screen.runner.lesson.id
        if screen.runner.done:
            self.progress[lid] = "done"
        elif self.progress.get(lid) != "done":
            self.progress[lid] = "in progress"

    # ---- navigation -----------------------------------------------------------------------------------
    def navigate(self, fn: Any, *args: Any) -> None:
        """Run a navigation step (open_lesson, open_play, show_home): an error is logged and shown in the App,
        and the home screen stays usable."""
        self._guard(fn, *args)

    def _guard(self, fn: Any, *args: Any) -> None:
        try:
            self._set_error(None)
            fn(*args)
        except Exception as e:
            log.exception("error in %s", getattr(fn, "__name__", fn))
            self._set_error(readable(e))
            if self.screen is not self.home:
                self._show(self.home)

    def _set_error(self, message: str | None) -> None:
        self.error = message
        self.error_box.value = error_html(message)

    def _show(self, screen: ScreenBase) -> None:
        self.screen = screen
        self.home_button.layout.display = "none" if screen is self.home else None
        if screen is self.home:
            self.home.refresh()
        self.children = [self.style_html, self.nav, self.error_box, screen]

    def _open_start(self, start: str) -> None:
        if start == "home":
            return
        if start == "play":
            self.open_play()
        elif start == "sandbox":
            self.open_sandbox()
        else:
            self.open_lesson(start)

    def _nav_home(self, _b: Any = None) -> None:
        self._guard(self.show_home)

    def show_home(self) -> HomeScreen:
        self._show(self.home)
        return self.home

    def open_lesson(self, lesson_id: str) -> LessonScreen:
        screen = self.lesson_screens.get(lesson_id)
        if screen is None:
            runner = LessonRunner(self.lesson(lesson_id))
            with built_whole():
                screen = LessonScreen(runner, on_change=self._lesson_changed)  # the nav bar has Home
            self.lesson_screens[lesson_id] = screen
        self._lesson_changed(screen)
        self._show(screen)
        return screen

    def open_play(self) -> PlayScreen:
        if self.play_screen is None:
            with built_whole():
                self.play_screen = PlayScreen(delay=self.delay)
        self._show(self.play_screen)
        return self.play_screen

    def open_sandbox(self) -> SandboxScreen:
        if self.sandbox_screen is None:
            with built_whole():
                self.sandbox_screen = SandboxScreen()
        self._show(self.sandbox_screen)
        return self.sandbox_screen
