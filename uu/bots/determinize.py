"""Copies for playouts, and determinization: dealing the cards a player cannot know at random.

**Hidden information is resampled, never read.** The deciding player does not know the deck order or the
other players' hands (unless a Nanny Cam shows a hand), so before a playout every card that is not in their
own hand, a visible hand, a Stable, the discard pile, the Nursery, the Neigh pile, limbo or the box is dealt at
random back into the deck and the hidden hands, keeping every zone's size. The pool of unknown cards is built
from the *known* cards (and sorted), so it never depends on where the hidden cards really are: two positions
that differ only in hidden cards give identical playouts for the same seed (tests/test_hint.py checks this).
Two more groups stay put because the deciding player knows them: cards named by their legal actions (the cards
Unicorn Oracle shows, a card in a hand that Blatant Thievery lets them pick) and cards held by the effect being
resolved. Cards the rules revealed earlier (a searched card shown to all) are treated as unknown: conservative,
never a leak. The engine's own RNG is reseeded from the caller's RNG too.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

from uu.engine import queries as q
from uu.engine.game import Game
from uu.engine.state import GameState
from uu.engine.targets import clone

_SHARED = frozenset({"players", "defs", "options", "orders"})
# GameState's fields, from its dataclass description (the compiled engine's class has no __slots__ to list)
_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(GameState))


def fast_copy(game: Game) -> Game:
    """An independent copy for playouts: like `Game.copy` but without the narration log (the engine never
    reads it) and with plain list copies instead of `copy.deepcopy` (about 10x faster)."""
    s = game.state
    new = s.__class__.__new__(s.__class__)
    for name in _STATE_FIELDS:
        v = getattr(s, name)
        if name in _SHARED:
            pass
        elif name == "log":
            v = []
        elif name == "static_cache":
            v = [None] * len(v)
        elif name == "cand_cache":
            v = {}  # derived, and determinize edits the zones directly
        elif name == "rng":
            r = random.Random()
            r.setstate(v.getstate())
            v = r
        elif isinstance(v, list):
            if v and isinstance(v[0], list) and all(isinstance(x, int) for sub in v for x in sub):
                v = [list(x) for x in v]
            elif all(isinstance(x, (int, str)) for x in v):
                v = list(v)
            else:
                v = clone(v)
        elif isinstance(v, (dict, set)):
            v = clone(v) if isinstance(v, dict) else set(v)
        setattr(new, name, v)
    g = Game.__new__(Game)
    g.__dict__.update(game.__dict__)
    g.state = new
    return g


def _ints(x: Any, out: set[int]) -> None:
    if isinstance(x, bool):
        return
    if isinstance(x, int):
        out.add(x)
    elif isinstance(x, dict):
        for v in x.values():
            _ints(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _ints(v, out)


def known_to(game: Game, player: int) -> tuple[set[int], list[int]]:
    """(cards `player` knows the place of, the seats whose hands are hidden from them)."""
    s = game.state
    hidden_hands = [p for p in range(s.n) if p != player and not q.hand_visible(s, p)]
    known: set[int] = set()
    for p in range(s.n):
        known.update(s.stables[p])
        if p not in hidden_hands:
            known.update(s.hands[p])
    for zone in (s.discard, s.nursery, s.pile_cards, s.limbo, s.box):
        known.update(zone)
    # cards the pending decision shows this player, and cards the effect being resolved holds
    d = game.pending
    if d is not None and d.player == player:
        for a in d.actions:
            if a.kind in ("play", "respond", "discard", "sacrifice", "baby", "choose") and a.cid is not None:
                known.add(a.cid)
            for t in a.target:
                if t.card is not None and t.cid is not None:
                    known.add(t.cid)
    held: set[int] = set()
    _ints(s.stack, held)
    _ints(s.chain, held)
    _ints(s.pile, held)
    ncards = len(s.defs)
    known.update(c for c in held if 0 <= c < ncards)
    return known, hidden_hands


def determinize(game: Game, player: int, rng: random.Random) -> Game:
    """A fast copy of `game` in which every card `player` cannot know is dealt at random (with `rng`) into
    the deck and the hidden hands, zone sizes unchanged; the engine RNG is reseeded from `rng`."""
    g = fast_copy(game)
    s = g.state
    known, hidden_hands = known_to(game, player)
    pool = [c for c in range(len(s.defs)) if c not in known]  # sorted: independent of the hidden layout
    rng.shuffle(pool)
    zones = [s.deck] + [s.hands[p] for p in hidden_hands]
    owners = [-1] + hidden_hands
    slots = sum(1 for z in zones for c in z if c not in known)
    if slots != len(pool):
        raise RuntimeError(f"determinization: {len(pool)} unknown cards for {slots} hidden places; a zone "
                           f"is missing from uu.bots.hint.known_to")
    it = iter(pool)
    for zone, owner in zip(zones, owners):
        for i, c in enumerate(zone):
            if c in known:
                continue
            new = next(it)
            zone[i] = new
            s.zone_of[new] = "deck" if owner < 0 else "hand"
            s.owner_of[new] = owner
    s.rng = random.Random(rng.getrandbits(64))
    return g
