"""A class of emulated learners (the phases of `uu bench --app`): arriving together, playing with think
times, clicking in a tight loop, and the summaries of their clicks."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Sequence
from typing import Any

from uu.benchmarks.learner import Click, EmulatedLearner
from uu.benchmarks.stats import summary


def click_summary(clicks: Sequence[Click]) -> dict[str, Any]:
    """Click -> board update (`board_ms`: the figure the targets are about) and click -> kernel idle."""
    out = summary([c.board_ms for c in clicks], digits=1)
    idle = summary([c.idle_ms for c in clicks], digits=1)
    out["idle"] = {k: idle[k] for k in ("median", "p95", "max")}
    # what a click costs on the wire, kernel to page (the "messages and bytes per click")
    out["messages_per_click"] = summary([c.messages for c in clicks if c.idle_ms is not None], digits=1)["median"]
    out["kbytes_per_click"] = summary([c.kbytes for c in clicks if c.idle_ms is not None], digits=2)["median"]
    slow = sorted((c for c in clicks if c.board_ms is not None), key=lambda c: -(c.board_ms or 0))[:3]
    out["slowest"] = [f"{c.board_ms:.0f} ms: {c.label[:60]}" for c in slow]
    return out


async def arrive_together(url: str, n: int, assets: Sequence[str] | None,
                          timeout: float = 180.0) -> tuple[list[EmulatedLearner], dict[str, Any]]:
    """`n` learners open the page at the same moment. Returns the learners (those that failed included: leave
    them all) and: the time until every one is interactive (None if any failed), each one's time, the median of
    each arrival step, and the distinct errors."""
    learners = [EmulatedLearner(url, assets=assets, timeout=timeout) for _ in range(n)]
    t0 = time.perf_counter()

    async def one(learner: EmulatedLearner) -> float:
        await learner.arrive()
        return time.perf_counter() - t0

    results = await asyncio.gather(*[one(x) for x in learners], return_exceptions=True)
    ready = [r if isinstance(r, float) else None for r in results]
    errors = sorted({f"{type(r).__name__}: {r}" for r in results if isinstance(r, BaseException)})
    steps = {}
    for key in ("html_s", "assets_s", "ws_open_s", "states_s", "interactive_s"):
        steps[key] = summary([x.timings.get(key) for x in learners])["median"]
    return learners, {
        "learners": n, "interactive": sum(r is not None for r in ready),
        "all_interactive_s": round(max(r for r in ready if r is not None), 3)
        if ready and all(r is not None for r in ready) else None,
        "each_s": summary(ready), "step_medians_s": steps,
        "html_s": summary([x.timings.get("html_s") for x in learners]),
        "errors": errors[:5]}


async def play(learners: Sequence[EmulatedLearner], seconds: float, think: tuple[float, float],
               seed: int = 0) -> list[tuple[int, float, Click]]:
    """Every learner clicks until `seconds` have passed, waiting a think time drawn uniformly from `think`
    (seconds; seeded per learner) before each click, as a learner reads the board between clicks. A learner
    never has two clicks in flight: the next think time starts when the kernel is idle again. Returns
    (learner index, seconds since the start when sent, click) for every click."""
    import random

    t0 = time.perf_counter()
    out: list[tuple[int, float, Click]] = []

    async def one(i: int, learner: EmulatedLearner) -> None:
        rng = random.Random(seed * 100_003 + i)
        while True:
            await asyncio.sleep(rng.uniform(*think))
            if time.perf_counter() - t0 >= seconds:
                return
            click = await learner.click()
            out.append((i, click.at - t0, click))

    await asyncio.gather(*[one(i, x) for i, x in enumerate(learners)])
    return out


async def tight_loop(learners: Sequence[EmulatedLearner], clicks: int) -> list[Click]:
    """The worst case: every learner clicks `clicks` times as fast as the kernel answers (the next click as soon
    as the previous one's idle status arrived), all at once."""
    async def one(learner: EmulatedLearner) -> list[Click]:
        return [await learner.click() for _ in range(clicks)]

    results = await asyncio.gather(*[one(x) for x in learners])
    return [c for r in results for c in r]
