"""The hint engine: short determinized playouts with the heuristic bot, ended by the position model.

For the pending decision of `player`:

1. **Candidates.** Every legal action, or when there are more than `width`, the `width` best by the heuristic
   bot's own static score (the others are nearly always plainly worse: discarding a Neigh, aiming at oneself);
   the hint lists them as "not played out".
2. **Playouts.** For each of `deals` rounds one *determinization* is drawn from the player's observation
   (`Observation.resample`: every card the player cannot know is dealt at random into the deck and the hidden
   hands; the search is given the observation, never the game), and every candidate is played
   on its own copy of that same world (common random numbers: candidates are compared on the same deals); then
   every seat plays as the heuristic bot until `horizon` more turns have begun (default: one round) or the game
   ends.
3. **Values.** A finished playout is worth 1 to its winner; an unfinished one is worth the player's chance to
   win according to the position model (`uu.bots.value`). The candidate with the best mean is the hint.
4. **Doubt.** Each candidate keeps its value on every deal (`Candidate.by_deal`), so two moves are compared
   deal by deal (`uu.bots.judge`: the paired interval of the loss and the grades). While the best
   candidate's own 95% interval overlaps another's, those candidates alone get more deals (at most
   `MAX_EXTRA_DEALS`, within the time cap); `Search.clear` says whether the best is called better than every
   other move by the judgement.

Why this shape: the heuristic bot is a good model of how other players answer (who Neighs what, whom they
target), and the sampled hands decide whether they *can* answer, so a play that is likely to be Neighed is
valued as such. Stopping after one round keeps each playout cheap (a few dozen decisions), so many deals fit
in a fraction of a second, and the position model turns "who is ahead after a round" into a win chance.
Measured strength and speed: docs/performance.md, "The hint and the bots" (`uu bench --bots hint,heuristic,...`).
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uu.bots.bot import Bot
from uu.bots.heuristic import HeuristicBot
from uu.bots.judge import INACCURACY, Verdict, judge
from uu.bots.value import weights, win_chances
from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.observation import Observation

DEFAULT_DEALS = 12  # rounds of playouts (each plays every candidate once)
DEFAULT_WIDTH = 6  # candidates played out at most
DEFAULT_SECONDS = 1.0  # time cap per hint: rounds stop early when the next one would not fit
MAX_PLAYOUT_DECISIONS = 400
MAX_EXTRA_DEALS = 36  # more deals, at most, for the candidates the first rounds could not tell apart
Z95 = 1.96
SEPARATE_SHARE = 0.9  # the extra deals stop within this share of the time cap


@dataclass
class Candidate:
    """One legal action of the decision and what its playouts found."""

    index: int  # among the decision's legal actions
    action: Action
    prior: float  # the heuristic bot's static score
    total: float = 0.0  # sum of the playouts' values
    squares: float = 0.0  # sum of their squares (for the interval)
    playouts: int = 0
    wins: int = 0  # playouts that ended with the player's win
    answered: int = 0  # playouts where another player answered this move with an Instant (Neigh)
    gains: list[float] = field(default_factory=list)  # per seat: sum of the change in their Unicorns
    by_deal: dict[int, float] = field(default_factory=dict)  # deal number -> value (for paired comparisons)

    @property
    def value(self) -> float | None:
        return self.total / self.playouts if self.playouts else None

    @property
    def interval(self) -> tuple[float, float]:
        """A 95% interval on the chance to win after this move (normal approximation with the playouts'
        own spread; (0, 1) before two playouts). All-equal playouts give a point: a move that wins in every
        simulated game is known to win, whatever the sample size."""
        n = self.playouts
        if n < 2:
            return (0.0, 1.0)
        mean = self.total / n
        var = max(self.squares / n - mean * mean, 0.0) * n / (n - 1)
        half = Z95 * math.sqrt(var / n)
        return (max(0.0, mean - half), min(1.0, mean + half))

    def mean_gain(self, seat: int) -> float:
        return self.gains[seat] / self.playouts if self.playouts else 0.0


def candidates(seen: Observation, width: int) -> list[Candidate]:
    """The decision's actions that will be played out, in the order of the legal actions."""
    scored = HeuristicBot(0).score_seen(seen)
    out = [Candidate(i, a, s, gains=[0.0] * len(seen.players)) for i, (a, s) in enumerate(scored)]
    if len(out) > width:
        keep = sorted(out, key=lambda c: (-c.prior, c.index))[:width]
        out = sorted(keep, key=lambda c: c.index)
    return out


