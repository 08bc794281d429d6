"""The move stack's undo records (python-chess keeps one per move on its `move_stack`; `Game.pop` uses ours).

A record holds what moves can change: every saved field of the state (`STATE_FIELDS` "saved": zones, turn
flow, the Neigh pile, the chain and the frame stack), the RNG's state, the length of the narration log (the
log only ever grows, so undo cuts it back) and the pending decision. `restore` puts them back and resets what
is derived from them (caches, the Stable version) exactly as a loaded save does; `Game.pop` then makes the
moves after the record again, so a popped game continues like the game was before the move
(tests/test_move_stack.py compares `to_dict()` at every step of random games, in both engine builds). The
state must change only through `Game.push` for that to hold.

When records are made (uu.engine.game): never by `push`. In a compiled game a step of play takes about
16-20 µs of CPU and a record about 13-25 µs (measured in random 2-, 4- and 6-player games), and most games
are never taken back (bots, benches, playouts): even one record every 128 moves, the first at a game's start,
cost 1.5% of `uu bench`'s instructions (valgrind). So the start is made again when an undo first needs it (a new
game is dealt again from its seat names and options; a game loaded or copied for playouts records its start
at its first push, as nothing else could make it again), and `Game.pop_to` makes the records before every
`SNAPSHOT_EVERY`-th move as it plays the moves again; later undos start from the nearest one. A record is
as cheap as it can be:

- the saved fields are plain data (ints, strings, lists, dicts: the save format's own), so one `marshal.dumps`
  call copies them all into one bytes object of about 2 KB (`zone_of` and `owner_of` are left out: `restore`
  derives them from the zone lists), which the garbage collector never has to walk
  (a record of copied lists slowed every later collection down as the stack grew);
- the generator's state (625 numbers) is copied only when the move before drew from it (`rng_draws`), which
  few moves do; otherwise the record shares the previous record's copy.

A record is never changed once made, so copies of a game share them.
"""

from __future__ import annotations

import marshal
from typing import Any, Final

from uu.engine.actions import Decision
from uu.engine.state import STATE_FIELDS, GameState

__all__ = ["UndoRecord", "record", "restore"]

# zone_of and owner_of repeat what the zone lists say (a third of a record): `restore` derives them
_SAVED: Final = tuple(k for k, use in STATE_FIELDS.items() if use == "saved" and k not in ("zone_of", "owner_of"))


class UndoRecord:
    """What `restore` needs to put the state back as it was before one move. Never changed once made."""

    __slots__ = ("fields", "rng", "rng_of", "draws", "log_len", "pending")

    def __init__(self, fields: bytes, rng: tuple[Any, ...], rng_of: object, draws: int, log_len: int,
                 pending: Decision | None):
        self.fields = fields  # marshal of the saved fields, in _SAVED order
        self.rng = rng  # the generator's state
        self.rng_of = rng_of  # ... of this generator object, after this many draws (to share it, see above)
        self.draws = draws
        self.log_len = log_len
        self.pending = pending


def record(s: GameState, pending: Decision | None, last: UndoRecord | None) -> UndoRecord:
    """The record of `s` before a move; `last` is the record of the move before (its RNG copy may serve)."""
    fields = marshal.dumps(tuple([getattr(s, k) for k in _SAVED]))
    if last is not None and last.rng_of is s.rng and last.draws == s.rng_draws:
        rng = last.rng
    else:
        rng = s.rng.getstate()
    return UndoRecord(fields, rng, s.rng, s.rng_draws, len(s.log), pending)


def restore(s: GameState, r: UndoRecord) -> Decision | None:
    """Put `s` back as `r` found it; returns the decision that was pending then."""
    for k, v in zip(_SAVED, marshal.loads(r.fields)):
        setattr(s, k, v)
    zone_of: list[Any] = [""] * len(s.defs)
    owner_of = [-1] * len(s.defs)
    for p, hand in enumerate(s.hands):
        for c in hand:
            zone_of[c], owner_of[c] = "hand", p
    for p, stable in enumerate(s.stables):
        for c in stable:
            zone_of[c], owner_of[c] = "stable", p
    for zone, cards in (("deck", s.deck), ("discard", s.discard), ("nursery", s.nursery), ("limbo", s.limbo),
                        ("box", s.box), ("pile", s.pile_cards)):
        for c in cards:
            zone_of[c] = zone
    s.zone_of, s.owner_of = zone_of, owner_of
    s.rng.setstate(r.rng)
    s.rng_draws += 1  # the generator was set: the next record copies its state afresh
    del s.log[r.log_len:]
    # derived fields start afresh, as after loading a save (uu.engine.save)
    s.static_cache = [None] * len(s.players)
    s.cand_cache = {}
    s.stable_version = 0
    s.checked_version = -1
    s.bee_cache = (-1, [])
    return r.pending
