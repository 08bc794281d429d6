"""What the lesson screen's playback of the others' moves costs: every lesson walked to its end on a
`LessonScreen` (no browser), each click timed to the table set, and apart from it each catch-up by
`uu.table.replay.replay_moves` (the moves made again on a copy). CPU time of this process
(`time.process_time`), so that a busy machine's waiting for a core does not count.

    .venv/bin/python docs/replay_cost.py [walks per lesson, default 3]
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

import uu.widgets.gametable as gametable
from uu.widgets.lesson import LessonScreen
from uu.words.lesson import LessonRunner

LESSONS = sorted((Path(__file__).resolve().parents[1] / "lessons").glob("[0-9]*.yaml"))


def summary(label: str, ms: list[float]) -> str:
    ms = sorted(ms)
    return (f"{label} ({len(ms)}): median {statistics.median(ms):.1f} ms, p90 {ms[int(len(ms) * 0.9)]:.1f} ms, "
            f"max {ms[-1]:.1f} ms")


def main(walks: int) -> None:
    replays: list[float] = []
    real = gametable.replay_moves

    def timed(*args, **kwargs):  # type: ignore[no-untyped-def]
        t = time.process_time()
        n = real(*args, **kwargs)
        replays.append((time.process_time() - t) * 1e3)
        return n

    gametable.replay_moves = timed  # type: ignore[assignment]
    clicks: dict[str, list[float]] = {}
    for path in LESSONS:
        for _ in range(walks):
            screen = LessonScreen(LessonRunner(path))
            for k in range(200):
                r = screen.runner
                if r.done or r.stuck or r.step is None or r.step.kind == "game":  # a game step: the bots think
                    break
                before, t = len(replays), time.process_time()
                if not screen.click_answer():
                    break
                if len(replays) > before:  # its table plays back the steps of two moves or more
                    clicks.setdefault(f"{path.stem}#{k}", []).append((time.process_time() - t) * 1e3)
    print(summary("clicks whose table plays back a stretch made again, click -> table set",
                  [statistics.median(v) for v in clicks.values()]))
    print(summary("replay_moves alone", replays))


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 3)
