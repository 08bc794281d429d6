"""What each op could act on: candidate cards or players, whether an op is possible at all
(effect.impossible-play / effect.impossible-skip), and which ops take targets declared in advance."""

from __future__ import annotations

from bisect import insort
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any, Final

from uu.cards.schema import CardType
from uu.cards.verbs import VERBS
from uu.engine import queries as q
from uu.engine.frame_types import Op
from uu.engine.frames import hook_possible
from uu.engine.state import GameState

# An Enum attribute lookup is a slow dictionary walk on CPython: hot code compares with module constants.
BABY: Final = CardType.BABY


# The registry's facts as module constants: the compiled engine keeps Final frozensets and dicts in C statics.
# Ops whose choice is a card in a Stable or a player: declared with the play under option.targeting
# declare-first, and before a beginning-of-turn link resolves (chain.targets-before).
TARGET_OPS: Final = frozenset(v.name for v in VERBS.values() if v.declared)
# Choices among the controller's own cards: also made in advance in a beginning-of-turn link.
OWN_CHOICE_OPS: Final = frozenset(v.name for v in VERBS.values() if v.own_choice)
# How each verb tells whether it could do anything now (see Verb.possible).
POSSIBLE: Final[dict[str, str]] = {v.name: v.possible for v in VERBS.values()}


def others(s: GameState, you: int) -> list[int]:
    """The other seats in clockwise order starting left of `you`."""
    return list(s.seat_ring(you)[1:])


def baby_may_move(s: GameState, cid: int) -> bool:
    return s.defs[cid].type is not BABY or s.options.baby_moves == "allowed"


def card_candidates(s: GameState, op: Op, you: int, src: int | None, actor: int | None = None) -> list[int]:
    """Cards the op may pick now. `actor` is who performs it (defaults to the controller).

    Memoised in `s.cand_cache` until the next card movement: the same question is asked many times per
    decision (is the card playable, its declared combinations, a link's reservations). The list returned
    is shared: callers must not change it."""
    exclude = op.get("exclude")
    key = (op["do"], op.get("what"), op.get("from"), exclude, you, src, actor)
    cache = s.cand_cache
    cands = cache.get(key)
    if cands is not None:
        return cands
    cands = _card_candidates(s, op, you, src, actor)
    if exclude == "this" and src in cands:
        cands.remove(src)
    if s.options.pandas == "all-effects" and op["do"] in PANDA_SAFE_FROM:
        cands = [c for c in cands if not shielded_panda(s, c)]
    cache[key] = cands
    return cands


# option.pandas all-effects: the verbs that can never pick a Panda, whoever controls the effect (a
# replacement effect's choice is one of these too: "SACRIFICE this card instead").
PANDA_SAFE_FROM: Final = frozenset(v.name for v in VERBS.values() if v.pandas_shield)


def shielded_panda(s: GameState, cid: int) -> bool:
    """option.pandas all-effects: a Unicorn in a Pandamonium Stable (its owner's own included) is out of
    reach of every effect that would SACRIFICE, DESTROY, STEAL, move or return it."""
    return (s.defs[cid].is_unicorn and s.zone_of[cid] == "stable" and q.are_pandas(s, s.owner_of[cid]))


def matching(s: GameState, cids: list[int] | tuple[int, ...], what: str | None, src: int | None) -> list[int]:
    """The cards among `cids` that match filter word `what` (q.matches), in order, as a new list. The common
    filters are tested inline: this runs for every candidate list the engine builds."""
    if what is None or what == "card":
        return list(cids)
    if what in q.UNICORN_FILTERS:
        sub = q.UNICORN_FILTERS[what]
        defs = s.defs
        return [c for c in cids if defs[c].is_unicorn and (sub is None or defs[c].type is sub)
                and q.is_unicorn(s, c)]
    if what == "this" or what not in q.STATIC_FILTERS:
        return [c for c in cids if q.matches(s, c, what, src)]
    defs = s.defs
    return [c for c in cids if what in defs[c].kinds]  # as q.matches: printed kinds only


def in_stables(s: GameState, seats: list[int] | tuple[int, ...]) -> list[int]:
    stables = s.stables
    return [c for p in seats for c in stables[p]]


