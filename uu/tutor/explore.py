"""Every way a learner can go through a lesson, explored: the proof behind "no dead ends".

From the start of the lesson, at every step, `explore` tries every move the step accepts (each on its own copy
of the runner, and on through the rest of the script, the bots' scripted moves included), every legal wrong
move (each is played out on a copy and taken back, so it must leave the lesson where it was), and for a goal
step every first move of the turn. A *dead end* is a state in which the learner cannot finish: the runner is
stuck (a scripted bot move or an asked move that is not there) or a wrong move changed the lesson. States met
twice (same step, same game) are explored once.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field

from uu.bots import HeuristicBot
from uu.tutor.lesson_runner import LessonRunner

__all__ = ["Exploration", "explore"]

#: Runner states explored per lesson at most; a lesson that needs more is too branchy to prove, and says so.
MAX_STATES = 4000
#: Learner moves a goal step's free play or a game step may take on one path.
MAX_FREE_MOVES = 60


@dataclass
class Exploration:
    alternatives: int = 0  # learner moves and answers tried
    states: int = 0  # distinct runner states explored
    dead_ends: list[str] = field(default_factory=list)
    complete: bool = True  # False: MAX_STATES was reached before everything was explored

    def dead(self, runner: LessonRunner, how: str) -> None:
        detail = "; ".join(runner.problems[-1:]) or "the lesson cannot go on"
        self.dead_ends.append(f"step {runner.index + 1} after {how}: {detail}")


def _key(r: LessonRunner) -> str:
    return json.dumps([r.index, r.game.to_dict()], sort_keys=True, default=str)


def explore(lesson_runner: LessonRunner) -> Exploration:
    """Explore every path through the lesson from `lesson_runner`'s state (it is not changed)."""
    out = Exploration()
    seen: set[str] = set()
    stack: list[tuple[LessonRunner, str]] = [(lesson_runner.fork(), "the start")]
    coach_bot = HeuristicBot(0)
    while stack:
        r, how = stack.pop()
        if r.stuck:
            out.dead(r, how)
            continue
        if r.done:
            continue
        key = _key(r)
        if key in seen:
            continue
        if len(seen) >= MAX_STATES:
            out.complete = False
            break
        seen.add(key)
        out.states += 1
        st = r.step
        assert st is not None
        label = f"step {r.index + 1}"
        if st.kind == "page":
            nxt = r.fork()
            nxt.next()
            stack.append((nxt, f"{label} Next"))
        elif st.kind == "question":
            assert st.question is not None
            for i in range(1, len(st.question.options) + 1):
                nxt = r.fork()
                out.alternatives += 1
                nxt.choose(i)
                if i == st.question.answer:
                    stack.append((nxt, f"{label} answer {i}"))
                elif _key(nxt) != key:
                    out.dead(nxt, f"{label} wrong answer {i} changed the lesson")
        elif st.kind == "ask":
            for a in r.learner_actions():
                nxt = r.fork()
                out.alternatives += 1
                fb = nxt.try_move(a)
                what = f"{label} {r.describe(a)}"
                if fb.kind == "right":
                    stack.append((nxt, what))
                elif _key(nxt) != key or nxt.stuck:
                    out.dead(nxt, f"{what} (a wrong move that changed the lesson)")
        elif st.kind == "goal":
            for a in r.learner_actions():
                nxt = r.fork()
                out.alternatives += 1
                nxt.try_move(a)
                stack.append((nxt, f"{label} {r.describe(a)}"))
        else:  # a game step: one path, the learner played by the heuristic bot
            nxt = r.fork()
            for _ in range(MAX_FREE_MOVES * 4):
                if nxt.index != r.index or nxt.stuck or not nxt.learner_actions():
                    break
                out.alternatives += 1
                nxt.try_move(coach_bot.choose(nxt.game))
            if nxt.index == r.index and not nxt.stuck:
                out.dead(nxt, f"{label} (the guided game did not end its step)")
            else:
                stack.append((nxt, f"{label} played"))
    return out
