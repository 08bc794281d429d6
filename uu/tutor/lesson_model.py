"""The lesson format: a scenario file (docs/scenario-format.md) with an extra top-level key `lesson:`.

```yaml
name: "Lesson 1: Setting up"        # the usual scenario keys: players, options, turn, stables, hands, deck, ...
players: [Bramble, Clover, You]
lesson:
  id: setup                          # slug, unique among the lessons
  order: 1                           # reading order
  title: Setting up
  summary: one sentence
  learner: You                       # the learner's seat; every other seat is a bot
  script:
    - say: Markdown narration        # every step has narration
      rules: [setup.choose-baby]     # rule ids taught here (uu.engine.rules)
      ask: {do: baby, card: Baby Unicorn (Red)}   # the learner's move: a scenario step without `as`
      accept: exact                  # exact (default): must match `ask`; kind: any legal action of that `do`
      right: feedback when right
      wrong: {illegal: ..., other: ...}           # illegal: the engine refused it; other: legal, not asked
      hint: ...
      bots: [{as: Bramble, do: pass}]             # scripted bot moves once the step is done (scenario steps)
      shows: {unicorns: {You: 3}}                 # what `right` states, checked as the move is made
      check: {turn: {player: You}}                # expectations once the bots have acted
      mistakes: [{do: draw, expect: other, why: one sentence,   # wrong moves `uu lesson check` tries;
                  shows: {unicorns: {You: 2}}}]                 # what `why` says, checked on the table shown
      also: [{do: play, card: Neigh, right: ...}]  # more moves that count as right (a real choice)
      quiz: true                     # a quiz question: counted right when answered at the first try
    - say: ...
      position: {stables: ..., hands: ..., turn: ...}  # a fresh position for this step (same players; it may
                                                       # set `options:` too, e.g. {targeting: neigh-first})
      goal: {unicorns: {You: 3}}     # free play in this turn until these expectations hold ...
      solution: [{do: play, card: Basic Unicorn (Red), into: You}]   # ... and the moves that reach them
    - say: How many Unicorns does Bramble need to win?
      question: {options: ["1", "2"], answer: 2, explain: ...}     # a choice about the position on the table
    - say: A guided game; the coach comments on your decisions.
      game: {turns: 4, level: easy}  # free play against bots for that many of your turns (or to the end);
                                     # level: easy, normal or hard, as on the play screen
    - say: A page with no move to make is read and left with "Next" (its bots act then).
  recap: [at most three short lines, shown when the lesson is done]
```
A legal move that a step does not accept is played out on a copy of the table (its consequence is shown),
then taken back. A goal step is played within the learner's turn: when the turn ends without the goal, the
step starts again. So a learner can never reach a position from which the lesson cannot go on;
`uu lesson check` proves it by exploring every move a step accepts (`uu.tutor.explore`).
Validation errors name the file, the line and the field (`uu.scenario.load.format_validation`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import yaml
from pydantic import Field, ValidationError, ValidationInfo, field_validator, model_validator

from uu.engine.options import Options
from uu.scenario.load import ScenarioFileError, _line_of, format_validation, parse_scenario
from uu.scenario.model import Expect, Move, Scenario, Step, Strict, TurnSpec, known_rules, name_problems
from uu.yamlfile import YamlInputError, compose_user_yaml, read_user_file

__all__ = ["Also", "Ask", "GameSpec", "Lesson", "LessonFileError", "LessonSpec", "Mistake", "Position", "Question",
           "ScriptStep", "Wrong", "load_lesson", "parse_lesson"]

SLUG = re.compile(r"^[a-z0-9]+(?:-[a-z0-9]+)*$")


class LessonFileError(ScenarioFileError):
    """A lesson file that cannot be loaded; the message names the file, the line and the field."""


class Ask(Move):
    """The learner's move: the fields of a scenario step (`Move`), without `as` (the learner makes it)."""

    def as_step(self, learner: str) -> Step:
        data = self.model_dump(exclude_none=True, include=set(Move.model_fields))  # feedback fields stay out
        return Step.model_validate({"as": learner, **data})

    def names(self) -> list[tuple[str, str]]:
        """(field, player name) pairs this move mentions, for checking them against the players."""
        out = [(k, getattr(self, k)) for k in ("into", "owner", "player") if getattr(self, k) is not None]
        targets = self.target if isinstance(self.target, list) else [self.target] if self.target else []
        for t in targets:
            out += [(f"target.{k}", getattr(t, k)) for k in ("owner", "player") if getattr(t, k) is not None]
        return out


