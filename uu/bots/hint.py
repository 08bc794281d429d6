"""Hints: the Monte Carlo win rate of every legal action of the pending decision.

`hint(game)` plays each legal action forward many times to the end of the game with bots (playouts) and
reports, per action, the fraction of playouts the deciding player won.

**Hidden information is resampled, never read** (determinization). The deciding player does not know the
deck order or the other players' hands (unless a Nanny Cam shows a hand), so every playout first deals the
cards it cannot know — every card that is not in its own hand, a visible hand, a Stable, the discard pile,
the Nursery, the Neigh pile, limbo or the box — at random back into the deck and the hidden hands, keeping
every zone's size, with the playout's own RNG. The pool of unknown cards is built from the *known* cards
(and sorted), so it never depends on where the hidden cards really are: two positions that differ only in
hidden cards give identical hints for the same seed (tests check this). The engine's own RNG is reseeded
from the playout's RNG too. Known cards stay put. Two more groups stay put because the deciding player
knows them: cards named by the legal actions (e.g. the cards Unicorn Oracle shows, a card in a hand that
Blatant Thievery lets you pick) and cards held by the effect being resolved (frames on the stack). Cards
the rules revealed earlier (a searched card shown to all) are treated as unknown — conservative, never a
leak.

**Playouts.** Each playout copies the game (a fast copy without the narration log), determinizes, applies
the action, then lets one bot per seat (`bot`: "random" or "heuristic", seeded from the playout RNG) play
to the end or for at most `max_decisions` decisions; a capped playout counts as 1/k of a win if the player
is among the k players with the most Unicorns (the deck-out rule's first criterion), else 0. The r-th
playout of every action uses the same determinization and bot seeds (common random numbers: actions are
compared on the same deals).

**Budget.** `playouts=N` runs exactly N playouts (deterministic for a seed); otherwise playouts run until
`seconds` have passed (at least one per action; a playout still running at 1.1 x `seconds` is dropped). They are shared out by UCB1 after a warm-up round-robin
(two each when the budget allows), so clearly bad actions get few playouts and the good ones are measured
more precisely; each row says how many playouts it got.
"""

from __future__ import annotations

import dataclasses
import html
import math
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from uu.bots.bench import make_bot
from uu.engine import queries as q
from uu.engine.actions import Action
from uu.engine.game import Game
from uu.engine.state import GameState
from uu.engine.targets import clone

UCB_C = 1.0
MAX_DECISIONS = 600
_SHARED = frozenset({"players", "defs", "options", "orders"})
# GameState's fields, from its dataclass description (the compiled engine's class has no __slots__ to list)
_STATE_FIELDS = tuple(f.name for f in dataclasses.fields(GameState))


# ---- fast copies and determinization ---------------------------------------------------------------------

def fast_copy(game: Game) -> Game:
    """An independent copy for playouts: like `Game.copy` but without the narration log (the engine never
    reads it) and with plain list copies instead of `copy.deepcopy` (about 10x faster)."""
    s = game.state
    new = s.__class__.__new__(s.__class__)
    for name in _STATE_FIELDS:
        v = getattr(s, name)
        if name in _SHARED:
            pass
        elif name == "log":
            v = []
        elif name == "static_cache":
            v = [None] * len(v)
        elif name == "cand_cache":
            v = {}  # derived, and determinize edits the zones directly
        elif name == "rng":
            r = random.Random()
            r.setstate(v.getstate())
            v = r
        elif isinstance(v, list):
            if v and isinstance(v[0], list) and all(isinstance(x, int) for sub in v for x in sub):
                v = [list(x) for x in v]
            elif all(isinstance(x, (int, str)) for x in v):
                v = list(v)
            else:
                v = clone(v)
        elif isinstance(v, (dict, set)):
            v = clone(v) if isinstance(v, dict) else set(v)
        setattr(new, name, v)
    g = Game.__new__(Game)
    g.__dict__.update(game.__dict__)
    g.state = new
    return g


def _ints(x: Any, out: set[int]) -> None:
    if isinstance(x, bool):
        return
    if isinstance(x, int):
        out.add(x)
    elif isinstance(x, dict):
        for v in x.values():
            _ints(v, out)
    elif isinstance(x, (list, tuple)):
        for v in x:
            _ints(v, out)


