"""Rule boxes at the learner's level (issue 22, item 3): a rule box shown in lesson N uses only the terms the
course glossary (uu/tutor/glossary.yaml) says lessons 1 to N taught, or explains the term in place."""

from __future__ import annotations

import re

import pytest

from uu.tutor.check import shipped_lessons
from uu.tutor.course_glossary import glossary, unexplained
from uu.tutor.lesson_model import load_lesson
from uu.words.rulewords import learner_rule

LESSONS = [load_lesson(p) for p in shipped_lessons()]


@pytest.mark.parametrize("lesson", LESSONS, ids=[les.id for les in LESSONS])
def test_rule_boxes_use_only_words_already_taught(lesson):
    late = []
    for n, st in enumerate(lesson.script, 1):
        for rid in st.rules:
            r = learner_rule(rid)
            for text in (r.title, r.text):
                for term in unexplained(text, lesson.order):
                    late.append(f"step {n} rule box {r.title!r} uses {term!r}: {text}")
    assert not late, "\n".join(late)


def test_every_term_is_taught_where_the_glossary_says():
    """The lesson a term is attributed to really uses it in what it says (title, summary, narration), so the
    glossary cannot drift from the course."""
    by_order = {les.order: les for les in LESSONS}
    missing = []
    for t in glossary():
        les = by_order[t.lesson]
        text = " ".join([les.title, les.spec.summary, *(st.say for st in les.script)])
        if not t.spans(text):
            missing.append((t.term, t.lesson))
    assert not missing, missing


def test_the_check_sees_a_word_before_its_lesson_and_accepts_it_explained():
    assert unexplained("Bramble may Neigh it.", 5) == ["Neigh"]
    assert unexplained("Bramble may Neigh it.", 8) == []
    assert unexplained("the discard pile", 2) == [] and unexplained("the top card of the pile", 8) == ["pile"]
    assert unexplained("a link (effects that trigger together) resolves", 14) == []
    assert unexplained("cards that are thrown away (sacrificed, destroyed or discarded)", 2) == []
    assert all(re.compile(f) for t in glossary() for f in t.forms)


@pytest.mark.parametrize("lesson", LESSONS, ids=[les.id for les in LESSONS])
def test_feedback_rule_boxes_use_only_words_already_taught(lesson):
    """The rule box under a scripted wrong move's feedback (the step's rules plus the rule behind a refusal)."""
    from uu.words.lesson_refusals import LessonRunner

    r = LessonRunner(lesson)
    late = []
    while not r.done and not r.stuck:
        st = r.step
        if st.kind == "ask":
            for m in st.mistakes:
                for rid in r.try_move(r.mistake_action(m)).rules:
                    rule = learner_rule(rid)
                    late += [(r.index + 1, rid, t) for t in unexplained(f"{rule.title} {rule.text}", lesson.order)]
            r.try_move(r.answer())
        elif st.kind == "page":
            r.next()
        elif st.kind == "question":
            r.choose(st.question.answer)
        elif st.kind == "goal":
            for _move in st.solution:
                a = r.answer()
                if a is None:
                    break
                r.try_move(a)
        else:
            break  # a guided game: free play, no scripted feedback
    assert r.done or (r.step is not None and r.step.kind == "game"), "the walk did not reach the lesson's end"
    assert not late, late
