"""Lessons: a scenario plus a script of steps (pure Python, never imports ipywidgets).

`load_lesson(path)` validates a lesson file; `LessonRunner(lesson)` plays it on the live engine (its module
docstring is the API a lesson screen builds on); `check_lessons(paths)` is `uu lesson check`;
`coverage()` maps RS01–RS52 to lesson steps.
"""

from pathlib import Path

from uu.tutor.lesson_model import Lesson, LessonFileError, LessonSpec, ScriptStep, load_lesson, parse_lesson
from uu.tutor.lesson_runner import Feedback, LessonError, LessonRunner

__all__ = ["Feedback", "Lesson", "LessonError", "LessonFileError", "LessonRunner", "LessonSpec", "ScriptStep",
           "check_lessons", "coverage", "load_lesson", "parse_lesson", "shipped_lessons"]


def check_lessons(paths: list[str] | None = None) -> int:
    from uu.tutor.check import check_lessons as _check

    return _check(paths or [])


def shipped_lessons() -> list[Path]:
    from uu.tutor.check import shipped_lessons as _shipped

    return _shipped()


def coverage(lessons: list[Lesson] | None = None) -> dict[str, list[tuple[str, list[int]]]]:
    from uu.tutor.coverage import coverage as _coverage

    return _coverage(lessons)
