"""The course glossary (`glossary.yaml` beside this module): each term a rule box may use and the lesson that
teaches it, so a rule box shown in lesson N uses only what lessons 1 to N taught, or explains the term in place.

    >>> [t.term for t in glossary() if t.lesson == 15]
    ['link', 'effect chain']
    >>> unexplained("Each link resolves in turn.", 14)
    ['link']
    >>> unexplained("Targets for a link (effects that trigger together) come first.", 14)
    []
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from uu.yamlfile import read_user_file

__all__ = ["Term", "glossary", "unexplained"]


class Term(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    term: str
    lesson: int = Field(ge=1, description="The `order` of the lesson that teaches the term.")
    means: str = Field(description="What the term means, in a learner's words.")
    forms: list[str] = Field(min_length=1, description="Regular expressions for the term's forms in a sentence.")

    def spans(self, text: str) -> list[tuple[int, int]]:
        return [m.span() for f in self.forms for m in re.finditer(f, text)]


@cache
def glossary() -> tuple[Term, ...]:
    import yaml

    data = yaml.safe_load(read_user_file(Path(__file__).with_name("glossary.yaml")))
    return tuple(TypeAdapter(list[Term]).validate_python(data))


def _explained(text: str, start: int, end: int) -> bool:
    """Directly followed by a parenthesis ("link (...)"), or inside one ("(sacrificed, destroyed ...)")."""
    if text[end:].startswith(" ("):
        return True
    opened = text.rfind("(", 0, start)
    return opened >= 0 and text.rfind(")", 0, start) < opened and text.find(")", end) >= 0


def unexplained(text: str, lesson: int) -> list[str]:
    """The glossary terms `text` uses that a learner in lesson `lesson` has not been taught yet and that the
    text does not explain in place, each once, in glossary order."""
    return [t.term for t in glossary() if t.lesson > lesson
            and any(not _explained(text, a, b) for a, b in t.spans(text))]
