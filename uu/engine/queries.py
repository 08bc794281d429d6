"""Continuous effects as questions asked on demand, folded over the cards in Stables (never cached flags).

Each function answers one question the rules ask (can this player play a Neigh? does this card's text
work? how many Unicorns does this Stable count?) from the current state.
"""

from __future__ import annotations

from typing import Any, Final

from uu.cards.schema import CardType
from uu.engine.state import GameState

# An Enum attribute lookup is a slow dictionary walk on CPython: hot code compares with module constants.
BABY: Final = CardType.BABY
BASIC: Final = CardType.BASIC
MAGICAL: Final = CardType.MAGICAL
_UNICORN: Final = (BABY, BASIC, MAGICAL)


def summary(s: GameState, p: int) -> dict[str, Any]:
    """Static effects of the working cards in p's Stable: key -> list of values, plus "_blank" when Blinding
    Light switches the Unicorns' text off. Memoised until p's Stable changes (GameState.place resets it)."""
    cache = s.static_cache[p]
    if cache is not None:
        return cache
    defs = s.defs
    stable = s.stables[p]
    blank = False
    for c in stable:
        d = defs[c]
        if not d.is_unicorn and d.static.get("owner_unicorns_blank"):
            blank = True
            break
    out: dict[str, Any] = {"_blank": blank}
    for c in stable:
        d = defs[c]
        if d.static and not (blank and d.is_unicorn):
            for k, v in d.static.items():
                out.setdefault(k, []).append(v)
    s.static_cache[p] = out
    return out


def text_works(s: GameState, cid: int) -> bool:
    """A card's effect text works only in a Stable (effect.hand-inactive), and a Unicorn's not under
    Blinding Light (owner_unicorns_blank)."""
    if s.zone_of[cid] != "stable":
        return False
    return not (s.defs[cid].is_unicorn and summary(s, s.owner_of[cid])["_blank"])


def statics(s: GameState, p: int, key: str) -> list[Any]:
    """Values of static `key` on the working cards in p's Stable."""
    return summary(s, p).get(key, [])


def has_static(s: GameState, p: int, key: str) -> bool:
    """Does a working card in p's Stable have static `key`? (Catalog static values are always truthy.)"""
    cache = s.static_cache[p]
    return key in (cache if cache is not None else summary(s, p))


def are_pandas(s: GameState, p: int) -> bool:
    return has_static(s, p, "owner_unicorns_are_pandas")


def is_unicorn(s: GameState, cid: int) -> bool:
    """Is this card a Unicorn for effects that name Unicorn cards? (Pandamonium makes them Pandas.)"""
    if not s.defs[cid].is_unicorn:
        return False
    if s.zone_of[cid] == "stable":
        cache = s.static_cache[s.owner_of[cid]]
        if "owner_unicorns_are_pandas" in (cache if cache is not None else summary(s, s.owner_of[cid])):
            return False
    return True


def unicorn_value(s: GameState, cid: int) -> int:
    v = s.defs[cid].static.get("unicorn_value")
    if v is not None and text_works(s, cid):
        return int(v)
    return 1


def unicorns(s: GameState, p: int) -> int:
    """Unicorns in p's Stable as the win check counts them (win.counts-one; Pandas count none)."""
    if are_pandas(s, p):
        return 0
    defs = s.defs
    n = 0
    for c in s.stables[p]:
        d = defs[c]
        if d.is_unicorn:
            n += unicorn_value(s, c) if "unicorn_value" in d.static else 1
    return n


def letters(s: GameState, p: int) -> int:
    """Letters in the printed names of the Unicorn cards in p's Stable (win.letters)."""
    return sum(s.defs[c].letters for c in s.stables[p] if s.defs[c].is_unicorn)


def cannot_play(s: GameState, p: int, what: str) -> bool:
    for blocked in statics(s, p, "owner_cannot_play"):
        if what in blocked:
            return True
    return False


def plays_unneighable(s: GameState, p: int) -> bool:
    return has_static(s, p, "owner_plays_unneighable")


def queen_bee_owners(s: GameState) -> list[int]:
    """Seats with a working Queen Bee. Memoised until any Stable changes (asked for every Basic Unicorn a
    move or play could put somewhere); the list is shared, so callers must not change it."""
    version, owners = s.bee_cache
    if version != s.stable_version:
        owners = [p for p in range(len(s.players)) if has_static(s, p, "basics_enter_only_owner")]
        s.bee_cache = (s.stable_version, owners)
    return owners


def can_enter(s: GameState, cid: int, p: int, bees: list[int] | None = None) -> bool:
    """May this card enter p's Stable? (Queen Bee: Basic Unicorns only enter her owner's Stable.)"""
    if s.defs[cid].type is BASIC:
        for q in (queen_bee_owners(s) if bees is None else bees):
            if q != p:
                return False
    return True


def can_be_destroyed(s: GameState, cid: int, source: int | None) -> bool:
    """effect.immunity: Rainbow Aura guards the owner's Unicorns; Kittencorn is immune to Magic cards."""
    if s.zone_of[cid] != "stable":
        return False
    d = s.defs[cid]
    if d.is_unicorn:
        cache = s.static_cache[s.owner_of[cid]]
        if "owner_unicorns_indestructible" in (cache if cache is not None else summary(s, s.owner_of[cid])):
            return False
    immune = d.static.get("indestructible_by")
    if immune and text_works(s, cid) and source is not None and s.defs[source].type.value == immune:
        return False
    return True


def hand_visible(s: GameState, p: int) -> bool:
    return has_static(s, p, "hand_visible")


def hand_limit(s: GameState, p: int) -> int:
    return s.options.hand_limit


UNICORN_FILTERS: Final = {"unicorn": None, "basic_unicorn": BASIC, "baby_unicorn": BABY, "magical_unicorn": MAGICAL}


def matches(s: GameState, cid: int, what: str | None, src: int | None = None) -> bool:
    """Does card `cid` match the filter word `what` of an op (see uu.cards.schema.FILTERS)? Words that name
    Unicorn cards skip Pandas (Pandamonium); the others depend on the printed card only (CardDef.kinds)."""
    if what is None or what == "card":
        return True
    if what in UNICORN_FILTERS:
        d = s.defs[cid]
        sub = UNICORN_FILTERS[what]
        return d.is_unicorn and (sub is None or d.type is sub) and is_unicorn(s, cid)
    if what == "this":
        return cid == src
    if what not in STATIC_FILTERS:
        raise ValueError(f"unknown card filter {what!r}")
    return what in s.defs[cid].kinds


STATIC_FILTERS: Final = frozenset({"upgrade", "downgrade", "upgrade_or_downgrade", "magic", "neigh", "narwhal"})
