"""The lesson runner that speaks: `uu.tutor.lesson_runner.LessonRunner`, with a refused move explained in plain words.

The tutor layer returns the fact (the move the engine refused, on an unchanged table); this layer turns it
into the sentence a learner reads (`uu.words.whynot.why_not`) and the rule behind it. Screens build this
runner; `uu lesson check` and the explorer use the tutor's own, which needs no sentences.
"""

from __future__ import annotations

from uu.engine.actions import Action
from uu.tutor.lesson_runner import Feedback, LessonError
from uu.tutor.lesson_runner import LessonRunner as SilentLessonRunner
from uu.words.whynot import why_not

__all__ = ["Feedback", "LessonError", "LessonRunner"]


class LessonRunner(SilentLessonRunner):
    """A lesson played on the live engine (see `uu.tutor.lesson_runner`); a refused move gets one plain sentence on
    why it is not legal now, with its rule."""

    def refusal_words(self, action: Action) -> tuple[str, list[str]]:
        reason = why_not(self.game, action)
        if reason is None:
            return super().refusal_words(action)
        return reason.text, [reason.rule] if reason.rule else []