class Mistake(Ask):
    """A wrong move `uu lesson check` tries on the step: it must get feedback of kind `expect` and leave the
    game unchanged. `why` is what the learner reads when they make this very move; `shows` states the
    consequence `why` describes as scenario expectations (docs/scenario-format.md, `expect:`), which
    `uu lesson check` tests on the table the learner is shown: the move played out on a copy."""

    expect: Literal["illegal", "other"]
    why: str | None = None
    shows: Expect | None = Field(None, description="The consequence `why` states, checked on the played-out "
                                 "table (cards in zones, counts, whose turn, the pile, the winner).")
    after: list[Ask] = Field(default_factory=list, description="When the played-out table still waits for the "
                             "learner's own choices (the targets of the wrong card), the choices `why` assumes, "
                             "made on the copy before `shows` is checked.")

    @model_validator(mode="after")
    def _shows_a_legal_move(self) -> Mistake:
        if self.shows is not None and self.expect != "other":
            raise ValueError("`shows` checks the table a legal wrong move leads to; an illegal move changes "
                             "nothing (use it with `expect: other`)")
        if self.shows is not None and not self.why:
            raise ValueError("`shows` checks what `why` says; this mistake has no `why`")
        if self.after and self.shows is None:
            raise ValueError("`after` lists the choices made before `shows` is checked; this mistake has no `shows`")
        return self


class Also(Ask):
    """Another move the step accepts as right, with its own feedback."""

    right: str | None = None


class Position(Strict):
    """A fresh position for a step: the position keys of a scenario (the players stay the lesson's), and
    `options` when this position plays with other engine options than the lesson's (e.g. the other targeting
    style); options not given keep the lesson's values."""

    options: dict[str, Any] | None = None
    turn: TurnSpec | None = None
    stables: dict[str, list[str]] | None = None
    hands: dict[str, list[str]] | None = None
    deck: list[str] = Field(default_factory=list)
    discard: list[str] = Field(default_factory=list)
    nursery: Literal["auto"] | list[str] = "auto"
    rest: Literal["deck", "box"] = "deck"

    def scenario(self, base: Scenario) -> Scenario:
        fields = {k: getattr(self, k) for k in type(self).model_fields if k != "options"}
        options = base.options if self.options is None else Options.model_validate(
            {**base.options.model_dump(), **self.options})
        return base.model_copy(update={**fields, "options": options, "steps": [], "expect": None})

    @field_validator("options")
    @classmethod
    def _known_options(cls, v: dict[str, Any] | None) -> dict[str, Any] | None:
        if v is not None:
            Options.model_validate(v)  # unknown keys and bad values are refused here, with their names
        return v


class Question(Strict):
    """A choice about the position on the table: the narration asks, the learner picks one option."""

    options: list[str] = Field(min_length=2, max_length=5)
    answer: int = Field(ge=1, description="The right option, counting from 1.")
    explain: str = Field(description="Why that answer is right; shown after any answer.")

    @model_validator(mode="after")
    def _answer_in_range(self) -> Question:
        if self.answer > len(self.options):
            raise ValueError(f"answer {self.answer} but there are only {len(self.options)} options")
        return self


class GameSpec(Strict):
    """Free play against bots, with the coach commenting on the learner's decisions."""

    turns: int = Field(4, ge=1, le=30, description="The learner's turns to play (fewer if the game ends).")
    level: Literal["easy", "normal", "hard"] = Field(
        "easy", description="The bots' level, as on the play screen: easy (random), normal (rules of thumb), "
                            "hard (plays the hint engine's best move).")


class Wrong(Strict):
    illegal: str | None = Field(None, description="Shown (with the engine's reason) when the engine refuses.")
    other: str | None = Field(None, description="Shown when the move is legal but not the one asked for.")


