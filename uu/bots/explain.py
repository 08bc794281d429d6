"""Why a move is good, as data: what it does (read from the card data and the position) and what the search found.

The hint (`uu.bots.hint`) and the review (`uu.tutor.game_review`) hand these facts to the words layer
(`uu.words.hint_text`), which turns them into a player's sentences; nothing here is a sentence, so the bots never
depend on how the tutor speaks.

Everything here reads one seat's observation (`Game.observe(seat)`, uu/engine/observation.py), never the
game: an explanation can only use what that player may see, by its type rather than by convention.

- `effect_of(seen, action)`: what a move does from the cards themselves: the verb of the card's effect
  (`uu.cards.verbs`: destroy, steal, bring, ...), what it aims at and whose it is, the Unicorns it adds, and
  at a Neigh moment what the card on the pile would do if it resolved (the `Threat`).
- `neigh_odds(seen, player, card)`: how likely another player is to answer a card with a Neigh,
  counting only players who may (the engine's queries: a Stable that makes its owner's cards unanswerable,
  like Yay; a card that bars its owner from Neighs, like Slowdown or Ginormous Unicorn; a card that cannot be
  Neigh'd itself, like Super Neigh) and only the cards the viewer has not seen (never the hidden cards).
- `reason(seen, found, cand)`: the strongest reason for a candidate, in order: the only move, it wins, at a
  Neigh moment what answering or passing does, the card's effect, then what the simulated games found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb, prod
from typing import Literal

from uu.bots.search import Candidate, Search
from uu.cards.schema import CardType
from uu.engine.actions import Action
from uu.engine.movetext import describe_action
from uu.engine.observation import Observation
from uu.engine.queries import STATIC_FILTERS, UNICORN_FILTERS

__all__ = ["Effect", "NeighOdds", "Reason", "Threat", "effect_of", "neigh_chance", "neigh_odds", "reason",
           "THUMB_RULES", "rule_of_thumb", "someone_neighs", "unseen_neighs"]

NOTABLE = 0.25  # a difference in mean Unicorns worth a sentence
WINS_OFTEN = 0.5  # share of simulated games won that makes "it wins" the reason

ReasonKind = Literal["only_move", "wins_now", "wins_often", "stops", "lets_through", "brings", "hits",
                     "adds_unicorn", "upgrade", "downgrade", "draws", "uses", "declines", "holds_back", "gains",
                     "chance"]


@dataclass
class NeighOdds:
    """Who may answer a card with a Neigh, and the chance that one of them holds one."""

    chance: float  # from the cards the viewer has not seen
    may: list[str] = field(default_factory=list)  # players who may answer and hold cards
    barred: list[tuple[str, str]] = field(default_factory=list)  # (player, the card that bars them)
    unanswerable: str | None = None  # the card that makes nobody able to answer (Yay, Super Neigh), if any


@dataclass
class Threat:
    """The card on top of the Neigh pile at a Neigh moment, and what it does if nobody stops it."""

    player: str  # who played it
    card: str
    verb: str | None = None  # the verb of its effect (destroy, steal, ...), None for a card that only enters
    target: str | None = None  # the card it aims at, when declared with the play
    target_owner: str | None = None
    into: str | None = None  # whose Stable it enters (Unicorns, Upgrades, Downgrades)
    mine: bool = False  # does it aim at the deciding player's card (or enter their Stable)?
    unicorn: bool = False  # is it a Unicorn card?


@dataclass
class Effect:
    """What one move does, from the card data and the position."""

    kind: str  # the action kind (play, draw, respond, pass, target, ...)
    move: str  # the move as the engine describes it (the table's move list)
    card: str | None = None
    card_type: str | None = None  # the type value (basic, magic, ...)
    card_text: str | None = None  # the card's effect in our words (the catalog's text)
    verb: str | None = None  # the verb of the card's effect (or of the decision, for a target choice)
    target: str | None = None  # the card or player it aims at
    target_owner: str | None = None
    target_owner_seat: int | None = None
    target_unicorn: bool = False  # the card aimed at is a Unicorn (one fewer for its owner)
    target_owner_unicorns: int = 0
    into: str | None = None  # whose Stable a played card enters
    into_self: bool = False
    brings: str | None = None  # a card of the player's hand that the card brings with it (Rainbow Unicorn)
    unicorns_after: int | None = None  # the player's Unicorns once the card is in, when it adds some
    threat: Threat | None = None  # at a Neigh moment
    odds: NeighOdds | None = None  # for a card that can be answered: who may Neigh it


@dataclass
class Reason:
    """The reason a player would give for a candidate, with its facts."""

    kind: ReasonKind
    effect: Effect
    player: str
    need: int  # Unicorns needed to win
    unicorns: int  # the player's Unicorns now
    leader: str | None = None  # the other player closest to winning
    leader_unicorns: int = 0
    leader_targeted: bool = False  # the move aims at the leader's card or Stable
    amount: float = 0.0  # Unicorns held back or gained, per simulated game, against the runner-up
    wins: int = 0
    games: int = 0
    answered: int = 0  # simulated games where another player answered the move with an Instant


# ---- Neigh odds ------------------------------------------------------------------------------------------

def _instant(seen: Observation, cid: int) -> bool:
    return seen.defs[cid].type is CardType.INSTANT


def _viewer(seen: Observation) -> int:
    if seen.viewer is None:
        raise ValueError("odds are a player's: give the observation of one seat, not the analyst's view")
    return seen.viewer


def unseen_neighs(seen: Observation) -> tuple[int, int]:
    """(Neigh and Super Neigh cards the viewer has not seen, cards the viewer cannot see). A hand kept face
    up (Nanny Cam) is seen."""
    _viewer(seen)
    boxed = set(seen.box)
    total = sum(1 for cid in range(len(seen.defs)) if _instant(seen, cid) and cid not in boxed)
    shown = sum(1 for cid in range(len(seen.defs)) if _instant(seen, cid) and cid not in boxed
                and seen.where(cid) is not None)
    hidden = seen.deck_size + sum(v.hand_size for v in seen.seats if v.hand is None)
    return max(total - shown, 0), hidden


def neigh_chance(seen: Observation, holder: int) -> float:
    """The chance, from what the viewer has seen, that `holder` has at least one Neigh or Super Neigh in hand."""
    hand = seen.seats[holder].hand
    if hand is not None:
        return float(any(_instant(seen, c) for c in hand))
    neighs, hidden = unseen_neighs(seen)
    size = seen.seats[holder].hand_size
    if hidden <= 0 or size == 0 or neighs == 0:
        return 0.0
    size = min(size, hidden)
    return 1.0 - comb(hidden - neighs, size) / comb(hidden, size)


def _works(seen: Observation, cid: int, seat: int) -> bool:
    """Does the text of Stable card `cid` work (a Unicorn's is switched off under Blinding Light)?"""
    return not (seen.defs[cid].is_unicorn and seen.seats[seat].blank)


def _bar(seen: Observation, p: int, static: str, value: str | None = None) -> str | None:
    """The name of the working card in p's Stable with `static` (holding `value`, for a list), if any."""
    for c in seen.seats[p].stable:
        v = seen.defs[c].static.get(static)
        if v and _works(seen, c, p) and (value is None or value in v):
            return seen.defs[c].name
    return None


def neigh_odds(seen: Observation, player: int, card: str) -> NeighOdds:
    """Who may answer `card` played by `player` with a Neigh (see the module docstring), and the chance, from
    what the viewer of `seen` has seen, that at least one of them holds one (hands treated as independent)."""
    _viewer(seen)
    d = next((x for x in seen.defs if x.name == card), None)
    if d is not None and d.static.get("unneighable"):
        return NeighOdds(0.0, unanswerable=card)
    if player in seen.plays_unneighable:
        return NeighOdds(0.0, unanswerable=_bar(seen, player, "owner_plays_unneighable") or "a card in the Stable")
    may: list[int] = []
    barred: list[tuple[str, str]] = []
    for v in seen.seats:
        p = v.seat
        if p == player or not v.hand_size:
            continue
        if p in seen.neigh_barred:
            barred.append((v.name, _bar(seen, p, "owner_cannot_play", "neigh") or "a card in the Stable"))
        else:
            may.append(p)
    chance = 1.0 - prod(1.0 - neigh_chance(seen, p) for p in may)
    return NeighOdds(chance, [seen.players[p] for p in may], barred)


def someone_neighs(seen: Observation) -> float:
    """The chance that a card the viewer plays now is answered by a player who may (see `neigh_odds`): for the
    coach's "someone may Neigh" when no card is named yet."""
    return neigh_odds(seen, _viewer(seen), "").chance


# ---- what a move does ------------------------------------------------------------------------------------

def _main_verb(effect: dict | None) -> str | None:
    ops = (effect or {}).get("ops") or []
    return ops[0].get("do") if ops else None


def _threat(seen: Observation, viewer: int) -> Threat | None:
    if not seen.pile:
        return None
    top = seen.pile[-1]
    d = seen.defs[top.cid]
    names = seen.players
    t = Threat(names[top.player], d.name, unicorn=d.is_unicorn)
    if top.into is not None:
        t.into = names[top.into]
        t.mine = top.into == viewer and d.type is CardType.DOWNGRADE
    t.verb = _main_verb(d.play) if d.type is CardType.MAGIC else (_main_verb(d.enter) if d.enter else None)
    for group in top.declared:
        for cid in group:
            at = seen.where(cid) if 0 <= cid < len(seen.defs) else None
            if at is not None and at[0] == "stable":
                t.target, t.target_owner = seen.defs[cid].name, names[at[1]]
                t.mine = t.mine or at[1] == viewer
                break
        if t.target:
            break
    return t


def _fits(seen: Observation, cid: int, what: str | None) -> bool:
    """`Observation.matches` for a card in the viewer's hand: the printed card decides (Pandas are only ever
    made in a Stable)."""
    if what is None or what == "card":
        return True
    d = seen.defs[cid]
    if what in UNICORN_FILTERS:
        sub = UNICORN_FILTERS[what]
        return d.is_unicorn and (sub is None or d.type is sub)
    if what not in STATIC_FILTERS:
        raise ValueError(f"unknown card filter {what!r}")
    return what in d.kinds


def effect_of(seen: Observation, action: Action, player: int) -> Effect:
    """What `action` of the pending decision does for `player`, from the card data and what `seen` shows."""
    names = seen.players
    e = Effect(action.kind, describe_action(action, list(names)), card=action.card)
    d = next((x for x in seen.defs if x.name == action.card), None) if action.card else None
    if d is not None:
        e.card_type, e.card_text = d.type.value, d.text
    if action.target:
        t = action.target[0]
        e.target = t.card if t.card is not None else (names[t.player] if t.player is not None else None)
        seat = t.owner if t.owner is not None else t.player
        if seat is not None:
            e.target_owner, e.target_owner_seat = names[seat], seat
            e.target_owner_unicorns = seen.seats[seat].unicorns
        if t.cid is not None and t.zone == "stable" and 0 <= t.cid < len(seen.defs):
            at = seen.where(t.cid)
            e.target_unicorn = seen.defs[t.cid].is_unicorn and (
                at is None or at[0] != "stable" or t.cid in seen.counted_unicorns)  # Pandas only in a Stable
    if action.kind in ("respond", "pass"):
        e.threat = _threat(seen, player)
        if action.kind == "respond" and action.card:
            e.odds = neigh_odds(seen, player, action.card)
        return e
    if action.kind == "target" and seen.decision is not None:
        e.verb = seen.decision.verb
        return e
    if action.kind in ("use", "decline") and d is not None:  # a "may" effect of a card of the player's
        return e
    if action.kind != "play" or d is None:
        return e
    if action.into is not None:
        e.into, e.into_self = names[action.into], action.into == player
    if d.type is CardType.MAGIC:
        e.verb = _main_verb(d.play)
    elif d.enter:
        e.verb = _main_verb(d.enter)
    if d.is_unicorn and e.into_self:
        value = int(d.static.get("unicorn_value", 1))
        e.unicorns_after = seen.seats[player].unicorns + value
        ops = (d.enter or {}).get("ops") or []
        bring = next((op for op in ops if op.get("do") == "bring" and op.get("from") == "hand"), None)
        if bring is not None:
            mine = [c for c in seen.seats[player].hand or () if c != action.cid and _fits(seen, c, bring.get("what"))]
            if mine:
                e.brings = seen.defs[mine[0]].name
                e.unicorns_after += 1
    e.odds = neigh_odds(seen, player, d.name)
    return e


# ---- the reason ------------------------------------------------------------------------------------------

def reason(seen: Observation, found: Search, cand: Candidate) -> Reason:
    """The strongest reason for `cand` (see the module docstring), from what the deciding player's observation
    `seen` shows; `found` gives the runner-up to compare."""
    me = found.player
    if seen.viewer != me:
        raise ValueError("a reason is the deciding player's: give the observation of their seat")
    e = effect_of(seen, cand.action, me)
    others = [p for p in range(len(seen.seats)) if p != me]
    leader = max(others, key=lambda p: seen.seats[p].unicorns) if others else None
    r = Reason("chance", e, seen.players[me], seen.threshold, seen.seats[me].unicorns, wins=cand.wins,
               games=cand.playouts, answered=cand.answered)
    if leader is not None:
        r.leader, r.leader_unicorns = seen.players[leader], seen.seats[leader].unicorns
        r.leader_targeted = e.target_owner_seat == leader or cand.action.into == leader
    d = seen.decision
    if d is not None and len(d.actions) == 1:
        r.kind = "only_move"
        return r
    if e.unicorns_after is not None and e.unicorns_after >= r.need and cand.wins * 2 >= max(cand.playouts, 1):
        r.kind = "wins_now"
        return r
    if cand.playouts and cand.wins >= WINS_OFTEN * cand.playouts:
        r.kind = "wins_often"
        return r
    if e.kind == "respond" and e.threat is not None:
        r.kind = "stops"
        return r
    if e.kind == "pass" and e.threat is not None:
        r.kind = "lets_through"
        return r
    if e.brings:
        r.kind = "brings"
        return r
    if e.verb in ("destroy", "steal", "return", "move", "pull", "look_take", "swap_hands", "skip_turn") and \
            e.target_owner_seat is not None and e.target_owner_seat != me:
        r.kind = "hits"
        return r
    if e.card_type == "downgrade" and e.into is not None and not e.into_self:
        r.kind = "downgrade"
        return r
    if e.unicorns_after is not None:
        r.kind = "adds_unicorn"
        return r
    if e.card_type == "upgrade" and e.into_self:
        r.kind = "upgrade"
        return r
    if e.kind == "use" and e.card_text:
        r.kind = "uses"
        return r
    alt = next((c for c in found.candidates if c is not cand and c.playouts), None)
    if alt is not None and cand.playouts and leader is not None:
        held_back = alt.mean_gain(leader) - cand.mean_gain(leader)
        gained = cand.mean_gain(me) - alt.mean_gain(me)
        if held_back >= NOTABLE and held_back >= gained:
            r.kind, r.amount = "holds_back", held_back
            return r
        if gained >= NOTABLE:
            r.kind, r.amount = "gains", gained
            return r
    if e.kind == "draw":
        r.kind = "draws"
    elif e.kind == "decline" and e.card:
        r.kind = "declines"
    return r


Thumb = Literal["stop_harm", "keep_neigh", "use_effect", "unicorn_first", "leader_first", "unanswerable_first",
                "keep_options"]


def _stops_harm(r: Reason) -> bool:
    return r.effect.kind == "respond" and r.effect.threat is not None and r.effect.threat.mine


def _keeps_neigh(r: Reason) -> bool:
    return r.effect.kind == "pass" and not (r.effect.threat is not None and r.effect.threat.mine)


def _unanswerable(r: Reason) -> bool:
    return r.effect.kind in ("play", "draw") and (r.effect.odds is None or r.effect.odds.chance == 0.0)


# In order: the first rule that some of the moves follow and some do not picks among them. Each says which
# move it prefers, so the hint's headline is always the move its rule of thumb points at.
THUMB_RULES: tuple[tuple[Thumb, Callable[[Reason], bool]], ...] = (
    ("stop_harm", _stops_harm),
    ("keep_neigh", _keeps_neigh),
    ("use_effect", lambda r: r.effect.kind == "use"),
    ("unicorn_first", lambda r: r.effect.unicorns_after is not None),
    ("leader_first", lambda r: r.leader_targeted),
    ("unanswerable_first", _unanswerable),
    ("keep_options", lambda r: r.effect.kind in ("draw", "pass", "decline")),
)


def rule_of_thumb(reasons: list[Reason]) -> tuple[Thumb, int] | None:
    """Among moves the search calls about as good (`reasons`, best estimate first): the first rule of thumb
    that tells them apart and the index of the move it points at (the best estimate among those it prefers),
    or None when no rule tells them apart."""
    for thumb, prefers in THUMB_RULES:
        yes = [i for i, r in enumerate(reasons) if prefers(r)]
        if yes and len(yes) < len(reasons):
            return thumb, yes[0]
    return None
