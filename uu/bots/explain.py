"""Why a move is good, as data: what it does (read from the card data and the position) and what the search found.

The hint (`uu.bots.hint`) and the review (`uu.tutor.game_review`) hand these facts to the words layer
(`uu.words.hint_text`), which turns them into a player's sentences; nothing here is a sentence, so the bots never
depend on how the tutor speaks.

- `effect_of(game, action)`: what a move does from the cards themselves: the verb of the card's effect
  (`uu.cards.verbs`: destroy, steal, bring, ...), what it aims at and whose it is, the Unicorns it adds, and
  at a Neigh moment what the card on the pile would do if it resolved (the `Threat`).
- `neigh_odds(game, viewer, player, card)`: how likely another player is to answer a card with a Neigh,
  counting only players who may (the engine's queries: a Stable that makes its owner's cards unanswerable,
  like Yay; a card that bars its owner from Neighs, like Slowdown or Ginormous Unicorn; a card that cannot be
  Neigh'd itself, like Super Neigh) and only the cards `viewer` has not seen (never the hidden cards).
- `reason(game, found, cand)`: the strongest reason for a candidate, in order: the only move, it wins, at a
  Neigh moment what answering or passing does, the card's effect, then what the simulated games found.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from math import comb, prod
from typing import Literal

from uu.bots.search import Candidate, Search
from uu.cards.schema import CardType
from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game

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

def _instant(game: Game, cid: int) -> bool:
    return game.state.defs[cid].type is CardType.INSTANT


def unseen_neighs(game: Game, viewer: int) -> tuple[int, int]:
    """(Neigh and Super Neigh cards the viewer has not seen, cards the viewer cannot see). A hand kept face
    up (Nanny Cam) is seen."""
    s = game.state
    hidden_seats = [p for p in range(s.n) if p != viewer and not q.hand_visible(s, p)]
    total = sum(1 for cid in range(len(s.defs)) if _instant(game, cid) and s.zone_of[cid] != "box")
    seen = sum(1 for cid in range(len(s.defs)) if _instant(game, cid) and s.zone_of[cid] not in ("box", "deck")
               and not (s.zone_of[cid] == "hand" and s.owner_of[cid] in hidden_seats))
    hidden = len(s.deck) + sum(len(s.hands[p]) for p in hidden_seats)
    return max(total - seen, 0), hidden


def neigh_chance(game: Game, viewer: int, holder: int) -> float:
    """The chance, from what `viewer` has seen, that `holder` has at least one Neigh or Super Neigh in hand."""
    s = game.state
    if q.hand_visible(s, holder) or holder == viewer:
        return float(any(_instant(game, c) for c in s.hands[holder]))
    neighs, hidden = unseen_neighs(game, viewer)
    hand = len(s.hands[holder])
    if hidden <= 0 or hand == 0 or neighs == 0:
        return 0.0
    hand = min(hand, hidden)
    return 1.0 - comb(hidden - neighs, hand) / comb(hidden, hand)


def _bar(game: Game, p: int, static: str, value: str | None = None) -> str | None:
    """The name of the working card in p's Stable with `static` (holding `value`, for a list), if any."""
    s = game.state
    for c in s.stables[p]:
        v = s.defs[c].static.get(static)
        if v and q.text_works(s, c) and (value is None or value in v):
            return s.defs[c].name
    return None


def neigh_odds(game: Game, viewer: int, player: int, card: str) -> NeighOdds:
    """Who may answer `card` played by `player` with a Neigh (see the module docstring), and the chance, from
    what `viewer` has seen, that at least one of them holds one (hands treated as independent)."""
    s = game.state
    d = next((x for x in s.defs if x.name == card), None)
    if d is not None and d.static.get("unneighable"):
        return NeighOdds(0.0, unanswerable=card)
    if q.plays_unneighable(s, player):
        return NeighOdds(0.0, unanswerable=_bar(game, player, "owner_plays_unneighable") or "a card in the Stable")
    may: list[int] = []
    barred: list[tuple[str, str]] = []
    for p in range(s.n):
        if p == player or not s.hands[p]:
            continue
        if q.cannot_play(s, p, "neigh"):
            barred.append((s.players[p], _bar(game, p, "owner_cannot_play", "neigh") or "a card in the Stable"))
        else:
            may.append(p)
    chance = 1.0 - prod(1.0 - neigh_chance(game, viewer, p) for p in may)
    return NeighOdds(chance, [s.players[p] for p in may], barred)