class ScriptStep(Strict):
    say: str = Field(description="Markdown narration, in our own words.")
    rules: list[str] = Field(default_factory=list, description="Rule ids (uu.engine.rules) taught here.")
    position: Position | None = None
    ask: Ask | None = None
    also: list[Also] = Field(default_factory=list)
    quiz: bool = False
    question: Question | None = None
    game: GameSpec | None = None
    goal: Expect | None = None
    solution: list[Ask] = Field(default_factory=list)
    accept: Literal["exact", "kind"] = "exact"
    right: str | None = None
    wrong: Wrong = Field(default_factory=lambda: Wrong.model_validate({}))
    hint: str | None = None
    bots: list[Step] = Field(default_factory=list)
    shows: Expect | None = Field(None, description="The result `right:` states, checked on the table the "
                                 "learner's move leads to (played on as a wrong move is: answers passed, up to the "
                                 "learner's next decision or the end of the turn), before the step's `bots:`.")
    check: Expect | None = None
    mistakes: list[Mistake] = Field(default_factory=list)

    @field_validator("rules")
    @classmethod
    def _known_rules(cls, v: list[str]) -> list[str]:
        return known_rules(v)

    @field_validator("bots")
    @classmethod
    def _bot_seats(cls, v: list[Step], info: ValidationInfo) -> list[Step]:
        ctx = info.context or {}
        players, learner = ctx.get("players"), ctx.get("learner")
        for i, st in enumerate(v, 1):
            if players is not None and st.as_ not in players:
                raise ValueError(f"bots[{i}].as: {st.as_!r} is not one of the players {players}")
            if learner is not None and st.as_ == learner:
                raise ValueError(f"bots[{i}].as: {st.as_!r} is the learner; the learner's moves go in `ask`")
            if st.illegal:
                raise ValueError(f"bots[{i}]: `illegal` is not allowed in a bot move")
        return v

    @property
    def kind(self) -> Literal["ask", "goal", "question", "game", "page"]:
        if self.ask is not None:
            return "ask"
        if self.goal is not None:
            return "goal"
        if self.question is not None:
            return "question"
        return "game" if self.game is not None else "page"

    @model_validator(mode="after")
    def _shape(self, info: ValidationInfo) -> ScriptStep:
        given = [k for k in ("ask", "goal", "question", "game") if getattr(self, k) is not None]
        if len(given) > 1:
            raise ValueError(f"a step has at most one of `ask`, `goal`, `question`, `game`; this one has "
                             f"{' and '.join(given)}")
        if self.also and self.ask is None:
            raise ValueError("`also` lists more right answers to an `ask`; this step has no `ask`")
        if self.quiz and self.kind not in ("ask", "question"):
            raise ValueError("`quiz: true` marks an `ask` or a `question` step")
        if self.goal is not None and not self.solution:
            raise ValueError("a `goal` step needs a `solution:` list of learner moves, so it can be checked")
        if self.solution and self.goal is None:
            raise ValueError("`solution` belongs to a `goal` step")
        if self.shows is not None and (self.right is None or self.kind not in ("ask", "goal")):
            raise ValueError("`shows` checks what `right:` says about the learner's move; it needs an `ask` or "
                             "`goal` step with a `right:` text")
        if self.mistakes and self.ask is None:
            raise ValueError("`mistakes` are wrong answers to an `ask`; this step has no `ask`")
        if self.ask is None and "accept" in self.model_fields_set:
            raise ValueError("`accept` only applies to a step with an `ask`")
        players = (info.context or {}).get("players")
        if players is not None:
            moves = ([("ask", self.ask)] if self.ask else []) + [
                (f"also[{i}]", m) for i, m in enumerate(self.also, 1)] + [
                (f"solution[{i}]", m) for i, m in enumerate(self.solution, 1)] + [
                (f"mistakes[{i}]", m) for i, m in enumerate(self.mistakes, 1)]
            for where, m in moves:
                for field, name in m.names():
                    if name not in players:
                        raise ValueError(f"{where}.{field}: {name!r} is not one of the players {players}")
        return self


