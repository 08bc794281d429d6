"""`LessonRunner`: a lesson played on the live engine. Everything a lesson screen needs is here.

    runner = LessonRunner(load_lesson("lessons/01-goal.yaml"))   # or LessonRunner("lessons/01-goal.yaml")
    runner.lesson.title, runner.progress        # "...", (1, 5): current step number, step count
    runner.step                                 # the current ScriptStep (.say, .rules, .kind: ask/goal/...) or None
    runner.game                                 # the live uu.engine Game (board, log, pending decision)
    runner.session                              # the uu.session.Session every move of the live game goes through
    runner.learner                              # the learner's seat (int); runner.lesson.learner is the name
    runner.learner_actions()                    # legal actions if the pending decision is the learner's, else []
    runner.describe(action)                     # "play Basic Unicorn (Red) into You's Stable"
    fb = runner.try_move(action)                # Feedback(ok, kind, text, rules, log, preview, coach)
    runner.choose(2)                            # answer a `question` step with its 2nd option
    runner.next()                               # leave a "page" step (its bots act); Feedback
    runner.hint()                               # the step's hint (or the move itself, spelled out)
    runner.back(); runner.restart()             # take moves back (Game.pop) to a step's start, or to the start
    runner.stuck                                # None, or plain words when the script cannot go on
    runner.quiz_results, runner.done            # {step number: right at the first try}; every step completed

Feedback kinds: "right" (the move was made; for a goal step: the goal now holds), "illegal" (refused, nothing
changed; `fb.refused` is the move: `uu.words.lesson_refusals.LessonRunner` says why), "other" (legal, but not what the
step asks: played out on a copy, `fb.preview` is the table after it, the live game as before; also a goal step's
turn that ended without the goal, which starts the step again, with no preview), "info" (a page step, a goal
not reached yet, a finished lesson). `fb.log`: the log entries of the move and the bots.

After the learner's right move (or Next on a page) the step is completed: its scripted `bots:` moves are made
(matched like scenario steps; other players' response windows before them are passed and single-action
decisions taken), then the remaining bot decisions are settled the same way, any decision with several
actions by a seeded `uu.bots.RandomBot` (lessons script every bot choice, so replays are deterministic), until
the learner must decide or the game is over; then the step's `check` expectations are tested (a failure is
recorded in `runner.problems`). Every move of the live game, the learner's and the bots', goes through the
runner's `session` (`uu.session.Session`: the others' seats are bots whose choices are the script's and the
settling rules above, in the session's one loop), so a screen plays back each decision as it was made; a step
with its own position is a new session that follows the last one. A step with a `position:` starts from that position. The learner's own
decisions are never taken for them, response windows included.
A goal step is played within the learner's turn: when the turn passes on and the goal does not hold, the step
starts again. A `game` step is free play against bots (they may answer with Neigh) until the learner has played
its number of turns or the game ends; `fb.coach` then holds the coach's comment on the learner's decision.
If the script cannot go on (what `uu lesson check` proves cannot happen in a checked lesson), `runner.stuck`
says so and `back()` takes the learner to where they can go on; the details are in `runner.problems`.
"""

from __future__ import annotations

import copy
import dataclasses
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from uu.bots import HeuristicBot, RandomBot, SearchBot
from uu.engine.actions import Action
from uu.engine.errors import GameError
from uu.engine.game import Game
from uu.engine.state import LogEntry
from uu.i18n import N_, _, ngettext
from uu.scenario.model import Step
from uu.scenario.record import GameRecord, record_for
from uu.scenario.runner import _action_from_step, check_expect, describe_pending, matches
from uu.scenario.to_game import build_game
from uu.session import BotChooser, Session
from uu.tutor.lesson_model import Also, Ask, Lesson, Mistake, ScriptStep, load_lesson

__all__ = ["Feedback", "LessonError", "LessonRunner", "STUCK_TEXT"]

# English here; translated where the learner is told (`_()`), so the language may change while a lesson runs
STUCK_TEXT = N_("The game went a way this lesson did not plan for, so it cannot go on from here. "
                "Press **Back** to try again from where you can go on.")
