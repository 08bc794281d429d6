"""`uu lesson check` and `uu lesson stats`: validate lesson files, replay and explore their scripts.

For each file: it must load (a FAIL names the file, line and field otherwise), pass as a scenario, and its
script must replay: every `ask` move legal when asked (after the bots) and answered "right", every scripted
`mistakes:` move answered with its feedback kind and leaving the game unchanged, the consequence its `why`
states (`shows:`) holding on the table the learner is shown, every goal reached by its
`solution:`, every question answered by its answer, every `check` holding. Then `uu.tutor.explore` tries
every other way through the lesson (every move a step accepts, every legal wrong move, every first move of a
goal) and fails on any dead end. The course standards are checked too: pages of at most 60 words, a recap of
at most three lines, and a quiz of two or three questions. Across the set, lesson ids and orders must be
unique.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from uu.bots import HeuristicBot
from uu.cards.localized import card_name
from uu.i18n import LANGUAGES
from uu.scenario.runner import check_expect, run_scenario
from uu.tutor.explore import Exploration, explore
from uu.tutor.lesson_model import Lesson, LessonFileError, load_lesson
from uu.tutor.lesson_runner import LessonRunner
from uu.tutor.translation import MAX_TRANSLATED_PAGE_WORDS, check_translation, translated_lesson

__all__ = ["LessonReport", "MAX_PAGE_WORDS", "cards_shown", "check_lesson", "check_lessons", "lesson_files",
           "lesson_stats", "print_stats", "report_lesson", "shipped_lessons", "verified_consequences", "words"]

MAX_PAGE_WORDS = 60
TRANSLATION_LANGUAGES = LANGUAGES[1:]
QUIZ_SIZE = (2, 3)
_WORD = re.compile(r"[^\W_][\w'’-]*")


def words(text: str) -> int:
    """Words a learner reads in a Markdown text (markup and punctuation not counted)."""
    return len(_WORD.findall(text))


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
    """The English lesson files of `paths` (folders searched recursively; a folder named after a language,
    `fr/` or `de/`, holds translations of the files beside it, not lessons of their own)."""
    if not paths:
        return shipped_lessons()
    out: list[Path] = []
    for p in map(Path, paths):
        out.extend(sorted(f for f in p.rglob("*.yaml") if f.parent.name not in TRANSLATION_LANGUAGES)
                   if p.is_dir() else [p])
    return out


@dataclass
class LessonReport:
    problems: list[str] = field(default_factory=list)
    exploration: Exploration | None = None


def _standards(lesson: Lesson, max_words: int = MAX_PAGE_WORDS) -> list[str]:
    out = []
    for i, st in enumerate(lesson.script, 1):
        n = words(st.say)
        if n > max_words:
            out.append(f"step {i}: the page has {n} words (at most {max_words})")
    quiz = sum(st.quiz for st in lesson.script)
    if not QUIZ_SIZE[0] <= quiz <= QUIZ_SIZE[1]:
        out.append(f"the lesson has {quiz} quiz questions (`quiz: true`); a lesson ends with "
                   f"{QUIZ_SIZE[0]} or {QUIZ_SIZE[1]}")
    if not lesson.spec.recap:
        out.append("the lesson has no `recap:` (one to three short lines shown at the end)")
    return out


def verified_consequences(lesson: Lesson) -> int:
    """The sentences of `lesson` whose consequence `uu lesson check` verifies on the engine: each wrong move's
    `why` with `shows:` checks (on the table the learner is shown), and each `right:` text of a step with
    `shows:` (the table as the move is made) or `check:` expectations (once the bots have acted)."""
    return sum(sum(m.shows is not None for m in st.mistakes)
               + (st.right is not None and (st.check is not None or st.shows is not None))
               for st in lesson.script)


def _replay(lesson: Lesson) -> list[str]:
    """The scripted path: the asked moves, the scripted mistakes, the solutions, the answers."""
    script = lesson.script
    r = LessonRunner(lesson)
    learner_bot = HeuristicBot(0)
    for i, st in enumerate(script, 1):
        where = f"step {i}"
        if r.stuck:
            return r.problems[-1:] or [f"{where}: the lesson is stuck"]
        if r.index != i - 1:
            return [f"{where}: the runner is at step {r.index + 1}"]
        if st.kind == "page":
            r.next()
            continue
        if st.kind == "question":
            assert st.question is not None
            r.choose(st.question.answer)
            continue
        if st.kind == "game":
            for _ in range(400):
                if r.index != i - 1 or r.stuck or not r.learner_actions():
                    break
                r.try_move(learner_bot.choose(r.game))
            if r.index == i - 1 and not r.stuck:
                return [f"{where}: the guided game did not finish its step"]
            continue
        if st.kind == "ask":
            assert st.ask is not None
            for j, m in enumerate(st.mistakes, 1):
                before = r.game.to_dict()
                fb = r.try_move(r.mistake_action(m))
                if fb.kind != m.expect:
                    return [f"{where} mistakes[{j}]: expected feedback {m.expect!r}, got {fb.kind!r} ({fb.text})"]
                if r.game.to_dict() != before or r.index != i - 1:
                    return [f"{where} mistakes[{j}]: the wrong move changed the game"]
                if m.shows is not None:
                    assert fb.preview is not None  # a legal wrong move is always played out on a copy
                    stray = r.continue_play_out(fb.preview, m.after, r.game.turn[2])
                    if stray:
                        return [f"{where} mistakes[{j}] {stray}"]
                    wrong = check_expect(fb.preview, lesson.scenario, m.shows, f"{where} mistakes[{j}] shows")
                    if wrong:
                        return [f"{p} (the sentence: {m.why})" for p in wrong]
            a = r.answer()
            if a is None:
                legal = "; ".join(r.describe(x) for x in r.learner_actions())
                return [f"{where}: the asked move ({st.ask.do}) is not legal now. Legal: {legal or 'none'}"]
            fb = r.try_move(a)
            if fb.kind != "right":
                return [f"{where}: the asked move got {fb.kind!r} feedback: {fb.text}"]
        else:
            for j, move in enumerate(st.solution, 1):
                if r.index != i - 1:
                    return [f"{where}: the goal was reached before solution[{j}]"]
                a = r._find(move)
                if a is None:
                    legal = "; ".join(r.describe(x) for x in r.learner_actions())
                    return [f"{where} solution[{j}] ({move.do}) matches no legal move of the learner; legal: "
                            f"{legal or 'none (the learner does not decide now)'}"]
                r.try_move(a)
            if r.index == i - 1:
                return [f"{where}: the solution does not reach the goal"]
        if r.problems:
            return list(r.problems)
    if r.stuck or r.problems:
        return r.problems[-1:] or ["the lesson is stuck at its end"]
    if not r.done:
        return ["the script did not reach its end"]
    return []


def report_lesson(lesson: Lesson, explore_paths: bool = True, translated: bool = False) -> LessonReport:
    """Everything `uu lesson check` finds about one lesson (`translated`: a lesson in another language than
    English, whose pages may be longer)."""
    res = run_scenario(lesson.scenario)
    if not res.passed:
        return LessonReport([f"as a scenario: {res.message}"])
    problems = _standards(lesson, MAX_TRANSLATED_PAGE_WORDS if translated else MAX_PAGE_WORDS) + _replay(lesson)
    if problems or not explore_paths:
        return LessonReport(problems)
    ex = explore(LessonRunner(lesson))
    problems += [f"dead end: {d}" for d in ex.dead_ends[:3]]
    if len(ex.dead_ends) > 3:
        problems.append(f"... and {len(ex.dead_ends) - 3} more dead ends")
    if not ex.complete:
        problems.append(f"too many ways through to prove (more than {ex.states} states): split the lesson or "
                        "narrow `accept:`")
    return LessonReport(problems, ex)


def check_lesson(lesson: Lesson) -> list[str]:
    """Problems found replaying and exploring `lesson` (empty: it passes)."""
    return report_lesson(lesson).problems


def _load_all(paths: list[str] | None, lang: str = "en") -> tuple[list[tuple[Path, Lesson | str]], list[str]]:
    from uu.scenario.load import empty_folders

    files = lesson_files(list(paths or []))
    out: list[tuple[Path, Lesson | str]] = []
    for f in files:
        try:
            if lang != "en":
                problems = check_translation(f, lang)
                if problems:
                    out.append((f, "; ".join(problems)))
                    continue
            out.append((f, translated_lesson(f, lang) if lang != "en" else load_lesson(f)))
        except LessonFileError as e:
            out.append((f, str(e)))
        except Exception as e:  # a loader bug is one FAIL line; the other files are still checked
            out.append((f, f"internal error {type(e).__name__}: {e}"))
    empty = [f"{d}: the folder holds no *.yaml lesson files" for d in empty_folders(list(paths or []))]
    return out, (empty if files else empty or ["lessons: no lesson files found"])


def check_lessons(paths: list[str] | None = None, lang: str = "en") -> int:
    """Print PASS/FAIL per lesson and `N passed, M failed`; 0 iff none failed. With `lang` (fr, de): check each
    lesson's translation instead: it matches the English file's shape (uu.tutor.translation), loads, and its
    script replays (the moves and checks are the English ones; exploring them again would find nothing new)."""
    if lang not in LANGUAGES:
        print(f"FAIL --lang {lang!r}: the languages are {', '.join(LANGUAGES)}")
        return 1
    items, empty = _load_all(paths, lang)
    passed = failed = alternatives = dead = verified = 0
    loaded: list[Lesson] = []
    for p in empty:
        print(f"FAIL {p}")
        failed += 1
    for f, lesson in items:
        if isinstance(lesson, str):  # load errors already start with the path
            print(f"FAIL {lesson}" if lesson.startswith(f"{f}: ") else f"FAIL {f}: {lesson}")
            failed += 1
            continue
        try:
            rep = report_lesson(lesson, explore_paths=lang == "en", translated=lang != "en")
        except Exception as e:  # an engine bug is still reported per lesson, never as a traceback
            rep = LessonReport([f"internal error {type(e).__name__}: {e}"])
        ex = rep.exploration
        if ex is not None:
            alternatives += ex.alternatives
            dead += len(ex.dead_ends)
        explored = f" ({ex.alternatives} alternatives explored, {ex.states} states)" if ex else ""
        if rep.problems:
            print(f"FAIL {lesson.title}: {'; '.join(rep.problems)}")
            failed += 1
        else:
            print(f"PASS {lesson.title}{explored}")
            passed += 1
            verified += verified_consequences(lesson)
            loaded.append(lesson)
    for key in ("id", "order"):
        counts = Counter(getattr(les, key) for les in loaded)
        for value, n in counts.items():
            if n > 1:
                names = ", ".join(les.path for les in loaded if getattr(les, key) == value)
                print(f"FAIL lessons: {key} {value!r} is used by {n} lessons ({names})")
                failed += 1
    print(f"explored {alternatives} alternatives, {dead} dead ends, {verified} stated consequences verified")
    print(f"{passed} passed, {failed} failed")
    return 0 if failed == 0 else 1


# ---- which cards a lesson shows, and the course in numbers ---------------------------------------------------
def cards_shown(lesson: Lesson, lang: str = "en") -> set[str]:
    """Catalog names of the cards a learner sees in `lesson`: in a Stable, the learner's hand, the discard
    pile or the Nursery of any position the lesson sets up, or named in its narration (in `lang`, the
    narration names them as that language's edition does)."""
    from uu.cards import catalog

    names = [c.name for c in catalog()]
    positions = [lesson.scenario] + [st.position.scenario(lesson.scenario) for st in lesson.script
                                     if st.position is not None]
    out: set[str] = set()
    for sc in positions:
        for cards in (sc.stables or {}).values():
            out.update(cards)
        out.update((sc.hands or {}).get(lesson.learner, []))
        out.update(sc.discard)
        if sc.nursery != "auto":
            out.update(sc.nursery)
    text = " ".join(st.say for st in lesson.script)
    # longest names first, so "Neigh" inside "Super Neigh" is not counted for a text naming only the latter
    written = {name: card_name(name, lang) for name in names}
    for name in sorted(names, key=lambda n: len(written[n]), reverse=True):
        if written[name] in text:
            out.add(name)
            text = text.replace(written[name], " ")
    return out


def lesson_stats(paths: list[str] | None = None, lang: str = "en") -> dict[str, Any]:
    """The course in numbers (what `uu lesson stats` prints as JSON), for the lessons in `lang`: the same
    totals in every language (the steps, moves, checks and cards are the English file's), except the word count
    of the longest page."""
    from uu.cards import catalog

    items, _ = _load_all(paths, lang)
    lessons = sorted((les for _f, les in items if isinstance(les, Lesson)), key=lambda les: les.order)
    rows: list[dict[str, Any]] = []
    covered: set[str] = set()
    alternatives = dead = 0
    for les in lessons:
        rep = report_lesson(les, translated=lang != "en")
        ex = rep.exploration
        alternatives += ex.alternatives if ex else 0
        dead += len(ex.dead_ends) if ex else 0
        shown = cards_shown(les, lang)
        covered |= shown
        rows.append({
            "id": les.id, "order": les.order, "title": les.title, "steps": len(les.script),
            "learner_moves": sum(st.kind in ("ask", "goal", "game") for st in les.script),
            "quiz_questions": sum(st.quiz for st in les.script),
            "longest_page_words": max(words(st.say) for st in les.script),
            "scripted_wrong_moves": sum(len(st.mistakes) for st in les.script),
            "verified_consequences": verified_consequences(les),
            "cards_shown": len(shown), "passed": not rep.problems,
        })
    deck = {c.name for c in catalog()}
    total_keys = ("steps", "learner_moves", "quiz_questions", "scripted_wrong_moves", "verified_consequences")
    totals: dict[str, Any] = {"lessons": len(rows), **{k: sum(r[k] for r in rows) for k in total_keys}}
    totals["longest_page_words"] = max((r["longest_page_words"] for r in rows), default=0)
    totals["alternatives_explored"] = alternatives
    totals["dead_ends"] = dead
    totals["cards_covered"] = f"{len(covered & deck)}/{len(deck)}"
    totals["cards_missing"] = sorted(deck - covered)
    return {"lessons": rows, "totals": totals}


def print_stats(paths: list[str] | None = None, lang: str = "en") -> int:
    if lang not in LANGUAGES:
        print(f"--lang {lang!r}: the languages are {', '.join(LANGUAGES)}")
        return 1
    print(json.dumps(lesson_stats(paths, lang), indent=2, ensure_ascii=False))
    return 0
