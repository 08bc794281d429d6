"""`LessonList`: the home's lessons, every row drawn by one anywidget (lessonlist.js, no build step).

A row of widgets per lesson (a box, a text and a button: three widget models) made the home 70-odd models
larger, and each model is one message that the server reads, relays and the browser loads before the home
is drawn; a class arriving together waited on exactly that. Here Python sends the rows as data, every word
already in the learner's language, and the module draws them: per lesson a `div.uu-lesson-row` with a
`<button class="uu-open-lesson uu-lesson-<id>">` and its text; the teacher's lessons and the files of theirs
that cannot be opened under their own heading (`.uu-teacher-lessons`), shown only when there are any.

The browser sends back only `{"type": "open", "id": <lesson id>}`; an id that is not one of the rows on show
(a stale or forged message) is ignored, and only then is `on_open(id)` called.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypedDict

import anywidget
import traitlets

__all__ = ["BrokenNote", "LessonList", "LessonRow"]

log = logging.getLogger(__name__)
HERE = Path(__file__).parent
MAX_ID = 200  # far above any lesson id; a longer one from the page is not looked up


class LessonRow(TypedDict):
    """One lesson on the home, every word translated."""

    id: str
    order: int
    title: str
    summary: str
    status: str          # "done", "in progress", "not started" in the learner's language
    status_class: str    # uu-status-done, uu-status-progress, uu-status-new
    where: str           # " · step 3 of 6" for a lesson in progress, else ""
    button: str          # "Start", "Continue", "Review"
    tooltip: str
    primary: bool        # a blue button (a lesson not done yet)


class BrokenNote(TypedDict):
    """A teacher's file that cannot be opened: `before` + the file's name (bold) + `after`, one sentence."""

    file: str
    before: str
    after: str


class LessonList(anywidget.AnyWidget):
    _esm = HERE / "lessonlist.js"

    rows: traitlets.List[Any] = traitlets.List().tag(sync=True)          # the course, in reading order
    teacher_rows: traitlets.List[Any] = traitlets.List().tag(sync=True)  # "Your teacher's lessons"
    broken: traitlets.List[Any] = traitlets.List().tag(sync=True)        # BrokenNote per teacher's file
    problems: traitlets.List[Any] = traitlets.List().tag(sync=True)      # lesson files the app could not load
    # the headings: {"lessons": "Lessons", "teacher": "Your teacher's lessons"}, translated
    labels = traitlets.Dict().tag(sync=True)

    def __init__(self, on_open: Callable[[str], object] | None = None, **kwargs: Any):
        super().__init__(**kwargs)
        self.add_class("uu-lesson-list")
        self.on_open = on_open
        self.on_msg(self._on_message)

    def show(self, rows: list[LessonRow], teacher_rows: list[LessonRow] | None = None,
             broken: list[BrokenNote] | None = None, problems: list[str] | None = None) -> None:
        """Set what is drawn; the browser gets one message, and none when nothing changed."""
        with self.hold_sync():
            # a trait set to an equal value notifies nothing, so nothing is sent for it
            self.rows = list(rows)
            self.teacher_rows = list(teacher_rows or [])
            self.broken = list(broken or [])
            self.problems = list(problems or [])

    @property
    def ids(self) -> list[str]:
        """The lesson ids on show, the course's then the teacher's."""
        return [r["id"] for r in (*self.rows, *self.teacher_rows)]

    def row(self, lesson_id: str) -> LessonRow:
        """The row of `lesson_id` as drawn (its button's text, status, ...); KeyError if it is not on show."""
        for r in (*self.rows, *self.teacher_rows):
            if r["id"] == lesson_id:
                return r  # type: ignore[no-any-return]
        raise KeyError(lesson_id)

    def click(self, lesson_id: object) -> bool:
        """What a click on the button of `lesson_id` does (as `Button.click()` for a button widget): calls
        `on_open(lesson_id)` if it is a lesson on show. Returns whether it was called."""
        if not isinstance(lesson_id, str) or len(lesson_id) > MAX_ID or lesson_id not in self.ids:
            return False
        if self.on_open is not None:
            self.on_open(lesson_id)
        return True

    def _on_message(self, _widget: object, content: object, _buffers: object) -> None:
        if not isinstance(content, dict) or content.get("type") != "open":
            return
        try:
            self.click(content.get("id"))
        except Exception:  # the page must never show a traceback; the log keeps it
            log.exception("error while opening the lesson of %r", content)
