"""`Session`: one game, its seats (persons and bots), and the one path every move takes to the engine.

A person's choice arrives as the index of one of their legal actions and the version of the table it was made
on (`choose`): it is checked once (the version, that the seat decides, the index) and pushed. Bots decide in
one loop (`run_bots`) until a person must. Every move, a person's or a bot's, is recorded as a `Step` while it
is made and announced to the listeners (`subscribe`): progress saving, the class view, the coach, and the
screens of every person at the table, each of whom is shown the steps since the version they last drew
(`steps_since`). `undo` takes a person's last move back (with the bots' moves after it), only while no hidden
card has become known since (the engine's `info_epoch`): going back would let them choose again knowing it.
"""

from __future__ import annotations

import logging
from collections import deque
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from uu.bots.hint import HintResult, hint
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.i18n import N_
from uu.session.steps import Step, places, step_of

__all__ = ["BOT_MOVES_AT_ONCE", "BotChooser", "ChoiceRefused", "Moved", "NotYourDecision", "STEPS_KEPT", "Session",
           "SessionEvent", "StaleChoice", "UndoRefused", "Undone"]

log = logging.getLogger(__name__)
# (the game, the bot's seat) -> one of the legal actions, or None: that bot waits, and the loop stops there (a
# lesson's script that has no move for it, a play-out that ends with the turn)
BotChooser = Callable[[Game, int], Action | None]
BOT_MOVES_AT_ONCE = 5000  # a stuck-loop guard: no real game asks the bots this many decisions in a row
STEPS_KEPT = 400  # steps kept for screens that are behind; one further behind draws the table afresh


class ChoiceRefused(Exception):
    """A choice that was not taken; nothing changed. The message (English, marked for translation) says why."""


class StaleChoice(ChoiceRefused):
    """Made on an older table: the game has moved since the version the choice names."""


class NotYourDecision(ChoiceRefused):
    """The seat that chose is not the one deciding now (or nobody is: the game is over)."""


class UndoRefused(ChoiceRefused):
    """Nothing to take back (`revealed` False), or taking it back would undo what the person has since come to
    know (`revealed` True)."""

    def __init__(self, message: str, revealed: bool):
        super().__init__(message)
        self.revealed = revealed


@dataclass(frozen=True)
class Moved:
    step: Step


@dataclass(frozen=True)
class Undone:
    seat: int
    taken_back: int  # moves taken back, the bots' included
    version: int


SessionEvent = Moved | Undone
STALE = N_("That click was made on an older table (the game had moved on since). Nothing was changed: choose "
           "again on the table shown now.")
NOT_YOURS = N_("It is not your decision now.")
NO_SUCH_MOVE = N_("That is not one of the moves you can make now.")
NOTHING_TO_UNDO = N_("There is no move of yours to undo.")
UNDO_AFTER_REVEAL = N_("Undo refused: since your last move a hidden card was revealed (a card was drawn, seen or "
                       "passed between hands, or the deck was shuffled). Going back would let you choose again "
                       "knowing it.")


