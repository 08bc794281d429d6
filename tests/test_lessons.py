"""Lessons: every shipped lesson replays, clicks through headlessly, answers wrong moves without changing the
game, covers RS01–RS52 (and the README table is current); malformed lesson files give clear messages."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import pytest

from uu.engine.actions import Action
from uu.engine.rules import RS_IDS
from uu.tutor import LessonRunner, check_lessons, load_lesson, parse_lesson
from uu.tutor.check import MAX_PAGE_WORDS, LessonReport, lesson_stats, report_lesson, shipped_lessons
from uu.tutor.coverage import coverage, coverage_table, missing, readme_table
from uu.tutor.lesson_model import Lesson, LessonFileError
from uu.tutor.lesson_runner import STUCK_TEXT

ROOT = Path(__file__).resolve().parents[1]
FILES = shipped_lessons()
IDS = [p.name for p in FILES]
_REPORTS: dict[tuple[int, bool, bool], tuple[object, LessonReport]] = {}


def shared_report(lesson: Lesson, explore_paths: bool = True, translated: bool = False) -> LessonReport:
    """`report_lesson`, computed once per shipped lesson in this process: test_lesson_passes_check, `uu lesson
    stats` and `uu lesson check` below each replay and explore every shipped lesson, the same deterministic
    work (a minute and more of the suite's time). load_lesson gives the same object for an unchanged file, so
    the object is the key (kept alive beside its report); other lessons (the tests' own texts) are not kept."""
    if Path(lesson.path) not in FILES:
        return report_lesson(lesson, explore_paths, translated)
    key = (id(lesson), explore_paths, translated)
    if key not in _REPORTS:
        _REPORTS[key] = (lesson, report_lesson(lesson, explore_paths, translated))
    return _REPORTS[key][1]


@pytest.fixture
def explored_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The lesson commands in this process use `shared_report`."""
    import uu.tutor.check

    monkeypatch.setattr(uu.tutor.check, "report_lesson", shared_report)


def play_step(r: LessonRunner) -> None:
    """Do what the current step wants, as a learner who knows the answer."""
    st = r.step
    if st.kind == "page":
        r.next()
    elif st.kind == "question":
        r.choose(st.question.answer)
    elif st.kind == "game":
        from uu.bots import HeuristicBot

        bot = HeuristicBot(1)
        while r.step is st and r.learner_actions():
            r.try_move(bot.choose(r.game))
    else:
        r.try_move(r.answer())


def test_enough_lessons_in_reading_order():
    assert len(FILES) >= 20
    lessons = [load_lesson(p) for p in FILES]
    assert [les.order for les in lessons] == sorted(les.order for les in lessons)
    assert len({les.id for les in lessons}) == len(lessons)
    assert all(p.parent == ROOT / "lessons" for p in FILES)


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_lesson_passes_check(path):
    rep = shared_report(load_lesson(path))
    assert rep.problems == []
    assert rep.exploration is not None and rep.exploration.dead_ends == [] and rep.exploration.complete


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_headless_click_through(path):
    r = LessonRunner(path)
    total = len(r.lesson.script)
    guard = 0
    while not r.done:
        guard += 1
        assert guard < 200
        st = r.step
        assert r.progress[0] == r.index + 1 <= total and r.stuck is None
        if st.kind == "page":
            assert r.try_move(Action("draw")).kind == "info"  # a page does not take moves
        elif st.kind in ("ask", "goal"):
            assert r.learner_actions(), f"step {r.index + 1}: the learner has no decision"
            a = r.answer()
            assert a is not None and a in r.learner_actions()
        play_step(r)
    assert r.problems == []
    assert r.step is None and r.hint() and r.try_move(Action("draw")).kind == "info"
    assert set(r.quiz_results.values()) == {True}


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_wrong_moves_leave_the_game_unchanged(path):
    r = LessonRunner(path)
    while not r.done:
        st = r.step
        if st.kind == "ask":
            for m in st.mistakes:
                before, index = r.game.to_dict(), r.index
                fb = r.try_move(r.mistake_action(m))
                assert fb.kind == m.expect and not fb.ok, fb.text
                assert fb.text
                assert (fb.preview is not None) == (m.expect == "other")
                assert r.game.to_dict() == before and r.index == index
            # a move nobody could make is illegal, and changes nothing
            before = r.game.to_dict()
            fb = r.try_move(Action("play", card="No Such Card"))
            assert fb.kind == "illegal" and r.game.to_dict() == before
        play_step(r)


def learner_texts(lesson) -> list[tuple[str, str]]:
    spec = lesson.spec
    out = [("title", spec.title), ("summary", spec.summary), *(("recap", x) for x in spec.recap)]
    for i, st in enumerate(spec.script, 1):
        out += [(f"step {i} say", st.say), (f"step {i} right", st.right or ""), (f"step {i} hint", st.hint or ""),
                (f"step {i} wrong", st.wrong.illegal or ""), (f"step {i} wrong", st.wrong.other or "")]
        out += [(f"step {i} why", m.why or "") for m in st.mistakes]
        out += [(f"step {i} also", m.right or "") for m in st.also]
        if st.question:
            out += [(f"step {i} option", o) for o in st.question.options] + [(f"step {i}", st.question.explain)]
    return out


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_no_internal_ids_in_what_learners_read(path):
    from uu.render import rules_html
    from uu.words.rulewords import internal_ids_in

    lesson = load_lesson(path)
    found = [(where, internal_ids_in(text)) for where, text in learner_texts(lesson)]
    assert [f for f in found if f[1]] == []
    # what the screen shows around them: the rules of every step and what the runner says after any move (the
    # screens' runner, which explains a refused move in words)
    from uu.words.lesson_refusals import LessonRunner as SpeakingRunner

    r = SpeakingRunner(lesson)
    while not r.done:
        st = r.step
        assert internal_ids_in(rules_html(st.rules)) == []
        for a in r.learner_actions()[:12]:
            fb = r.fork().try_move(a)
            assert internal_ids_in(fb.text) == [] and internal_ids_in(rules_html(fb.rules)) == []
        fb = r.try_move(Action("play", card="Neigh"))
        assert internal_ids_in(fb.text) == [], fb.text
        play_step(r)


def test_every_card_of_the_deck_is_shown_and_the_course_is_counted(explored_once):
    stats = lesson_stats()
    totals = stats["totals"]
    assert totals["cards_missing"] == [] and totals["cards_covered"] == "84/84"
    assert totals["lessons"] == len(FILES) and totals["dead_ends"] == 0
    assert totals["alternatives_explored"] > len(FILES) * 5
    assert totals["longest_page_words"] <= MAX_PAGE_WORDS
    for row in stats["lessons"]:
        assert 2 <= row["quiz_questions"] <= 3 and row["passed"], row
        assert set(row) >= {"id", "steps", "learner_moves", "quiz_questions", "longest_page_words",
                            "scripted_wrong_moves"}


def test_cli_lesson_stats_prints_one_json_object(capsys):
    import json

    from uu.cli import main

    assert main(["lesson", "stats", str(FILES[0])]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["totals"]["lessons"] == 1 and data["lessons"][0]["id"] == load_lesson(FILES[0]).id


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_back_pops_to_what_a_replay_gives(path, monkeypatch):
    """Back and Restart take moves back with Game.pop (never a rebuild and replay from the start) and give
    exactly the step, history and position a replay of the same answers gives."""
    r = LessonRunner(path)
    seen = []  # (step index, full state, history) at the start of every step
    while not r.done:
        if not seen or seen[-1][0] != r.index:  # a goal step may take several moves: its start only
            seen.append((r.index, r.game.to_dict(), list(r.history)))
        play_step(r)

    def no_rebuild(self):
        raise AssertionError("Back rebuilt the lesson from the start")

    monkeypatch.setattr(LessonRunner, "_build", no_rebuild)
    for index, state, history in reversed(seen):
        r.back()
        assert (r.index, r.history) == (index, history)
        assert r.game.to_dict() == state
    middle = seen[len(seen) // 2]
    while r.index < middle[0]:  # play on after going back
        play_step(r)
    assert r.game.to_dict() == middle[1]
    r.restart()
    assert r.index == 0 and r.history == [] and r.game.to_dict() == seen[0][1]
    monkeypatch.undo()
    replayed = LessonRunner(path)
    assert replayed.resume(middle[2]) and replayed.game.to_dict() == middle[1]


def test_cli_lesson_check_exits_zero(capsys, explored_once):
    from uu.cli import main

    assert main(["lesson", "check"]) == 0
    out = capsys.readouterr().out.strip().splitlines()
    assert out[-1] == f"{len(FILES)} passed, 0 failed"
    assert out[-2].startswith("explored ") and " 0 dead ends, " in out[-2]
    assert re.search(r", \d+ stated consequences verified$", out[-2]), out[-2]
    assert all(line.startswith("PASS ") and "alternatives explored" in line for line in out[:-2])


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
      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: That Stable is Bea's.}]
    - say: How many Unicorns are in your Stable now?
      question: {options: ["1", "2"], answer: 2, explain: The Baby and the Basic Unicorn.}
      quiz: true
    - say: Take one more card.
      position:
        turn: {player: You, phase: action}
        stables: {You: [Baby Unicorn (Red)], Bea: [Baby Unicorn (Blue)]}
        hands: {You: [Neigh]}
      quiz: true
      ask: {do: draw}
      mistakes: [{do: play, card: Neigh, expect: illegal}]
  recap: [Unicorns go into your Stable.]
"""


def test_tiny_lesson_passes(tmp_path, capsys):
    f = tmp_path / "tiny.yaml"
    f.write_text(GOOD)
    assert check_lessons([str(f)]) == 0
    assert "PASS Tiny (" in capsys.readouterr().out


@pytest.mark.parametrize("old,new,line,words", [
    ("      rules: [action.one]", "      rules: [action.onee]", 16, "unknown rule id"),
    ("  learner: You", "  learner: Zed", 13, "not one of the players"),
    ("  id: tiny", "  id: Tiny Lesson", 9, "not a slug"),
    ("      ask: {do: play, card: Basic Unicorn (Red), into: You}",
     "      ask: {do: play, card: Basic Unicorn (Red), into: You}\n      goal: {winner: You}", 15, "ask and goal"),
    ("      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: That Stable is Bea's.}]",
     "      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: maybe}]", 18, "expect"),
    ("      quiz: true\n    - say: Take", "      quiz: maybe\n    - say: Take", 21, "quiz"),
    ("        hands: {You: [Neigh]}", "        hands: {You: [Nay]}", 26, "no card named 'Nay'"),
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


def test_a_legal_wrong_move_plays_out_on_a_copy_and_is_taken_back(tmp_path):
    f = tmp_path / "tiny.yaml"
    f.write_text(GOOD)
    r = LessonRunner(f)
    before = r.game.to_dict()
    fb = r.try_move(Action("play", card="Basic Unicorn (Red)", into=1))
    assert fb.kind == "other" and fb.text.startswith("That Stable is Bea's.") and "taken back" in fb.text
    assert "Basic Unicorn (Red)" in fb.preview.stable(1)  # the consequence, on the copy
    assert r.game.to_dict() == before and r.index == 0  # the live lesson is where it was
    assert fb.log and any("Basic Unicorn (Red)" in e.text for e in fb.log)


def test_questions_and_quiz_results(tmp_path):
    f = tmp_path / "tiny.yaml"
    f.write_text(GOOD)
    r = LessonRunner(f)
    r.try_move(r.answer())
    assert r.step.kind == "question" and r.try_move(Action("draw")).kind == "info"
    assert r.choose(9).kind == "illegal"
    wrong = r.choose(1)
    assert wrong.kind == "other" and "Baby" in wrong.text and r.index == 1
    assert r.choose(2).kind == "right" and r.index == 2
    assert r.game.hand(r.learner) == ["Neigh"]  # step 3's own position
    assert r.try_move(Action("draw")).kind == "right" and r.done
    assert r.quiz_results == {2: False, 3: True}
    r.restart()  # a quiz result is the first try's, kept across Restart
    assert r.quiz_results == {2: False, 3: True}


TRAP = GOOD.replace("""      ask: {do: play, card: Basic Unicorn (Red), into: You}
      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: That Stable is Bea's.}]""",
                    """      ask: {do: play, into: You}
      accept: kind
    - say: Now the Blue one.
      ask: {do: play, card: Basic Unicorn (Blue), into: You}""").replace(
    "hands: {You: [Basic Unicorn (Red)]}", "hands: {You: [Basic Unicorn (Red), Basic Unicorn (Blue)]}").replace(
    "deck: [Neigh, Neigh, Neigh]", "deck: [Neigh, Neigh, Neigh, Neigh, Neigh, Neigh, Neigh, Neigh]")


def test_check_finds_a_dead_end_that_the_scripted_path_misses(tmp_path, capsys):
    f = tmp_path / "trap.yaml"
    f.write_text(TRAP)
    rep = report_lesson(load_lesson(f))
    # playing Blue (into either Stable) in step 1 leaves step 2 nothing to ask for
    assert len(rep.problems) == 2 and all(p.startswith("dead end: step 2 after step 1 play Basic Unicorn (Blue)")
                                          for p in rep.problems), rep.problems
    assert check_lessons([str(f)]) == 1
    out = capsys.readouterr().out
    assert "FAIL Tiny: dead end" in out and "2 dead ends" in out
    # the learner who walks into it is told in plain words, and Back gets them out
    r = LessonRunner(f)
    fb = r.try_move(Action("play", card="Basic Unicorn (Blue)", into=0))
    assert r.stuck == STUCK_TEXT and "Back" in fb.text and "step 2" in r.problems[-1]
    assert r.try_move(Action("draw")).text == STUCK_TEXT
    r.back()
    assert r.stuck is None and r.index == 0 and r.try_move(r.answer()).ok


def test_a_goal_missed_in_the_turn_starts_the_step_again(tmp_path):
    text = GOOD.replace("""      ask: {do: play, card: Basic Unicorn (Red), into: You}
      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: That Stable is Bea's.}]""",
                        """      goal: {unicorns: {You: 2}}
      solution: [{do: play, card: Basic Unicorn (Red), into: You}]""")
    f = tmp_path / "goal.yaml"
    f.write_text(text)
    assert check_lessons([str(f)]) == 0
    r = LessonRunner(f)
    start = r.game.to_dict()
    fb = r.try_move(Action("draw"))
    assert fb.kind == "other" and not fb.ok and fb.preview is None and "starts again" in fb.text
    assert r.index == 0 and r.game.to_dict() == start and r.stuck is None
    assert r.try_move(r.answer()).kind == "right" and r.index == 1


def test_long_pages_and_a_missing_quiz_fail_the_check(tmp_path, capsys):
    f = tmp_path / "long.yaml"
    f.write_text(GOOD.replace("    - say: Play it.", "    - say: " + "word " * 61).replace("      quiz: true\n", "", 1))
    assert check_lessons([str(f)]) == 1
    out = capsys.readouterr().out
    assert "step 1: the page has 61 words (at most 60)" in out and "1 quiz questions" in out


def test_tutor_never_imports_ipywidgets():
    import subprocess

    code = "import sys, uu.tutor, uu.tutor.check, uu.tutor.coverage; print('ipywidgets' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT,
                         env={"PYTHONPATH": str(ROOT), "PATH": ""})
    assert out.stdout.strip() == "False", out.stderr


def test_a_position_may_set_its_own_options_and_the_move_log_survives_the_next_position(tmp_path):
    text = GOOD.replace("""        hands: {You: [Neigh]}
      quiz: true""", """        hands: {You: [Neigh]}
        options: {targeting: neigh-first, hand_limit: 5}
      quiz: true""")
    f = tmp_path / "opts.yaml"
    f.write_text(text)
    r = LessonRunner(f)
    assert r.game.state.options.targeting == "declare-first"
    fb = r.try_move(r.answer())
    # the Unicorn entering is in the feedback's log although step 2 ... step 3 starts a new table
    assert any("enters" in e.text for e in fb.log)
    r.choose(2)
    assert r.game.state.options.targeting == "neigh-first" and r.game.state.options.hand_limit == 5
    assert r.game.state.options.seed == r.scenario.options.seed  # options not given stay the lesson's
    with pytest.raises(LessonFileError, match="targetting"):
        parse_lesson(text.replace("targeting: neigh-first", "targetting: neigh-first"), "x.yaml")


def game_lesson(tmp_path, game: str, say: str = "Play two turns.") -> LessonRunner:
    """A one-step lesson whose step is the game step `game` (its YAML flow mapping)."""
    f = tmp_path / "game.yaml"
    f.write_text(f"""\
name: g
players: [You, Bea]
options: {{seed: 3}}
lesson:
  id: g
  order: 1
  title: G
  summary: A game.
  learner: You
  script:
    - say: {say}
      game: {game}
  recap: [Done.]
""")
    return LessonRunner(f)


def test_a_guided_game_counts_the_learners_turns_not_the_setup(tmp_path):
    r = game_lesson(tmp_path, "{turns: 2}")
    assert r.learner_actions()[0].kind == "baby"
    r.try_move(r.learner_actions()[0])
    turns = set()
    while not r.done and r.learner_actions():
        if r.game.turn[0] == r.learner:
            turns.add(r.game.turn[2])
        r.try_move(r.learner_actions()[0])
    assert r.done and len(turns) == 2 and 0 not in turns


@pytest.mark.parametrize("level,bot", [("easy", "RandomBot"), ("normal", "HeuristicBot"), ("hard", "SearchBot")])
def test_a_game_step_plays_its_bots_at_the_level_it_names(tmp_path, level, bot):
    r = game_lesson(tmp_path, f"{{turns: 1, level: {level}}}", say="Play a turn.")
    assert type(r._game_bot(r.lesson.script[0])).__name__ == bot
    while not r.done and r.learner_actions():
        r.try_move(r.learner_actions()[0])
    assert r.done


def test_a_goal_step_is_played_within_one_turn_even_when_the_bots_have_nothing_to_decide(tmp_path):
    # the bots hold only Neighs, so their turns pass without a decision: the learner's draw still ends the try
    text = GOOD.replace("""      ask: {do: play, card: Basic Unicorn (Red), into: You}
      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: That Stable is Bea's.}]""",
                        """      goal: {unicorns: {You: 2}}
      solution: [{do: play, card: Basic Unicorn (Red), into: You}]""").replace(
        "hands: {You: [Basic Unicorn (Red)]}", "hands: {You: [Basic Unicorn (Red)], Bea: [Neigh]}").replace(
        "deck: [Neigh, Neigh, Neigh]", "deck: [Neigh, Neigh, Neigh, Neigh, Neigh, Neigh, Neigh]")
    f = tmp_path / "goal1.yaml"
    f.write_text(text)
    r = LessonRunner(f)
    fb = r.try_move(Action("draw"))
    assert fb.kind == "other" and "starts again" in fb.text and r.game.turn[2] == 1


# ---- explanations the engine checks (issue 22, item 2) ----------------------------------------------------------

SHOWN = GOOD.replace(
    "      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: That Stable is Bea's.}]",
    "      right: Your Stable holds 2 Unicorns now.\n"
    "      shows: {unicorns: {You: 2}}\n"
    "      mistakes: [{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: Bea gets a second Unicorn.,\n"
    "                  shows: {unicorns: {Bea: 2, You: 1}, stables_has: {Bea: [Basic Unicorn (Red)]}}}]")


def test_stated_consequences_are_verified_and_counted(tmp_path, capsys):
    f = tmp_path / "tiny.yaml"
    f.write_text(SHOWN)
    assert check_lessons([str(f)]) == 0
    out = capsys.readouterr().out
    assert "PASS Tiny (" in out and ", 2 stated consequences verified" in out
    stats = lesson_stats([str(f)])
    assert stats["lessons"][0]["verified_consequences"] == 2 and stats["totals"]["verified_consequences"] == 2


@pytest.mark.parametrize("old,new,words", [
    ("shows: {unicorns: {Bea: 2, You: 1}", "shows: {unicorns: {Bea: 1, You: 1}",
     "FAIL Tiny: step 1 mistakes[1] shows: unicorns.Bea: expected 1, got 2 (the sentence: Bea gets a second Unicorn.)"),
    ("      shows: {unicorns: {You: 2}}", "      shows: {unicorns: {You: 3}}",
     "FAIL Tiny: step 1 shows: unicorns.You: expected 3, got 2"),
])
def test_a_consequence_the_engine_contradicts_fails_the_check(tmp_path, capsys, old, new, words):
    f = tmp_path / "tiny.yaml"
    f.write_text(SHOWN.replace(old, new))
    assert check_lessons([str(f)]) == 1
    assert words in capsys.readouterr().out


def test_after_makes_the_learners_own_choices_before_the_check(tmp_path, capsys):
    """A wrong card that still asks the learner (Good Deal's DISCARD): `after` makes that choice on the copy."""
    text = GOOD.replace(
        "        hands: {You: [Neigh]}\n      quiz: true\n      ask: {do: draw}\n"
        "      mistakes: [{do: play, card: Neigh, expect: illegal}]",
        "        hands: {You: [Neigh, Good Deal]}\n        deck: [Yay, Basic Unicorn (Blue), Basic Unicorn (Yellow), Basic Unicorn (Green)]\n      quiz: true\n"
        "      ask: {do: draw}\n"
        "      mistakes: [{do: play, card: Good Deal, expect: other, why: Good Deal ends on the discard pile.,\n"
        "                  shows: {discard_has: [Good Deal, Neigh]}, after: [{do: discard, card: Neigh}]}]")
    f = tmp_path / "tiny.yaml"
    f.write_text(text)
    assert check_lessons([str(f)]) == 0, capsys.readouterr().out
    f.write_text(text.replace("after: [{do: discard, card: Neigh}]", "after: [{do: discard, card: Unicorn Poison}]"))
    assert check_lessons([str(f)]) == 1
    assert "step 3 mistakes[1] after[1] (discard) matches no decision" in capsys.readouterr().out


@pytest.mark.parametrize("mistake,words", [
    ("{do: play, card: Neigh, expect: illegal, why: Not now., shows: {unicorns: {You: 1}}}", "illegal move changes"),
    ("{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, shows: {unicorns: {You: 1}}}", "has no `why`"),
    ("{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: Hm., after: [{do: draw}]}",
     "has no `shows`"),
])
def test_shows_belongs_to_a_legal_wrong_move_with_a_why(tmp_path, mistake, words):
    text = GOOD.replace(
        "[{do: play, card: Basic Unicorn (Red), into: Bea, expect: other, why: That Stable is Bea's.}]",
        f"[{mistake}]")
    with pytest.raises(LessonFileError, match=re.escape(words)):
        parse_lesson(text, "x.yaml")


@pytest.mark.parametrize("path", FILES, ids=IDS)
def test_every_consequence_a_shipped_lesson_states_is_checked(path):
    """Each legal wrong move's `why` describes what it leads to: it carries `shows:` checks, so `uu lesson check`
    proves the sentence on the engine (lesson 9, step 6 once told a consequence the engine contradicted)."""
    lesson = load_lesson(path)
    unchecked = [(n, j, m.why) for n, st in enumerate(lesson.script, 1) for j, m in enumerate(st.mistakes, 1)
                 if m.expect == "other" and m.shows is None]
    assert not unchecked, unchecked