class LessonSpec(Strict):
    """The `lesson:` key of a lesson file."""

    id: str = Field(description="A slug (lowercase letters, digits, dashes), unique among the lessons.")
    order: int = Field(ge=1, description="Position in the reading order.")
    title: str
    summary: str
    learner: str = Field(description="The seat the learner plays; every other seat is a bot.")
    script: list[ScriptStep] = Field(min_length=1)
    recap: list[str] = Field(default_factory=list, max_length=3,
                             description="At most three short lines, shown when the lesson is done.")

    @field_validator("id")
    @classmethod
    def _slug(cls, v: str) -> str:
        if not SLUG.match(v):
            raise ValueError(f"{v!r} is not a slug (lowercase letters, digits and single dashes)")
        return v

    @field_validator("learner")
    @classmethod
    def _learner(cls, v: str, info: ValidationInfo) -> str:
        players = (info.context or {}).get("players")
        if players is not None and v not in players:
            raise ValueError(f"{v!r} is not one of the players {players}")
        return v


@dataclass(frozen=True)
class Lesson:
    """A loaded lesson: the scenario (the position) and its script."""

    scenario: Scenario
    spec: LessonSpec
    path: str = "<text>"

    @property
    def id(self) -> str:
        return self.spec.id

    @property
    def title(self) -> str:
        return self.spec.title

    @property
    def order(self) -> int:
        return self.spec.order

    @property
    def learner(self) -> str:
        return self.spec.learner

    @property
    def script(self) -> list[ScriptStep]:
        return self.spec.script


def parse_lesson(text: str, path: str = "<text>") -> Lesson:
    """Validate a lesson file's text; raises LessonFileError naming the file, line and field."""
    try:
        sc = parse_scenario(text, path)
    except ScenarioFileError as e:
        raise LessonFileError(str(e)) from None
    if sc.lesson is None:
        raise LessonFileError(f"{path}: no `lesson:` key (a lesson is a scenario file with a `lesson:` script)")
    ctx: dict[str, Any] = {"players": list(sc.players)}
    if isinstance(sc.lesson.get("learner"), str) and sc.lesson["learner"] in sc.players:
        ctx["learner"] = sc.lesson["learner"]
    try:
        spec = LessonSpec.model_validate(sc.lesson, context=ctx)
    except ValidationError as e:
        # the node tree (for line numbers) only when there is an error to place: composing every lesson
        # would slow each learner's kernel start
        raise LessonFileError(_prefixed(path, e, compose_user_yaml(text, path))) from None
    for n, st in enumerate(spec.script, 1):
        if st.position is not None:
            bad = name_problems(st.position.scenario(sc))
            if bad:
                loc, msg = bad[0]
                full = ("lesson", "script", n - 1, "position", *loc)
                line = _line_of(compose_user_yaml(text, path), full)
                raise LessonFileError(f"{path}: {f'line {line}, ' if line else ''}"
                                      f"{'.'.join(str(x) for x in full)}: {msg}")
    return Lesson(sc, spec, path)


def _prefixed(path: str, err: ValidationError, root: yaml.Node | None) -> str:
    """format_validation with every location under the `lesson:` key (so lines resolve)."""

    class _Err:
        def __init__(self, errors: list[dict[str, Any]]):
            self._errors = errors

        def errors(self) -> list[dict[str, Any]]:
            return self._errors

    shifted = [{**e, "loc": ("lesson", *e["loc"])} for e in err.errors()]
    return format_validation(path, _Err(shifted), root)  # type: ignore[arg-type]


# Lessons parsed before, by (path, text): the same text gives the same (immutable, never mutated) lesson. Parsing
# the shipped lessons is a large part of a kernel's run of the app notebook; a kernel forked from uu.server.forkkernel's
# zygote, which loaded them, finds them here.
_PARSED: dict[tuple[str, str], Lesson] = {}
_PARSED_MAX = 64


def load_lesson(path: str | Path) -> Lesson:
    p = Path(path)
    try:
        text = read_user_file(p)
    except YamlInputError as e:
        raise LessonFileError(str(e)) from None
    key = (str(p), text)
    lesson = _PARSED.get(key)
    if lesson is None:
        lesson = parse_lesson(text, str(p))
        if len(_PARSED) >= _PARSED_MAX:
            _PARSED.clear()
        _PARSED[key] = lesson
    return lesson
