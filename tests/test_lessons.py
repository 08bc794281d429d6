"""Lessons: every shipped lesson replays, clicks through headlessly, answers wrong moves without changing the
game, covers RS01–RS52 (and the README table is current); malformed lesson files give clear messages."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from uu.engine.actions import Action
from uu.engine.rules import RS_IDS
from uu.tutor import LessonRunner, check_lessons, load_lesson, parse_lesson
from uu.tutor.check import check_lesson, shipped_lessons
from uu.tutor.coverage import coverage, coverage_table, missing, readme_table
from uu.tutor.model import LessonFileError

ROOT = Path(__file__).resolve().parents[1]
FILES = shipped_lessons()
IDS = [p.name for p in FILES]


def test_enough_lessons_in_reading_order():
    assert len(FILES) >= 11
    lessons = [load_lesson(p) for p in FILES]
    assert [les.order for les in lessons] == sorted(les.order for les in lessons)
    assert len({les.id for les in lessons}) == len(lessons)
    assert all(p.parent == ROOT / "lessons" for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_lesson_passes_check(path):
    assert check_lesson(load_lesson(path)) == []


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_headless_click_through(path):
    r = LessonRunner(path)
    total = len(r.lesson.script)
    guard = 0
    while not r.done:
        guard += 1
        assert guard < 200
        st = r.step
        assert r.progress[0] == r.index + 1 <= total
        if st.kind == "page":
            assert r.try_move(Action("draw")).kind == "info"  # a page does not take moves
            r.next()
            continue
        assert r.learner_actions(), f"step {r.index + 1}: the learner has no decision"
        a = r.answer()
        assert a is not None and a in r.learner_actions()
        fb = r.try_move(a)
        assert fb.ok, fb.text
    assert r.problems == []
    assert r.step is None and r.hint() and r.try_move(Action("draw")).kind == "info"


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_wrong_moves_leave_the_game_unchanged(path):
    r = LessonRunner(path)
    kinds = set()
    while not r.done:
        st = r.step
        if st.kind == "ask":
            for m in st.mistakes:
                before, index = r.game.to_dict(), r.index
                fb = r.try_move(r.mistake_action(m))
                assert fb.kind == m.expect and not fb.ok, fb.text
                assert fb.text and fb.rules
                assert r.game.to_dict() == before and r.index == index
                kinds.add(fb.kind)
            # a move nobody could make is illegal, and changes nothing
            before = r.game.to_dict()
            fb = r.try_move(Action("play", card="No Such Card"))
            assert fb.kind == "illegal" and r.game.to_dict() == before
            r.try_move(r.answer())
        elif st.kind == "page":
            r.next()
        else:
            while r.step is st:
                r.try_move(r.answer())
    assert kinds, "the final check step must try at least one wrong move"


def test_back_and_restart_replay_the_history():
    r = LessonRunner(FILES[1])
    snapshots = []
    while not r.done:
        snapshots.append((r.index, r.game.to_dict()))
        r.next() if r.step.kind == "page" else r.try_move(r.answer())
    for index, state in reversed(snapshots):
        r.back()
        assert r.index == index and r.game.to_dict() == state
    r.try_move(r.answer()) if r.step.kind != "page" else r.next()
    r.restart()
    assert r.index == 0 and r.history == [] and r.game.to_dict() == snapshots[0][1]


def test_goal_step_and_hint():
    r = LessonRunner(ROOT / "lessons" / "05-magic.yaml")
    r.next()
    r.try_move(r.answer())
    assert r.step.kind == "goal"
    assert "Discard" in r.hint()
    fb = r.try_move(r.answer())
    assert fb.ok and fb.kind == "info" and r.step.kind == "goal"
    r.back()  # back to the start of the goal step
    assert r.step.kind == "goal" and len(r.game.hand(r.learner)) == 5
    while r.step.kind == "goal":
        fb = r.try_move(r.answer())
    assert fb.kind == "right"


def test_not_the_learners_turn_is_illegal_and_why_explains():
    r = LessonRunner(ROOT / "lessons" / "06-neigh.yaml")
    fb = r.next()
    assert fb.kind == "info" and fb.ok
    fb = r.try_move(Action("respond", card="Neigh"))
    assert fb.kind == "illegal"
    assert r.why(fb.rules) and all(line.startswith("RS") for line in r.why(fb.rules))


def test_cli_lesson_check_exits_zero(capsys):
    from uu.cli import main

    assert main(["lesson", "check"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"{len(FILES)} passed, 0 failed"
    assert all(line.startswith("PASS ") for line in out[:-1])


def test_coverage_complete_and_readme_current():
    assert missing() == []
    cov = coverage()
    assert list(cov) == list(RS_IDS) and all(cov[rs] for rs in RS_IDS)
    readme = (ROOT / "lessons" / "README.md").read_text(encoding="utf-8")
    assert readme_table(readme) == coverage_table(), "regenerate: python3 -m uu.tutor.coverage --write"


GOOD = """\
name: tiny
players: [You, Bea]
turn: {player: You, phase: action}
stables: {You: [Baby Unicorn (Red)], Bea: [Baby Unicorn (Blue)]}
hands: {You: [Basic Unicorn (Red)]}
deck: [Neigh, Neigh, Neigh]
rest: box
lesson:
  id: tiny
  order: 1
  title: Tiny
  summary: A tiny lesson.
  learner: You
  script:
    - say: Play it.
      rules: [action.one]
      ask: {do: play, card: Basic Unicorn (Red), into: You}
      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other}]
