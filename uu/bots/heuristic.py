"""A rule-of-thumb bot that is clearly stronger than the random one.

`HeuristicBot(seed).choose(game)` scores every legal action of the pending decision with a *static* estimate
(no lookahead, so no hidden information is ever simulated) and plays the best one; ties are broken with the
bot's own seeded RNG, so the same seed and the same position give the same move.

What it may look at (docs/architecture.md, "Hidden information"): only its seat's observation
(`Game.observe(seat)`, uu/engine/observation.py) — its own hand, every Stable, the discard pile, the Nursery,
the Neigh pile (with declared targets), hand *sizes*, the deck *size*, and its own decision's legal actions.
It never touches `game.state`, so it cannot read another player's hand or the deck order
(tests/test_observation.py checks that its choice is unchanged when the hidden cards are dealt anew).

How it scores (a card-by-card value table, folded into one "utility" number from the bot's point of view):

* Every card in a Stable has a value for that Stable's owner (`stable_value`): a Unicorn about 10 per
  Unicorn it counts as, plus a little for a useful effect; Upgrades positive, Downgrades negative
  (Pandamonium grows with the Unicorns it cancels).
* An action changes the owners' values by some deltas (`Delta`). Its utility for the bot is
  `own delta - sum(threat(o) * delta of opponent o)`, where `threat` grows with an opponent's Unicorn
  count and jumps when they are one or two Unicorns away from winning. Reaching the winning count itself is
  worth +1000 (and an opponent reaching it -1000).
* So it plays Unicorns into its own Stable (and wins when it can), destroys and steals from the leader,
  puts Downgrades into the leader's Stable and Upgrades into its own, never aims harmful effects at itself,
  sacrifices Downgrades and Flying Unicorns (they come back) first, and discards its least useful cards.
* Neighs: it answers the top card of the pile when letting it resolve (or stopping it) changes its utility
  by more than what the Neigh is worth in hand (less when it holds several); a play that would make an
  opponent win is always answered.
"""

from __future__ import annotations

import random

from uu.bots.bot import Bot
from uu.cards.schema import CardType
from uu.cards.verbs import VERBS
from uu.engine.actions import Action, Decision, Target
from uu.engine.game import Game
from uu.engine.observation import Observation, PileSeen
from uu.engine.targets import declarable_static, is_player_choice

WIN = 1000.0

# Value in hand (what keeping the card is worth); unlisted cards use the type default below.
HAND_VALUE = {
    "Neigh": 8.0, "Super Neigh": 10.0,
    "Unicorn Poison": 7.5, "Two-For-One": 6.5, "Change of Luck": 6.5, "Kiss of Life": 6.0, "Good Deal": 5.5,
    "Back Kick": 5.0, "Targeted Destruction": 4.0, "Blatant Thievery": 4.5, "Re-Target": 4.0,
    "Unicorn Swap": 3.5, "Unfair Bargain": 3.0, "Shake Up": 3.0, "Glitter Tornado": 3.5,
    "Mystical Vortex": 1.5, "Reset Button": 2.0,
    "Ginormous Unicorn": 8.0, "Mother Goose Unicorn": 8.0, "Seductive Unicorn": 8.0,
    "Extremely Destructive Unicorn": 7.0,
    "Pandamonium": 5.5, "Sadistic Ritual": 5.0,
}
TYPE_HAND_VALUE = {
    CardType.BASIC: 6.0, CardType.MAGICAL: 7.0, CardType.BABY: 6.0, CardType.UPGRADE: 4.5,
    CardType.DOWNGRADE: 4.0, CardType.MAGIC: 4.0, CardType.INSTANT: 8.0,
}
# Extra value (for the owner) of a card's ongoing or enter effect, on top of its Unicorn count.
UNICORN_BONUS = {
    "Rhinocorn": 4.0, "Magical Kittencorn": 2.0, "Stabby the Unicorn": 2.0, "Queen Bee Unicorn": 3.0,
    "Black Knight Unicorn": 2.0, "Unicorn Phoenix": 3.0, "Greedy Flying Unicorn": 1.0,
    "Annoying Flying Unicorn": 1.0, "Magical Flying Unicorn": 1.0, "Swift Flying Unicorn": 1.0,
    "Majestic Flying Unicorn": 1.0, "Ginormous Unicorn": -2.0,
}
ENTER_BONUS = {  # one-off value of the enter effect for the owner of the Stable it enters
    "Rainbow Unicorn": 3.0, "Chainsaw Unicorn": 2.0, "Americorn": 3.0, "Seductive Unicorn": 8.0,
    "Greedy Flying Unicorn": 4.0, "Annoying Flying Unicorn": 2.0, "Magical Flying Unicorn": 2.0,
    "Swift Flying Unicorn": 2.0, "Majestic Flying Unicorn": 2.0, "Unicorn on the Cob": 4.0,
    "Shark With a Horn": 3.0, "Shabby the Narwhal": 2.0, "Alluring Narwhal": 2.0, "Mermaid Unicorn": 3.0,
    "Classy Narwhal": 2.0, "The Great Narwhal": 2.0, "Unicorn Oracle": 4.0, "Necromancer Unicorn": 1.0,
    "Dark Angel Unicorn": 1.0,
}
UPGRADE_VALUE = {
    "Glitter Bomb": 5.0, "Yay": 4.0, "Rainbow Aura": 5.0, "Double Dutch": 6.0, "Claw Machine": 3.0,
    "Stable Artillery": 6.0, "Rainbow Lasso": 5.0, "Caffeine Overload": 3.0,
}
DOWNGRADE_VALUE = {
    "Barbed Wire": -4.0, "Sadistic Ritual": -9.0, "Slowdown": -3.0, "Nanny Cam": -2.0,
    "Broken Stable": -2.5, "Blinding Light": -3.0, "Tiny Stable": -3.0,
}
FLYING = frozenset({"Greedy Flying Unicorn", "Annoying Flying Unicorn", "Magical Flying Unicorn",
                    "Swift Flying Unicorn", "Majestic Flying Unicorn"})


