"""`Game`: the one object everything drives — learners' clicks, bots, lessons, tests, hints.

    >>> from uu.engine import new_game
    >>> g = new_game(["Ana", "Ben"], seed=3)
    >>> g.pending.kind, g.players[g.pending.player]
    ('baby', 'Ana')
    >>> g.push(g.pending.actions[0]); g.pending.kind
    'baby'
    >>> g.pop(), len(g.moves)
    (Action('baby', card='Baby Unicorn (Red)'), 0)
"""

from __future__ import annotations

import copy
import functools
import random
from collections.abc import Callable, Iterable
from typing import Any

from uu.cards import catalog
from uu.cards.schema import CardDef
from uu.engine import effects as _effects  # noqa: F401  (registers the effect frames)
from uu.engine import hooks as _hooks  # noqa: F401  (registers the card hooks)
from uu.engine import moves
from uu.engine import pile as _pile  # noqa: F401  (registers the Action-phase and pile frames)
from uu.engine import queries as q
from uu.engine import verb_handlers as _verb_handlers  # noqa: F401  (registers the verbs)
from uu.engine.actions import ACTION_KINDS, Action, Decision
from uu.engine.errors import (
    AmbiguousAction,
    GameOver,
    IllegalAction,
    MalformedAction,
    NothingToUndo,
    SaveError,
)
from uu.engine.flow import push, run
from uu.engine.history import UndoRecord, record, restore
from uu.engine.movetext import describe_action, prompt_text
from uu.engine.observation import Observation, observe_state
from uu.engine.options import Options
from uu.engine.state import STATE_FIELDS, GameState, LogEntry
from uu.i18n import N_, _

#: Undo records stand before every SNAPSHOT_EVERY-th move, but only once an undo needed them: `push` makes none
#: (a record costs what one to two steps of play cost, uu/engine/history.py, and most games are never taken
#: back: bots, benches, playouts), `pop_to` makes them as it plays the moves again. The first undo of a game
#: plays it again from its start (a 300-move game in a few ms compiled); later ones from a record at most
#: 127 moves back.
SNAPSHOT_EVERY = 128

_BUILT: dict[bool, tuple[object, list[CardDef], list[int]]] = {}


def build_defs(two_player: bool) -> tuple[list[CardDef], list[int]]:
    """Every card instance of the base deck; returns (defs, cids removed for 2 players) as new lists.
    Built once per catalog (every game starts with it: bench and hint loops start thousands)."""
    cat = catalog()
    hit = _BUILT.get(two_player)
    if hit is None or hit[0] is not cat:
        defs: list[CardDef] = []
        removed: list[int] = []
        for d in cat:
            for _ in range(d.copies):
                if two_player and d.two_player_removed:
                    removed.append(len(defs))
                defs.append(d)
        hit = _BUILT[two_player] = (cat, defs, removed)
    return list(hit[1]), list(hit[2])


def blank_state(players: list[str], options: Options, defs: list[CardDef]) -> GameState:
    n = len(players)
    s = GameState(players=list(players), defs=defs, options=options, rng=random.Random(options.seed))
    s.zone_of = [""] * len(defs)
    s.owner_of = [-1] * len(defs)
    s.hands = [[] for _ in range(n)]
    s.stables = [[] for _ in range(n)]
    s.skip_turns = [0] * n
    s.static_cache = [None] * n
    return s


def check_players(players: list[str]) -> None:
    if not 2 <= len(players) <= 8:
        raise ValueError(f"Unstable Unicorns is played by 2 to 8 players, not {len(players)}")
    if len(set(players)) != len(players):
        raise ValueError(f"player names must be different: {players}")


def new_game(players: Iterable[str], seed: int = 0, options: dict[str, Any] | Options | None = None) -> Game:
    """A fresh game: shuffle, deal 5 (setup.deal-five), 2-player rules when there are 2 (two-player.removals,
    two-player.neigh), Babies in the Nursery, then each player chooses a Baby (first pending decisions)."""
    players = list(players)
    check_players(players)
    opts = options if isinstance(options, Options) else Options(**{"seed": seed, **(options or {})})
    two = len(players) == 2
    defs, removed = build_defs(two)
    s = blank_state(players, opts, defs)
    moves.set_up_zones(s, removed)
    g = Game(s)
    # the start is made again, the same for the same seat names and options, when an undo needs it
    g._start = functools.partial(new_game, players, opts.seed, opts)
    g._deal = opts
    return g


