"""Lesson translations (uu.tutor.translation): a words-only overlay per lesson and language, checked against
the English file, and `uu lesson check --lang` / `uu lesson stats --lang`."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
import yaml

from uu.i18n import LANGUAGES
from uu.tutor.check import lesson_files, lesson_stats, shipped_lessons
from uu.tutor.translation import check_translation, text_overlay, translated_lesson, translation_path

LESSONS = shipped_lessons()


def _overlay(data: Any) -> Any:
    """A mechanical "translation" of a lesson file's data: every text prefixed."""
    return text_overlay(data, lambda text: "XX " + text)


@pytest.fixture()
def lesson_dir(tmp_path: Path) -> Path:
    """A folder with the English lesson 3 (it has a question, mistakes and bots) and a French overlay of it."""
    src = next(p for p in LESSONS if p.name.startswith("03-"))
    shutil.copy(src, tmp_path / src.name)
    (tmp_path / "fr").mkdir()
    data = yaml.safe_load(src.read_text(encoding="utf-8"))
    (tmp_path / "fr" / src.name).write_text(yaml.safe_dump(_overlay(data), allow_unicode=True), encoding="utf-8")
    return tmp_path


def _edit(path: Path, change: Any) -> None:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(data)
    path.write_text(yaml.safe_dump(data, allow_unicode=True), encoding="utf-8")


def test_overlay_gives_translated_words_and_the_english_moves(lesson_dir: Path) -> None:
    english = next(lesson_dir.glob("*.yaml"))
    assert check_translation(english, "fr") == []
    fr, en = translated_lesson(english, "fr"), translated_lesson(english, "en")
    assert fr.title == "XX " + en.title
    for a, b in zip(fr.script, en.script, strict=True):
        assert a.say == "XX " + b.say
        assert a.ask == b.ask and a.bots == b.bots and a.check == b.check and a.rules == b.rules
        if b.question:
            assert a.question and a.question.answer == b.question.answer
            assert a.question.options == ["XX " + o for o in b.question.options]
        assert [m.why for m in a.mistakes] == [m.why and "XX " + m.why for m in b.mistakes]


@pytest.mark.parametrize("change, expect", [
    (lambda d: d["lesson"].update(id="other"), "lesson.id: not a text of the English lesson"),
    (lambda d: d["lesson"]["script"].pop(), "the English lesson has"),
    (lambda d: d["lesson"].pop("summary"), "lesson.summary: missing"),
    (lambda d: d["lesson"]["script"][2]["mistakes"].pop(), "mistakes: the English lesson has 2 entries"),
    (lambda d: d["lesson"]["script"][1]["question"]["options"].pop(), "options: the English lesson has 4 entries here, the translation 3"),
    (lambda d: d["lesson"]["script"][0].update(say=""), "expected the translated text, found an empty text"),
    (lambda d: d["lesson"]["script"][2].update(ask={"do": "draw"}), "ask: not a text of the English lesson"),
])
def test_a_translation_that_differs_in_shape_is_refused(lesson_dir: Path, change: Any, expect: str) -> None:
    english = next(lesson_dir.glob("*.yaml"))
    _edit(translation_path(english, "fr"), change)
    problems = check_translation(english, "fr")
    assert any(expect in p for p in problems), problems


def test_text_left_in_english_is_found(lesson_dir: Path) -> None:
    english = next(lesson_dir.glob("*.yaml"))
    en_say = yaml.safe_load(english.read_text(encoding="utf-8"))["lesson"]["script"][0]["say"]
    _edit(translation_path(english, "fr"), lambda d: d["lesson"]["script"][0].update(say=en_say))
    assert any("lesson.script.0.say: still the English text" in p for p in check_translation(english, "fr"))


def test_cli_checks_translations_and_prints_the_same_totals(lesson_dir: Path, capsys: pytest.CaptureFixture[str]
                                                            ) -> None:
    from uu.cli import main

    assert main(["lesson", "check", "--lang", "fr", str(lesson_dir)]) == 0
    assert "1 passed, 0 failed" in capsys.readouterr().out
    assert main(["lesson", "check", "--lang", "de", str(lesson_dir)]) == 1  # no German file
    assert "no translation" in capsys.readouterr().out
    assert main(["lesson", "stats", "--lang", "fr", str(lesson_dir)]) == 0
    fr = json.loads(capsys.readouterr().out)["totals"]
    en = lesson_stats([str(lesson_dir)])["totals"]
    for key in en:
        if key != "longest_page_words":
            assert fr[key] == en[key], key


def test_a_language_folder_holds_translations_not_lessons(lesson_dir: Path) -> None:
    assert [p.name for p in lesson_files([str(lesson_dir)])] == [next(lesson_dir.glob("*.yaml")).name]


@pytest.mark.parametrize("lang", LANGUAGES[1:])
def test_every_shipped_lesson_is_translated(lang: str) -> None:
    """`uu lesson check --lang fr|de` over the shipped lessons: each has its translation and it matches."""
    problems = {p.name: check_translation(p, lang) for p in LESSONS}
    assert {k: v for k, v in problems.items() if v} == {}


def test_a_translated_page_may_be_longer_but_not_without_limit(lesson_dir: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    from uu.cli import main
    from uu.tutor.translation import MAX_TRANSLATED_PAGE_WORDS

    english = next(lesson_dir.glob("*.yaml"))
    long_page = " ".join(["mot"] * (MAX_TRANSLATED_PAGE_WORDS + 1))
    _edit(translation_path(english, "fr"), lambda d: d["lesson"]["script"][0].update(say=long_page))
    assert main(["lesson", "check", "--lang", "fr", str(lesson_dir)]) == 1
    assert f"at most {MAX_TRANSLATED_PAGE_WORDS}" in capsys.readouterr().out
