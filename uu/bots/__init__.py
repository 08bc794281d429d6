"""Players that are not people. Bots choose among the legal actions of the pending decision (`registry`: random,
heuristic, and the hint engine; levels easy, normal, hard); `hint` finds the best move with short determinized
simulated games and gives it as data, with the reason (`uu.words.hint_text` says it; `uu.benchmarks.bots` measures
them)."""

from uu.bots.heuristic import HeuristicBot
from uu.bots.hint import HintResult, HintRow, hint
from uu.bots.random_bot import RandomBot
from uu.bots.roster import BOTS, LEVELS, make_bot
from uu.bots.search import SearchBot

__all__ = ["BOTS", "LEVELS", "HeuristicBot", "HintResult", "HintRow", "RandomBot", "SearchBot", "hint", "make_bot"]