class Delta(dict):
    """Value change per player (missing players: 0) plus Unicorn-count changes in `.unicorns`."""

    def __init__(self) -> None:
        super().__init__()
        self.unicorns: dict[int, int] = {}

    def add(self, p: int, v: float) -> None:
        self[p] = self.get(p, 0.0) + v

    def add_u(self, p: int, n: int) -> None:
        self.unicorns[p] = self.unicorns.get(p, 0) + n


class _View:
    """One seat's observation with the bot's own derived numbers: everything the scoring reads goes through
    here."""

    def __init__(self, seen: Observation, me: int):
        self.seen = seen
        self.me = me
        self.n = len(seen.players)
        self.defs = seen.defs
        self.need = seen.threshold
        self.u = [sv.unicorns for sv in seen.seats]
        self.hand_sizes = [sv.hand_size for sv in seen.seats]
        self.my_hand = list(seen.seats[me].hand or ())
        self.threat = [self._threat(p) for p in range(self.n)]
        self.pandas = [sv.pandas for sv in seen.seats]
        self.blank = [sv.blank for sv in seen.seats]
        self._sv: dict[tuple[int, int], float] = {}

    # ---- reading -------------------------------------------------------------------------------------
    def name(self, cid: int) -> str:
        return self.defs[cid].name

    def stable(self, p: int) -> tuple[int, ...]:
        return self.seen.seats[p].stable

    def _threat(self, p: int) -> float:
        if p == self.me:
            return 0.0
        u, need = self.u[p], self.need
        w = 0.35 + 0.1 * u
        others = [self.u[o] for o in range(self.n) if o != p]
        if u > max(others):
            w += 0.25
        if u >= need - 2:
            w += 1.0
        if u >= need - 1:
            w += 3.0
        return w

    def instants_in_hand(self) -> int:
        return sum(1 for c in self.my_hand if self.defs[c].type is CardType.INSTANT)

    # ---- values --------------------------------------------------------------------------------------
    def unicorn_count(self, cid: int, p: int) -> int:
        """Unicorns this card would count as in p's Stable."""
        d = self.defs[cid]
        if not d.is_unicorn or self.pandas[p]:
            return 0
        v = d.static.get("unicorn_value")
        if v is not None and not self.blank[p]:
            return int(v)
        return 1

    def stable_value(self, cid: int, p: int) -> float:
        """What card `cid` is worth to player p while in p's Stable (negative for Downgrades)."""
        key = (cid, p)
        v = self._sv.get(key)
        if v is None:
            v = self._sv[key] = self._stable_value(cid, p)
        return v

    def _stable_value(self, cid: int, p: int) -> float:
        d = self.defs[cid]
        t = d.type
        if d.is_unicorn:
            if self.pandas[p]:
                return 3.0
            v = 10.0 * self.unicorn_count(cid, p)
            if not self.blank[p]:
                v += UNICORN_BONUS.get(d.name, 1.0 if t is CardType.MAGICAL else 0.0)
            return v
        if t is CardType.UPGRADE:
            return UPGRADE_VALUE.get(d.name, 4.0)
        if t is CardType.DOWNGRADE:
            if d.name == "Pandamonium":
                return -(4.0 + 8.0 * self.u[p])
            if d.name == "Tiny Stable":
                return -(3.0 + (8.0 if self.u[p] >= 5 else 0.0))
            return DOWNGRADE_VALUE.get(d.name, -3.0)
        return 0.0

    def loss_if_removed(self, cid: int, p: int, how: str) -> float:
        """Value p loses when `cid` leaves p's Stable by `how` (destroy, sacrifice, return, steal)."""
        v = self.stable_value(cid, p)
        name = self.name(cid)
        if how in ("destroy", "sacrifice"):
            if name in FLYING:
                v -= 8.0  # it goes back to the owner's hand
            elif name == "Unicorn Phoenix" and self.hand_sizes[p] > 0:
                v = 3.0  # the owner may DISCARD instead
        elif how == "return":
            if self.defs[cid].type is not CardType.BABY:
                v *= 0.6  # back in hand: the owner can play it again
        return v

    def hand_value(self, cid: int) -> float:
        d = self.defs[cid]
        v = HAND_VALUE.get(d.name, TYPE_HAND_VALUE.get(d.type, 3.0))
        if d.type is CardType.INSTANT and self.instants_in_hand() <= 1:
            v += 2.0
        if d.type is CardType.BASIC and any(p != self.me for p in self.seen.queen_bees):
            v = 2.0
        if d.name == "Kiss of Life" and not any(self.defs[c].is_unicorn for c in self.seen.discard):
            v = 2.0
        return v

    # ---- utility -------------------------------------------------------------------------------------
    def utility(self, delta: Delta) -> float:
        me = self.me
        util = delta.get(me, 0.0)
        for p, v in delta.items():
            if p != me:
                util -= self.threat[p] * v
        for p, du in delta.unicorns.items():
            if du > 0 and self.u[p] < self.need <= self.u[p] + du:
                util += WIN if p == me else -WIN
        return util


