"""`LessonRunner`: a lesson played on the live engine. Everything a lesson screen needs is here.

    runner = LessonRunner(load_lesson("lessons/01-setup.yaml"))   # or LessonRunner("lessons/01-setup.yaml")
    runner.lesson.title, runner.progress        # "Setting up", (1, 5): current step number, step count
    runner.step                                 # the current ScriptStep (.say Markdown, .rules, .kind), or None
    runner.step.kind                            # "ask" (one move), "goal" (free play) or "page" (Next)
    runner.game                                 # the live uu.engine Game (board, log, pending decision)
    runner.learner                              # the learner's seat (int); runner.lesson.learner is the name
    runner.learner_actions()                    # legal actions if the pending decision is the learner's, else []
    runner.describe(action)                     # "play Basic Unicorn (Red) into You's Stable"
    fb = runner.try_move(action)                # Feedback(ok, kind, text, rules, log)
    runner.next()                               # leave a "page" step (its bots act); Feedback
    runner.hint()                               # the step's hint (or the move itself, spelled out)
    runner.back(); runner.restart()             # rebuild from the start and replay the history
    runner.done                                 # every step completed
    runner.why(fb.rules)                        # one plain line per rule id (uu.engine.rules.explain)

Feedback kinds: "right" (the move was made; for a goal step: the goal now holds), "illegal" (the engine refused
it: nothing changed; the text has the lesson's words and the engine's reason), "other" (legal, but not what the
step asks: not applied, try again), "info" (anything else: a page step, a goal not reached yet, a finished
lesson). `fb.log` holds the log entries the move and the bots produced (each with `.text` and `.rules`).

After the learner's right move (or Next on a page) the step is completed: its scripted `bots:` moves are made
(matched like scenario steps; other players' response windows before them are passed and single-action
decisions taken), then the remaining bot decisions are settled the same way, any decision with several
actions by a seeded `uu.bots.RandomBot` (lessons script every bot choice, so replays are deterministic), until
the learner must decide or the game is over; then the step's `check` expectations are tested (a failure is
recorded in `runner.problems` and reported as "info" feedback). The learner's own decisions are never taken
for them, response windows included.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from uu.bots import RandomBot
from uu.engine.actions import Action
from uu.engine.errors import GameError
from uu.engine.game import Game
from uu.engine.rules import explain
from uu.engine.state import LogEntry
from uu.scenario.build import build_game
from uu.scenario.model import Step
from uu.scenario.runner import _action_from_step, check_expect, describe_pending, matches
from uu.tutor.model import Ask, Lesson, ScriptStep, load_lesson

__all__ = ["Feedback", "LessonError", "LessonRunner"]


class LessonError(Exception):
    """The script does not fit the game (a bot move that is not legal, ...): a broken lesson."""


@dataclass
class Feedback:
    ok: bool
    kind: Literal["right", "illegal", "other", "info"]
    text: str
    rules: list[str] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)


def _unique(ids: list[str] | tuple[str, ...]) -> list[str]:
    out: list[str] = []
    for r in ids:
        if r not in out:
            out.append(r)
    return out


class LessonRunner:
    """One learner working through one lesson. See the module docstring for the API."""

    def __init__(self, lesson: Lesson | str | Path):
        self.lesson: Lesson = lesson if isinstance(lesson, Lesson) else load_lesson(lesson)
        self.scenario = self.lesson.scenario
        self.learner: int = self.scenario.players.index(self.lesson.learner)
        # (step index, learner action or None for Next): what `back()` replays
        self.history: list[tuple[int, Action | None]] = []
        self._build()

    # ---- state -----------------------------------------------------------------------------------------
    def _build(self) -> None:
        self.game: Game = build_game(self.scenario)
        self.bot = RandomBot(self.scenario.options.seed)
        self.index = 0
        self.problems: list[str] = []
        self._settle(random=False)

    @property
    def step(self) -> ScriptStep | None:
        script = self.lesson.script
        return script[self.index] if self.index < len(script) else None

    @property
    def done(self) -> bool:
        return self.index >= len(self.lesson.script)

    @property
    def progress(self) -> tuple[int, int]:
        """(number of the current step, counting from 1, capped at the count; number of steps)."""
        n = len(self.lesson.script)
        return min(self.index + 1, n), n

    def learner_actions(self) -> list[Action]:
        d = self.game.pending
        return list(d.actions) if d is not None and d.player == self.learner else []

    def describe(self, action: Action) -> str:
        return self.game.describe(action)

    def why(self, rule_ids: list[str] | tuple[str, ...]) -> list[str]:
        return explain(rule_ids)

    def answer(self) -> Action | None:
        """The legal action the current `ask` step wants (the first match), or the next `solution` move of a
        goal step; None on a page or when nothing matches."""
        st = self.step
        if st is None:
            return None
        if st.kind == "ask":
            return self._find(st.ask)
        if st.kind == "goal":
            for m in st.solution:
                a = self._find(m)
                if a is not None:
                    return a
        return None

    # ---- the learner -----------------------------------------------------------------------------------
    def try_move(self, action: Action) -> Feedback:
        st = self.step
        if st is None:
            return Feedback(False, "info", "This lesson is finished. Pick another one, or start again.")
        if st.kind == "page":
            return Feedback(False, "info", "Read this page, then press Next.", list(st.rules))
        d = self.game.pending
        if d is None:
            return Feedback(False, "info", f"The game is over ({self.game.result_text()}).", list(st.rules))
        rules = _unique([*st.rules, *d.rules])
        if d.player != self.learner:
            return Feedback(False, "illegal", f"It is {self.game.players[d.player]}'s decision now, not yours.",
                            rules)
        try:
            legal = self.game.find(action)
        except GameError as e:
            text = " ".join(x for x in (st.wrong.illegal, f"(The engine says: {e})") if x)
            return Feedback(False, "illegal", text, rules)
        if st.kind == "ask" and not self._accepts(st, legal):
            text = st.wrong.other or "That is a legal move, but not the one this step asks for. Try again."
            return Feedback(False, "other", text, rules)
        start = len(self.game.log)
        self.history.append((self.index, legal))
        fb = self._learner_move(legal)
        fb.log = self.game.log[start:]
        return fb

    def next(self) -> Feedback:
        """Leave a page step (its bots act, its check is tested)."""
        st = self.step
        if st is None:
            return Feedback(False, "info", "This lesson is finished.")
        if st.kind != "page":
            return Feedback(False, "info", "This step waits for your move" + (
                f": {st.hint}" if st.hint else "."), list(st.rules))
        start = len(self.game.log)
        self.history.append((self.index, None))
        problems = self._complete()
        return Feedback(not problems, "info", "; ".join(problems), list(st.rules), self.game.log[start:])

    def hint(self) -> str:
        st = self.step
        if st is None:
            return "The lesson is finished."
        if st.hint:
            return st.hint
        a = self.answer()
        if st.kind == "page":
            return "Press Next."
        return f"Try: {self.describe(a)}." if a is not None else "No hint for this step."

    def back(self) -> None:
        """Back to the start of the current step if moves were made in it, else of the previous step."""
        k = self.index if any(i == self.index for i, _ in self.history) else max(self.index - 1, 0)
        self._replay([e for e in self.history if e[0] < k])

    def restart(self) -> None:
        self._replay([])

    # ---- internals -------------------------------------------------------------------------------------
    def _replay(self, events: list[tuple[int, Action | None]]) -> None:
        self.history = []
        self._build()
        for i, a in events:
            if i != self.index:  # cannot happen for a history this runner recorded
                raise LessonError(f"history out of step: event for step {i + 1} at step {self.index + 1}")
            self.history.append((i, a))
            if a is None:
                self._complete()
            else:
                self._learner_move(self.game.find(a))

    def _find(self, ask: Ask) -> Action | None:
        d = self.game.pending
        if d is None or d.player != self.learner:
            return None
        step = ask.as_step(self.lesson.learner)
        for a in d.actions:
            if matches(self.scenario, step, a):
                return a
        return None

    def _accepts(self, st: ScriptStep, a: Action) -> bool:
        assert st.ask is not None
        if st.accept == "kind":
            return a.kind == st.ask.do
        return matches(self.scenario, st.ask.as_step(self.lesson.learner), a)

    def _learner_move(self, legal: Action) -> Feedback:
        st = self.step
        assert st is not None
        self.game.apply(legal)
        if st.kind == "ask":
            problems = self._complete()
            text = st.right or "Right!"
            return Feedback(True, "right", "\n\n".join([text, *problems]), list(st.rules))
        assert st.goal is not None
        if not check_expect(self.game, self.scenario, st.goal, "goal"):
            problems = self._complete()
            return Feedback(True, "right", "\n\n".join([st.right or "Goal reached!", *problems]), list(st.rules))
        self._settle(random=True)
        if not check_expect(self.game, self.scenario, st.goal, "goal"):
            problems = self._complete()
            return Feedback(True, "right", "\n\n".join([st.right or "Goal reached!", *problems]), list(st.rules))
        if self.game.pending is None:
            return Feedback(False, "info", f"The game is over ({self.game.result_text()}) and the goal was not "
                            "reached. Press Back to try this step again.", list(st.rules))
        return Feedback(True, "info", "Done. Keep going: the goal is not reached yet.", list(st.rules))

    def _complete(self) -> list[str]:
        """Finish the current step: scripted bots, settle, check; move to the next step."""
        st = self.step
        assert st is not None
        where = f"step {self.index + 1}"
        problems: list[str] = []
        try:
            for j, bot_step in enumerate(st.bots, 1):
                self._bot_move(bot_step, f"{where} bots[{j}]")
            self._settle(random=True)
        except LessonError as e:
            problems.append(str(e))
        if st.check is not None and not problems:
            problems += check_expect(self.game, self.scenario, st.check, f"{where} check")
        self.problems += problems
        self.index += 1
        return problems

    def _bot_move(self, step: Step, label: str) -> None:
        sc, game = self.scenario, self.game
        seat = sc.players.index(step.as_)
        label = f"{label} ({step.as_} {step.do}{' ' + step.card if step.card else ''})"
        while True:
            d = game.pending
            if d is None:
                raise LessonError(f"{label}: the game is already over ({game.result_text()})")
            found = [a for a in d.actions if matches(sc, step, a)] if d.player == seat else []
            if found:
                if step.to is not None:
                    top = game.pile[-1][0] if game.pile else None
                    if top != step.to:
                        raise LessonError(f"{label}: `to: {step.to}` but the top card of the pile is {top}")
                game.apply(found[0])
                return
            if d.player == self.learner:
                raise LessonError(f"{label}: the learner must decide first; {describe_pending(game)}")
            if d.kind == "respond":
                game.apply(Action("pass"))
            elif len(d.actions) == 1:
                game.apply(d.actions[0])
            else:
                raise LessonError(f"{label} matches no legal action; {describe_pending(game)}")

    def _settle(self, random: bool) -> None:
        """Bots' decisions until the learner must decide (response windows passed, single actions taken,
        other choices by the seeded RandomBot when `random`)."""
        game = self.game
        while (d := game.pending) is not None and d.player != self.learner:
            if d.kind == "respond":
                game.apply(Action("pass"))
            elif len(d.actions) == 1:
                game.apply(d.actions[0])
            elif random:
                game.apply(self.bot.choose(game))
            else:
                return

    def mistake_action(self, m: Ask) -> Action:
        """The action a scripted mistake stands for: a legal action matching it, else one built from names."""
        a = self._find(m)
        if a is not None:
            return a
        return _action_from_step(self.scenario, m.as_step(self.lesson.learner))
