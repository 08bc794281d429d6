"""What one seat may see of a game (`Game.observe(seat)`), as frozen data: the one definition of hidden
information that the table, the bots and the coach read (OpenSpiel's observation / information state).

A seat sees every Stable, the discard pile, the Nursery, the Neigh pile with the targets declared with each
play, limbo and the box, every hand's size and the deck's size; its own hand; a hand that a card in that
player's Stable shows to everybody (Nanny Cam, `queries.hand_visible`); and, while it is deciding, a hand
its decision picks from (the effect lets it look: Blatant Thievery). It never sees the deck's order or any
other hand. Cards are instance ids (`cid`) with their definitions in `defs` (the deck's make-up is public;
where a hidden instance is, is not: no id of a hidden card appears here).

A seat's observation also deals the worlds it cannot tell apart (`resample(rng)`: a playout copy of the game
in which every card the viewer cannot know is dealt at random, uu/engine/resample.py), so a bot that looks
ahead is given the observation, never the game: OpenSpiel's `resample_from_infostate`. What is dealt depends
only on what the viewer knows (tests/test_hint.py).

The continuous effects a player reads off the table are answered here too, from the Stables only: the
Unicorns each seat counts, Pandas, blanked text, hand limits, which Stable cards count as Unicorns now and
which can be destroyed, whose plays cannot be Neigh'd and who may not play a Neigh. `viewer=None` is the analyst's view (a teacher, the sandbox): every hand open.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field

from uu.cards.schema import CardDef
from uu.engine import queries as q
from uu.engine.actions import Decision
from uu.engine.queries import STATIC_FILTERS, UNICORN_FILTERS
from uu.engine.state import GameState

__all__ = ["Observation", "PileSeen", "SeatView", "observe_state"]


@dataclass(frozen=True, slots=True)
class SeatView:
    """One seat as the viewer sees it."""

    seat: int
    name: str
    hand: tuple[int, ...] | None  # the cards, when the viewer may see them; else None (only the size shows)
    hand_size: int
    hand_open: bool  # another player's hand shown to the viewer (Nanny Cam, or the viewer's decision looks at it)
    stable: tuple[int, ...]
    unicorns: int  # what the Stable counts toward winning now
    pandas: bool  # Pandamonium: its Unicorns are Pandas
    blank: bool  # Blinding Light: the text of its Unicorns is switched off
    hand_limit: int


@dataclass(frozen=True, slots=True)
class PileSeen:
    """A card on the Neigh pile: who played it, where it goes, and the targets declared with it (public)."""

    cid: int
    player: int
    into: int | None
    declared: tuple[tuple[int, ...], ...]


@dataclass(frozen=True, slots=True)
class Observation:
    viewer: int | None
    players: tuple[str, ...]
    defs: tuple[CardDef, ...]  # the card of every instance id
    seats: tuple[SeatView, ...]
    current: int
    phase: str
    turn_number: int
    deck_size: int
    discard: tuple[int, ...]  # last is the top
    nursery: tuple[int, ...]
    pile: tuple[PileSeen, ...]  # bottom first
    limbo: tuple[int, ...]  # a Magic card while it resolves
    box: tuple[int, ...]  # out of the game
    threshold: int  # Unicorns needed to win
    queen_bees: tuple[int, ...]  # seats with a working Queen Bee Unicorn
    counted_unicorns: frozenset[int]  # Stable cards that count as Unicorns now
    destroyable: frozenset[int]  # Stable cards an effect may destroy (immunity to one card type aside)
    plays_unneighable: frozenset[int]  # seats whose cards nobody may Neigh (Yay)
    neigh_barred: frozenset[int]  # seats that may not play a Neigh (Slowdown, Ginormous Unicorn)
    decider: int | None  # who must decide now (None: the game is over)
    decision_kind: str | None
    decision: Decision | None  # the pending decision with its legal actions, only when it is the viewer's
    winner: int | str | None  # a seat, "everyone loses", or None
    over: bool
    decisions: int = 0  # decisions made in the game so far (public: everybody saw them made)
    # a world consistent with this observation, hidden cards dealt with the given RNG: a uu.engine.game.Game (typed
    # loosely: game.py imports this module); None: the analyst's view, or an observation made without its game.
    # Raises ValueError once the game has moved on
    resample: Callable[[random.Random], object] | None = field(default=None, compare=False, repr=False)

    # ---- reading -------------------------------------------------------------------------------------
    def name(self, cid: int) -> str:
        return self.defs[cid].name

    def own_decision(self) -> Decision:
        """The viewer's own pending decision; a ValueError saying what to give instead when it holds none (the
        analyst's view, another seat's decision, the game over)."""
        if self.decision is None or self.viewer is None:
            raise ValueError("this observation holds no decision of its viewer's: nothing to decide "
                             "(give the observation of the seat that decides now)")
        return self.decision

    @property
    def me(self) -> SeatView:
        if self.viewer is None:
            raise ValueError("the analyst's view has no seat of its own")
        return self.seats[self.viewer]

    def matches(self, cid: int, what: str | None) -> bool:
        """Does the Stable card `cid` fit the filter word `what` of an op (uu.engine.queries.matches, answered
        from what the table shows)?"""
        if what is None or what == "card":
            return True
        d = self.defs[cid]
        if what in UNICORN_FILTERS:
            sub = UNICORN_FILTERS[what]
            return d.is_unicorn and (sub is None or d.type is sub) and cid in self.counted_unicorns
        if what not in STATIC_FILTERS:
            raise ValueError(f"unknown card filter {what!r}")
        return what in d.kinds

    def where(self, cid: int) -> tuple[str, int] | None:
        """(zone, owner: a seat for hands and Stables, else -1) of a card the viewer can see; None otherwise."""
        for s in self.seats:
            if cid in s.stable:
                return "stable", s.seat
            if s.hand is not None and cid in s.hand:
                return "hand", s.seat
        for zone, cards in (("discard", self.discard), ("nursery", self.nursery), ("limbo", self.limbo),
                            ("box", self.box)):
            if cid in cards:
                return zone, -1
        if any(e.cid == cid for e in self.pile):
            return "pile", -1
        return None


def _looked_at(d: Decision | None, viewer: int | None) -> set[int]:
    """Hands the viewer is looking at for their own pending decision (an effect lets them choose from it)."""
    if d is None or viewer is None or d.player != viewer:
        return set()
    return {t.owner for a in d.actions for t in a.target if t.zone == "hand" and t.owner is not None}


def observe_state(s: GameState, pending: Decision | None, viewer: int | None,
                  resample: Callable[[random.Random], object] | None = None) -> Observation:
    looked = _looked_at(pending, viewer)
    seats = []
    counted: set[int] = set()
    destroyable: set[int] = set()
    for p in range(s.n):
        open_ = viewer is None or p == viewer or q.hand_visible(s, p) or p in looked
        stable = s.stables[p]
        for c in stable:
            if s.defs[c].is_unicorn and q.is_unicorn(s, c):
                counted.add(c)
            if q.can_be_destroyed(s, c, None):
                destroyable.add(c)
        seats.append(SeatView(p, s.players[p], tuple(s.hands[p]) if open_ else None, len(s.hands[p]),
                              open_ and p != viewer, tuple(stable), q.unicorns(s, p), q.are_pandas(s, p),
                              bool(q.summary(s, p)["_blank"]), q.hand_limit(s, p)))
    pile = tuple(PileSeen(e["cid"], e["p"], e.get("into"), tuple(tuple(x) for x in e.get("decl") or ()))
                 for e in s.pile)
    mine = pending is not None and (viewer is None or pending.player == viewer)
    return Observation(
        viewer=viewer, players=tuple(s.players), defs=tuple(s.defs), seats=tuple(seats), current=s.current,
        phase=s.phase, turn_number=s.turn_number, deck_size=len(s.deck), discard=tuple(s.discard),
        nursery=tuple(s.nursery), pile=pile, limbo=tuple(s.limbo), box=tuple(s.box), threshold=s.threshold(),
        queen_bees=tuple(q.queen_bee_owners(s)), counted_unicorns=frozenset(counted),
        destroyable=frozenset(destroyable),
        plays_unneighable=frozenset(p for p in range(s.n) if q.plays_unneighable(s, p)),
        neigh_barred=frozenset(p for p in range(s.n) if q.cannot_play(s, p, "neigh")), decider=None if pending is None else pending.player,
        decision_kind=None if pending is None else pending.kind, decision=pending if mine else None,
        winner=s.winner, over=s.over, decisions=s.decisions, resample=resample)
