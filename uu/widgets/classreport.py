"""The app's side of the class view (uu/server/classroom.py, uu/tutor/hubreport.py): whether this kernel reports to
one, a name's check, and the quiz results it reports. The class store is imported only when a class view is on:
the browser build (uu/lite) has no sqlite3."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from uu.tutor.hubreport import ClassChannel

__all__ = ["class_reporter", "name_problem", "quiz_summary"]


def class_reporter() -> ClassChannel | None:
    """The class view's channel when `uu app --class` put its database in this kernel's environment or a hub
    runs this server (uu/tutor/hubreport.py), else None."""
    on_hub = os.environ.get("JUPYTERHUB_API_URL") or os.environ.get("JUPYTERHUB_SERVICE_PREFIX")
    if not (os.environ.get("UU_CLASS_DB", "").strip() or on_hub):  # uu.tutor.class_store.CLASS_DB_ENV
        return None
    from uu.tutor.hubreport import class_reporter as reporter

    return reporter()


def name_problem(name: str) -> str | None:
    from uu.tutor.class_store import name_problem as problem

    return problem(name)


def quiz_summary(app: Any) -> dict[str, list[int]]:
    """{lesson title: [right at the first try, questions answered]} for each lesson with quiz answers."""
    out: dict[str, list[int]] = {}
    for lesson in app.lessons:
        screen = app.lesson_screens.get(lesson.id)
        saved = app.saved.get(lesson.id)
        quiz = (screen.runner.quiz_results if screen is not None else
                saved.quiz if saved is not None else {})
        if quiz:
            out[lesson.title] = [sum(1 for ok in quiz.values() if ok), len(quiz)]
    return out
