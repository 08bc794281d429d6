"""The full game state as plain data: zones of card instances, turn flow, pile, chain and the frame stack.

Everything needed to continue a game lives here (including the seeded RNG and half-resolved effects), so a
state can be copied, saved, undone and displayed at any point. Card instances are ints (`cid`) indexing
`defs`; each instance is in exactly one zone, recorded in `zone_of`/`owner_of` and in that zone's list.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from uu.cards.schema import CardDef
from uu.engine.frame_types import Frame, LinkFrame, Phase, PileEntry, Stage, Zone
from uu.engine.options import Options

ZONES: Final[tuple[Zone, ...]] = ("hand", "stable", "deck", "discard", "nursery", "pile", "limbo", "box")
PHASES: Final[tuple[Phase, ...]] = ("beginning", "draw", "action", "end")


class LogEntry:
    """One line of the narration: its text, the rule ids it applies, and the player it concerns (if any).

    A plain class rather than a dataclass: the compiled engine (uu.native) builds it natively, while a
    dataclass's generated __init__ stays interpreted (and a line is logged at nearly every step)."""

    __slots__ = ("text", "rules", "player")

    def __init__(self, text: str, rules: tuple[str, ...] = (), player: int | None = None):
        self.text = text
        self.rules = rules
        self.player = player

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, LogEntry) and self.text == other.text and self.rules == other.rules
                and self.player == other.player)

    __hash__ = None  # type: ignore[assignment]  # mutable and compared by value, as the dataclass was

    def __reduce__(self) -> tuple:  # copy and pickle through __init__ (a compiled class has no other way)
        return (LogEntry, (self.text, self.rules, self.player))

    def __repr__(self) -> str:
        return f"LogEntry({self.text!r}, rules={self.rules!r})"


@dataclass(slots=True, eq=False)
class GameState:
    players: list[str]
    defs: list[CardDef]
    options: Options
    rng: random.Random
    zone_of: list[Zone | Literal[""]] = field(default_factory=list)  # "": not placed yet (while a game is built)
    owner_of: list[int] = field(default_factory=list)
    hands: list[list[int]] = field(default_factory=list)
    stables: list[list[int]] = field(default_factory=list)
    deck: list[int] = field(default_factory=list)  # index 0 is the top
    discard: list[int] = field(default_factory=list)  # last is the top
    nursery: list[int] = field(default_factory=list)
    limbo: list[int] = field(default_factory=list)  # a Magic card while it resolves
    box: list[int] = field(default_factory=list)  # out of the game (2-player removals, `rest: box`)
    pile: list[PileEntry] = field(default_factory=list)  # Neigh pile entries, bottom first
    pile_cards: list[int] = field(default_factory=list)  # the zone "pile": cids in the same order
    chain: list[LinkFrame] = field(default_factory=list)  # links waiting to resolve, first first
    stack: list[Frame] = field(default_factory=list)  # frames being executed, top last
    stage: Stage = "setup"
    current: int = 0
    phase: Phase = "beginning"
    turn_number: int = 0
    actions_left: int = 1
    turn_start_snapshot: list[int] = field(default_factory=list)  # the Stable as the turn began (bot.trigger)
    ending_turn: bool = False
    skip_phases: list[Phase] = field(default_factory=list)
    skip_turns: list[int] = field(default_factory=list)
    extra_turns: list[int] = field(default_factory=list)
    last_ok: bool = True
    last_end: list[int] = field(default_factory=list)  # [turn, player, hand size] when End of Turn finished
    ctx_player: int | None = None  # the player last hit by a return or given a moved card (`who: target`)
    win_check_due: bool = False
    state_check_due: bool = False
    winner: int | str | None = None
    over: bool = False
    revealed: list[int] = field(default_factory=list)  # cids shown to everybody since they were last hidden
    log: list[LogEntry] = field(default_factory=list)
    decisions: int = 0
    # Grows whenever hidden information becomes known to someone (a card leaves the deck, passes between
    # hands, the top of the deck is looked at, a shuffle): undo must never cross it.
    info_epoch: int = 0
    # Derived, never saved: per player, the static effects of the working cards in that Stable. Rebuilt on
    # demand after any change to that Stable (see uu.engine.queries.summary), so it can never go stale.
    static_cache: list[dict[str, Any] | None] = field(default_factory=list)
    stable_version: int = 0  # derived, never saved: grows with every change to any Stable
    checked_version: int = -1  # the stable_version the win check last looked at
    # Derived, never saved: card candidates of ops (uu.engine.targets.card_candidates) since the last card
    # movement. Emptied by every `place` and deck shuffle, the only ways the engine changes what an op may
    # pick; code that edits zone lists directly (determinization, tests) must start from a fresh copy.
    cand_cache: dict[tuple, list[int]] = field(default_factory=dict)
    bee_cache: tuple[int, list[int]] = (-1, [])  # derived: (stable_version, Queen Bee owners) of queries
    orders: list[tuple[int, ...]] = field(default_factory=list)  # derived: seat_ring's cache
    # Never saved: grows whenever the engine draws from `rng` (a shuffle, a random pick), so the move stack
    # (uu.engine.history) copies the generator's state only after a move that changed it.
    rng_draws: int = 0

    # ---- zones -------------------------------------------------------------------------------------
    def zone_list(self, zone: Zone, owner: int) -> list[int]:
        if zone == "hand":
            return self.hands[owner]
        if zone == "stable":
            return self.stables[owner]
        return self._unowned(zone)

    def _unowned(self, zone: str) -> list[int]:
        """The list of a zone nobody owns. Named field by field: a list the compiled engine knows as a list
        removes and appends in C, where one got by `getattr` is called like any Python object."""
        if zone == "deck":
            return self.deck
        if zone == "discard":
            return self.discard
        if zone == "pile":
            return self.pile_cards
        if zone == "nursery":
            return self.nursery
        if zone == "limbo":
            return self.limbo
        if zone == "box":
            return self.box
        zone_cards: list[int] = getattr(self, zone)
        return zone_cards

    def place(self, cid: int, zone: Zone, owner: int = -1, top: bool = True) -> None:
        """Move instance `cid` to `zone` (no rules: callers apply replacement effects first)."""
        old = self.zone_of[cid]
        self.cand_cache.clear()
        if old == "deck" or (old == "hand" and zone == "hand"):
            self.info_epoch += 1
        if old:
            old_owner = self.owner_of[cid]
            if old == "hand":
                self.hands[old_owner].remove(cid)
            elif old == "stable":
                self.stables[old_owner].remove(cid)
                self.static_cache[old_owner] = None
            else:
                self._unowned(old).remove(cid)
        if zone == "hand":
            self.hands[owner].append(cid)
        elif zone == "stable":
            self.stables[owner].append(cid)
            self.static_cache[owner] = None
        elif zone == "deck" and top:
            self.deck.insert(0, cid)
        else:
            self._unowned(zone).append(cid)
        self.zone_of[cid] = zone
        self.owner_of[cid] = owner if zone == "hand" or zone == "stable" else -1
        if zone == "stable" or old == "stable":
            self.stable_version += 1
            self.win_check_due = True
            self.state_check_due = True

    def name(self, cid: int) -> str:
        return self.defs[cid].name

    def names(self, cids: list[int]) -> list[str]:
        return [self.defs[c].name for c in cids]

    @property
    def n(self) -> int:
        return len(self.players)

    def seats_from(self, start: int) -> list[int]:
        """Seats in clockwise order starting with `start` (a fresh list the caller may change)."""
        return list(self.seat_ring(start))

    def seat_ring(self, start: int) -> tuple[int, ...]:
        """Seats in clockwise order starting with `start`, shared and immutable (no copy: hot loops)."""
        n = len(self.players)
        if not self.orders:
            self.orders = [tuple((b + i) % n for i in range(n)) for b in range(n)]
        return self.orders[start % n]

    def threshold(self) -> int:
        if self.options.win_threshold is not None:
            return self.options.win_threshold
        return 6 if len(self.players) >= 6 else 7

    def say(self, text: str, *rules: str, player: int | None = None) -> None:
        self.log.append(LogEntry(text, rules, player))

    def say_rules(self, text: str, rules: tuple[str, ...], player: int | None = None) -> None:
        """`say` for hot code whose rule ids come as a tuple: compiled, `say(text, *rules)` is a Python call."""
        self.log.append(LogEntry(text, rules, player))

    def all_cids(self) -> range:
        return range(len(self.defs))


