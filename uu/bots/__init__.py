"""Players that are not people: bots choose among the legal actions of the pending decision; `hint`
estimates each action's win rate with determinized playouts; `bench_bots`/`bench_hint` measure them."""

from uu.bots.bench import BOTS, bench_bots, bench_hint, make_bot
from uu.bots.heuristic import HeuristicBot
from uu.bots.hint import HintResult, HintRow, determinize, hint
from uu.bots.random_bot import RandomBot

__all__ = ["BOTS", "HeuristicBot", "HintResult", "HintRow", "RandomBot", "bench_bots", "bench_hint",
           "determinize", "hint", "make_bot"]