def known_to(game: Game, player: int) -> tuple[set[int], list[int]]:
    """(cards `player` knows the place of, the seats whose hands are hidden from them)."""
    s = game.state
    hidden_hands = [p for p in range(s.n) if p != player and not q.hand_visible(s, p)]
    known: set[int] = set()
    for p in range(s.n):
        known.update(s.stables[p])
        if p not in hidden_hands:
            known.update(s.hands[p])
    for zone in (s.discard, s.nursery, s.pile_cards, s.limbo, s.box):
        known.update(zone)
    # cards the pending decision shows this player, and cards the effect being resolved holds
    d = game.pending
    if d is not None and d.player == player:
        for a in d.actions:
            if a.kind in ("play", "respond", "discard", "sacrifice", "baby", "choose") and a.cid is not None:
                known.add(a.cid)
            for t in a.target:
                if t.card is not None and t.cid is not None:
                    known.add(t.cid)
    held: set[int] = set()
    _ints(s.stack, held)
    _ints(s.chain, held)
    _ints(s.pile, held)
    ncards = len(s.defs)
    known.update(c for c in held if 0 <= c < ncards)
    return known, hidden_hands


def determinize(game: Game, player: int, rng: random.Random) -> Game:
    """A fast copy of `game` in which every card `player` cannot know is dealt at random (with `rng`) into
    the deck and the hidden hands, zone sizes unchanged; the engine RNG is reseeded from `rng`."""
    g = fast_copy(game)
    s = g.state
    known, hidden_hands = known_to(game, player)
    pool = [c for c in range(len(s.defs)) if c not in known]  # sorted: independent of the hidden layout
    rng.shuffle(pool)
    zones = [s.deck] + [s.hands[p] for p in hidden_hands]
    owners = [-1] + hidden_hands
    slots = sum(1 for z in zones for c in z if c not in known)
    if slots != len(pool):
        raise RuntimeError(f"determinization: {len(pool)} unknown cards for {slots} hidden places; a zone "
                           f"is missing from uu.bots.hint.known_to")
    it = iter(pool)
    for zone, owner in zip(zones, owners):
        for i, c in enumerate(zone):
            if c in known:
                continue
            new = next(it)
            zone[i] = new
            s.zone_of[new] = "deck" if owner < 0 else "hand"
            s.owner_of[new] = owner
    s.rng = random.Random(rng.getrandbits(64))
    return g


# ---- results ---------------------------------------------------------------------------------------------

@dataclass
class HintRow:
    action: Action
    description: str
    win_rate: float | None  # None: no playout finished for this action (time ran out)
    playouts: int
    wins: float = 0.0
    index: int = 0  # position among the decision's legal actions

    @property
    def margin(self) -> float | None:
        """Half-width of a rough 95% interval on the win rate (normal approximation)."""
        if not self.playouts or self.win_rate is None:
            return None
        p = self.win_rate
        return 1.96 * math.sqrt(max(p * (1 - p), 0.25 / self.playouts) / self.playouts)


@dataclass
class HintResult:
    player: int
    player_name: str
    kind: str
    prompt: str
    rows: list[HintRow]  # best first
    playouts: int
    seconds: float
    bot: str
    seed: int
    capped: int = 0  # playouts stopped at max_decisions
    meta: dict[str, Any] = field(default_factory=dict)

    @property
    def question(self) -> str:
        """The prompt without the player's name it starts with (the table's caption names them already)."""
        return self.prompt.removeprefix(f"{self.player_name}: ")

    @property
    def best(self) -> HintRow | None:
        return self.rows[0] if self.rows else None

    def to_dict(self) -> dict[str, Any]:
        return {
            "player": self.player_name, "kind": self.kind, "prompt": self.prompt, "playouts": self.playouts,
            "seconds": round(self.seconds, 3), "bot": self.bot, "seed": self.seed, "capped": self.capped,
            "rows": [{"action": r.description, "index": r.index, "playouts": r.playouts,
                      "win_rate": None if r.win_rate is None else round(r.win_rate, 4)} for r in self.rows],
        }

    def to_table(self) -> str:
        head = (f"{self.player_name}: {self.question}\n{self.playouts} playouts ({self.bot} bots) in "
                f"{self.seconds:.2f} s; win rate = share of playouts {self.player_name} won")
        width = max([len(r.description) for r in self.rows] + [6])
        lines = [head, f"{'action':<{width}}  {'win %':>6}  {'±':>5}  {'playouts':>8}"]
        for r in self.rows:
            wr = "  -" if r.win_rate is None else f"{100 * r.win_rate:5.1f}"
            m = "" if r.margin is None else f"{100 * r.margin:4.0f}"
            lines.append(f"{r.description:<{width}}  {wr:>6}  {m:>5}  {r.playouts:>8}")
        return "\n".join(lines)

    def __str__(self) -> str:
        return self.to_table()

    def _repr_html_(self) -> str:
        e = html.escape
        rows = []
        for i, r in enumerate(self.rows):
            wr = "–" if r.win_rate is None else f"{100 * r.win_rate:.1f}%"
            m = "" if r.margin is None else f"±{100 * r.margin:.0f}"
            style = ' style="font-weight:bold"' if i == 0 else ""
            rows.append(f"<tr{style}><td>{e(r.description)}</td><td style=\"text-align:right\">{e(wr)}</td>"
                        f"<td style=\"text-align:right\">{e(m)}</td>"
                        f"<td style=\"text-align:right\">{r.playouts}</td></tr>")
        caption = (f"{e(self.player_name)}: {e(self.question)} — {self.playouts} playouts ({e(self.bot)} bots), "
                   f"{self.seconds:.2f} s")
        return ("<table class=\"uu-hint\"><caption>" + caption + "</caption><thead><tr><th>action</th>"
                "<th>win rate</th><th>±</th><th>playouts</th></tr></thead><tbody>" + "".join(rows)
                + "</tbody></table>")


