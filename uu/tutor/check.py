"""`uu lesson check`: validate lesson files and replay their scripts on the engine.

For each file: it must load (a FAIL names the file, line and field otherwise), pass as a scenario, and its
script must replay: every `ask` move legal when asked (after the bots) and answered "right", every scripted
`mistakes:` move answered with its feedback kind and leaving the game unchanged, every goal reached by its
`solution:`, every `check` holding, and the lesson must end with an `ask` step that has at least one mistake
(the final check). Across the set, lesson ids and orders must be unique.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

from uu.scenario.runner import run_scenario
from uu.tutor.model import Lesson, LessonFileError, load_lesson
from uu.tutor.runner import LessonRunner

__all__ = ["check_lesson", "check_lessons", "lesson_files", "shipped_lessons"]


def shipped_lessons() -> list[Path]:
    """The lesson files that ship with the project: `lessons/*.yaml` next to the package (a source checkout
    or an editable install), else `uu/lessons/*.yaml` inside an installed package, in file-name order."""
    here = Path(__file__).resolve()
    for folder in (here.parents[2] / "lessons", here.parents[1] / "lessons"):
        if folder.is_dir():
            files = sorted(folder.glob("*.yaml"))
            if files:
                return files
    return []


def lesson_files(paths: list[str]) -> list[Path]:
    if not paths:
        return shipped_lessons()
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(p.rglob("*.yaml")) if p.is_dir() else [p])
    return out


def check_lesson(lesson: Lesson) -> list[str]:
    """Problems found replaying `lesson` (empty: it passes)."""
    res = run_scenario(lesson.scenario)
    if not res.passed:
        return [f"as a scenario: {res.message}"]
    script = lesson.script
    last = script[-1]
    if last.kind != "ask" or not last.mistakes:
        return ["the last step must be a check: an `ask` with at least one entry in `mistakes`"]
    r = LessonRunner(lesson)
    if r.problems:
        return r.problems
    for i, st in enumerate(script, 1):
        where = f"step {i}"
        if r.index != i - 1:
            return [f"{where}: the runner is at step {r.index + 1}"]
        if st.kind == "page":
            fb = r.next()
            if not fb.ok:
                return [fb.text]
            continue
        d = r.game.pending
        if d is None:
            return [f"{where}: the game is over ({r.game.result_text()}) but the step waits for a move"]
        if d.player != r.learner:
            return [f"{where}: the learner ({lesson.learner}) should decide, but "
                    f"{r.game.players[d.player]} must ({d.kind}): {d.prompt}"]
        if st.kind == "ask":
            for j, m in enumerate(st.mistakes, 1):
                before = r.game.to_dict()
                fb = r.try_move(r.mistake_action(m))
                if fb.kind != m.expect:
                    return [f"{where} mistakes[{j}]: expected feedback {m.expect!r}, got {fb.kind!r} ({fb.text})"]
                if r.game.to_dict() != before or r.index != i - 1:
                    return [f"{where} mistakes[{j}]: the wrong move changed the game"]
            a = r.answer()
            if a is None:
                legal = "; ".join(r.describe(x) for x in d.actions)
                return [f"{where}: the asked move ({st.ask.do}) is not legal now. Legal: {legal}"]
            fb = r.try_move(a)
            if fb.kind != "right":
                return [f"{where}: the asked move got {fb.kind!r} feedback: {fb.text}"]
        else:
            for j, m in enumerate(st.solution, 1):
                if r.index != i - 1:
                    return [f"{where}: the goal was reached before solution[{j}]"]
                a = r._find(m)
                if a is None:
                    pending = r.game.pending
                    now = "the game is over" if pending is None else (
                        f"{r.game.players[pending.player]} must decide ({pending.kind}); legal: "
                        + "; ".join(r.describe(x) for x in pending.actions))
                    return [f"{where} solution[{j}] ({m.do}) matches no legal move of the learner; {now}"]
                r.try_move(a)
            if r.index == i - 1:
                return [f"{where}: the solution does not reach the goal"]
        if r.problems:
            return list(r.problems)
    if not r.done:
        return ["the script did not reach its end"]
    return []


def check_lessons(paths: list[str] | None = None) -> int:
    """Print PASS/FAIL per lesson and `N passed, M failed`; 0 iff none failed."""
    files = lesson_files(list(paths or []))
    passed = failed = 0
    loaded: list[Lesson] = []
    if not files:
        print("FAIL lessons: no lesson files found")
        failed += 1
    for f in files:
        try:
            lesson = load_lesson(f)
        except LessonFileError as e:
            print(f"FAIL {f}: {e}")
            failed += 1
            continue
        try:
            problems = check_lesson(lesson)
        except Exception as e:  # an engine bug is still reported per lesson, never as a traceback
            problems = [f"internal error {type(e).__name__}: {e}"]
        if problems:
            print(f"FAIL {lesson.title}: {'; '.join(problems)}")
            failed += 1
        else:
            print(f"PASS {lesson.title}")
            passed += 1
            loaded.append(lesson)
    for key in ("id", "order"):
        counts = Counter(getattr(les, key) for les in loaded)
        for value, n in counts.items():
            if n > 1:
                names = ", ".join(les.path for les in loaded if getattr(les, key) == value)
                print(f"FAIL lessons: {key} {value!r} is used by {n} lessons ({names})")
                failed += 1
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1
