"""The hint engine: short determinized playouts with the heuristic bot, ended by the position model.

For the pending decision of `player`:

1. **Candidates.** Every legal action, or when there are more than `width`, the `width` best by the heuristic
   bot's own static score (the others are nearly always plainly worse: discarding a Neigh, aiming at oneself);
   the hint lists them as "not played out".
2. **Playouts.** For each of `deals` rounds one *determinization* is drawn (`Game.resample`: every card
   the player cannot know is dealt at random into the deck and the hidden hands), and every candidate is played
   on its own copy of that same world (common random numbers: candidates are compared on the same deals); then
   every seat plays as the heuristic bot until `horizon` more turns have begun (default: one round) or the game
   ends.
3. **Values.** A finished playout is worth 1 to its winner; an unfinished one is worth the player's chance to
   win according to the position model (`uu.bots.value`). The candidate with the best mean is the hint.

Why this shape: the heuristic bot is a good model of how other players answer (who Neighs what, whom they
target), and the sampled hands decide whether they *can* answer, so a play that is likely to be Neighed is
valued as such. Stopping after one round keeps each playout cheap (a few dozen decisions), so many deals fit
in a fraction of a second, and the position model turns "who is ahead after a round" into a win chance.
Measured strength and speed: README, "Hints and bots" (`uu bench --bots hint,heuristic,...`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uu.bots.heuristic import HeuristicBot
from uu.bots.value import weights, win_chances
from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game

DEFAULT_DEALS = 12  # rounds of playouts (each plays every candidate once)
DEFAULT_WIDTH = 6  # candidates played out at most
DEFAULT_SECONDS = 1.0  # time cap per hint: rounds stop early when the next one would not fit
MAX_PLAYOUT_DECISIONS = 400


@dataclass
class Candidate:
    """One legal action of the decision and what its playouts found."""

    index: int  # among the decision's legal actions
    action: Action
    prior: float  # the heuristic bot's static score
    total: float = 0.0  # sum of the playouts' values
    playouts: int = 0
    wins: int = 0  # playouts that ended with the player's win
    answered: int = 0  # playouts where another player answered this move with an Instant (Neigh)
    gains: list[float] = field(default_factory=list)  # per seat: sum of the change in their Unicorns

    @property
    def value(self) -> float | None:
        return self.total / self.playouts if self.playouts else None

    def mean_gain(self, seat: int) -> float:
        return self.gains[seat] / self.playouts if self.playouts else 0.0


def candidates(game: Game, width: int) -> list[Candidate]:
    """The decision's actions that will be played out, in the order of the legal actions."""
    d = game.pending
    assert d is not None
    scored = HeuristicBot(0).score_actions(game)
    out = [Candidate(i, a, s, gains=[0.0] * game.state.n) for i, (a, s) in enumerate(scored)]
    if len(out) > width:
        keep = sorted(out, key=lambda c: (-c.prior, c.index))[:width]
        out = sorted(keep, key=lambda c: c.index)
    return out


def play_out(game: Game, cand: Candidate, player: int, rng: random.Random, horizon: int) -> None:
    """One playout of `cand` on a fresh determinization drawn with `rng`; adds its results to `cand`."""
    g = game.resample(player, rng)
    s = g.state
    start_u = [q.unicorns(s, p) for p in range(s.n)]
    stop_turn = s.turn_number + horizon
    bots = [HeuristicBot(rng.getrandbits(32)) for _ in range(s.n)]
    g.apply(cand.action)
    answered = False
    watching = bool(g.state.pile)  # the move is on the Neigh pile: did anybody answer it?
    k = 0
    while g.pending is not None and k < MAX_PLAYOUT_DECISIONS and g.state.turn_number < stop_turn:
        d = g.pending
        a = bots[d.player].choose(g)
        if watching and d.player != player and a.kind == "respond":
            answered = True
        g.apply(a)
        watching = watching and bool(g.state.pile)
        k += 1
    s = g.state
    value = win_chances(s, weights())[player]
    cand.total += value
    cand.playouts += 1
    cand.wins += s.over and s.winner == player
    cand.answered += answered
    for p in range(s.n):
        cand.gains[p] += q.unicorns(s, p) - start_u[p]


@dataclass
class Search:
    """What `search` found: the candidates best first, and how it got there."""

    player: int
    candidates: list[Candidate]  # best first
    skipped: list[int]  # indexes of legal actions not played out (beyond `width`)
    deals: int  # rounds completed
    seconds: float
    settings: dict[str, Any]

    @property
    def best(self) -> Candidate:
        return self.candidates[0]


def search(game: Game, deals: int = DEFAULT_DEALS, width: int = DEFAULT_WIDTH, horizon: int | None = None,
           seconds: float | None = DEFAULT_SECONDS, seed: int = 0,
           progress: Callable[[int, int], Any] | None = None) -> Search:
    """Play out the candidates of the pending decision (see the module docstring). `deals` rounds at most;
    `seconds` (None: no cap) stops before a round that would not fit (the first round always runs)."""
    d = game.pending
    if d is None:
        raise ValueError("the game is over: there is no decision to analyse")
    player = d.player
    cands = candidates(game, width)
    played = {c.index for c in cands}
    skipped = [i for i in range(len(d.actions)) if i not in played]
    h = game.state.n if horizon is None else horizon
    settings = {"deals": deals, "width": width, "horizon": h, "seconds": seconds, "seed": seed}
    start = time.perf_counter()
    total = deals * len(cands) if len(cands) > 1 else 0
    done_rounds = 0
    if progress:
        progress(0, total)
    if len(cands) > 1:  # one candidate: nothing to compare
        for r in range(deals):
            if seconds is not None and r:
                spent = time.perf_counter() - start
                if spent / r * (r + 1) > seconds:
                    break
            for c in cands:
                play_out(game, c, player, random.Random(f"uu-search:{seed}:{r}"), h)
            done_rounds += 1
            if progress:
                progress(done_rounds * len(cands), total)
        if progress and done_rounds < deals:
            progress(done_rounds * len(cands), done_rounds * len(cands))
    ranked = sorted(cands, key=lambda c: (-(c.value if c.value is not None else 2.0), -c.prior, c.index))
    return Search(player, ranked, skipped, done_rounds, time.perf_counter() - start, settings)


class SearchBot:
    """Plays what the hint would show first, with the app's default settings unless told otherwise;
    single-action decisions cost nothing. `times` keeps the seconds each real choice took. `seed` is kept for
    the bots' common interface: the search is seeded like the hint, by the game's decision count."""

    def __init__(self, seed: int = 0, deals: int = DEFAULT_DEALS, width: int = DEFAULT_WIDTH,
                 horizon: int | None = None, seconds: float | None = DEFAULT_SECONDS):
        self.deals = deals
        self.width = width
        self.horizon = horizon
        self.seconds = seconds
        self.times: list[float] = []

    def choose(self, game: Game) -> Action:
        d = game.pending
        if d is None:
            raise ValueError("the game is over: there is no decision to make")
        if len(d.actions) == 1:
            return d.actions[0]
        t0 = time.perf_counter()
        # the hint's own seed (the decision count): this bot plays what the app's hint shows first
        found = search(game, self.deals, self.width, self.horizon, self.seconds, game.state.decisions)
        self.times.append(time.perf_counter() - t0)
        return found.best.action
