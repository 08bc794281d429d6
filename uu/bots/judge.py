"""One judgement of "better", shared by the hint, the coach and the review.

A move is called worse than another only when two things hold:

1. **The search is confident.** Every candidate is played out on the same deals (common random numbers:
   `uu.bots.search` draws deal r once and plays each candidate on it), so the fair comparison is *paired*: the
   difference of the two moves' values deal by deal. Its mean is the loss; a 95% interval on it (Student's t
   on the paired differences, so a handful of deals gives a wide interval, not a false certainty) must lie
   wholly above zero. Pairing removes the luck of the deal both moves share, so it separates real gaps with
   far fewer deals than comparing the two moves' own intervals.
2. **The loss matters.** The loss in chance to win is graded as online chess analysis grades it
   (lichess, chess.com): under `INACCURACY` (5 points) it is "about as good"; then inaccuracy, mistake from
   `MISTAKE` (10 points), blunder from `BLUNDER` (20 points).

Otherwise the two moves are "about as good", and nobody says "best" or "clearly better". The thresholds and
why: docs/tutor-choices.md, "How the coach judges a move".
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal, Protocol

__all__ = ["BLUNDER", "GRADES", "INACCURACY", "MISTAKE", "Grade", "Verdict", "grade_of", "judge", "paired", "t95"]

INACCURACY = 0.05  # a loss below this is "about as good": a learner cannot act on it
MISTAKE = 0.10
BLUNDER = 0.20
# The spread of the paired differences is taken as at least this: a move that lost by the same few points on
# each of a handful of deals (a spread of zero) is not yet known to be worse, nor two moves that ended alike
# known to be alike.
SD_FLOOR = 0.05

Grade = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
GRADES: tuple[Grade, ...] = ("best", "good", "inaccuracy", "mistake", "blunder")

# Student's t, two-sided 95%, by degrees of freedom (beyond the table: the normal 1.96 is within 2%)
_T95 = {1: 12.71, 2: 4.30, 3: 3.18, 4: 2.78, 5: 2.57, 6: 2.45, 7: 2.36, 8: 2.31, 9: 2.26, 10: 2.23, 11: 2.20,
        12: 2.18, 13: 2.16, 14: 2.14, 15: 2.13, 16: 2.12, 18: 2.10, 20: 2.09, 25: 2.06, 30: 2.04, 40: 2.02,
        60: 2.00}


def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t with `df` degrees of freedom (rounded down to the table)."""
    if df < 1:
        return math.inf
    keys = [k for k in _T95 if k <= df]
    return 1.96 if df > 120 else _T95[max(keys)]


@dataclass(frozen=True)
class Verdict:
    """How much worse a move is than the best, and how sure the search is."""

    grade: Grade
    loss: float  # the best's value minus this move's, on the deals both played (mean)
    low: float  # 95% interval of the loss
    high: float
    deals: int  # deals both moves were played on

    @property
    def separated(self) -> bool:
        """Is the best surely better (the loss's interval wholly above zero)?"""
        return self.low > 0.0

    @property
    def worse(self) -> bool:
        """Called worse: separated and a loss that matters (an inaccuracy or more)."""
        return self.grade in ("inaccuracy", "mistake", "blunder")


def paired(a: Sequence[float], b: Sequence[float]) -> tuple[float, float, float]:
    """(mean, low, high) of a - b, pair by pair, with a 95% interval (Student's t, the spread at least
    `SD_FLOOR`). One pair or none: the interval is everything possible, (-1, 1)."""
    diffs = [x - y for x, y in zip(a, b)]
    n = len(diffs)
    if n == 0:
        return 0.0, -1.0, 1.0
    mean = sum(diffs) / n
    if n < 2:
        return mean, -1.0, 1.0
    var = max(sum((d - mean) ** 2 for d in diffs) / (n - 1), SD_FLOOR ** 2)
    half = t95(n - 1) * math.sqrt(var / n)
    return mean, max(-1.0, mean - half), min(1.0, mean + half)


def grade_of(loss: float, separated: bool) -> Grade:
    """The grade of a move `loss` below the best (see the module docstring)."""
    if not separated or loss < INACCURACY:
        return "good"
    if loss < MISTAKE:
        return "inaccuracy"
    if loss < BLUNDER:
        return "mistake"
    return "blunder"


class Played(Protocol):
    """What the judgement reads of a move played out (`uu.bots.search.Candidate`): its result on each deal."""

    @property
    def playouts(self) -> int: ...

    @property
    def by_deal(self) -> dict[int, float]: ...


def judge(best: Played, other: Played) -> Verdict:
    """`other` against `best`, on the deals both were played on."""
    if other is best:
        return Verdict("best", 0.0, 0.0, 0.0, best.playouts)
    common = sorted(set(best.by_deal) & set(other.by_deal))
    loss, low, high = paired([best.by_deal[k] for k in common], [other.by_deal[k] for k in common])
    return Verdict(grade_of(loss, low > 0.0), loss, low, high, len(common))