# ---- the analysis ----------------------------------------------------------------------------------------

def _score(g: Game, player: int) -> float:
    w = g.state.winner
    if g.is_over:
        return 1.0 if w == player else 0.0
    counts = [g.unicorns(p) for p in range(g.state.n)]
    top = max(counts)
    if counts[player] != top:
        return 0.0
    return 1.0 / counts.count(top)


def playout(game: Game, action: Action, player: int, rng: random.Random, bot: str = "random",
            max_decisions: int = MAX_DECISIONS, deadline: float | None = None) -> tuple[float, bool] | None:
    """One determinized playout of `action`; returns (score for `player`, capped?), or None when
    `deadline` (a time.perf_counter() value) passed first."""
    g = determinize(game, player, rng)
    bots = [make_bot(bot, rng.getrandbits(32)) for _ in range(g.state.n)]
    g.apply(action)
    k = 0
    while g.pending is not None and k < max_decisions:
        g.apply(bots[g.pending.player].choose(g))
        k += 1
        if deadline is not None and not k % 16 and time.perf_counter() > deadline:
            return None
    return _score(g, player), g.pending is not None


def hint(game: Game, player: int | None = None, playouts: int | None = None, seconds: float = 0.8,
         progress: Callable[[int, int], Any] | None = None, bot: str = "random", seed: int = 0,
         max_decisions: int = MAX_DECISIONS) -> HintResult:
    """Monte Carlo win rate of each legal action of the pending decision (see the module docstring).

    `player` must be the pending player (default). `playouts`: exact number of playouts (deterministic);
    else run for `seconds`. `progress(done, total)` is called now and then (in time mode `total` is an
    estimate that settles as playouts finish; the last call has done == total)."""
    d = game.pending
    if d is None:
        raise ValueError("the game is over: there is no decision to analyse")
    if player is None:
        player = d.player
    if player != d.player:
        raise ValueError(f"the pending decision is {game.players[d.player]}'s, not {game.players[player]}'s")
    make_bot(bot, 0)  # unknown names fail before any work
    actions = d.actions
    k = len(actions)
    n = [0] * k
    w = [0.0] * k
    capped = 0
    start = time.perf_counter()
    budget = playouts if playouts is not None else None
    warm = 2 if budget is None or budget >= 2 * k else 1
    done = 0
    last_report = start
    total_est = budget if budget is not None else max(k, 1)
    if progress:
        progress(0, total_est)
    while True:
        if budget is not None:
            if done >= budget:
                break
        else:
            elapsed = time.perf_counter() - start
            if done >= k and elapsed >= seconds:
                break
        # choose the action: warm-up round-robin, then UCB1
        least = min(n)
        if least < warm:
            i = n.index(least)  # round-robin
        else:
            logn = math.log(done)
            i = max(range(k), key=lambda j: (w[j] / n[j] + UCB_C * math.sqrt(logn / n[j]), -j))
        rng = random.Random(f"uu-hint:{seed}:{n[i]}")  # the r-th playout of every action: same deal
        # time mode: a playout still running well past the budget is dropped (unless its action has none)
        deadline = None if budget is not None or n[i] == 0 else start + seconds * 1.1 + 0.02
        res = playout(game, actions[i], player, rng, bot, max_decisions, deadline)
        if res is None:
            break
        score, was_capped = res
        n[i] += 1
        w[i] += score
        capped += was_capped
        done += 1
        if progress:
            now = time.perf_counter()
            if budget is None and done >= k:
                total_est = max(done + 1, int(done * seconds / max(now - start, 1e-6)))
            if now - last_report >= 0.05:
                last_report = now
                progress(done, max(total_est, done))
    seconds_used = time.perf_counter() - start
    if progress:
        progress(done, done)
    rows = [HintRow(a, game.describe(a), (w[j] / n[j]) if n[j] else None, n[j], w[j], j)
            for j, a in enumerate(actions)]
    rows.sort(key=lambda r: (-(r.win_rate if r.win_rate is not None else -1.0), -r.playouts, r.index))
    return HintResult(player, game.players[player], d.kind, d.prompt, rows, done, seconds_used, bot, seed,
                      capped)