# ---- what actions do (deltas, as seen by `actor`) ---------------------------------------------------------

def _cid(a: Action) -> int:
    """The card of an action that names one (discard, sacrifice, play)."""
    assert a.cid is not None
    return a.cid


def _card_targets(a: Action) -> list:
    return [t for t in a.target if t.card is not None and t.cid is not None]


def _player_targets(a: Action) -> list[int]:
    return [t.player for t in a.target if t.player is not None]


def _best_loss(v: _View, actor: int, what: str, how: str) -> tuple[float, int | None, int | None]:
    """Most threat-weighted loss `how` could inflict on another player's Stable card matching `what`."""
    best, bc, bp = 0.0, None, None
    for p in range(v.n):
        if p == actor:
            continue
        for c in v.stable(p):
            if not v.seen.matches(c, what):
                continue
            if how == "destroy" and c not in v.seen.destroyable:
                continue
            loss = v.loss_if_removed(c, p, how) * (v.threat[p] if actor == v.me else 1.0)
            if loss > best:
                best, bc, bp = loss, c, p
    return best, bc, bp


def _cheapest_own(v: _View, p: int, what: str = "card") -> float:
    vals = [v.loss_if_removed(c, p, "sacrifice") for c in v.stable(p) if v.seen.matches(c, what)]
    return min(vals) if vals else 0.0


def permanent_delta(v: _View, cid: int, into: int) -> Delta:
    """A Unicorn, Upgrade or Downgrade card entering `into`'s Stable."""
    d = v.defs[cid]
    out = Delta()
    out.add(into, v.stable_value(cid, into))
    if d.is_unicorn:
        out.add_u(into, v.unicorn_count(cid, into))
        if not v.blank[into]:
            out.add(into, ENTER_BONUS.get(d.name, 0.0))
            if d.name == "Extremely Destructive Unicorn":
                for p in range(v.n):
                    if any(v.defs[c].is_unicorn for c in v.stable(p)) or p == into:
                        out.add(p, -min([v.loss_if_removed(c, p, "sacrifice") for c in v.stable(p)
                                         if v.defs[c].is_unicorn] + [9.0]))
            elif d.name == "Llamacorn":
                for p in range(v.n):
                    out.add(p, -2.0 if v.hand_sizes[p] else 0.0)
            elif d.name == "Mother Goose Unicorn" and v.seen.nursery:
                out.add(into, 10.0)
                out.add_u(into, 0 if v.pandas[into] else 1)
            elif d.name == "Narwhal Torpedo":
                out.add(into, -sum(v.stable_value(c, into) for c in v.stable(into)
                                   if v.defs[c].type is CardType.DOWNGRADE))
    elif d.name == "Pandamonium":
        out.add_u(into, -v.u[into])
    return out