# Where each verb picks cards and players, registered by uu.engine.verb_handlers beside what the verb does
# (`@verb(name, cards=..., players=...)`). A card pool gets (state, op, controller, source card, performer)
# and returns a new list; a player pool gets (state, op, controller).
CardPool = Callable[[GameState, Op, int, int | None, int], list[int]]
PlayerPool = Callable[[GameState, Op, int], list[int]]
CARD_POOLS: Final[dict[str, CardPool]] = {}
PLAYER_POOLS: Final[dict[str, PlayerPool]] = {}


def _card_candidates(s: GameState, op: Op, you: int, src: int | None, actor: int | None) -> list[int]:
    verb: str = op["do"]  # typed: compiled, a str comparison instead of a generic one
    what: str | None = op.get("what")
    a = you if actor is None else actor
    if what == "this":
        if src is None:
            return []
        if verb == "sacrifice":
            return [src] if s.zone_of[src] == "stable" and s.owner_of[src] == a else []
        if verb == "return":
            return [src] if s.zone_of[src] in ("stable", "discard") else []
        return [src]
    pool = CARD_POOLS.get(verb)
    return [] if pool is None else pool(s, op, you, src, a)


def player_candidates(s: GameState, op: Op, you: int) -> list[int]:
    pool = PLAYER_POOLS.get(op["do"])
    return [] if pool is None else pool(s, op, you)


def move_destinations(s: GameState, op: Op, you: int, cid: int) -> list[int]:
    frm = s.owner_of[cid]
    return [p for p in s.seat_ring(you) if p != frm and q.can_enter(s, cid, p)]


_PLAYER_VERBS: Final = frozenset(v.name for v in VERBS.values() if v.chooses == "player")
_NO_CARD_MOVES: Final = frozenset(v.name for v in VERBS.values() if not v.moves_cards)


def op_possible(s: GameState, op: Op, you: int, src: int | None) -> bool:
    """Could this op do anything now? (An impossible op is disregarded; an optional effect whose first op
    is impossible is not offered.)"""
    verb: str = op["do"]
    how: str = POSSIBLE[verb]
    if how == "always":
        return True
    if how == "an_option":
        return any(ops_possible(s, o["ops"], you, src) for o in op["options"])
    if how == "hook":
        return hook_possible(s, op["name"], you, src)
    if how == "deck_not_empty":
        return bool(s.deck)
    if how == "a_player":
        return bool(player_candidates(s, op, you))
    who = op.get("who")
    if who == "each":
        return True
    if who == "other":
        return bool(player_candidates(s, op, you))
    if verb == "sacrifice" and op.get("all"):  # "SACRIFICE all Downgrades" with none is carried out
        return True
    if how == "a_destination":
        return any(move_destinations(s, op, you, c) for c in card_candidates(s, op, you, src))
    # "DISCARD 2" or "DESTROY 2 cards" is possible only with 2 cards to do it to (effect.impossible-play)
    return len(card_candidates(s, op, you, src)) >= int(op.get("n", 1))


def ops_possible(s: GameState, ops: list[Op], you: int, src: int | None) -> bool:
    """An optional effect is offered only if it could do something: its first op is possible, and so is
    what follows `then` (a cost with nothing to buy is not offered). A payoff taken from the discard pile is
    not judged in advance: the cost itself may put the card there (Necromancer, Dark Angel)."""
    if not ops or not op_possible(s, ops[0], you, src):
        return False
    nxt = ops[0].get("then")
    if nxt and not (nxt[0]["do"] in ("bring", "take") and nxt[0].get("from") == "discard"):
        return ops_possible(s, nxt, you, src)
    return True


def _in_order(ops: list[Op]) -> Iterator[Op]:
    """The ops of an effect in the order they resolve: each op, then what follows its `then`."""
    for op in ops:
        yield op
        if op.get("then"):
            yield from _in_order(op["then"])