def _fits(partial: Action, a: Action) -> bool:
    """Does legal action `a` agree with every field `partial` gives?"""
    return (partial.kind == a.kind
            and (partial.card is None or partial.card == a.card)
            and (partial.into is None or partial.into == a.into)
            and (not partial.target or partial.target == a.target)
            and (partial.option is None or partial.option == a.option)
            and (not partial.cards or partial.cards == a.cards))


class Game:
    """A game in progress. `pending` is the one decision waiting; `push` answers it, `pop` takes
    the last answer back, and `moves` is the stack of answers (python-chess's push / pop / move_stack)."""

    def __init__(self, state: GameState, resume: bool = False):
        self.state = state
        self._pending: Decision | None = run(state, resume=resume)
        self._moves: list[Action] = []
        # _undo[k] is the record made before move k * SNAPSHOT_EVERY, for k up to what an undo needed so far
        self._undo: list[UndoRecord] = []
        # what makes the game's start again, when it can (new_game); otherwise the first push records it
        self._start: Callable[[], Game] | None = None
        self._deal: Options | None = None  # the options of the deal it started from (new_game), if it did

    # ---- decisions ------------------------------------------------------------------------------------
    @property
    def pending(self) -> Decision | None:
        return self._pending

    @property
    def legal_actions(self) -> tuple[Action, ...]:
        return self._pending.actions if self._pending else ()

    def find(self, action: Action) -> Action:
        """The legal action `action` stands for. Equal names decide (instance ids do not matter); fields left
        empty act as wildcards when exactly one legal action fits (python-chess style: malformed, illegal
        and ambiguous input each raise their own error, and nothing changes)."""
        if not isinstance(action, Action):
            raise MalformedAction(f"expected a uu.engine.Action, got {type(action).__name__}: {action!r}")
        if action.kind not in ACTION_KINDS:
            raise MalformedAction(f"unknown action kind {action.kind!r}; kinds are: {', '.join(ACTION_KINDS)}")
        if self._pending is None:
            raise GameOver(N_("the game is over ({result}); no action can be applied"), result=self.result_text)
        n = len(self.state.players)
        seats = [action.into] + [x for t in action.target for x in (t.owner, t.player)]
        bad = [x for x in seats if x is not None and not (isinstance(x, int) and 0 <= x < n)]
        if bad:  # before anything reads players[x]: a seat that does not exist is malformed input
            raise MalformedAction(N_("there is no seat {seat}: seats are 0 to {last} ({players})"),
                                  seat=repr(bad[0]), last=n - 1, players=", ".join(self.state.players))
        actions = self._pending.actions
        for a in actions:
            if a is action:
                return a
        for a in actions:
            if a == action:
                return a
        fits = [a for a in actions if _fits(action, a)]
        if len(fits) == 1:
            return fits[0]
        if len(fits) > 1:
            # the labels are made when the message is shown (in the learner's language), not here
            raise AmbiguousAction(N_("{move} could mean {count} legal actions: {options}. "
                                     "Say which (into, target, option)."),
                                  move=self._quoted(action), count=len(fits), options=self._labels(fits))
        raise IllegalAction(N_("{move} is not legal now. {player} must decide: {prompt} Legal: {legal}"),
                            move=self._quoted(action), player=self.players[self._pending.player],
                            prompt=self._prompt(self._pending.prompt), legal=self._labels(actions))

    def _quoted(self, action: Action) -> Callable[[], str]:
        return lambda: repr(self.describe(action))

    @staticmethod
    def _prompt(prompt: str) -> Callable[[], str]:
        return lambda: prompt_text(prompt)

    def _labels(self, actions: Iterable[Action]) -> Callable[[], str]:
        chosen = tuple(actions)
        return lambda: "; ".join(self.describe(a) for a in chosen)

    def push(self, action: Action) -> None:
        """Answer the pending decision with `action` (checked by `find`: bad input raises and changes nothing)
        and put it on the move stack."""
        self.push_legal(self.find(action))


    def push_legal(self, legal: Action) -> None:
        """`push` for an action taken from `legal_actions` itself (a bot's choice in a bench or playout
        loop): the same rules run, only the validation of user input is skipped."""
        moves = self._moves
        if not moves and not self._undo and self._start is None:  # the start, which nothing could make again
            self._undo.append(record(self.state, self._pending, None))
        self._pending = push(self.state, moves, legal)

    def pop(self) -> Action:
        """Take back the last move: the state is exactly as before it (log, RNG and pending decision too).
        Returns the move; raises `NothingToUndo` when the stack is empty."""
        if not self._moves:
            raise NothingToUndo(N_("there is no move to take back: the move stack is empty"))
        return self.pop_to(len(self._moves) - 1)[0]

    def pop_to(self, count: int) -> list[Action]:
        """Take moves back until `count` are left; returns those taken back, first first. The nearest undo
        record (before every `SNAPSHOT_EVERY`-th move, uu/engine/history.py says why) is restored and the moves
        after it are made again: the engine is deterministic, so they do exactly what they did. The records
        this passes that no undo needed before are made on the way."""
        moves = self._moves
        if not (isinstance(count, int) and 0 <= count <= len(moves)):
            raise NothingToUndo(N_("cannot go back to {count} moves: the stack holds {held}"), count=repr(count),
                                held=len(moves))
        if count == len(moves):
            return []
        taken = moves[count:]
        del moves[count:]
        undo = self._undo
        del undo[count // SNAPSHOT_EVERY + 1:]  # the records made before moves still on the stack
        if not undo:
            assert self._start is not None  # without a way to make the start again, the first push recorded it
            start = self._start()
            undo.append(record(start.state, start._pending, None))
        s = self.state
        self._pending = restore(s, undo[-1])
        for i in range((len(undo) - 1) * SNAPSHOT_EVERY, count):
            if i % SNAPSHOT_EVERY == 0 and i // SNAPSHOT_EVERY == len(undo):
                undo.append(record(s, self._pending, undo[-1]))
            s.decisions += 1
            self._pending = run(s, moves[i])
        return taken

    @property
    def deal(self) -> Options | None:
        """The options (the seed among them) of the deal this game started from, when it started from one
        (`new_game`): with the players' names, all it takes to deal the same start again. None for a game built
        from a position or a save."""
        return self._deal

    @property
    def moves(self) -> tuple[Action, ...]:
        """The moves pushed on this game (and on the game it was copied from), first first."""
        return tuple(self._moves)

    def describe(self, action: Action) -> str:
        """The move's label in the language in use (byte for byte `Action.describe` in English)."""
        return describe_action(action, self.players)

    # ---- reading the board ----------------------------------------------------------------------------
    @property
    def players(self) -> list[str]:
        return self.state.players

    @property
    def is_over(self) -> bool:
        return self.state.over

    @property
    def winner(self) -> int | str | None:
        return self.state.winner

    def result_text(self) -> str:
        w = self.state.winner
        if w is None:
            return _("no winner yet")
        return _("everyone loses") if isinstance(w, str) else _("{player} wins").format(player=self.players[w])

    @property
    def turn(self) -> tuple[int, str, int]:
        s = self.state
        return s.current, s.phase, s.turn_number

    def stable(self, p: int) -> list[str]:
        return self.state.names(self.state.stables[p])

    def hand(self, p: int) -> list[str]:
        return self.state.names(self.state.hands[p])

    @property
    def deck_size(self) -> int:
        return len(self.state.deck)

    @property
    def discard(self) -> list[str]:
        return self.state.names(self.state.discard)

    @property
    def nursery(self) -> list[str]:
        return self.state.names(self.state.nursery)

    @property
    def pile(self) -> list[tuple[str, int]]:
        return [(self.state.name(e["cid"]), e["p"]) for e in self.state.pile]

    @property
    def chain(self) -> list[list[str]]:
        """Links waiting in the effect chain, each as the names of the cards whose effects it holds."""
        return [[self.state.name(e["cid"]) for e in link["effects"]] for link in self.state.chain]

    def unicorns(self, p: int) -> int:
        return q.unicorns(self.state, p)

    @property
    def log(self) -> list[LogEntry]:
        return self.state.log

    def observe(self, player: int | None) -> Observation:
        """What seat `player` may see (uu/engine/observation.py): its own hand, the other hands as sizes unless
        shown (Nanny Cam, or its own decision looks at one), no deck order, and the pending decision's
        actions only if the decision is its own. `None` is the analyst's view: everything but the deck order."""
        if player is not None and not (isinstance(player, int) and 0 <= player < len(self.state.players)):
            raise MalformedAction(f"there is no seat {player!r}: seats are 0 to {len(self.state.players) - 1}")
        return observe_state(self.state, self._pending, player, None if player is None else self._dealer(player))

    def _dealer(self, player: int) -> Callable[[random.Random], Game]:
        """`Game.resample` for `player`, refused once the game has moved on from this position (a new pending
        decision): what a world is dealt from must be what the observation showed."""
        pending = self._pending

        def deal(rng: random.Random) -> Game:
            if self._pending is not pending:
                raise ValueError("the game has moved on since this observation: observe it again to look ahead")
            return self.resample(player, rng)
        return deal

    # ---- copies and saves -----------------------------------------------------------------------------
    def copy(self) -> Game:
        """An independent copy (card definitions and options are shared: they never change)."""
        s = self.state
        memo: dict[int, Any] = {id(d): d for d in s.defs}
        for name, use in STATE_FIELDS.items():
            value = getattr(s, name)
            if use == "shared":
                memo[id(value)] = value
            elif use == "cache":
                memo[id(value)] = type(value)()
        new = copy.deepcopy(s, memo)
        g = Game.__new__(Game)
        g.state = new
        g._pending = self._pending
        g._moves = list(self._moves)
        g._undo = list(self._undo)  # the records are never changed: the copy shares them
        g._start = self._start
        g._deal = self._deal
        return g

    def playout_copy(self) -> Game:
        """An independent copy for playing on fast (bots, the hint): no narration log, empty caches, an
        empty move stack (python-chess's `copy(stack=False)`)."""
        from uu.engine.resample import playout_state

        g = Game.__new__(Game)
        g.state = playout_state(self.state)
        g._pending = self._pending
        g._moves, g._undo, g._start, g._deal = [], [], None, None
        return g

    def resample(self, player: int, rng: random.Random) -> Game:
        """A playout copy in which every card `player` cannot know (the deck order, hidden hands) is dealt
        anew with `rng`: a world consistent with what `player` has seen (uu/engine/resample.py says which
        cards count as known). The way the hint and the Hard bot look ahead without reading hidden cards."""
        from uu.engine.resample import resampled_state

        g = Game.__new__(Game)
        g.state = resampled_state(self.state, self._pending, player, rng)
        g._pending = self._pending
        g._moves, g._undo, g._start, g._deal = [], [], None, None
        return g

    def to_dict(self) -> dict[str, Any]:
        from uu.engine.save import state_to_dict

        return state_to_dict(self.state)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Game:
        """The game of a save (docs/save-format.md, either version). A save that cannot be loaded, or whose
        position the engine cannot continue from, raises `SaveError` saying why; nothing else."""
        from uu.engine.save import state_from_dict

        state = state_from_dict(data)
        try:
            return cls(state, resume=True)
        except Exception as e:  # the save passed every check but is still not a reachable position
            raise SaveError(f"the saved position cannot be continued ({type(e).__name__}: {e})") from None

    def _repr_html_(self) -> str:
        """In JupyterLab a game shows its whole board (every hand open: this is the analyst's view)."""
        from uu.render import STYLE, board_html

        return STYLE + board_html(self, None)

    def __repr__(self) -> str:
        cur, phase, number = self.turn
        status = self.result_text() if self.is_over else f"turn {number}, {self.players[cur]}, {phase}"
        return f"<Game {', '.join(self.players)}: {status}>"
