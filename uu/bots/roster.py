"""Every computer player by name, and the three levels the app offers.

`make_bot(name, seed)` builds one; names are the bots ("random", "heuristic", "hint") or the levels ("easy",
"normal", "hard"), which stand for them. "hint" plays exactly what the app's hint shows first (the hint engine,
`uu.bots.search`, with the app's default budget) unless `hint_seconds` changes its time cap.
"""

from __future__ import annotations

from uu.bots.bot import Bot
from uu.bots.heuristic import HeuristicBot
from uu.bots.random_bot import RandomBot
from uu.bots.search import DEFAULT_SECONDS, SearchBot

__all__ = ["BOTS", "LEVELS", "LEVEL_WORDS", "Bot", "bot_names", "make_bot"]


BOTS = ("random", "heuristic", "hint")
LEVELS = {"easy": "random", "normal": "heuristic", "hard": "hint"}
LEVEL_WORDS = {  # what the play screen says of each level
    "easy": "Easy: plays any legal move at random",
    "normal": "Normal: plays by rules of thumb",
    "hard": "Hard: thinks ahead like the hint",
}


def bot_names() -> list[str]:
    return [*BOTS, *LEVELS]


def make_bot(name: str, seed: int, hint_seconds: float | None = DEFAULT_SECONDS) -> Bot:
    kind = LEVELS.get(name, name)
    if kind == "random":
        return RandomBot(seed)
    if kind == "heuristic":
        return HeuristicBot(seed)
    if kind == "hint":
        return SearchBot(seed, seconds=hint_seconds)
    raise ValueError(f"unknown bot {name!r}; known bots: {', '.join(bot_names())}")