def short_discard(s: GameState, ops: list[Op], you: int, src: int | None) -> tuple[Op, int] | None:
    """effect.impossible-play for DISCARD: the first mandatory DISCARD of the player's own cards (their own
    DISCARD, or their part of an "each player DISCARDs", target.players: each player includes you) that
    asks for more cards than they will hold, with the number they will hold; None when there is none or
    when the hand at that point cannot be known now.

    The hand at resolution is known when the card has left it, only the card's own DRAWs come before the
    DISCARD (from a deck that holds enough cards) and nothing else can change the hand in between: the only
    cards played meanwhile are Instants, which can only take cards out of a hand. Any other op before it
    (a card taken into the hand, a may) makes the count unknown, and the DISCARD is judged at resolution."""
    hand = len(s.hands[you]) - (1 if src is not None and src in s.hands[you] else 0)
    deck = len(s.deck)
    drew = False
    for op in _in_order(ops):
        verb = op["do"]
        who = op.get("who")
        if op.get("may") or who not in (None, "you", "each") or op.get("if_you_do"):
            return None
        if who == "each" and verb != "discard":  # what the others' part does to this hand is not followed
            return None
        n = int(op.get("n", 1))
        if verb == "draw":
            if deck < n:  # a short deck: what happens then depends on the deck-out rules
                return None
            hand += n
            deck -= n
            drew = True
        elif verb == "discard" and not op.get("all"):
            what = op.get("what")
            if what in (None, "card"):
                have = hand
            elif drew:  # the drawn cards are unknown: whether they match cannot be told now
                return None
            else:
                have = len([c for c in s.hands[you] if c != src and q.matches(s, c, what, src)])
            if have < n:
                return op, max(have, 0)
            hand -= n
        elif verb in _NO_CARD_MOVES:
            continue
        else:
            return None
    return None


def playable(s: GameState, ops: list[Op], you: int, src: int | None) -> bool:
    """effect.impossible-play: a card whose own effect the player cannot carry out cannot be played. Every
    mandatory op in order (following `then`) must be possible. DISCARD and DRAW are judged at resolution,
    except a DISCARD the player's hand at that point is known to be too small for (`short_discard`)."""
    if short_discard(s, ops, you, src) is not None:
        return False
    for op in ops:
        if op.get("may") or op["do"] in ("discard", "draw"):
            continue
        if not op_possible(s, op, you, src):
            return False
        if op.get("then") and not playable(s, op["then"], you, src):
            return False
    return True


_DECL_CACHE: Final[dict[tuple[int, bool], tuple[list[Op], list[Op]]]] = {}


def declarable_static(ops: list[Op], own_choices: bool) -> list[Op]:
    """`declarable` as a list, memoised by the identity of `ops`: for the catalog's op lists and for the
    copies a beginning-of-turn link works on (asked again at every step of the link). Only "chosen" is ever
    added to those ops, which declarable does not read. The list is shared: callers must not change it."""
    key = (id(ops), own_choices)
    hit = _DECL_CACHE.get(key)
    if hit is None or hit[0] is not ops:
        if len(_DECL_CACHE) > 4096:  # the copies come and go: never let them pile up
            _DECL_CACHE.clear()
        hit = (ops, list(declarable(ops, own_choices)))
        _DECL_CACHE[key] = hit
    return hit[1]


def clone(x: Any) -> Any:
    """A deep copy of JSON-like data (dicts, lists, scalars), much faster than copy.deepcopy. Scalars are
    kept without a call each (most values in op lists and frames are)."""
    if isinstance(x, dict):
        return {k: clone(v) if isinstance(v, (dict, list)) else v for k, v in x.items()}
    if isinstance(x, list):
        return [clone(v) if isinstance(v, (dict, list)) else v for v in x]
    return x


def declarable(ops: list[Op], own_choices: bool) -> Iterator[Op]:
    """Ops (in order, through `then` and `if_you_do`) whose choice is made before the effect resolves."""
    for op in ops:
        verb = op["do"]
        takes = verb in TARGET_OPS and op.get("from") != "each" and op.get("what") != "this"
        if verb == "discard" and op.get("who") == "other":
            takes = True
        if own_choices and verb in OWN_CHOICE_OPS and op.get("who") in (None, "you") and not op.get("all") \
                and op.get("what") != "this":
            takes = True
        if takes and not op.get("may"):
            yield op
        for key in ("then", "if_you_do"):
            if op.get(key):
                yield from declarable(op[key], own_choices)


def is_player_choice(op: Op) -> bool:
    verb = op["do"]
    return verb in _PLAYER_VERBS or (verb == "discard" and op.get("who") == "other")


DECLARE_LIMIT: Final = 2000  # at most this many ways to declare one card's targets (a guard, never reached)


