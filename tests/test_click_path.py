"""A lesson click's path to the engine: from the table widget's message handler to `Game.push_legal`, at most
five calls (issue 42; the path is written down in docs/architecture.md). Every frame counts, decorators and
private helpers too: a relay added anywhere on the path fails this test."""

from __future__ import annotations

import sys
from types import FrameType

import pytest
from test_widgets_lesson import click_expected, lesson_path

from uu.engine.actions import Action
from uu.engine.game import Game
from uu.table.widget import TableWidget
from uu.widgets import LessonScreen
from uu.words.lesson_refusals import LessonRunner

MAX_CALLS = 5


def _path_from_message(frame: FrameType | None) -> list[str] | None:
    """The functions between a TableWidget's `_on_message` and `frame` (innermost first), or None when
    `frame` was not reached from one."""
    names: list[str] = []
    while frame is not None:
        if frame.f_code.co_name == "_on_message" and isinstance(frame.f_locals.get("self"), TableWidget):
            return names
        names.append(frame.f_code.co_qualname)
        frame = frame.f_back
    return None


@pytest.mark.parametrize("lesson", ["01-goal", "24-guided-game"])
def test_a_lesson_click_reaches_the_engine_in_at_most_five_calls(lesson: str,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Every learner's move of a lesson with `ask`, `goal` and `game` steps, clicked on the table: the call
    that makes it on the live game is at most the fifth from the widget's handler."""
    pushed: list[tuple[int, list[str]]] = []  # (the seat that moved, the path)
    real = Game.push_legal

    def spy(self: Game, legal: Action) -> None:
        path = _path_from_message(sys._getframe(1))
        if path is not None and self.pending is not None:
            pushed.append((self.pending.player, path))
        real(self, legal)

    monkeypatch.setattr(Game, "push_legal", spy)  # before the screen: its sessions keep the bound method
    screen = LessonScreen(LessonRunner(lesson_path(lesson)))
    r = screen.runner
    kinds = set()
    while not r.done:
        st = r.step
        assert st is not None
        if st.kind in ("ask", "goal", "game"):
            kinds.add(st.kind)
            pushed.clear()
        click_expected(screen)
        if st.kind not in ("ask", "goal", "game"):
            continue
        # the learner's move is the first one the click pushed (the bots answer after it)
        assert pushed, f"a click on a {st.kind} step reached no Game.push_legal"
        seat, path = pushed[0]
        assert seat == r.learner
        calls = len(path) + 1  # each frame on the path called the next; the last one called push_legal
        assert calls <= MAX_CALLS, f"{st.kind} step: {calls} calls: " + " -> ".join(
            ["TableWidget._on_message", *reversed(path), "Game.push_legal"])
    assert kinds & {"ask", "goal", "game"}