# What saving and copying do with each field of GameState, in field order: the one list that uu.engine.save,
# Game.copy and any other copy read (tests/test_engine_api.py checks that it names every field).
#   saved    plain data: a save stores it and a copy copies it (deeply)
#   shared   never changes during a game: a copy shares it; a save stores it by name (defs) or by value
#   rng      the seeded generator: a save stores its state, a copy copies it
#   log      the narration: a save stores its lines
#   derived  computed from the rest on demand: never saved; a copy may keep it
#   cache    never saved; a copy starts empty (code that edits a copy's zones directly would meet stale entries)
FieldUse = Literal["saved", "shared", "rng", "log", "derived", "cache"]
STATE_FIELDS: Final[dict[str, FieldUse]] = {
    "players": "saved", "defs": "shared", "options": "shared", "rng": "rng",
    "zone_of": "saved", "owner_of": "saved", "hands": "saved", "stables": "saved", "deck": "saved",
    "discard": "saved", "nursery": "saved", "limbo": "saved", "box": "saved", "pile": "saved",
    "pile_cards": "saved", "chain": "saved", "stack": "saved", "stage": "saved", "current": "saved",
    "phase": "saved", "turn_number": "saved", "actions_left": "saved", "turn_start_snapshot": "saved",
    "ending_turn": "saved", "skip_phases": "saved", "skip_turns": "saved", "extra_turns": "saved",
    "last_ok": "saved", "last_end": "saved", "ctx_player": "saved", "win_check_due": "saved",
    "state_check_due": "saved", "winner": "saved", "over": "saved", "revealed": "saved", "log": "log",
    "decisions": "saved", "info_epoch": "saved",
    "static_cache": "derived", "stable_version": "derived", "checked_version": "derived", "cand_cache": "cache",
    "bee_cache": "derived", "orders": "derived", "rng_draws": "derived",
}