def magic_delta(v: _View, a: Action, actor: int) -> Delta:
    """A Magic card played by `actor` with the declared targets of `a` (if any)."""
    name = a.card
    out = Delta()
    cards = _card_targets(a)
    players = _player_targets(a)
    if name == "Unicorn Poison":
        for t in cards:
            out.add(t.owner, -v.loss_if_removed(t.cid, t.owner, "destroy"))
            out.add_u(t.owner, -v.unicorn_count(t.cid, t.owner))
        if not cards:  # targets chosen on resolution (neigh-first): assume the best one
            _, c, p = _best_loss(v, actor, "unicorn", "destroy")
            if c is not None and p is not None:
                out.add(p, -v.loss_if_removed(c, p, "destroy"))
                out.add_u(p, -v.unicorn_count(c, p))
    elif name == "Back Kick":
        for t in cards:
            out.add(t.owner, -v.loss_if_removed(t.cid, t.owner, "return") - 2.0)
    elif name == "Two-For-One":
        out.add(actor, -max(_cheapest_own(v, actor), -6.0))
        for t in cards:
            out.add(t.owner, -v.loss_if_removed(t.cid, t.owner, "destroy"))
            out.add_u(t.owner, -v.unicorn_count(t.cid, t.owner))
    elif name == "Unicorn Swap":
        if cards and players:
            mine, x = cards[0], players[0]
            mv = v.stable_value(mine.cid, actor)
            best = max([v.stable_value(c, x) for c in v.stable(x) if v.defs[c].is_unicorn] + [mv])
            gain = best - mv
            out.add(actor, gain)
            out.add(x, -gain)
    elif name == "Re-Target":
        if cards and players:
            t, x = cards[0], players[0]
            out.add(t.owner, -v.stable_value(t.cid, t.owner))
            out.add(x, v.stable_value(t.cid, x))
            if v.name(t.cid) == "Pandamonium":
                out.add_u(t.owner, v.u[t.owner])
    elif name == "Unfair Bargain":
        for x in players:
            gain = 2.5 * (v.hand_sizes[x] - (v.hand_sizes[actor] - 1))
            out.add(actor, gain)
            out.add(x, -gain)
    elif name == "Blatant Thievery":
        for x in players:
            out.add(actor, 5.0 if v.hand_sizes[x] else 0.0)
            out.add(x, -5.0 if v.hand_sizes[x] else 0.0)
    elif name == "Change of Luck":
        out.add(actor, 10.0)
    elif name == "Good Deal":
        out.add(actor, 6.0)
    elif name == "Shake Up":
        out.add(actor, 2.5 * (5 - (v.hand_sizes[actor] - 1)))
    elif name == "Kiss of Life":
        vals = [(v.stable_value(c, actor), c) for c in v.seen.discard if v.defs[c].is_unicorn]
        if vals:
            best, c = max(vals)
            out.add(actor, best)
            out.add_u(actor, v.unicorn_count(c, actor))
    elif name == "Glitter Tornado":
        for p in range(v.n):
            losses = [v.loss_if_removed(c, p, "return") for c in v.stable(p)]
            if losses:
                out.add(p, -(min(losses) if p == actor else max(losses)))
    elif name == "Mystical Vortex":
        for p in range(v.n):
            out.add(p, -2.0 if v.hand_sizes[p] else 0.0)
    elif name == "Reset Button":
        for p in range(v.n):
            out.add(p, -sum(v.stable_value(c, p) for c in v.stable(p)
                            if v.defs[c].type in (CardType.UPGRADE, CardType.DOWNGRADE)))
    elif name == "Targeted Destruction":
        loss, c, p = _best_loss(v, actor, "upgrade", "destroy")
        own = -_cheapest_own(v, actor, "downgrade")  # benefit of dropping my worst Downgrade
        if own >= loss or c is None or p is None:
            out.add(actor, max(own, 0.0))
        else:
            out.add(p, -v.loss_if_removed(c, p, "destroy"))
    else:
        out.add(actor, 2.0)
    return out