class Session:
    def __init__(self, game: Game, bots: Mapping[int, BotChooser] | None = None, undo: bool = True,
                 mover: Callable[[Action], object] | None = None, follows: Session | None = None):
        """`mover` makes a legal move on `game` when something else keeps the moves (the sandbox's game tree,
        whose game this is); by default the game pushes it itself. `follows`: the session this one goes on from
        (a lesson step with a position of its own): a screen that drew that one plays its last steps back
        before it draws this one."""
        self.game = game
        self.follows = follows
        if follows is not None:
            follows.follows = None  # one step back is all a screen plays back: no chain of old games is kept
        self._mover = mover if mover is not None else game.push_legal
        self._bots: dict[int, BotChooser] = dict(bots or {})
        self.undo_allowed = undo
        self.version = 0
        self._steps: deque[Step] = deque(maxlen=STEPS_KEPT)
        self._known_from = 0  # steps_since(v) is known for v >= this (an undo, or steps dropped, moves it on)
        self._listeners: list[Callable[[SessionEvent], object]] = []
        # per person: before each of their moves, the game's move count and hidden-information epoch
        self._marks: dict[int, list[tuple[int, int]]] = {}
        # who made each move pushed through this session: game.moves[_first_move + i] was deciders[i]'s
        self._first_move = len(game.moves)
        self._deciders: list[int] = []

    # ---- who sits where -------------------------------------------------------------------------------
    def is_person(self, seat: int) -> bool:
        return seat not in self._bots

    def set_bot(self, seat: int, chooser: BotChooser | None) -> None:
        """A bot takes `seat` (a person who left), or with None the seat is a person's again."""
        if chooser is None:
            self._bots.pop(seat, None)
        else:
            self._bots[seat] = chooser

    @property
    def decider(self) -> int | None:
        d = self.game.pending
        return None if d is None else d.player

    def moves_of(self, seat: int) -> list[Action]:
        """The moves `seat` made through this session, first first (undone ones not counted)."""
        made = self.game.moves[self._first_move:]
        return [a for a, s in zip(made, self._deciders) if s == seat]

    def undo_marks(self, seat: int) -> list[tuple[int, int]]:
        """Before each of `seat`'s moves that may still be taken back: (the game's move count, the hidden-
        information epoch)."""
        return list(self._marks.get(seat, ()))

    def legal(self, seat: int) -> tuple[Action, ...]:
        """The seat's legal actions now: empty unless it is the seat's decision."""
        d = self.game.pending
        return d.actions if d is not None and d.player == seat else ()

    # ---- moves ----------------------------------------------------------------------------------------
    def choose(self, seat: int, index: int, version: int) -> Action:
        """A person's choice of the legal action at `index`, made on the table of `version`: checked once,
        then pushed. Raises a `ChoiceRefused` (nothing changed) when it cannot be taken."""
        if version != self.version:
            raise StaleChoice(STALE)
        d = self.game.pending
        if d is None or d.player != seat:
            raise NotYourDecision(NOT_YOURS)
        if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(d.actions):
            raise ChoiceRefused(NO_SUCH_MOVE)
        return self.push(d.actions[index])

    def push(self, action: Action) -> Action:
        """The pending decision answered with `action`, whoever decides (a person's checked choice, a bot, a
        script, a test, a notebook, a lesson's referee): the engine's `find` judges any action that is not one
        of the decision's own (malformed, illegal and ambiguous moves raise its errors, nothing changes). The
        move is recorded as a `Step` and announced. Returns the legal action made."""
        game = self.game
        d = game.pending
        # one of the decision's own legal actions is taken as it is (a click already named it by its index)
        legal = next((a for a in d.actions if a is action), None) if d is not None else None
        if legal is None:
            legal = game.find(action)  # raises GameOver when there is no decision
        assert d is not None
        seat = d.player
        before, log_from = places(game), len(game.state.log)
        if self.is_person(seat):
            self._marks.setdefault(seat, []).append((len(game.moves), game.state.info_epoch))
        # the mover is called from here, not from a helper: a click's path to the engine stays short
        # (docs/architecture.md, tests/test_click_path.py)
        self._mover(legal)
        self._deciders.append(seat)
        self.version += 1
        step = step_of(game, before, log_from, seat, legal, self.version)
        if len(self._steps) == self._steps.maxlen:
            self._known_from = self._steps[0].version
        self._steps.append(step)
        self._emit(Moved(step))
        return legal

    def run_bots(self, limit: int = BOT_MOVES_AT_ONCE) -> int:
        """The one loop: bots decide until a person must or the game is over (`limit` 1: one decision, a
        step mode). Returns how many decisions they made."""
        n = 0
        while n < limit:
            d = self.game.pending
            if d is None or d.player not in self._bots:
                break
            chosen = self._bots[d.player](self.game, d.player)
            if chosen is None:
                break
            self.push(chosen)  # a bot's choice is normally one of the legal actions themselves; else judged
            n += 1
        return n

    def steps_since(self, version: int) -> list[Step] | None:
        """The steps made after `version`, first first; None when they are not all known (an undo since, or
        that version is further back than the steps kept): the table is then drawn afresh."""
        if version < self._known_from or version > self.version:
            return None
        return [s for s in self._steps if s.version > version]

    def undo(self, seat: int) -> int:
        """Take back `seat`'s last move and every move made after it; returns how many. Raises `UndoRefused`
        when there is none, or when a hidden card has become known since."""
        marks = self._marks.get(seat) or []
        if not self.undo_allowed or not marks:
            raise UndoRefused(NOTHING_TO_UNDO, revealed=False)
        count, epoch = marks[-1]
        if self.game.state.info_epoch != epoch or count > len(self.game.moves):
            marks.clear()  # the epoch only grows: no older move can be taken back either
            raise UndoRefused(UNDO_AFTER_REVEAL, revealed=True)
        marks.pop()
        taken = len(self.game.pop_to(count))
        del self._deciders[max(0, count - self._first_move):]
        for others in self._marks.values():  # marks of moves no longer made
            while others and others[-1][0] >= count:
                others.pop()
        self.version += 1
        self._steps.clear()
        self._known_from = self.version
        self._emit(Undone(seat, taken, self.version))
        return taken

    def moved_elsewhere(self) -> None:
        """The game was changed outside the session (the sandbox's undo, redo or a jump in its tree): what it
        recorded no longer leads to the position, so the next table is drawn afresh and nothing is undone."""
        self.version += 1
        self._steps.clear()
        self._known_from = self.version
        self._marks.clear()
        self._first_move, self._deciders = len(self.game.moves), []

    def hint(self, seat: int, **budget: Any) -> HintResult:
        """The hint for `seat`'s decision now (`uu.bots.hint.hint`; `budget`: its deals, seconds, progress):
        every screen asks through here. Raises `NotYourDecision` when the seat does not decide."""
        if self.decider != seat:
            raise NotYourDecision(NOT_YOURS)
        return hint(self.game, seat, **budget)

    # ---- listeners ------------------------------------------------------------------------------------
    def subscribe(self, listener: Callable[[SessionEvent], object]) -> Callable[[], None]:
        """Call `listener` with every event from now on; returns the function that stops it."""
        self._listeners.append(listener)

        def stop() -> None:
            if listener in self._listeners:
                self._listeners.remove(listener)

        return stop

    def _emit(self, event: SessionEvent) -> None:
        for listener in list(self._listeners):
            try:
                listener(event)
            except Exception:  # one listener (a seat's screen, the saving) must not stop the move or the others
                log.exception("a session listener failed on %r", event)
