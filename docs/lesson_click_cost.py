"""What a lesson click costs in the kernel: every lesson walked to its end on a `LessonScreen` (no browser),
each click on the step's answer timed until the table is set (the move judged, the bots' answers made, the
table's message with the steps to play back built). CPU time of this process (`time.process_time`), so that a
busy machine's waiting for a core does not count. Run it on two checkouts in turns to compare them.

    .venv/bin/python docs/lesson_click_cost.py [walks per lesson, default 3]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

from uu.widgets.lesson import LessonScreen
from uu.words.lesson_refusals import LessonRunner

LESSONS = sorted((Path(__file__).resolve().parents[1] / "lessons").glob("[0-9]*.yaml"))


def summary(label: str, ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"{label} ({len(ms)}): median {statistics.median(ms):.2f} ms, p90 {ms[int(len(ms) * 0.9)]:.2f} ms, "
            f"max {ms[-1]:.2f} ms")


def main(walks: int) -> None:
    clicks: dict[str, list[float]] = {}
    for path in LESSONS:
        for _ in range(walks):
            screen = LessonScreen(LessonRunner(path))
            for k in range(200):
                r = screen.runner
                if r.done or r.stuck or r.step is None or r.step.kind == "game":  # a game step: the bots think
                    break
                t = time.process_time()
                if not screen.click_answer():
                    break
                clicks.setdefault(f"{path.stem}#{k}", []).append((time.process_time() - t) * 1e3)
    print(summary("lesson clicks, click -> table set (median of each click's walks)",
                  [statistics.median(v) for v in clicks.values()]))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