"""


def test_tiny_lesson_passes(tmp_path):
    f = tmp_path / "tiny.yaml"
    f.write_text(GOOD)
    assert check_lessons([str(f)]) == 0


@pytest.mark.parametrize("old,new,line,words", [
    ("      rules: [action.one]", "      rules: [action.onee]", 16, "unknown rule id"),
    ("  learner: You", "  learner: Zed", 13, "not one of the players"),
    ("  id: tiny", "  id: Tiny Lesson", 9, "not a slug"),
    ("      ask: {do: play, card: Basic Unicorn (Red), into: You}",
     "      ask: {do: play, card: Basic Unicorn (Red), into: You}\n      goal: {winner: You}", 15, "not both"),
    ("      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other}]",
     "      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: maybe}]", 18, "expect"),
    ("      ask: {do: play", "      ask: {do: juggle", 17, "ask.do"),
    ("  title: Tiny\n", "", 9, "lesson.title: Field required"),
])
def test_malformed_lessons_name_file_line_and_field(tmp_path, capsys, old, new, line, words):
    assert old in GOOD
    f = tmp_path / "bad.yaml"
    f.write_text(GOOD.replace(old, new))
    with pytest.raises(LessonFileError) as e:
        load_lesson(f)
    msg = str(e.value)
    assert str(f) in msg and f"line {line}" in msg and words in msg, msg
    assert check_lessons([str(f)]) == 1
    out = capsys.readouterr().out
    assert f"FAIL {f}:" in out and "Traceback" not in out and out.strip().endswith("0 passed, 1 failed")


def test_malformed_yaml_and_missing_lesson_key(tmp_path):
    with pytest.raises(LessonFileError, match=r"x\.yaml: line 3: not valid YAML"):
        parse_lesson("name: x\nplayers: [A, B\n", "x.yaml")
    with pytest.raises(LessonFileError, match="no `lesson:` key"):
        parse_lesson("name: x\nplayers: [A, B]\n", "x.yaml")


def test_broken_script_is_a_fail_not_a_traceback(tmp_path, capsys):
    f = tmp_path / "broken.yaml"
    f.write_text(GOOD.replace("card: Basic Unicorn (Red), into: You}", "card: Basic Unicorn (Red), into: Bea}", 1))
    assert check_lessons([str(f)]) == 1
    out = capsys.readouterr().out
    assert out.startswith("FAIL Tiny: step 1 mistakes[1]") and "Traceback" not in out


def test_tutor_never_imports_ipywidgets():
    import subprocess

    code = "import sys, uu.tutor, uu.tutor.check, uu.tutor.coverage; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.stdout.strip() == "False", out.stderr
