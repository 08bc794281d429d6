"""How likely each player is to win from here: a small learned model for the ends of the hint's playouts.

The hint (`uu.bots.search`) plays each candidate move forward for about one round, not to the end of the game,
and then needs a number for "how good is this position for me". That number comes from a *conditional logit*
model: every player gets a score `w · features(player)` and the chance that player wins is
`exp(score) / sum of exp(score) over all players`. The features are things anyone at the table can see in a
real game (Unicorns, how far each player is from the winning count, Stable cards, hand sizes, whose turn comes
next) plus how many Neigh cards each hand holds, which at the end of a playout is read from the playout's
*sampled* hands (the hint deals unknown cards at random first), never from the real hidden cards.

The "within k" weights are kept at zero or above (one more Unicorn never makes a position worse: a fitted
model may say otherwise when it mirrors how the bots pick on the leader, and a hint must not give Unicorns
away for that). The weights are learned offline by `python -m uu.bots.train_value` from games the heuristic bots play against
each other, and shipped as `value_weights.json` beside this module (a few hundred bytes; no download, no
numerical library at run time).
"""

from __future__ import annotations

import json
import math
from functools import lru_cache
from pathlib import Path

from uu.cards.schema import CardType
from uu.engine import queries as q
from uu.engine.state import GameState

WEIGHTS_FILE = Path(__file__).with_name("value_weights.json")

FEATURES = (
    "within_1",          # 1 if at most one Unicorn short of winning
    "within_2",          # 1 if at most two short
    "within_3",          # 1 if at most three short
    "within_4",          # 1 if at most four short
    "within_5",          # 1 if at most five short
    "hand",              # cards in hand
    "neighs",            # Neigh and Super Neigh cards in hand
    "upgrades",          # Upgrade cards in the Stable
    "downgrades",        # Downgrade cards in the Stable
    "magical",           # Magical Unicorns in the Stable (their effects keep working)
    "turn_soon",         # 1 for the player whose turn it is, less for each seat further on
    "leads",             # 1 if the player has more Unicorns than anyone else
)


def features(s: GameState, p: int) -> list[float]:
    """The feature vector of player `p` in state `s` (same order as FEATURES)."""
    n = s.n
    need = s.threshold()
    u = [q.unicorns(s, x) for x in range(n)]
    gap = need - u[p]
    up = down = magical = 0
    for c in s.stables[p]:
        t = s.defs[c].type
        if t is CardType.UPGRADE:
            up += 1
        elif t is CardType.DOWNGRADE:
            down += 1
        elif t is CardType.MAGICAL:
            magical += 1
    neighs = sum(1 for c in s.hands[p] if s.defs[c].type is CardType.INSTANT)
    wait = (p - s.current) % n  # 0: p is the one playing now (positions are read as a turn begins)
    others = max((u[x] for x in range(n) if x != p), default=0)
    return [float(gap <= 1), float(gap <= 2), float(gap <= 3), float(gap <= 4), float(gap <= 5),
            float(len(s.hands[p])), float(neighs), float(up), float(down), float(magical), 1.0 - wait / n,
            float(u[p] > others)]


@lru_cache(maxsize=1)
def weights() -> tuple[float, ...]:
    data = json.loads(WEIGHTS_FILE.read_text(encoding="utf-8"))
    if tuple(data["features"]) != FEATURES:
        raise RuntimeError(f"{WEIGHTS_FILE.name} was trained on other features; run python -m uu.bots.train_value")
    return tuple(float(x) for x in data["weights"])


def win_chances(s: GameState, w: tuple[float, ...] | None = None) -> list[float]:
    """Each player's estimated chance to win (they sum to 1); a finished game gives 1 to its winner."""
    n = s.n
    if s.over:
        return [1.0 if s.winner == p else 0.0 for p in range(n)]
    w = weights() if w is None else w
    scores = [sum(a * b for a, b in zip(w, features(s, p))) for p in range(n)]
    top = max(scores)
    exps = [math.exp(x - top) for x in scores]
    total = sum(exps)
    return [e / total for e in exps]
