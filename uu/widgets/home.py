"""`HomeScreen`: the lessons in reading order with the learner's progress, "Play a game" and the sandbox.

It reads the lessons and their progress from the `App` (progress lives in the App object for the session)
and calls back into it to open a screen. CSS classes: uu-home-screen, uu-lesson-row, uu-open-lesson,
uu-lesson-<id> (the button that opens that lesson), uu-play, uu-open-sandbox.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import ipywidgets as widgets

from uu.render import esc
from uu.widgets.common import ScreenBase, make_button, safe

if TYPE_CHECKING:
    from uu.widgets.app import App

__all__ = ["HomeScreen", "STATUS_LABELS"]

STATUS_LABELS = {"done": ("done", "uu-status-done"), "in progress": ("in progress", "uu-status-progress"),
                 "not started": ("not started", "uu-status-new")}
BUTTON_TEXT = {"done": "Review", "in progress": "Continue", "not started": "Start"}


class HomeScreen(ScreenBase):
    def __init__(self, app: App, **kwargs: Any):
        super().__init__(**kwargs)
        self.app = app
        self.add_class("uu-home-screen")
        self.lesson_buttons: dict[str, widgets.Button] = {}
        self.play_button = make_button("Play a game", "uu-play", self.on_play, style="success",
                                       tooltip="A full game against 1 to 7 bots")
        self.sandbox_button = make_button("Open the sandbox", "uu-open-sandbox", self.on_sandbox,
                                          tooltip="Build any position, play on from it, branch, get hints")
        self.rows = widgets.VBox()
        self.rows.add_class("uu-lessons")
        self.intro = widgets.HTML(
            "<h1 style='margin:4px 0'>Unstable Unicorns: learn to play</h1>"
            "<p>Learn by doing: each lesson asks you for moves on a live game, the rules engine checks them, "
            "and every step says which rule is at work. Take the lessons in order, or jump in anywhere.</p>")
        self.children = [self.intro, self.error_box, widgets.HTML("<h3>Lessons</h3>"), self.rows,
                         widgets.HTML("<h3>Play</h3><p>A full game against the bots, with undo.</p>"),
                         self.play_button,
                         widgets.HTML("<h3>What if…?</h3><p>The sandbox: build any position, play on from it "
                                      "with undo and branches, see what each move would do, ask for a hint, "
                                      "and share the position as text.</p>"),
                         self.sandbox_button]
        self.refresh()

    @safe
    def on_open(self, lesson_id: str) -> None:
        self.app.navigate(self.app.open_lesson, lesson_id)

    @safe
    def on_play(self, _b: Any = None) -> None:
        self.app.navigate(self.app.open_play)

    @safe
    def on_sandbox(self, _b: Any = None) -> None:
        self.app.navigate(self.app.open_sandbox)

    def refresh(self) -> None:
        rows = []
        for lesson in self.app.lessons:
            status = self.app.status(lesson.id)
            label, css = STATUS_LABELS[status]
            k, n = self.app.step_of(lesson.id)
            where = f" · step {k} of {n}" if status == "in progress" else ""
            text = widgets.HTML(
                f"<div><b>{esc(lesson.order)}. {esc(lesson.title)}</b> "
                f"<span class='{css}'>({esc(label)}{esc(where)})</span>"
                f"<br><span style='color:#555'>{esc(lesson.spec.summary or '')}</span></div>",
                layout=widgets.Layout(flex="1 1 auto"))
            b = self.lesson_buttons.get(lesson.id)
            if b is None:
                b = make_button("", ("uu-open-lesson", f"uu-lesson-{lesson.id}"), width="8em")
                b.on_click(lambda _b, lid=lesson.id: self.on_open(lid))
                self.lesson_buttons[lesson.id] = b
            b.description = BUTTON_TEXT[status]
            b.tooltip = f"{BUTTON_TEXT[status]}: {lesson.title}"
            b.button_style = "" if status == "done" else "primary"
            row = widgets.HBox([b, text], layout=widgets.Layout(align_items="center"))
            row.add_class("uu-lesson-row")
            rows.append(row)
        for problem in self.app.load_problems:
            rows.append(widgets.HTML(f"<div class='uu-error-box'>{esc(problem)}</div>"))
        self.rows.children = rows
