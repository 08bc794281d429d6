"""`SharedTable`: one table for several learners and bots, built on a `Session` with several person seats.

The maker opens the table (a short code), learners join by name and are given a secret seat token, the maker
starts it; empty seats are then played by bots of the table's level. Every move arrives as (seat token, index
of one of that seat's legal actions, the version it was shown) and goes through the session. Each seat is
shown only what it may see (`view`: the engine's observation of that seat, its own legal actions, the steps
since a version rendered for that seat). A learner away for `AWAY_S` seconds is played by a bot until they
come back. The table is its options, its seed and its moves: `moves` is all a store needs to make it again
(`SharedTable.restore` replays them), so a server restart loses nothing.
"""

from __future__ import annotations

import dataclasses
import hashlib
import secrets
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from uu.bots.hint import HintResult, hint
from uu.bots.roster import make_bot
from uu.engine.actions import Action
from uu.engine.game import Game, new_game
from uu.engine.observation import Observation
from uu.i18n import N_, _
from uu.scenario.record import GameRecord, record_of
from uu.session import ChoiceRefused, Moved, NotYourDecision, Session, SessionEvent, StaleChoice
from uu.table.clickwhy import click_reason
from uu.table.messages import StepView
from uu.table.replay import steps_view
from uu.textcheck import MAX_PLAYER_NAME, text_problem
from uu.together.answers import answerers, moment_of, responses

__all__ = ["AWAY_S", "CODE_ALPHABET", "SeatInfo", "SharedTable", "TableOptions", "TableRefused", "TableView",
           "token_key"]

AWAY_S = 60.0  # a learner's screen silent this long: a bot plays their seat until they come back
CODE_ALPHABET = "ABCDEFGHJKMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I/L: read aloud in a classroom
CODE_LENGTH = 5
# Bots' seat names: short, distinct, read the same in every language; the seat list adds "bot" and the level in
# the reader's language. As many as a table has seats.
BOT_NAMES = ("Nova", "Pixel", "Comet", "Orbit", "Echo", "Quartz", "Zephyr", "Juno")
Phase = Literal["open", "playing", "ended"]

NOT_OPEN = N_("The game at this table has already started: no seat can be taken now.")
FULL = N_("Every seat at this table is taken.")
NOT_MAKER = N_("Only the person who made the table can do that.")
NO_SEAT = N_("That seat token is not one of this table's seats.")
NOT_PLAYING = N_("The game at this table is not being played now.")
COACH_OFF = N_("The coach is switched off at this table.")
NOT_OVER = N_("The review is for a game that is over: it opens when the game at this table has ended.")
NO_HINT_NOW = N_("A hint is for a move of your own: ask when the table waits for your move (not while a card on "
                 "the Neigh pile is being answered).")
ANSWER_VOID = N_("The card you answered has changed since (someone answered it first, or it resolved). Your "
                 "answer was not used: answer the card on top now.")


class TableRefused(ChoiceRefused):
    """A request the table did not take; nothing changed. The message (English, marked for translation) says
    why."""


class TableOptions(BaseModel):
    """What the maker chooses: how many seats, the bots' level for seats no learner takes, whether each seat's
    coach (hint, why-not) is on, and the targeting option of the engine."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    players: int = Field(4, ge=2, le=8)
    bot_level: Literal["easy", "normal", "hard"] = "normal"
    coach: bool = True
    targeting: Literal["declare-first", "neigh-first"] = "declare-first"
    answer_s: Literal[0, 20, 40, 60] = 0  # seconds to answer a Neigh moment, then a seat passes; 0: no countdown


def token_key(token: str) -> str:
    """What is kept of a seat token: its hash (a copy of the store gives nobody a seat)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()


def new_code() -> str:
    return "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))


@dataclass
class _Seat:
    name: str
    key: str | None  # the hash of the learner's token; None: a bot's seat
    seen: float = 0.0  # when the learner's screen last asked the table
    away: bool = False  # a bot plays it until the learner is back


@dataclass(frozen=True)
class SeatInfo:
    """One seat as every player may see it."""

    seat: int
    name: str
    kind: Literal["person", "bot", "empty"]
    away: bool
    level: str | None = None  # a bot's level (easy, normal, hard); None for a learner's seat or an empty one