def declare_combos(s: GameState, ops: list[Op], you: int, src: int | None,
                   limit: int = DECLARE_LIMIT) -> list[list[list[int]]] | None:
    """All ways to declare the targets of `ops` up front (option.targeting declare-first): one list per
    declarable op, each a list of cids (or [player, card] for move). None if nothing is declarable."""
    dec = declarable_static(ops, own_choices=False)
    if not dec:
        return None
    if len(dec) == 1:
        return _single_combos(s, dec[0], you, src, limit)
    out: list[list[list[int]]] = []

    def rec(i: int, used: set[int], acc: list[list[int]]) -> None:
        if len(out) >= limit:
            return
        if i == len(dec):
            out.append(list(acc))
            return
        op = dec[i]
        if is_player_choice(op):
            for p in player_candidates(s, op, you):
                rec(i + 1, used, acc + [[p]])
            return
        raw = [c for c in card_candidates(s, op, you, src) if c not in used]
        if op["do"] == "move":
            for c in dedupe_places(s, raw):
                for p in move_destinations(s, op, you, c):
                    rec(i + 1, used | {c}, acc + [[c, p]])
            return
        n = op.get("n", 1)
        if len(raw) < n:  # not enough targets for the whole op: this way of playing it does not exist
            return
        seen: set[tuple[tuple[str, int], ...]] = set()
        for pick in combinations(raw, n):
            key = tuple(sorted((s.defs[c].name, s.owner_of[c]) for c in pick))
            if key in seen:
                continue
            seen.add(key)
            rec(i + 1, used | set(pick), acc + [list(pick)])

    rec(0, set(), [])
    return out


def _single_combos(s: GameState, op: Op, you: int, src: int | None, limit: int) -> list[list[list[int]]]:
    """`declare_combos` for the usual case of one declarable op (the same combinations in the same order,
    without the general recursion)."""
    if is_player_choice(op):
        return [[[p]] for p in player_candidates(s, op, you)[:limit]]
    raw = card_candidates(s, op, you, src)
    if op["do"] == "move":
        return [[[c, p]] for c in dedupe_places(s, raw) for p in move_destinations(s, op, you, c)][:limit]
    defs, owner_of = s.defs, s.owner_of
    keys = [(defs[c].name, owner_of[c]) for c in raw]  # copies in one place are interchangeable
    out: list[list[list[int]]] = []
    n = op.get("n", 1)
    if n == 1:
        seen1: set[tuple[str, int]] = set()
        for c, key in zip(raw, keys):
            if key not in seen1:
                seen1.add(key)
                out.append([[c]])
        return out[:limit]
    if n == 2:
        return _pairs(raw, keys, limit)
    seen: set[tuple[tuple[str, int], ...]] = set()
    for pick in combinations(range(len(raw)), n):  # none when there are fewer than n candidates
        combo_key = tuple(sorted([keys[i] for i in pick]))
        if combo_key in seen:
            continue
        seen.add(combo_key)
        out.append([[raw[i] for i in pick]])
        if len(out) >= limit:
            break
    return out


def _pairs(raw: list[int], keys: list[tuple[str, int]], limit: int) -> list[list[list[int]]]:
    """The pairs `combinations(raw, 2)` gives, in its (lexicographic) order, keeping only the first pair of
    each pair of keys, without trying every pair: the first pair of keys {A, B} is (first A, first B), and
    of {A, A} it is (first A, second A)."""
    first: dict[tuple[str, int], int] = {}
    second: dict[tuple[str, int], int] = {}
    firsts: list[int] = []
    for i, k in enumerate(keys):
        if k not in first:
            first[k] = i
            firsts.append(i)
        elif k not in second:
            second[k] = i
    out: list[list[list[int]]] = []
    for a, i in enumerate(firsts):
        js = firsts[a + 1:]
        j2 = second.get(keys[i])
        if j2 is not None:
            insort(js, j2)
        for j in js:
            out.append([[raw[i], raw[j]]])
            if len(out) >= limit:
                return out
    return out


def dedupe_places(s: GameState, cids: list[int]) -> list[int]:
    """The first of the interchangeable copies (same name, owner and zone) among `cids`."""
    seen: set[tuple[str, int, str]] = set()
    out = []
    for c in cids:
        key = (s.defs[c].name, s.owner_of[c], s.zone_of[c])
        if key not in seen:
            seen.add(key)
            out.append(c)
    return out
