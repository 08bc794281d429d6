"""Lessons in other languages: one translation file per lesson and language, holding only the words.

A translation of `lessons/03-turn.yaml` into French is `lessons/fr/03-turn.yaml` (a teacher's lesson folder
works the same way: `<folder>/fr/<file>`). It has the shape of the English file cut down to its texts: the
same keys, the same list positions, nothing else. Everything that is not words (the position, the moves
asked, the bots' moves, the checks, which option of a question is right) comes from the English file, so a
translation cannot teach another game: "same steps, same moves, same checks; only words differ".

The text fields (`TEXT_FIELDS`): the file's `name` and `description`; the lesson's `title`, `summary` and
`recap` lines; in each step of `script`, `say`, `right`, `hint`, `wrong.illegal`, `wrong.other`,
`question.options` (every option, in the English order) and `question.explain`, `also[k].right` and
`mistakes[k].why`. A list of `also` or `mistakes` keeps one entry per English entry (`{}` for one without
text). `check_translation` names every difference from that shape; `translated_lesson` loads the lesson with
the translated words in place (`uu lesson check --lang` then replays it and holds its pages to
`MAX_TRANSLATED_PAGE_WORDS`).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import yaml

from uu.i18n import LANGUAGES
from uu.tutor.lesson_model import Lesson, LessonFileError, load_lesson, parse_lesson
from uu.yamlfile import YamlInputError, load_user_yaml, read_user_file

__all__ = ["MAX_TRANSLATED_PAGE_WORDS", "TEXT_FIELDS", "check_translation", "english_texts", "text_overlay",
           "translated_lesson", "translation_path"]

# Paths of the text fields, `*` standing for a list index.
TEXT_FIELDS: tuple[str, ...] = (
    "name", "description",
    "lesson.title", "lesson.summary", "lesson.recap.*",
    "lesson.script.*.say", "lesson.script.*.right", "lesson.script.*.hint",
    "lesson.script.*.wrong.illegal", "lesson.script.*.wrong.other",
    "lesson.script.*.question.options.*", "lesson.script.*.question.explain",
    "lesson.script.*.also.*.right", "lesson.script.*.mistakes.*.why",
)
# The lists a translation mirrors entry by entry (so a step without text in them still has its `{}`).
_MIRRORED_LISTS = ("lesson.script", "lesson.script.*.also", "lesson.script.*.mistakes")
# French and German take more words than English for the same page; the English limit is 60 (uu.tutor.check).
MAX_TRANSLATED_PAGE_WORDS = 80
_PATTERNS = [re.compile("^" + re.escape(p).replace(r"\*", r"\d+") + "$") for p in TEXT_FIELDS]
_LISTS = [re.compile("^" + re.escape(p).replace(r"\*", r"\d+") + "$") for p in _MIRRORED_LISTS]


def translation_path(english: str | Path, lang: str) -> Path:
    p = Path(english)
    return p.parent / lang / p.name


def _is_text(path: str) -> bool:
    return any(p.match(path) for p in _PATTERNS)


def _is_mirrored_list(path: str) -> bool:
    return any(p.match(path) for p in _LISTS)


def _walk(node: Any, path: str, out: dict[str, Any]) -> None:
    if isinstance(node, dict):
        for k, v in node.items():
            _walk(v, f"{path}.{k}" if path else str(k), out)
    elif isinstance(node, list):
        for i, v in enumerate(node):
            _walk(v, f"{path}.{i}", out)
    if path and _is_text(path):
        out[path] = node


def english_texts(data: Any) -> dict[str, Any]:
    """Every text field of a lesson file's data, by path (`lesson.script.2.say`)."""
    out: dict[str, Any] = {}
    _walk(data, "", out)
    return out


def text_overlay(data: Any, translate: Callable[[str], str], path: str = "") -> Any:
    """The shape a translation of the lesson file data `data` has, each text replaced by `translate(text)`: a
    translator's starting point (with `translate` returning the text itself), and the tests' made-up languages."""
    if _is_text(path):
        return translate(data)
    if isinstance(data, dict):
        return {k: text_overlay(v, translate, f"{path}.{k}" if path else str(k)) for k, v in data.items()
                if _has_text(v, f"{path}.{k}" if path else str(k))}
    if isinstance(data, list):
        return [text_overlay(v, translate, f"{path}.{i}") for i, v in enumerate(data)
                if _has_text(v, f"{path}.{i}") or _is_mirrored_list(path)]
    return data


