"""`uu app`'s options for teachers: `--lessons DIR` (their own lessons on the home, uu/tutor/folder.py) and
`--class` (the class view, uu/server/classroom.py and uu/server/classview.py), set up before the server starts."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

__all__ = ["CLASS_TOKEN_ENV", "DEFAULT_CLASS_DB", "add_teacher_options", "class_view_setup", "teacher_lessons"]

LESSONS_HELP = ("a folder of your own lesson files, added to the home under \"Your teacher's lessons\" (checked "
                "at start as `uu lesson check` does; a broken one is listed with its error)")
CLASS_HELP = ("the class view: a page for you (its address and token are printed at start) showing every "
              "learner's name, lesson, step, wrong moves and quiz results, live")
CLASS_DB_HELP = "with --class: the SQLite file that keeps the class view (default: uu-class.sqlite3 here)"
CLASS_TOKEN_HELP = ("with --class: the class view's token (at least 12 characters; default: "
                    "$UU_CLASS_TOKEN, else a new random one)")
CLASS_TOKEN_ENV = "UU_CLASS_TOKEN"
DEFAULT_CLASS_DB = "uu-class.sqlite3"


def teacher_lessons(lessons: str | None) -> int:
    """Check the teacher's lessons folder (`--lessons`, else a `teacher-lessons/` folder of the repository),
    print what `uu lesson check` would, and tell the learners' kernels where it is. 2 if `--lessons` names no
    folder; a broken lesson is only reported."""
    from uu.tutor.check import shipped_lessons
    from uu.tutor.folder import LESSONS_ENV, check_folder, lessons_folder, report_lines
    from uu.tutor.lesson_model import load_lesson

    if lessons is not None:
        folder = Path(lessons).expanduser().resolve()
        if not folder.is_dir():
            print(f"uu app: --lessons {lessons}: there is no such folder", file=sys.stderr)
            return 2
        os.environ[LESSONS_ENV] = str(folder)
    else:
        from importlib.resources import files

        found = lessons_folder(cwd=Path(str(files("uu").joinpath("notebooks"))))  # where the app notebook runs
        if found is None:
            return 0
        folder = found
    taken = set()
    for path in shipped_lessons():
        try:
            taken.add(load_lesson(path).id)
        except Exception:  # a shipped lesson is checked by the test suite, not here
            continue
    print(f"uu app: your lessons in {folder}:", flush=True)
    for line in report_lines(check_folder(folder, taken)):
        print(f"  {line}", flush=True)
    return 0


def class_view_setup(on: bool, db: str | None, token: str | None) -> tuple[str, str] | int:
    """(database path, token) for `--class`, with the path given to the learners' kernels; an exit code when
    the database cannot be opened or the token is too short. Off: no kernel reports anything."""
    import secrets

    from uu.server.classroom import CLASS_DB_ENV, connect

    env_token = os.environ.pop(CLASS_TOKEN_ENV, None)  # never in the learners' kernels' environment
    if not on:
        os.environ.pop(CLASS_DB_ENV, None)
        return ("", "")
    token = token or env_token or secrets.token_urlsafe(18)
    if len(token) < 12:
        print("uu app: --class-token: at least 12 characters, please (anyone who guesses it sees the class)",
              file=sys.stderr)
        return 2
    path = Path(db or DEFAULT_CLASS_DB).expanduser().resolve()
    try:
        connect(path).close()
        path.chmod(0o600)  # learners' names: this user only (SQLite gives its -wal and -shm files the same mode)
    except Exception as e:
        print(f"uu app: the class view cannot use {path}: {e}", file=sys.stderr)
        return 1
    os.environ[CLASS_DB_ENV] = str(path)
    return (str(path), token)


def add_teacher_options(p: argparse.ArgumentParser) -> None:
    """`--lessons`, `--class`, `--class-db`, `--class-token` (for `uu app` and `python -m uu.server.app`)."""
    p.add_argument("--lessons", default=None, metavar="DIR", help=LESSONS_HELP)
    p.add_argument("--class", dest="class_view", action="store_true", help=CLASS_HELP)
    p.add_argument("--class-db", default=None, metavar="PATH", help=CLASS_DB_HELP)
    p.add_argument("--class-token", default=None, metavar="TOKEN", help=CLASS_TOKEN_HELP)