def someone_neighs(game: Game, viewer: int) -> float:
    """The chance that a card `viewer` plays now is answered by a player who may (see `neigh_odds`): for the
    coach's "someone may Neigh" when no card is named yet."""
    return neigh_odds(game, viewer, viewer, "").chance


# ---- what a move does ------------------------------------------------------------------------------------

def _main_verb(effect: dict | None) -> str | None:
    ops = (effect or {}).get("ops") or []
    return ops[0].get("do") if ops else None


def _threat(game: Game, viewer: int) -> Threat | None:
    s = game.state
    if not s.pile:
        return None
    top = s.pile[-1]
    d = s.defs[top["cid"]]
    names = s.players
    t = Threat(names[top["p"]], d.name, unicorn=d.is_unicorn)
    into = top.get("into")
    if into is not None:
        t.into = names[into]
        t.mine = into == viewer and d.type is CardType.DOWNGRADE
    t.verb = _main_verb(d.play) if d.type is CardType.MAGIC else (_main_verb(d.enter) if d.enter else None)
    for group in top.get("decl") or []:
        for cid in group:
            if 0 <= cid < len(s.defs) and s.zone_of[cid] == "stable":
                t.target, t.target_owner = s.defs[cid].name, names[s.owner_of[cid]]
                t.mine = t.mine or s.owner_of[cid] == viewer
                break
        if t.target:
            break
    return t


def effect_of(game: Game, action: Action, player: int) -> Effect:
    """What `action` of the pending decision does for `player`, from the card data and the position."""
    s = game.state
    names = s.players
    e = Effect(action.kind, game.describe(action), card=action.card)
    d = next((x for x in s.defs if x.name == action.card), None) if action.card else None
    if d is not None:
        e.card_type, e.card_text = d.type.value, d.text
    if action.target:
        t = action.target[0]
        e.target = t.card if t.card is not None else (names[t.player] if t.player is not None else None)
        seat = t.owner if t.owner is not None else t.player
        if seat is not None:
            e.target_owner, e.target_owner_seat = names[seat], seat
            e.target_owner_unicorns = q.unicorns(s, seat)
        if t.cid is not None and t.zone == "stable" and 0 <= t.cid < len(s.defs):
            e.target_unicorn = q.is_unicorn(s, t.cid)
    if action.kind in ("respond", "pass"):
        e.threat = _threat(game, player)
        if action.kind == "respond" and action.card:
            e.odds = neigh_odds(game, player, player, action.card)
        return e
    if action.kind == "target" and game.pending is not None:
        e.verb = game.pending.verb
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
        e.unicorns_after = q.unicorns(s, player) + value
        ops = (d.enter or {}).get("ops") or []
        bring = next((op for op in ops if op.get("do") == "bring" and op.get("from") == "hand"), None)
        if bring is not None:
            mine = [c for c in s.hands[player] if c != action.cid and q.matches(s, c, bring.get("what"))]
            if mine:
                e.brings = s.defs[mine[0]].name
                e.unicorns_after += 1
    e.odds = neigh_odds(game, player, player, d.name)
    return e


# ---- the reason ------------------------------------------------------------------------------------------

def reason(game: Game, found: Search, cand: Candidate) -> Reason:
    """The strongest reason for `cand` (see the module docstring); `found` gives the runner-up to compare."""
    s = game.state
    me = found.player
    e = effect_of(game, cand.action, me)
    others = [p for p in range(s.n) if p != me]
    leader = max(others, key=lambda p: q.unicorns(s, p)) if others else None
    r = Reason("chance", e, s.players[me], s.threshold(), q.unicorns(s, me), wins=cand.wins, games=cand.playouts,
               answered=cand.answered)
    if leader is not None:
        r.leader, r.leader_unicorns = s.players[leader], q.unicorns(s, leader)
        r.leader_targeted = e.target_owner_seat == leader or cand.action.into == leader
    d = game.pending
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