def deal_rng(seed: int, deal: int) -> random.Random:
    """The random source of deal `deal`: every candidate played on it gets the same hidden cards and bots."""
    return random.Random(f"uu-search:{seed}:{deal}")


def play_out(seen: Observation, cand: Candidate, player: int, rng: random.Random, horizon: int,
             deal: int = -1) -> None:
    """One playout of `cand` on a fresh determinization of `seen` drawn with `rng`; adds its results to `cand`
    (and its value under `deal`, the deal's number, for paired comparisons)."""
    assert seen.resample is not None  # search() checked it
    g = seen.resample(rng)
    assert isinstance(g, Game)  # what Game.observe deals (the observation's type cannot name it)
    s = g.state
    start_u = [q.unicorns(s, p) for p in range(s.n)]
    stop_turn = s.turn_number + horizon
    bots = [HeuristicBot(rng.getrandbits(32)) for _ in range(s.n)]
    g.push(cand.action)
    answered = False
    watching = bool(g.state.pile)  # the move is on the Neigh pile: did anybody answer it?
    k = 0
    while g.pending is not None and k < MAX_PLAYOUT_DECISIONS and g.state.turn_number < stop_turn:
        d = g.pending
        a = bots[d.player].choose(g)
        if watching and d.player != player and a.kind == "respond":
            answered = True
        g.push(a)
        watching = watching and bool(g.state.pile)
        k += 1
    s = g.state
    value = win_chances(s, weights())[player]
    cand.total += value
    cand.squares += value * value
    cand.playouts += 1
    cand.by_deal[deal] = value
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
    deals: int  # rounds completed, with the extra deals given to the closest candidates
    seconds: float
    settings: dict[str, Any]

    @property
    def best(self) -> Candidate:
        return self.candidates[0]

    @property
    def clear(self) -> bool:
        """Is the best candidate better than every other played out, by the one judgement of "better"
        (`uu.bots.judge`: paired interval above zero and a loss that matters)?"""
        played = [c for c in self.candidates if c.playouts]
        if len(played) < 2:
            return len(self.candidates) == 1
        return all(judge(played[0], c).worse for c in played[1:])

    def verdict(self, cand: Candidate) -> Verdict:
        """`cand` against the best candidate (`uu.bots.judge.judge`)."""
        return judge(self.best, cand)

    def about_as_good(self) -> list[Candidate]:
        """The best and every candidate played out that is not called worse than it and whose estimate is
        within `INACCURACY` of it, best first: the moves a rule of thumb may choose among (a move the search
        cannot yet call worse but estimates well below the best is not handed to a rule of thumb)."""
        out = []
        for c in self.candidates:
            if c.playouts:
                v = judge(self.best, c)
                if not v.worse and v.loss < INACCURACY:
                    out.append(c)
        return out


