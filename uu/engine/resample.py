"""Copies for playouts, and resampling the cards a player cannot know (OpenSpiel's `resample_from_infostate`).

`Game.playout_copy()` and `Game.resample(player, rng)` call these; they work on a `GameState` and the pending
decision, so this module never imports `uu.engine.game`.

**Hidden information is resampled, never read.** The deciding player does not know the deck order or the
other players' hands (unless a Nanny Cam shows a hand), so every card that is not in their own hand, a visible
hand, a Stable, the discard pile, the Nursery, the Neigh pile, limbo or the box is dealt at random back into
the deck and the hidden hands, keeping every zone's size. The pool of unknown cards is built from the *known*
cards (and sorted), so it never depends on where the hidden cards really are: two positions that differ only
in hidden cards give identical results for the same RNG (tests/test_hint.py checks this). Two more groups stay
put because the deciding player knows them: cards named by their legal actions (the cards Unicorn Oracle shows,
a card in a hand that Blatant Thievery lets them pick) and cards held by the effect being resolved. Cards the
rules revealed earlier (a searched card shown to all) are treated as unknown: conservative, never a leak. The
engine's own RNG is reseeded from the caller's RNG too.
"""

from __future__ import annotations

import random
from typing import Any

from uu.engine import queries as q
from uu.engine.actions import Decision
from uu.engine.state import STATE_FIELDS, GameState
from uu.engine.targets import clone

__all__ = ["known_to", "playout_state", "resampled_state"]


def _copy_value(v: Any) -> Any:
    if isinstance(v, list):
        if v and isinstance(v[0], list) and all(isinstance(x, int) for sub in v for x in sub):
            return [list(x) for x in v]
        if all(isinstance(x, (int, str)) for x in v):
            return list(v)
        return clone(v)
    if isinstance(v, dict):
        return clone(v)
    if isinstance(v, set):
        return set(v)
    return v  # numbers, strings, None, tuples: immutable


def playout_state(s: GameState) -> GameState:
    """An independent copy for playouts: like `Game.copy` but without the narration log (the engine never
    reads it), with empty caches, and with plain list copies instead of `copy.deepcopy` (much faster)."""
    new = s.__class__.__new__(s.__class__)
    for name, use in STATE_FIELDS.items():
        v = getattr(s, name)
        if use == "log":
            v = []
        elif use == "rng":
            r = random.Random()
            r.setstate(v.getstate())
            v = r
        elif use == "cache":
            v = type(v)()  # resampling edits zones directly: nothing derived from the old ones may stay
        elif name == "static_cache":
            v = [None] * len(v)
        elif use == "saved":
            v = _copy_value(v)
        setattr(new, name, v)  # shared and the other derived fields: kept as they are
    return new


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


def known_to(s: GameState, pending: Decision | None, player: int) -> tuple[set[int], list[int]]:
    """(cards `player` knows the place of, the seats whose hands are hidden from them)."""
    hidden_hands = [p for p in range(s.n) if p != player and not q.hand_visible(s, p)]
    known: set[int] = set()
    for p in range(s.n):
        known.update(s.stables[p])
        if p not in hidden_hands:
            known.update(s.hands[p])
    for zone in (s.discard, s.nursery, s.pile_cards, s.limbo, s.box):
        known.update(zone)
    # cards the pending decision shows this player, and cards the effect being resolved holds
    if pending is not None and pending.player == player:
        for a in pending.actions:
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


def resampled_state(s: GameState, pending: Decision | None, player: int, rng: random.Random) -> GameState:
    """A playout copy of `s` in which every card `player` cannot know is dealt at random (with `rng`) into the
    deck and the hidden hands, zone sizes unchanged; the engine RNG is reseeded from `rng`."""
    new = playout_state(s)
    known, hidden_hands = known_to(s, pending, player)
    pool = [c for c in range(len(new.defs)) if c not in known]  # sorted: independent of the hidden layout
    rng.shuffle(pool)
    zones = [new.deck] + [new.hands[p] for p in hidden_hands]
    owners = [-1] + hidden_hands
    slots = sum(1 for z in zones for c in z if c not in known)
    if slots != len(pool):
        raise RuntimeError(f"resample: {len(pool)} unknown cards for {slots} hidden places; a zone is missing "
                           f"from uu.engine.resample.known_to")
    it = iter(pool)
    for zone, owner in zip(zones, owners):
        for i, c in enumerate(zone):
            if c in known:
                continue
            card = next(it)
            zone[i] = card
            new.zone_of[card] = "deck" if owner < 0 else "hand"
            new.owner_of[card] = owner
    new.rng = random.Random(rng.getrandbits(64))
    return new