def play_delta(v: _View, a: Action, actor: int) -> Delta:
    d = v.defs[_cid(a)]
    if d.type is CardType.MAGIC:
        return magic_delta(v, a, actor)
    if a.into is None:
        return Delta()
    return permanent_delta(v, _cid(a), a.into)


# ---- the bot ---------------------------------------------------------------------------------------------

class HeuristicBot(Bot):
    """Scores each legal action with a static, public-information estimate (see the module docstring) and
    plays the best; ties broken by its seeded RNG. Same `.choose(game)` and `.decide(observation)` as
    `RandomBot`."""

    def __init__(self, seed: int = 0):
        self.rng = random.Random(seed)

    def decide(self, seen: Observation) -> Action:
        """The move for the viewer's own decision in `seen`, its seat's observation (OpenSpiel's bots are given
        their seat's information state): the game itself is out of reach, so no hidden card can be read."""
        d = seen.own_decision()
        if len(d.actions) == 1:
            return d.actions[0]
        scores = self.scores(_View(seen, d.player), d)
        best = max(scores)
        ties = [a for a, sc in zip(d.actions, scores) if sc >= best - 1e-9]
        return ties[0] if len(ties) == 1 else self.rng.choice(ties)

    def score_actions(self, game: Game) -> list[tuple[Action, float]]:
        """Every legal action with its score (for explanations and tests)."""
        d = game.pending
        if d is None:
            return []
        return self.score_seen(game.observe(d.player))

    def score_seen(self, seen: Observation) -> list[tuple[Action, float]]:
        """Every legal action of the viewer's own decision in `seen` with its score (none without one)."""
        d = seen.decision
        if d is None or seen.viewer is None:
            return []
        return list(zip(d.actions, self.scores(_View(seen, seen.viewer), d)))

    # ---- per decision kind ---------------------------------------------------------------------------
    def scores(self, v: _View, d: Decision) -> list[float]:
        kind = d.kind
        if kind == "action":
            return [self._action(v, a) for a in d.actions]
        if kind == "respond":
            return self._respond(v, d)
        if kind == "discard":
            return [-v.hand_value(_cid(a)) for a in d.actions]
        if kind == "sacrifice":
            return [-v.loss_if_removed(_cid(a), v.me, "sacrifice") for a in d.actions]
        if kind == "target":
            verb = d.verb or "destroy"  # every target choice names its verb; "destroy" is the cautious reading
            return [self._target(v, d, verb, a) for a in d.actions]
        if kind == "use":
            return [self._use(v, d, a) for a in d.actions]
        if kind == "choose":
            return [self._choose(v, a) for a in d.actions]
        return [0.0] * len(d.actions)  # baby, order: any will do

    def _action(self, v: _View, a: Action) -> float:
        if a.kind == "draw":
            if v.hand_sizes[v.me] >= v.seen.seats[v.me].hand_limit:
                return 1.0
            return 3.5
        util = v.utility(play_delta(v, a, v.me))
        # playing a card spends it: keep the good ones unless the play is worth it
        return util - 0.25 * v.hand_value(_cid(a))

    def _respond(self, v: _View, d: Decision) -> list[float]:
        pile = v.seen.pile
        orig = pile[0]
        if orig.player == v.me:
            util = v.utility(play_delta(v, _pile_action(v, orig), v.me))
            util = max(util, 4.0)  # I chose to play it: it is worth something to me
        else:
            util = v.utility(play_delta(v, _pile_action(v, orig), orig.player))
        resolves = (len(pile) - 1) % 2 == 0
        gain = -util if resolves else util  # what flipping the outcome is worth to me
        many = v.instants_in_hand() >= 2
        out = []
        for a in d.actions:
            if a.kind == "pass":
                out.append(0.0)
                continue
            cost = v.hand_value(_cid(a)) * (0.6 if many else 1.0)
            if a.card == "Super Neigh" and not many:
                cost += 2.0
            out.append(gain - cost)
        return out

    def _target(self, v: _View, d: Decision, verb: str, a: Action) -> float:
        me = v.me
        t = a.target[0] if a.target else None
        if t is None:
            return 0.0
        outcome = VERBS[verb].outcome if verb in VERBS else "none"  # what the verb does to the card it picks
        if t.player is not None:
            p = t.player
            if verb == "swap_hands":
                return 2.5 * (v.hand_sizes[p] - v.hand_sizes[me])
            if p == me:
                return -5.0
            return v.threat[p] * 10.0 + 0.1 * v.hand_sizes[p]
        cid = t.cid
        assert cid is not None  # a target that is not a player is a card
        if t.zone == "stable" and t.owner is not None:
            o = t.owner
            if outcome == "removes":
                loss = v.loss_if_removed(cid, o, verb)
                return -loss if o == me else v.threat[o] * loss + (WIN / 10 if v.u[o] >= v.need - 1 else 0)
            # steal only: Unicorn Swap's steal_after_move was never scored here, and scoring it would change
            # how the bot plays (a separate decision, not part of this clean-up)
            if verb == "steal":
                return v.stable_value(cid, me) + v.threat[o] * v.loss_if_removed(cid, o, "steal")
            if outcome == "moves":
                # Re-Target / Unicorn Swap: taking it out of o's Stable, best destination
                if o == me:
                    return -v.stable_value(cid, me)
                return v.threat[o] * v.stable_value(cid, o)
            return 0.0
        # a card in the discard, Nursery, a hand or the deck: the best card for me
        if outcome == "brings":
            return v.stable_value(cid, me)
        return v.hand_value(cid)

    def _use(self, v: _View, d: Decision, a: Action) -> float:
        if a.kind == "decline":
            return 0.0
        name = d.card or ""
        me = v.me
        hand = sorted(v.hand_value(c) for c in v.my_hand)
        if name in ("Rhinocorn",):
            loss, _, _ = _best_loss(v, me, "unicorn", "destroy")
            return loss - 8.0
        if name == "Shark With a Horn":
            loss, _, _ = _best_loss(v, me, "unicorn", "destroy")
            return loss - 12.0
        if name == "Glitter Bomb":
            loss, _, _ = _best_loss(v, me, "card", "destroy")
            return loss - max(_cheapest_own(v, me), 0.0) - 1.0
        if name == "Caffeine Overload":
            return 7.0 - max(_cheapest_own(v, me), 0.0)
        if name == "Stable Artillery":
            loss, _, _ = _best_loss(v, me, "unicorn", "destroy")
            return loss - sum(hand[:2]) * 0.7 if len(hand) >= 2 else -1.0
        if name == "Rainbow Lasso":
            loss, c, p = _best_loss(v, me, "unicorn", "steal")
            return loss + 10.0 - sum(hand[:3]) * 0.7 if len(hand) >= 3 else -1.0
        if name == "Claw Machine":
            return 4.5 - hand[0] if hand else -1.0
        if name == "Dark Angel Unicorn":
            best = max([v.stable_value(c, me) for c in v.seen.discard if v.defs[c].is_unicorn] + [0.0])
            return best - min([v.loss_if_removed(c, me, "sacrifice") for c in v.stable(me)
                               if v.defs[c].is_unicorn] + [99.0])
        if name == "Necromancer Unicorn":
            return 3.0 if len(v.my_hand) >= 4 else -1.0
        if name == "Seductive Unicorn":
            return 8.0 - (hand[0] if hand else 0.0)
        return 1.0  # most optional effects help their user

    def _choose(self, v: _View, a: Action) -> float:
        opt = a.option or ""
        if opt == "SACRIFICE a Downgrade":
            return -_cheapest_own(v, v.me, "downgrade")
        if opt == "DESTROY an Upgrade":
            loss, _, _ = _best_loss(v, v.me, "upgrade", "destroy")
            return loss
        if a.cid is not None and 0 <= a.cid < len(v.defs) and v.defs[a.cid].name == opt:
            return v.hand_value(a.cid)  # a card to keep (Unicorn Oracle)
        return 0.0


def _pile_action(v: _View, entry: PileSeen) -> Action:
    """The play on the pile as an Action (card, destination, declared targets as Targets). Declared
    targets are public: they are announced with the play."""
    cid = entry.cid
    d = v.defs[cid]
    targets: list[Target] = []
    decl = entry.declared
    if decl and d.play:
        for op, choice in zip(declarable_static(d.play["ops"], own_choices=False), decl):
            if is_player_choice(op):
                targets.append(Target(player=choice[0]))
                continue
            cards = choice[:1] if op["do"] == "move" else choice
            for x in cards:
                z, owner = v.seen.where(x) or ("deck", -1)  # a declared card is in plain sight
                targets.append(Target(card=v.name(x), owner=owner if z in ("stable", "hand") else None,
                                      zone=z, cid=x))
            if op["do"] == "move":
                targets.append(Target(player=choice[1]))
    return Action("play", d.name, entry.into, tuple(targets), cid=cid)
