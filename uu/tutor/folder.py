"""A teacher's own lessons: a folder of lesson files added to the app's home (`uu app --lessons DIR`).

Each file is checked as `uu lesson check` checks it (`uu.tutor.check`: it must load, replay and have no dead
end), with the same messages. A lesson that fails is listed on the home with its message and cannot be
opened; a folder that cannot be read is one message. Nothing here raises: a broken lesson never stops the app.

Where the folder is: `UU_LESSONS_DIR` when set (`uu app --lessons DIR` sets it for the learners' kernels),
else a `teacher-lessons/` folder at the root of the repository the app runs from (a fork on Binder adds its
lessons there; `lessons/` holds the shipped course).
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass
from pathlib import Path

from uu.tutor.lesson_model import Lesson

__all__ = ["FOLDER_NAME", "LESSONS_ENV", "MAX_FILES", "TeacherLesson", "check_folder", "lessons_folder",
           "report_lines"]

log = logging.getLogger(__name__)

LESSONS_ENV = "UU_LESSONS_DIR"
FOLDER_NAME = "teacher-lessons"
# a class's own lessons are a handful; a folder pointed at by mistake (a home directory) must not make every
# kernel read thousands of files
MAX_FILES = 100


@dataclass
class TeacherLesson:
    path: Path
    lesson: Lesson | None      # None: broken, see problem
    problem: str | None = None

    @property
    def title(self) -> str:
        return self.lesson.title if self.lesson is not None else self.path.name


def lessons_folder(cwd: Path | None = None) -> Path | None:
    """The teacher's lessons folder, or None when there is none."""
    env = os.environ.get(LESSONS_ENV, "").strip()
    if env:
        return Path(env).expanduser()
    # the repository root: beside the package in a clone (an editable install), or two levels above the
    # notebook's folder (uu/notebooks) where Voila runs the notebook from a checkout, as on Binder
    here = Path(__file__).resolve().parents[2]
    cwd = cwd or Path.cwd()
    for root in (here, *cwd.resolve().parents[:2]):
        folder = root / FOLDER_NAME
        if folder.is_dir():
            return folder
    return None


def check_folder(folder: Path, taken_ids: set[str] | None = None) -> list[TeacherLesson]:
    """Every `*.yaml` lesson in `folder` (not its subfolders' order: all of them, sorted by path), checked.
    `taken_ids`: lesson ids already used (the shipped lessons); a teacher's lesson may not reuse one."""
    from uu.tutor.check import LessonReport, _load_all, report_lesson

    if not folder.is_dir():
        return [TeacherLesson(folder, None, f"{folder}: there is no such folder")]
    try:
        items, empty = _load_all([str(folder)])
    except OSError as e:
        return [TeacherLesson(folder, None, f"{folder}: the folder cannot be read ({e.strerror or e})")]
    out: list[TeacherLesson] = [TeacherLesson(folder, None, p) for p in empty]
    if len(items) > MAX_FILES:
        out.append(TeacherLesson(folder, None, f"{folder}: more than {MAX_FILES} lesson files; only the first "
                                               f"{MAX_FILES} are used"))
        items = items[:MAX_FILES]
    seen = set(taken_ids or ())
    for path, lesson in items:
        if isinstance(lesson, str):  # the loader's message already names the file, line and field
            out.append(TeacherLesson(path, None, lesson if lesson.startswith(f"{path}: ") else f"{path}: {lesson}"))
            continue
        try:
            rep = report_lesson(lesson)
        except Exception as e:  # an engine bug is still one message for this lesson
            log.exception("checking %s", path)
            rep = LessonReport([f"internal error {type(e).__name__}: {e}"])
        problems = list(rep.problems)
        if lesson.id in seen:
            problems.append(f"the lesson id {lesson.id!r} is already used by another lesson; give it an id of "
                            "its own")
        if problems:
            out.append(TeacherLesson(path, None, f"{lesson.title}: {'; '.join(problems)}"))
            continue
        seen.add(lesson.id)
        out.append(TeacherLesson(path, lesson))
    return out


def report_lines(items: list[TeacherLesson]) -> list[str]:
    """PASS/FAIL lines as `uu lesson check` prints them."""
    return [f"PASS {t.lesson.title}" if t.lesson is not None else f"FAIL {t.problem}" for t in items]