def search(position: Game | Observation, deals: int = DEFAULT_DEALS, width: int = DEFAULT_WIDTH, horizon: int | None = None,
           seconds: float | None = DEFAULT_SECONDS, seed: int = 0,
           progress: Callable[[int, int], object] | None = None, extra: int = MAX_EXTRA_DEALS,
           include: Action | None = None) -> Search:
    """Play out the candidates of the pending decision (see the module docstring). `deals` rounds at most;
    `seconds` (None: no cap) stops before a round that would not fit (the first round always runs). Then, while
    the best candidate's interval overlaps another's, up to `extra` more deals for those candidates only, in
    the time left. `include`: a legal action that must be among the candidates (the review grades the move
    the player made, even one the rules of thumb rank low). `position`: the deciding seat's observation (a
    game is observed for its deciding seat): the search reads nothing else."""
    seen = _decider_view(position)
    d, player = seen.decision, seen.viewer
    assert d is not None and player is not None
    cands = candidates(seen, width)
    if include is not None and all(c.action != include for c in cands):
        i = next(k for k, a in enumerate(d.actions) if a == include)
        cands = sorted([*cands, Candidate(i, d.actions[i], float("-inf"), gains=[0.0] * len(seen.players))],
                       key=lambda c: c.index)
    played = {c.index for c in cands}
    skipped = [i for i in range(len(d.actions)) if i not in played]
    h = len(seen.players) if horizon is None else horizon
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
                play_out(seen, c, player, deal_rng(seed, r), h, r)
            done_rounds += 1
            if progress:
                progress(done_rounds * len(cands), total)
        done_rounds += _separate(seen, cands, player, h, seed, done_rounds, extra, start, seconds)
        if progress:
            games = sum(c.playouts for c in cands)
            progress(games, games)
    ranked = _ranked(cands)
    return Search(player, ranked, skipped, done_rounds, time.perf_counter() - start, settings)


def _decider_view(position: Game | Observation) -> Observation:
    """The observation of the seat that decides now, with its worlds to deal; a clear error when there is no
    decision to look into."""
    if isinstance(position, Game):
        d = position.pending
        if d is None:
            raise ValueError("the game is over: there is no decision to analyse")
        return position.observe(d.player)
    position.own_decision()  # raises when there is no decision of the viewer's to analyse
    if position.resample is None:
        raise ValueError("this observation cannot deal the hidden cards (it was not made by Game.observe): "
                         "the search cannot look ahead from it")
    return position


def _ranked(cands: list[Candidate]) -> list[Candidate]:
    return sorted(cands, key=lambda c: (-(c.value if c.value is not None else 2.0), -c.prior, c.index))


def _separate(seen: Observation, cands: list[Candidate], player: int, horizon: int, seed: int, first: int, extra: int,
              start: float, seconds: float | None) -> int:
    """More deals for the best candidate and those whose interval reaches its own, until they separate, `extra`
    deals were added, or the next deal would pass `seconds`. Returns the deals added."""
    added = 0
    while added < extra:
        ranked = _ranked(cands)
        low = ranked[0].interval[0]
        close = [c for c in ranked[1:] if c.interval[1] >= low]
        if not close:
            break
        group = [ranked[0], *close]
        if seconds is not None:
            spent = time.perf_counter() - start
            games = sum(c.playouts for c in cands)
            # twice the mean cost of a simulated game, within 90% of the cap: on a busy machine one game can
            # take much longer than the mean, and the cap is a promise to the learner waiting for the hint
            if spent + 2 * spent / games * len(group) > SEPARATE_SHARE * seconds:
                break
        for c in group:
            play_out(seen, c, player, deal_rng(seed, first + added), horizon, first + added)
        added += 1
    return added


class SearchBot(Bot):
    """Plays the hint's best estimate (the hint's headline whenever the search calls it the best; among moves
    about as good, the hint may head with the one its rule of thumb points at instead), with the app's default
    settings unless told otherwise; single-action decisions cost nothing. `times` keeps the seconds each real choice took. `seed` is kept for
    the bots' common interface: the search is seeded like the hint, by the game's decision count."""

    def __init__(self, seed: int = 0, deals: int = DEFAULT_DEALS, width: int = DEFAULT_WIDTH,
                 horizon: int | None = None, seconds: float | None = DEFAULT_SECONDS):
        self.deals = deals
        self.width = width
        self.horizon = horizon
        self.seconds = seconds
        self.times: list[float] = []

    def decide(self, seen: Observation) -> Action:
        """The move for the viewer's own decision in `seen`: searched on worlds dealt from the observation."""
        d = seen.own_decision()
        if len(d.actions) == 1:
            return d.actions[0]
        t0 = time.perf_counter()
        # the hint's own seed (the decision count): this bot plays what the app's hint shows first
        found = search(seen, self.deals, self.width, self.horizon, self.seconds, seen.decisions)
        self.times.append(time.perf_counter() - t0)
        return found.best.action