@dataclass(frozen=True)
class TableView:
    """The table as one seat may see it: nothing of another seat's hidden cards."""

    code: str
    phase: Phase
    seat: int
    maker: bool
    seats: tuple[SeatInfo, ...]
    options: TableOptions
    version: int
    observation: Observation | None  # the engine's observation of this seat (None before the start)
    legal: tuple[Action, ...]  # what this seat may choose now (its answers, in a Neigh moment)
    answering: bool  # asked to answer the top card of the Neigh pile (with the others who may)
    steps: list[StepView] | None  # since the version asked for, as this seat sees them; None: draw afresh
    revision: int  # the table's revision: a screen that has it is up to date


Clock = Callable[[], float]


class SharedTable:
    def __init__(self, code: str, options: TableOptions, seed: int, clock: Clock = time.monotonic):
        self.code = code
        self.options = options
        self.seed = seed
        # every seat that may answer a card is asked, Instant or not: who is asked tells nothing of a hand.
        # Kept with the table: a table stored before this was asked only of holders and replays so.
        self.neigh_ask: Literal["holders", "everyone"] = "everyone"
        self.phase: Phase = "open"
        self.started_at: float | None = None  # wall-clock times, for the teacher's list
        self.ended_at: float | None = None
        self.revision = 0  # grows with every change any screen would show (a move, a seat, the phase)
        self.moves: list[int] = []  # the index of every move in its decision's legal actions, first first
        self.on_move: Callable[[SharedTable, int], object] | None = None  # a store keeps each new move
        self.on_change: Callable[[SharedTable], object] | None = None  # ... and the seats and phase
        self._clock = clock
        self._seats: list[_Seat | None] = [None] * options.players
        self._maker: str | None = None
        self.session: Session | None = None
        # a Neigh moment is known by the version its top card became the top one: seat -> (that, the answer)
        self._answers: dict[int, tuple[int, Action]] = {}
        self._moment: tuple[tuple[int, int], ...] | None = None
        self._moment_from = 0
        self._moment_moves = 0  # how many moves had been made when the moment began (a store knows moves only)
        self._moment_at = 0.0  # when it began, by the table's clock (the countdown starts then)
        self._lock = threading.RLock()  # a server's threads (a hint being worked out) share the table

    # ---- seats --------------------------------------------------------------------------------------
    def join(self, name: str, token: str | None = None) -> tuple[int, str]:
        """A learner takes the first empty seat; returns (seat, token). The first to join is the maker."""
        problem = text_problem(name, "your name", MAX_PLAYER_NAME)
        if problem is None and not name.strip():
            problem = "your name is empty: type the name the others will see"
        if problem is not None:
            raise TableRefused(problem)
        with self._lock:
            if self.phase != "open":
                raise TableRefused(NOT_OPEN)
            free = next((i for i, s in enumerate(self._seats) if s is None), None)
            if free is None:
                raise TableRefused(FULL)
            token = token or secrets.token_urlsafe(24)
            key = token_key(token)
            self._seats[free] = _Seat(name.strip(), key, self._clock())
            if self._maker is None:
                self._maker = key
            self._changed()
            return free, token

    def seat_of(self, token: str) -> int:
        key = token_key(token) if isinstance(token, str) else ""
        for i, s in enumerate(self._seats):
            if s is not None and s.key is not None and secrets.compare_digest(s.key, key):
                return i
        raise TableRefused(NO_SEAT)

    def is_maker(self, token: str) -> bool:
        return self._maker is not None and isinstance(token, str) and secrets.compare_digest(self._maker,
                                                                                              token_key(token))

    def leave(self, token: str) -> None:
        """Before the start the seat is freed (the maker's seat too: the table is still theirs); after it, a bot
        plays the seat from now on."""
        with self._lock:
            seat = self.seat_of(token)
            if self.phase == "open":
                self._seats[seat] = None
                self._changed()
                return
            s = self._seats[seat]
            assert s is not None
            s.key, s.away = None, False
            if self.session is not None:
                self.session.set_bot(seat, self._bot(seat))
                self._settle()
            self._changed()

    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(SeatInfo(i, s.name if s else "", "empty" if s is None else "bot" if s.key is None else
                              "person", bool(s and s.away),
                              self.options.bot_level if s is not None and s.key is None else None)
                     for i, s in enumerate(self._seats))

    def _bot(self, seat: int) -> Callable[[Game, int], Action]:
        bot = make_bot(self.options.bot_level, self.seed * 10 + seat)
        return lambda game, _seat: bot.choose(game)

    # ---- the game -----------------------------------------------------------------------------------
    def start(self, token: str) -> None:
        """The maker starts the game: empty seats become bots of the table's level."""
        with self._lock:
            if not self.is_maker(token):
                raise TableRefused(NOT_MAKER)
            if self.phase != "open":
                raise TableRefused(NOT_OPEN)
            taken = {s.name.casefold() for s in self._seats if s is not None}
            names = iter(n for n in BOT_NAMES if n.casefold() not in taken)
            for i, s in enumerate(self._seats):
                if s is None:
                    self._seats[i] = _Seat(next(names, f"Bot {i + 1}"), None)
            self.started_at = time.time()
            self._begin([])
            self._changed()
            self._settle()

    def _begin(self, moves: list[int]) -> None:
        names = [s.name if s else "" for s in self._seats]
        game = new_game(_distinct(names), seed=self.seed, options={"targeting": self.options.targeting,
                                                                   "neigh_ask": self.neigh_ask})
        session = Session(game, undo=False, mover=self._mover(game))
        moment = moment_of(game)
        for n, index in enumerate(moves):  # made again as they were made: the engine is deterministic
            d = game.pending
            if d is None or not 0 <= index < len(d.actions):
                raise ValueError(f"table {self.code}: stored move {len(self.moves)} does not fit the game")
            session.push(d.actions[index])
            if moment_of(game) != moment:
                moment, self._moment_moves = moment_of(game), n + 1
        self.phase = "ended" if game.pending is None else "playing"
        for i, s in enumerate(self._seats):
            if s is not None and (s.key is None or s.away):
                session.set_bot(i, self._bot(i))
        self._moment, self._moment_from = moment_of(game), session.version
        self._moment_at = self._clock()
        session.subscribe(self._heard)
        self.session = session

    def _mover(self, game: Game) -> Callable[[Action], None]:
        def move(legal: Action) -> None:
            d = game.pending
            assert d is not None
            index = next(i for i, a in enumerate(d.actions) if a is legal)
            game.push_legal(legal)
            self.moves.append(index)
            if self.on_move is not None and self.phase == "playing":
                self.on_move(self, index)
        return move

    def _heard(self, event: SessionEvent) -> None:
        if not isinstance(event, Moved) or self.session is None:
            return
        self.revision += 1
        game = self.session.game
        if game.pending is None and self.phase == "playing":
            self.phase, self.ended_at = "ended", time.time()
            self._changed()
        moment = moment_of(game)
        if moment != self._moment:  # a new top card (or none): answers to the old one are void from now
            self._moment, self._moment_from = moment, event.step.version
            self._moment_moves = len(self.moves)
            self._moment_at = self._clock()

    def _settle(self) -> None:
        """Bots play, and answers kept for the Neigh moment are handed to the engine in its order, until a
        learner who has not answered must decide (or the game is over)."""
        session = self.session
        assert session is not None
        while True:
            session.run_bots()
            if self._moment is None:
                self._answers.clear()
                return
            for seat, (at, _a) in list(self._answers.items()):
                if at != self._moment_from:
                    del self._answers[seat]  # void: the top card changed; that seat is asked again
            decider = session.decider
            kept = self._answers.pop(decider, None) if decider is not None else None
            if kept is None:
                return
            d = session.game.pending
            assert d is not None
            session.choose(d.player, d.actions.index(kept[1]), session.version)

    def choose(self, token: str, index: int, version: int) -> Action:
        """A learner's choice of the action at `index` in their legal actions, shown at `version`. In a Neigh
        moment the answer is kept and applied in the engine's order; it is void if the top card changed since
        `version`. Raises `ChoiceRefused` (nothing changed)."""
        with self._lock:
            seat = self._touch(token)
            session = self._playing()
            if self._moment is not None and seat in answerers(session.game):
                if seat in self._answers:
                    raise TableRefused(N_("You have answered this card already."))
                if not self._moment_from <= version <= session.version:
                    raise StaleChoice(ANSWER_VOID)
                mine = responses(session.game, seat)
                if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(mine):
                    raise ChoiceRefused(N_("That is not one of the moves you can make now."))
                self._answers[seat] = (self._moment_from, mine[index])
                self._settle()
                if self.on_change is not None:  # a kept answer survives a restart (no screen needs redrawing)
                    self.on_change(self)
                return mine[index]
            if version != session.version:
                raise StaleChoice(N_("That click was made on an older table (the game had moved on since). "
                                     "Nothing was changed: choose again on the table shown now."))
            if session.decider != seat:
                raise NotYourDecision(N_("It is not your decision now."))
            action = session.choose(seat, index, version)
            self._settle()
            return action

    def hint(self, token: str) -> HintResult:
        """The seat's own coach: the hint for its decision (never shown to another seat). Worked out on a copy
        of the game taken under the lock, so the others may move meanwhile (a server runs it in a thread)."""
        with self._lock:
            seat = self._touch(token)
            session = self._playing()
            if not self.options.coach:
                raise TableRefused(COACH_OFF)
            if self._moment is not None or session.decider != seat:
                # in a Neigh moment every seat answers at once, and whom the engine asks first is not said
                raise NotYourDecision(NO_HINT_NOW)
            game = session.game.copy()
        return hint(game, seat)

    def game_record(self, token: str) -> tuple[GameRecord, int]:
        """The whole game and the seat's number, for that seat's review once the table has ended (every card
        is told then: nothing is hidden from anyone any more). Refused before the end."""
        with self._lock:
            seat = self.seat_of(token)
            if self.phase != "ended" or self.session is None:
                raise TableRefused(NOT_OVER)
            game = self.session.game.copy()
        return record_of(game), seat

    def why(self, token: str, key: str, name: str = "") -> str:
        """One sentence for the seat's click on an element that is not lit (`key`, its data-key), in the
        language in use: with the coach on, the engine's why-not for its own decision (`click_reason`); with
        it off, only what the table waits for. In a Neigh moment it says only whether this seat is asked (whom
        the engine asks now is not said)."""
        with self._lock:
            seat = self._touch(token)
            session = self.session
            if session is None or self.phase != "playing":
                return _(NOT_PLAYING)
            if self._moment is not None:
                asked = seat in answerers(session.game) and seat not in self._answers
                return (_("Answer the top card of the Neigh pile, or pass.") if asked
                        else _("Waiting for answers to the top card of the Neigh pile."))
            if not self.options.coach and session.decider == seat:
                return _("That is not one of the choices now: {task}.").format(
                    task=_("choose one of the lit cards or places"))
            return click_reason(session.game, seat, str(key)[:200], str(name)[:200])

    def end(self, token: str) -> None:
        with self._lock:
            if not self.is_maker(token):
                raise TableRefused(NOT_MAKER)
            self.phase = "ended"
            self.ended_at = self.ended_at or time.time()
            self._changed()

    def in_neigh_moment(self) -> bool:
        """Whether the game waits for answers to the top card of the Neigh pile (every seat asked at once)."""
        return self._moment is not None

    @property
    def lock(self) -> threading.RLock:
        """Held while the table changes: a reader that looks at the game from another thread holds it too."""
        return self._lock

    def _changed(self) -> None:
        self.revision += 1
        if self.on_change is not None:
            self.on_change(self)

    def _playing(self) -> Session:
        if self.phase != "playing" or self.session is None:
            raise TableRefused(NOT_PLAYING)
        return self.session

    # ---- presence -----------------------------------------------------------------------------------
    def _touch(self, token: str) -> int:
        seat = self.seat_of(token)
        s = self._seats[seat]
        assert s is not None
        s.seen = self._clock()
        if s.away:
            s.away = False
            self.revision += 1
            if self.session is not None:
                self.session.set_bot(seat, None)
        return seat

    def answer_left(self) -> float | None:
        """Seconds left to answer the Neigh moment on now, if the table has a countdown; None otherwise."""
        if not self.options.answer_s or self._moment is None or self.phase != "playing":
            return None
        return max(0.0, self.options.answer_s - (self._clock() - self._moment_at))

    def check_deadline(self) -> bool:
        """When the countdown of a Neigh moment has run out, every learner who has not answered passes. Returns
        whether anything changed."""
        with self._lock:
            left = self.answer_left()
            if left is None or left > 0 or self.session is None:
                return False
            game = self.session.game
            silent = [p for p in answerers(game) if p not in self._answers and self.session.is_person(p)]
            for seat in silent:
                self._answers[seat] = (self._moment_from, responses(game, seat)[-1])  # the last answer: pass
            if silent:
                self._settle()
            return bool(silent)

    def check_away(self) -> list[int]:
        """Seats whose learner's screen has been silent for `AWAY_S`: a bot plays them from now until the
        learner is back. Returns the seats newly taken over."""
        with self._lock:
            now, taken = self._clock(), []
            for i, s in enumerate(self._seats):
                if s is not None and s.key is not None and not s.away and now - s.seen > AWAY_S:
                    s.away = True
                    self.revision += 1
                    taken.append(i)
                    if self.session is not None:
                        self.session.set_bot(i, self._bot(i))
            if taken and self.phase == "playing":
                self._settle()
            return taken

    # ---- what a seat sees ---------------------------------------------------------------------------
    def view(self, token: str, since: int | None = None) -> TableView:
        """The table as the token's seat may see it; `since`: the version its screen drew last (the steps
        since then are included, rendered for this seat)."""
        with self._lock:
            seat = self._touch(token)
            session = self.session
            obs: Observation | None = None
            legal: tuple[Action, ...] = ()
            answering, steps = False, None
            if session is not None:
                game = session.game
                obs = game.observe(seat)
                if self._moment is not None:
                    answering = seat in answerers(game) and seat not in self._answers
                    legal = responses(game, seat) if answering else ()
                    # whom the engine asks now says whose answers are in: every seat is shown the moment alike
                    obs = dataclasses.replace(obs, decider=None)
                elif self.phase == "playing":
                    legal = session.legal(seat)
                if since is not None:
                    recorded = session.steps_since(since)
                    steps = None if recorded is None else steps_view(game, recorded, seat)
            return TableView(self.code, self.phase, seat, self.is_maker(token), self.seats(), self.options,
                             session.version if session else 0, obs, legal, answering, steps, self.revision)

    # ---- storing ------------------------------------------------------------------------------------
    def record(self) -> dict[str, object]:
        """Everything but the moves, as plain data for a store (tokens only as their hashes)."""
        return {"code": self.code, "options": self.options.model_dump(), "seed": self.seed, "phase": self.phase,
                "maker": self._maker, "neigh_ask": self.neigh_ask, "started_at": self.started_at,
                "ended_at": self.ended_at,
                "seats": [None if s is None else {"name": s.name, "key": s.key} for s in self._seats],
                "answers": self._kept()}

    def _kept(self) -> dict[str, object]:
        """The answers kept for the Neigh moment now (seat -> index in its answers), with when it began."""
        kept: dict[str, int] = {}
        if self.session is not None and self._moment is not None:
            game = self.session.game
            for seat, (at, action) in self._answers.items():
                mine = responses(game, seat)
                if at == self._moment_from and action in mine:
                    kept[str(seat)] = mine.index(action)
        return {"moves": self._moment_moves, "kept": kept}

    def _keep_answers(self, stored: object) -> None:
        """The answers a store kept for the moment the restored game is at (none for another moment)."""
        session = self.session
        if not isinstance(stored, dict) or session is None or self._moment is None:
            return
        kept = stored.get("kept")
        if stored.get("moves") != self._moment_moves or not isinstance(kept, dict):
            return
        game = session.game
        for seat_text, index in kept.items():
            seat = int(seat_text)
            mine = responses(game, seat)
            if seat in answerers(game) and isinstance(index, int) and 0 <= index < len(mine):
                self._answers[seat] = (self._moment_from, mine[index])

    @classmethod
    def restore(cls, record: dict, moves: list[int], clock: Clock = time.monotonic) -> SharedTable:
        """The table a store kept: its seats, and its game made again from its moves."""
        table = cls(str(record["code"]), TableOptions(**record["options"]), int(record["seed"]), clock)
        table._maker = record.get("maker")
        table.neigh_ask = "everyone" if record.get("neigh_ask") == "everyone" else "holders"
        table.started_at, table.ended_at = _time(record.get("started_at")), _time(record.get("ended_at"))
        table._seats = [None if s is None else _Seat(str(s["name"]), s.get("key"), clock())
                        for s in record["seats"]]
        if record["phase"] != "open":
            table._begin(moves)
            if record["phase"] == "ended":
                table.phase = "ended"
            else:
                table._keep_answers(record.get("answers"))
                table._settle()
        return table


def _time(x: object) -> float | None:
    return float(x) if isinstance(x, int | float) and not isinstance(x, bool) else None


def _distinct(names: list[str]) -> list[str]:
    """Seat names as the engine needs them: distinct (two learners may both be called Sam)."""
    out: list[str] = []
    for n in names:
        name, k = n, 2
        while name in out:
            name, k = f"{n} ({k})", k + 1
        out.append(name)
    return out
