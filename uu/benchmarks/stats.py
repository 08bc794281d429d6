"""The few statistics the benchmarks report: nearest-rank percentiles, a latency summary, and the Wilson
interval of a win rate."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

__all__ = ["pct", "summary", "wilson"]


def pct(values: Sequence[float], q: float) -> float | None:
    """Nearest-rank percentile (q in 0..100); None for no values."""
    v = sorted(values)
    if not v:
        return None
    k = max(0, min(len(v) - 1, int(round(q / 100 * len(v) + 0.5)) - 1))
    return v[k]


def summary(values: Sequence[float | None], digits: int = 3) -> dict[str, Any]:
    """n, failed (None values), median, p95, min, max."""
    ok = [float(x) for x in values if x is not None]
    r = lambda x: None if x is None else round(x, digits)  # noqa: E731
    ok_sorted = sorted(ok)
    median = None
    if ok_sorted:
        mid = len(ok_sorted) // 2
        median = ok_sorted[mid] if len(ok_sorted) % 2 else (ok_sorted[mid - 1] + ok_sorted[mid]) / 2
    return {"n": len(values), "failed": len(values) - len(ok), "median": r(median), "p95": r(pct(ok, 95)),
            "min": r(min(ok) if ok else None), "max": r(max(ok) if ok else None)}


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The 95% Wilson score interval of a win rate (good at small n and near 0 or 1)."""
    if n == 0:
        return (0.0, 1.0)
    p = wins / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return (max(0.0, mid - half), min(1.0, mid + half))
