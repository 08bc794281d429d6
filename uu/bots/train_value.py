"""Train the position model of `uu.bots.value` from games the heuristic bots play against each other.

    python -m uu.bots.train_value [--games 1200] [--seed 0]

Plays seeded games with 2 to 6 players, reads every player's features as each turn begins, and fits the
conditional logit model (the winner is the "chosen" player of each sample) by Newton's method, in plain
Python (eleven weights: a few minutes on one core). Writes `uu/bots/value_weights.json` with the weights, the
command's settings and the held-out log-likelihood and accuracy, so a retrain can be compared.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import time
from pathlib import Path

from uu.bots.heuristic import HeuristicBot
from uu.bots.value import FEATURES, WEIGHTS_FILE, features
from uu.engine import new_game

Sample = tuple[list[list[float]], int]  # (each player's features, the winner's seat)


def play_samples(games: int, seed: int) -> list[Sample]:
    out: list[Sample] = []
    for g in range(games):
        n = 2 + g % 5
        game = new_game([f"P{i + 1}" for i in range(n)], seed=seed + g)
        bots = [HeuristicBot(seed * 7919 + g * 13 + i) for i in range(n)]
        seen_turn = -1
        states: list[list[list[float]]] = []
        k = 0
        while game.pending is not None and k < 20_000:
            s = game.state
            if s.turn_number >= 1 and s.turn_number != seen_turn:
                seen_turn = s.turn_number
                states.append([features(s, p) for p in range(n)])
            game.push(bots[game.pending.player].choose(game))
            k += 1
        w = game.state.winner
        if isinstance(w, int):
            out.extend((f, w) for f in states)
    return out


def _probs(w: list[float], fs: list[list[float]]) -> list[float]:
    scores = [sum(a * b for a, b in zip(w, f)) for f in fs]
    top = max(scores)
    e = [math.exp(x - top) for x in scores]
    t = sum(e)
    return [x / t for x in e]


MONOTONE = tuple(i for i, name in enumerate(FEATURES) if name.startswith("within_"))


def fit_monotone(samples: list[Sample]) -> list[float]:
    """`fit`, then any "within k" weight that came out negative is held at zero and the rest refitted."""
    fixed: set[int] = set()
    while True:
        w = fit(samples, fixed=fixed)
        negative = {i for i in MONOTONE if w[i] < 0 and i not in fixed}
        if not negative:
            return w
        fixed |= negative


def fit(samples: list[Sample], iterations: int = 12, ridge: float = 1.0, fixed: set[int] | None = None) -> list[float]:
    """Conditional logit by Newton's method; weights in `fixed` stay at zero."""
    fixed = fixed or set()
    k = len(FEATURES)
    w = [0.0] * k
    for _ in range(iterations):
        grad = [-ridge * x for x in w]
        hess = [[(ridge if i == j else 0.0) for j in range(k)] for i in range(k)]
        for fs, win in samples:
            p = _probs(w, fs)
            mean = [sum(p[j] * fs[j][i] for j in range(len(fs))) for i in range(k)]
            for i in range(k):
                grad[i] += fs[win][i] - mean[i]
            for j, f in enumerate(fs):
                d = [f[i] - mean[i] for i in range(k)]
                pj = p[j]
                for a in range(k):
                    da = pj * d[a]
                    row = hess[a]
                    for b in range(a, k):
                        row[b] += da * d[b]
        for a in range(k):
            for b in range(a):
                hess[a][b] = hess[b][a]
        for i in fixed:  # a held weight: its row and column become the identity, its gradient zero
            grad[i] = 0.0
            for j in range(k):
                hess[i][j] = hess[j][i] = 0.0
            hess[i][i] = 1.0
        step = _solve(hess, grad)
        w = [x + y for x, y in zip(w, step)]
        if max(abs(x) for x in step) < 1e-6:
            break
    return w


def _solve(m: list[list[float]], v: list[float]) -> list[float]:
    """Gaussian elimination with partial pivoting (m is symmetric positive definite thanks to the ridge)."""
    n = len(v)
    a = [row[:] + [v[i]] for i, row in enumerate(m)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(a[r][c]))
        a[c], a[piv] = a[piv], a[c]
        for r in range(c + 1, n):
            f = a[r][c] / a[c][c]
            for x in range(c, n + 1):
                a[r][x] -= f * a[c][x]
    out = [0.0] * n
    for r in range(n - 1, -1, -1):
        out[r] = (a[r][n] - sum(a[r][x] * out[x] for x in range(r + 1, n))) / a[r][r]
    return out


def evaluate(w: list[float], samples: list[Sample]) -> dict[str, float]:
    ll = 0.0
    right = 0
    for fs, win in samples:
        p = _probs(w, fs)
        ll += math.log(max(p[win], 1e-12))
        right += max(range(len(p)), key=p.__getitem__) == win
    return {"mean_log_likelihood": round(ll / len(samples), 4), "accuracy": round(right / len(samples), 4)}


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m uu.bots.train_value", description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--sample-every", type=int, default=2, help="keep one turn in K (neighbouring turns are alike)")
    ap.add_argument("--out", default=str(WEIGHTS_FILE), help="where to write the weights (default: the shipped file)")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    samples = play_samples(args.games, args.seed)[:: args.sample_every]
    rng = random.Random(args.seed)
    rng.shuffle(samples)
    held = samples[: len(samples) // 5]
    train = samples[len(samples) // 5:]
    w = fit_monotone(train)
    report = {"features": list(FEATURES), "weights": [round(x, 5) for x in w],
              "trained_on": f"python -m uu.bots.train_value --games {args.games} --seed {args.seed} "
                            f"--sample-every {args.sample_every}",
              "samples": len(train), "held_out": evaluate(w, held),
              "uniform_held_out_log_likelihood": round(sum(-math.log(len(fs)) for fs, _ in held) / len(held), 4)}
    Path(args.out).write_text(json.dumps(report, indent=1) + "\n", encoding="utf-8")
    print(json.dumps(report), f"({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