GOAL_MISSED = N_("Your turn ended before the goal was reached, so this step starts again from the same "
                 "position. Read the goal once more and try another way.")
#: Bot decisions a legal wrong move is played out for on its copy, at most (it stops at the end of the turn).
PLAY_OUT_LIMIT = 40


class LessonError(Exception):
    """The script does not fit the game (a bot move that is not legal, ...): a broken lesson."""


@dataclass
class Feedback:
    ok: bool
    kind: Literal["right", "illegal", "other", "info"]
    text: str
    rules: list[str] = field(default_factory=list)
    log: list[LogEntry] = field(default_factory=list)
    preview: Game | None = None  # "other": the table after the move, played out on a copy
    coach: str = ""  # a game step: the coach on the learner's decision
    refused: Action | None = None  # "illegal": the move the engine refused (the table is as it was)


def _result_words(game: Game, learner: int) -> str:
    """How the game ended, said to the learner ("you win", not "You wins" for a seat named You)."""
    w = game.winner
    return _("you win") if w is not None and not isinstance(w, str) and w == learner else game.result_text()


@dataclass
class _Mark:
    """The runner just before one learner answer, what `back` restores: the game then live and its move count
    (going back is `Game.pop` on it, never a replay)."""

    game: Game
    moves: int
    index: int
    bot: RandomBot
    level_bots: dict[str, HeuristicBot | SearchBot]
    problems: list[str]
    stuck: str | None
    learner_turns: set[int]
    goal_log: int


def _waits(_game: Game, _seat: int) -> Action | None:
    """The others' seats between the runner's moves: nobody plays for them."""
    return None


