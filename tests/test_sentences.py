"""What learners read says the rules the way the rulebooks do (issue 22): one account of when a win counts,
"then" kept apart from "if you do", the tutor's own choices said as choices, no slips of grammar.

Each test would fail if the sentence it guards went back to its old wording.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest

from uu.engine.rules import RULES
from uu.tutor.check import shipped_lessons
from uu.tutor.lesson_model import Lesson, load_lesson
from uu.words.rulewords import learner_rule

LESSONS = {load_lesson(p).order: load_lesson(p) for p in shipped_lessons()}

#: The one account of when a win counts (the engine checks whenever no effect is resolving: after each phase,
#: uu.engine.flow.flow_step, and after each chain, uu.engine.flow.run).
WIN_CHECK = ("checks for a winner whenever no effect is resolving: after each phase, and each time a chain of "
             "effects has finished")


def _flat(text: str) -> str:
    return re.sub(r"\s+", " ", text or "").strip()


def lesson_texts(lesson: Lesson) -> Iterator[tuple[str, str]]:
    """(where, text) for every sentence a learner reads in `lesson`."""
    spec = lesson.spec
    yield "title", spec.title
    yield "summary", spec.summary
    for i, line in enumerate(spec.recap, 1):
        yield f"recap[{i}]", line
    for n, st in enumerate(spec.script, 1):
        parts = [("say", st.say), ("right", st.right), ("hint", st.hint), ("wrong.illegal", st.wrong.illegal),
                 ("wrong.other", st.wrong.other)]
        parts += [(f"mistakes[{j}].why", m.why) for j, m in enumerate(st.mistakes, 1)]
        parts += [(f"also[{j}].right", a.right) for j, a in enumerate(st.also, 1)]
        if st.question is not None:
            parts += [("question.explain", st.question.explain)]
            parts += [(f"question.options[{j}]", o) for j, o in enumerate(st.question.options, 1)]
        for key, text in parts:
            if text:
                yield f"step {n} {key}", _flat(text)


def all_lesson_texts() -> Iterator[tuple[str, str]]:
    for order, lesson in sorted(LESSONS.items()):
        for where, text in lesson_texts(lesson):
            yield f"lesson {order} {where}", text


def test_one_account_of_when_a_win_counts() -> None:
    assert WIN_CHECK in RULES["win.threshold"].statement
    assert WIN_CHECK in learner_rule("win.threshold").text
    for order in (3, 15, 21):
        texts = " ".join(t for _, t in lesson_texts(LESSONS[order]))
        assert WIN_CHECK in texts, f"lesson {order} does not say when a win counts the agreed way"


WIN_WORDS_ELSEWHERE = re.compile(r"wins? as soon as|checks? for a winner between phases|checked between phases|"
                                 r"count is checked|win is checked (?:between|once)", re.IGNORECASE)


def test_no_other_account_of_when_a_win_counts() -> None:
    texts = list(all_lesson_texts()) + [(f"rule {rid}", learner_rule(rid).text) for rid in RULES]
    bad = [(w, t) for w, t in texts if WIN_WORDS_ELSEWHERE.search(t)]
    assert not bad, bad


PRINTED_THEN = ("Seductive Unicorn", "Shark With a Horn", "Necromancer Unicorn", "Dark Angel Unicorn",
                "Glitter Bomb", "Claw Machine", "Stable Artillery", "Rainbow Lasso", "Caffeine Overload")


def test_lessons_never_quote_a_then_card_with_if_you_do() -> None:
    """A sentence naming a card that prints "then" never joins its actions with "if you do" (only Rhinocorn,
    which prints it, is taught with those words)."""
    bad = []
    for where, text in all_lesson_texts():
        for sentence in re.split(r"(?<=[.!?])\s+", text):
            if "if you do" in sentence.lower() and any(c in sentence for c in PRINTED_THEN):
                bad.append((where, sentence))
    assert not bad, bad


def test_if_you_do_is_taught_with_rhinocorn_and_then_with_glitter_bomb() -> None:
    l14 = " ".join(t for _, t in lesson_texts(LESSONS[14]))
    assert re.search(r"Rhinocorn\*?: you may DESTROY a Unicorn; \*\*if you do\*\*", l14)
    l20 = " ".join(t for _, t in lesson_texts(LESSONS[20]))
    assert "Glitter Bombs* lets you SACRIFICE a card, then DESTROY a card" in l20


@pytest.mark.parametrize("rid", ["option.responder-order", "option.open-hand-pull", "option.pandas",
                                 "option.targeting", "option.deck-out"])
def test_choices_of_this_tutor_say_so(rid: str) -> None:
    assert re.search(r"\b(In this tutor|this tutor)\b", learner_rule(rid).text), rid


def test_face_up_pull_cites_the_wiki_not_the_control_and_chaos_page_alone() -> None:
    r = RULES["option.open-hand-pull"]
    assert "wiki terminology" in r.seed and "always picked at random" in r.seed
    assert learner_rule("option.open-hand-pull").where == "A choice of this tutor"


def test_no_an_before_unicorn() -> None:
    """"an Unicorn" was written by the engine's article rule; the article follows the sound."""
    from uu.engine.verb_handlers import _a_what

    assert _a_what({"op": {"what": "unicorn"}}) == "a Unicorn card"  # type: ignore[arg-type]
    assert _a_what({"op": {"what": "upgrade"}}).startswith("an ")  # type: ignore[arg-type]
    bad = [(w, t) for w, t in all_lesson_texts() if re.search(r"\ban Unicorn", t)]
    assert not bad, bad