def _shape_problems(en: Any, tr: Any, path: str, out: list[str]) -> None:
    """Where `tr` is not `en` cut down to its text fields."""
    where = path or "the file"
    if _is_text(path):
        if not isinstance(tr, str) or not tr.strip():
            out.append(f"{where}: expected the translated text, found {_kind(tr)}")
        return
    if isinstance(en, dict):
        if not isinstance(tr, dict):
            out.append(f"{where}: expected a mapping, found {_kind(tr)}")
            return
        wanted = {k for k, v in en.items() if _has_text(v, f"{path}.{k}" if path else str(k))}
        for k in tr:
            if k not in wanted:
                out.append(f"{path + '.' if path else ''}{k}: not a text of the English lesson here "
                           "(a translation holds only the words; everything else comes from the English file)")
        for k in sorted(wanted, key=str):
            sub = f"{path}.{k}" if path else str(k)
            if k not in tr:
                out.append(f"{sub}: missing (the English lesson has text here)")
            else:
                _shape_problems(en[k], tr[k], sub, out)
    elif isinstance(en, list):
        if not isinstance(tr, list) or len(tr) != len(en):
            n = len(tr) if isinstance(tr, list) else None
            out.append(f"{where}: the English lesson has {len(en)} entries here, the translation "
                       f"{n if n is not None else _kind(tr)}")
            return
        for i, (e, t) in enumerate(zip(en, tr, strict=True)):
            if _has_text(e, f"{path}.{i}") or _is_mirrored_list(path):
                _shape_problems(e, {} if t is None else t, f"{path}.{i}", out)


def _has_text(node: Any, path: str) -> bool:
    if _is_text(path):
        return True
    if isinstance(node, dict):
        return any(_has_text(v, f"{path}.{k}") for k, v in node.items())
    if isinstance(node, list):
        return any(_has_text(v, f"{path}.{i}") for i, v in enumerate(node))
    return False


def _kind(x: Any) -> str:
    if x is None:
        return "nothing"
    if isinstance(x, str):
        return "an empty text" if not x.strip() else "a text"
    if isinstance(x, dict):
        return "a mapping"
    return "a list" if isinstance(x, list) else type(x).__name__


def _merge(en: Any, tr: Any, path: str) -> Any:
    if _is_text(path):
        return tr
    if isinstance(en, dict):
        return {k: (_merge(v, tr[k], f"{path}.{k}" if path else str(k)) if isinstance(tr, dict) and k in tr
                    else v) for k, v in en.items()}
    if isinstance(en, list) and isinstance(tr, list):
        return [_merge(e, t, f"{path}.{i}") for i, (e, t) in enumerate(zip(en, tr, strict=True))]
    return en


def _read(path: Path) -> Any:
    try:
        data, _root = load_user_yaml(read_user_file(path), str(path))
    except YamlInputError as e:
        raise LessonFileError(str(e)) from None
    return data


def check_translation(english: str | Path, lang: str) -> list[str]:
    """What is wrong with the `lang` translation of the lesson file `english` (empty: it matches)."""
    if lang not in LANGUAGES[1:]:
        return [f"{lang!r} is not a translation language (one of {', '.join(LANGUAGES[1:])})"]
    tpath = translation_path(english, lang)
    if not tpath.exists():
        return [f"{tpath}: no translation (copy the text fields of {Path(english).name} and translate them)"]
    try:
        en, tr = _read(Path(english)), _read(tpath)
    except LessonFileError as e:
        return [str(e)]
    out: list[str] = []
    _shape_problems(en, tr, "", out)
    if out:
        return [f"{tpath}: {p}" for p in out]
    from uu.cards import catalog

    names = {c.name for c in catalog()}  # a card's name may stay as it is: it is printed so in every edition
    for path, text in english_texts(en).items():
        if (isinstance(text, str) and len(text.split()) >= 4 and text.strip() not in names
                and english_texts(tr).get(path) == text):
            out.append(f"{tpath}: {path}: still the English text")
    try:
        translated_lesson(english, lang)
    except LessonFileError as e:
        out.append(str(e))
    return out


_TRANSLATED: dict[tuple[str, str, str, str], Lesson] = {}


def translated_lesson(english: str | Path, lang: str) -> Lesson:
    """The lesson `english` with its words in `lang`: the English lesson itself for English or when no
    translation exists; LessonFileError when the translation does not match the English file."""
    if lang == "en" or not translation_path(english, lang).exists():
        return load_lesson(english)
    tpath = translation_path(english, lang)
    try:
        en_text, tr_text = read_user_file(english), read_user_file(tpath)
    except YamlInputError as e:
        raise LessonFileError(str(e)) from None
    key = (str(english), lang, en_text, tr_text)
    if key in _TRANSLATED:
        return _TRANSLATED[key]
    en, tr = _read(Path(english)), _read(tpath)
    problems: list[str] = []
    _shape_problems(en, tr, "", problems)
    if problems:
        raise LessonFileError(f"{tpath}: {problems[0]}")
    merged = _merge(en, tr, "")
    lesson = parse_lesson(yaml.safe_dump(merged, allow_unicode=True, sort_keys=False), str(tpath))
    if len(_TRANSLATED) >= 64:
        _TRANSLATED.clear()
    _TRANSLATED[key] = lesson
    return lesson