class LessonRunner:
    """One learner working through one lesson. See the module docstring for the API."""

    def __init__(self, lesson: Lesson | str | Path):
        self.lesson: Lesson = lesson if isinstance(lesson, Lesson) else load_lesson(lesson)
        self.scenario = self.lesson.scenario
        self.learner: int = self.scenario.players.index(self.lesson.learner)
        self.session: Session
        self._policy: BotChooser = _waits  # how the others' seats decide in the session's loop now
        # (step index, learner action, or None for Next / an int for a question's answer): what `back()` replays
        self.history: list[tuple[int, Action | int | None]] = []
        self._marks: list[_Mark] = []  # one per history entry: the runner just before it
        # quiz steps answered: step index -> right at the first try (kept across Back and Restart)
        self.quiz_first: dict[int, bool] = {}
        self._build()

    # ---- state -----------------------------------------------------------------------------------------
    @property
    def game(self) -> Game:
        """The live game: the session's."""
        return self.session.game

    @game.setter
    def game(self, game: Game) -> None:
        """A game reached otherwise (the start, Back, a fork): a session of its own, with nothing to play back."""
        self.session = self._session_for(game)

    def _session_for(self, game: Game, follows: Session | None = None) -> Session:
        others = {seat: self._others_choose for seat in range(len(game.players)) if seat != self.learner}
        return Session(game, others, undo=False, follows=follows)

    def _others_choose(self, game: Game, seat: int) -> Action | None:
        return self._policy(game, seat)

    def _run(self, policy: BotChooser) -> None:
        """The others decide by `policy` in the session's one loop, until the learner must, the policy waits,
        or the game is over."""
        self._policy = policy
        try:
            self.session.run_bots()
        finally:
            self._policy = _waits

    def _build(self) -> None:
        self.game: Game = build_game(self.scenario)
        self.bot = RandomBot(self.scenario.options.seed)
        self._level_bots: dict[str, HeuristicBot | SearchBot] = {}
        self.index = 0
        self.problems: list[str] = []
        self.stuck: str | None = None
        self._learner_turns: set[int] = set()
        self._goal_log = 0
        # the game step's game as a record (uu.scenario.record), from its first decision: for "Review my game"
        self.record: GameRecord | None = None
        self._settle(random=False)
        self._enter()

    def fork(self) -> LessonRunner:
        """An independent copy at the same point (what `uu lesson check` explores alternatives with)."""
        new = copy.copy(self)
        new.session = new._session_for(self.game.copy())  # the fork's own session, its bots its own
        new.bot = copy.deepcopy(self.bot)
        new.history = list(self.history)
        # the live game is the fork's own copy; older games are shared (`_restore` pops a copy of those)
        new._marks = [m if m.game is not self.game else dataclasses.replace(m, game=new.game) for m in self._marks]
        new.quiz_first = dict(self.quiz_first)
        new.problems = list(self.problems)
        new._learner_turns = set(self._learner_turns)
        new.record = self.record.model_copy(update={"moves": list(self.record.moves)}) if self.record else None
        return new

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

    @property
    def quiz_results(self) -> dict[int, bool]:
        """Step number (from 1) -> answered right at the first try, for the quiz steps answered so far."""
        return {i + 1: ok for i, ok in sorted(self.quiz_first.items())}

    def learner_actions(self) -> list[Action]:
        d = self.game.pending
        return list(d.actions) if d is not None and d.player == self.learner else []

    def describe(self, action: Action) -> str:
        return self.game.describe(action)

    def answer(self) -> Action | None:
        """The legal action the current `ask` step wants (the first match), or the next `solution` move of a
        goal step; None on other steps or when nothing matches."""
        st = self.step
        if st is None:
            return None
        if st.kind == "ask":
            assert st.ask is not None
            return self._find(st.ask)
        if st.kind == "goal":
            for m in st.solution:
                a = self._find(m)
                if a is not None:
                    return a
        return None

    def accepted(self) -> list[Action]:
        """Every legal action the current `ask` step takes as right (what `uu lesson check` explores)."""
        st = self.step
        if st is None or st.kind != "ask":
            return []
        return [a for a in self.learner_actions() if self._accepts(st, a) is not None]

    # ---- the learner -----------------------------------------------------------------------------------
    def try_move(self, action: Action) -> Feedback:
        st = self.step
        if st is None:
            return Feedback(False, "info", _("This lesson is finished. Pick another one, or start again."))
        if self.stuck:
            return Feedback(False, "info", _(self.stuck))
        if st.kind == "page":
            return Feedback(False, "info", _("Read this page, then press Next."), list(st.rules))
        if st.kind == "question":
            return Feedback(False, "info", _("Answer the question with one of its choices."), list(st.rules))
        d = self.game.pending
        if d is None:
            return Feedback(False, "info", _("The game is over ({result}).").format(result=_result_words(self.game, self.learner)),
                            list(st.rules))
        if d.player != self.learner:
            return Feedback(False, "illegal", _("It is {player}'s decision now, not yours.").format(player=self.game.players[d.player]),
                            list(st.rules))
        try:
            # a click names one of the legal actions themselves: judged by the engine only when it is not
            legal = next((a for a in d.actions if a is action), None) or self.game.find(action)
        except GameError:
            why, rules = self.refusal_words(action)
            self._missed()
            text = " ".join(x for x in (st.wrong.illegal, why) if x)
            return Feedback(False, "illegal", text, list(dict.fromkeys([*rules, *st.rules])), refused=action)
        if st.kind == "ask":
            hit = self._accepts(st, legal)
            if hit is None:
                self._missed()
                return self._play_out(st, legal)
        # the game the move is made on: a next step with a `position:` replaces self.game, and the learner must
        # still read what their move and the bots did
        game, start = self.game, len(self.game.log)
        self._record(legal)
        # the session is pushed from here, not from a helper: a click's path to the engine stays short
        # (docs/architecture.md, tests/test_click_path.py)
        before = self._before_move(legal)
        self.session.push(legal)
        fb = self._judge_move(legal, before)
        fb.log = game.log[start:]
        return fb

    def choose(self, option: int) -> Feedback:
        """Answer a `question` step with option number `option` (counting from 1)."""
        st = self.step
        if st is None or st.question is None:
            return Feedback(False, "info", _("There is no question to answer now."))
        q = st.question
        if not 1 <= option <= len(q.options):
            return Feedback(False, "illegal", _("Pick one of the {count} choices.").format(count=len(q.options)), list(st.rules))
        if option != q.answer:
            self._missed()
            return Feedback(False, "other", _("Not quite. {explanation}").format(explanation=q.explain), list(st.rules))
        self._first_try(True)
        game, start = self.game, len(self.game.log)
        self._record(option)
        self._complete()
        text = _(self.stuck) if self.stuck else f"{st.right or _('Right!')} {q.explain}"
        return Feedback(not self.stuck, "right", text, list(st.rules), game.log[start:])

    def next(self) -> Feedback:
        """Leave a page step (its bots act, its check is tested)."""
        st = self.step
        if st is None:
            return Feedback(False, "info", _("This lesson is finished."))
        if self.stuck:
            return Feedback(False, "info", _(self.stuck))
        if st.kind != "page":
            waits = (_("This step waits for your move: {hint}").format(hint=st.hint) if st.hint
                     else _("This step waits for your move."))
            return Feedback(False, "info", waits, list(st.rules))
        game, start = self.game, len(self.game.log)
        self._record(None)
        self._complete()
        return Feedback(not self.stuck, "info", _(self.stuck) if self.stuck else "", list(st.rules), game.log[start:])

    def hint(self) -> str:
        st = self.step
        if st is None:
            return _("The lesson is finished.")
        if st.hint:
            return st.hint
        if st.kind == "page":
            return _("Press Next.")
        if st.kind == "question":
            # a question without a hint of its own: how to find the answer, which holds for every question
            return _("Reread the page above, then rule out the choices that it or the table contradicts.")
        if st.kind == "game":
            return _("Play as you like: the coach comments on each of your decisions.")
        a = self.answer()
        return _("Try: {move}.").format(move=self.describe(a)) if a is not None else _("No hint for this step.")

    def back(self) -> None:
        """Back to the start of the current step if moves were made in it, else of the previous step."""
        k = self.index if any(i == self.index for i, _ in self.history) else max(self.index - 1, 0)
        self._back_to(k)

    def restart(self) -> None:
        self._back_to(0)

    def resume(self, events: list[tuple[int, Action | int | None]]) -> bool:
        """Replay answers recorded earlier (a saved `history`, uu/widgets/progress.py): the lesson reopens at
        the step reached with the same table. If they no longer fit (the lesson file changed since), start
        from the beginning instead and return False."""
        try:
            self._replay(events)
            return True
        except Exception:
            self._replay([])
            return False

    def refusal_words(self, action: Action) -> tuple[str, list[str]]:
        """The sentence (and rule ids) said when the engine refuses `action`, asked before anything changes.
        The tutor only knows the fact; `uu.words.lesson_refusals.LessonRunner` says why in plain words."""
        return _("That move is not allowed right now."), []

    # ---- internals -------------------------------------------------------------------------------------
    def _missed(self) -> None:
        self._first_try(False)

    def _first_try(self, right: bool) -> None:
        st = self.step
        if st is not None and st.quiz and self.index not in self.quiz_first:
            self.quiz_first[self.index] = right

    def _record(self, answer: Action | int | None) -> None:
        self._marks.append(_Mark(self.game, len(self.game.moves), self.index, copy.deepcopy(self.bot),
                                 copy.deepcopy(self._level_bots), list(self.problems), self.stuck,
                                 set(self._learner_turns), self._goal_log))
        self.history.append((self.index, answer))

    def _back_to(self, step: int) -> None:
        """Back to the runner as it was before its first answer at step `step` or later: moves are taken back
        with `Game.pop`; with no such answer the runner stays where it is."""
        j = next((j for j, (i, _) in enumerate(self.history) if i >= step), None)
        if j is None:
            return
        m = self._marks[j]
        # a game that a later `position:` replaced may be shared with forks (uu lesson check): pop a copy
        game = m.game if m.game is self.game else m.game.copy()
        game.pop_to(m.moves)
        self.game, self.index, self.stuck, self._goal_log = game, m.index, m.stuck, m.goal_log
        self.bot, self._level_bots = copy.deepcopy(m.bot), copy.deepcopy(m.level_bots)
        self.problems, self._learner_turns = list(m.problems), set(m.learner_turns)
        del self.history[j:], self._marks[j:]

    def _replay(self, events: list[tuple[int, Action | int | None]]) -> None:
        """Play recorded answers from the start (a saved history: uu/widgets/progress.py)."""
        self.history, self._marks = [], []
        self._build()
        for i, a in events:
            if i != self.index:  # cannot happen for a history this runner recorded
                raise LessonError(f"history out of step: event for step {i + 1} at step {self.index + 1}")
            self._record(a)
            if a is None or isinstance(a, int):
                self._complete()
            else:
                legal = self.game.find(a)
                before = self._before_move(legal)
                self.session.push(legal)
                self._judge_move(legal, before)

    def _find(self, ask: Ask) -> Action | None:
        d = self.game.pending
        if d is None or d.player != self.learner:
            return None
        step = ask.as_step(self.lesson.learner)
        for a in d.actions:
            if matches(self.scenario, step, a):
                return a
        return None

    def _accepts(self, st: ScriptStep, a: Action) -> Ask | None:
        """The `ask` or `also` entry that takes `a` as right, or None."""
        assert st.ask is not None
        if st.accept == "kind" and a.kind == st.ask.do:
            return st.ask
        for m in (st.ask, *st.also):
            if matches(self.scenario, m.as_step(self.lesson.learner), a):
                return m
        return None

    def _mistake_for(self, st: ScriptStep, a: Action) -> Mistake | None:
        for m in st.mistakes:
            if matches(self.scenario, m.as_step(self.lesson.learner), a):
                return m
        return None

    def _play_out(self, st: ScriptStep, legal: Action) -> Feedback:
        """A legal move the step does not take: play it on a copy to show what it does; the game stays."""
        preview = self.game.copy()
        start, turn = len(preview.log), preview.turn[2]
        preview.push_legal(legal)
        self._play_on(preview, turn)
        m = self._mistake_for(st, legal)
        text = (m.why if m is not None and m.why else None) or st.wrong.other or (
            _("That is a legal move, but not the one this step is about."))
        text += " " + _("The table shows what it would do; it has been taken back, so try again.")
        return Feedback(False, "other", text, list(st.rules), preview.log[start:], preview)

    def _check_shows(self, st: ScriptStep) -> None:
        """The result the step's `right:` states (`shows:`), on a copy played on as a wrong move is."""
        if st.shows is None:
            return
        table = self.game.copy()
        self._play_on(table, table.turn[2])
        self.problems += check_expect(table, self.scenario, st.shows, f"step {self.index + 1} shows")

    def _play_on(self, preview: Game, turn: int) -> None:
        """The bots' part of a played-out wrong move: up to the learner's next decision or the end of `turn`
        (a session of its own over the copy, whose bots pass and take the first move)."""
        def first(game: Game, _seat: int) -> Action | None:
            d = game.pending
            # what the move does, up to the end of this turn: the next turns would be the bots' guesses
            if d is None or game.turn[2] != turn:
                return None
            return Action("pass") if d.kind == "respond" else d.actions[0]

        Session(preview, {s: first for s in range(len(preview.players)) if s != self.learner},
                undo=False).run_bots(limit=PLAY_OUT_LIMIT)

    def continue_play_out(self, preview: Game, moves: list[Ask], turn: int) -> str | None:
        """Make the learner's `moves` on a played-out copy (`Feedback.preview`), the bots playing on as in the
        play-out; None when done, else which move matched nothing (what `uu lesson check` reports)."""
        for i, move in enumerate(moves, 1):
            d = preview.pending
            step = move.as_step(self.lesson.learner)
            found = [a for a in d.actions if matches(self.scenario, step, a)] if d and d.player == self.learner \
                else []
            if not found:
                return f"after[{i}] ({move.do}) matches no decision of the learner on the played-out table"
            preview.push_legal(found[0])
            self._play_on(preview, turn)
        return None

    def _before_move(self, legal: Action) -> Game | None:
        """Before the learner's `legal` move is made: in a game step, the position it is made from (for the
        coach's comment) and the move in the review's record."""
        st = self.step
        assert st is not None
        if st.kind != "game":
            return None
        before = self.game.copy()
        if self.record is not None:
            self.record.add(self.game, legal)
        return before

    def _judge_move(self, legal: Action, before: Game | None) -> Feedback:
        """After the learner's `legal` move was made (from the position `before`, in a game step): what the
        step says of it, the bots' answers played."""
        st = self.step
        assert st is not None
        if st.kind == "ask":
            hit = self._accepts(st, legal)
            self._first_try(True)
            self._check_shows(st)
            self._complete()
            own = hit.right if isinstance(hit, Also) else None
            said = _(self.stuck) if self.stuck else (own or st.right or _("Right!"))
            return Feedback(not self.stuck, "right", said, list(st.rules))
        if st.kind == "game":
            assert before is not None
            return self._game_move(st, before, legal)
        assert st.goal is not None
        self._settle(random=False)
        d = self.game.pending
        # a goal is judged between the learner's moves, not half-way through a card of theirs that still
        # asks them for choices (Glitter Tornado's second card)
        midway = d is not None and d.player == self.learner and d.kind != "action" and \
            self.game.turn[0] == self.learner and self.game.turn[1] == "action"
        if not midway and not check_expect(self.game, self.scenario, st.goal, "goal"):
            self._check_shows(st)
            self._complete()
            said = _(self.stuck) if self.stuck else (st.right or _("Goal reached!"))
            return Feedback(not self.stuck, "right", said, list(st.rules))
        d = self.game.pending
        if d is not None and d.player == self.learner and self.game.turn[0] == self.learner and \
                not self._others_played_since(self._goal_log):
            return Feedback(True, "info", _("Done. Keep going: the goal is not reached yet."), list(st.rules))
        self._back_to(self.index)
        # a legal move that is not what the step asks ("other": the class view counts it as a wrong move); the
        # turn it ended was played out and taken back, so there is no table to preview
        return Feedback(False, "other", _(GOAL_MISSED), list(st.rules))

    def _others_played_since(self, start: int) -> bool:
        """Has another player's turn begun since log entry `start`? (An extra turn of the learner's has not.)"""
        return any("turn.phases" in e.rules and e.player is not None and e.player != self.learner
                   for e in self.game.log[start:])

    def _game_move(self, st: ScriptStep, before: Game, legal: Action) -> Feedback:
        from uu.tutor.coach import comment

        assert st.game is not None
        note = comment(before, legal, self.learner)
        self._settle(random=True, play=True)
        if self.game.pending is None or len(self._finished_turns()) >= st.game.turns:
            self._complete()
            end = (_("The game is over: {result}.").format(result=_result_words(self.game, self.learner))
                   if self.game.pending is None
                   else ngettext("You have played {count} turns.", "You have played {count} turns.",
                                 st.game.turns).format(count=st.game.turns))
            return Feedback(True, "right", st.right or end, list(st.rules), coach=note)
        return Feedback(True, "info", "", list(st.rules), coach=note)

    def _finished_turns(self) -> set[int]:
        current = self.game.turn[2]
        return {n for n in self._learner_turns if n < current or self.game.pending is None}

    def _complete(self) -> list[str]:
        """Finish the current step: scripted bots, settle, check; move to the next step."""
        st = self.step
        assert st is not None
        where = f"step {self.index + 1}"
        try:
            for j, bot_step in enumerate(st.bots, 1):
                self._bot_move(bot_step, f"{where} bots[{j}]")
            self._settle(random=True)
        except LessonError as e:
            self.problems.append(str(e))
            self.stuck = STUCK_TEXT
            return [str(e)]
        problems = []
        if st.check is not None:
            problems = check_expect(self.game, self.scenario, st.check, f"{where} check")
        self.problems += problems
        self.index += 1
        self._enter()
        return problems

    def _enter(self) -> None:
        """Start the current step: its fresh position if it has one; then make sure it can be played."""
        st = self.step
        if st is None:
            return
        if st.position is not None:
            # a position of its own: a new session, which goes on from the last one for the screen
            self.session = self._session_for(build_game(st.position.scenario(self.scenario)), follows=self.session)
            self._learner_turns = set()
            self._settle(random=False)
        if st.kind in ("page", "question"):
            return
        d = self.game.pending
        where = f"step {self.index + 1}"
        if d is None:
            problem = f"{where}: the game is over ({self.game.result_text()}) but the step waits for a move"
        elif d.player != self.learner:
            problem = f"{where}: the learner should decide, but {describe_pending(self.game)}"
        elif (not self.accepted()) if st.kind == "ask" else (st.kind == "goal" and self.answer() is None):
            problem = f"{where}: the asked move is not legal now; {describe_pending(self.game)}"
        else:
            if st.kind == "game" and self.game.turn[2] > 0:  # turn 0 is the setup (choosing Babies)
                self._learner_turns.add(self.game.turn[2])
            if st.kind == "game" and self.record is None:
                self.record = record_for(self.game)
            self._goal_log = len(self.game.log)  # a goal step is played before another player's turn
            return
        self.problems.append(problem)
        self.stuck = STUCK_TEXT

    def _bot_move(self, step: Step, label: str) -> None:
        """A scripted bot move: other players' response windows before it are passed and single actions taken,
        in the session's loop; a `LessonError` when it matches nothing."""
        sc = self.scenario
        seat = sc.players.index(step.as_)
        label = f"{label} ({step.as_} {step.do}{' ' + step.card if step.card else ''})"
        made: list[Action] = []

        def scripted(game: Game, _seat: int) -> Action | None:
            d = game.pending
            if made or d is None:
                return None
            found = [a for a in d.actions if matches(sc, step, a)] if d.player == seat else []
            if found:
                if step.to is not None:
                    top = game.pile[-1][0] if game.pile else None
                    if top != step.to:
                        raise LessonError(f"{label}: `to: {step.to}` but the top card of the pile is {top}")
                made.append(found[0])
                return found[0]
            if d.kind == "respond":
                return Action("pass")
            if len(d.actions) == 1:
                return d.actions[0]
            raise LessonError(f"{label} matches no legal action; {describe_pending(game)}")

        self._run(scripted)
        if made:
            return
        if self.game.pending is None:
            raise LessonError(f"{label}: the game is already over ({self.game.result_text()})")
        raise LessonError(f"{label}: the learner must decide first; {describe_pending(self.game)}")

    def _settle(self, random: bool, play: bool = False) -> None:
        """Bots' decisions until the learner must decide (response windows passed, single actions taken,
        other choices by the seeded RandomBot when `random`). In a game step (`play`) the bots play every
        decision themselves, answering with Neigh included."""
        st = self.step
        playing = play or (st is not None and st.kind == "game")
        bot = self._game_bot(st) if playing else self.bot

        def settle(game: Game, _seat: int) -> Action | None:
            d = game.pending
            assert d is not None
            if playing:
                action = bot.choose(game)
                if self.record is not None:
                    self.record.add(game, action)
                return action
            if d.kind == "respond":
                return Action("pass")
            if len(d.actions) == 1:
                return d.actions[0]
            return self.bot.choose(game) if random else None

        self._run(settle)
        game = self.game
        if playing and game.pending is not None and game.turn[0] == self.learner and game.turn[2] > 0:
            self._learner_turns.add(game.turn[2])

    def _game_bot(self, st: ScriptStep | None) -> RandomBot | HeuristicBot | SearchBot:
        """The bots of a game step, at its level (the app's levels: easy, normal, hard). Hard plays the hint
        engine with a fixed number of deals and no time cap, so a lesson replays the same on any machine."""
        level = st.game.level if st is not None and st.game is not None else "easy"
        if level == "easy":
            return self.bot
        bot = self._level_bots.get(level)
        if bot is None:
            seed = self.scenario.options.seed
            bot = self._level_bots[level] = HeuristicBot(seed) if level == "normal" else SearchBot(seed, seconds=None)
        return bot

    def mistake_action(self, m: Ask) -> Action:
        """The action a scripted mistake stands for: a legal action matching it, else one built from names."""
        a = self._find(m)
        if a is not None:
            return a
        return _action_from_step(self.scenario, m.as_step(self.lesson.learner))
