"""Fit Karanor's hard-bot evaluation to game results (issue 30; docs/balance.md).

    .venv/bin/python -m bench.karanor_fit GAMES SEED [--players 4] [--out FILE]

plays GAMES greedy games (seeds from SEED), records at every turn's start the features
of every seat (`app.karanor.hard.features`) and, once the game is over, who won; then
fits a conditional logit (the chance a seat wins is the softmax over the seats of
`w . features`) by Newton's method with a small ridge, and prints the weights with the
fit's log-loss on the games it learned from and on held-out games (every fifth game),
beside the log-loss of equal chances. Paste the weights into `hard.WEIGHTS`.

A benchmark, run by hand: nothing here is asserted.
"""

from __future__ import annotations

import argparse
import json
import math
import time

from app.games import registry
from app.karanor import hard
from app.karanor.state import ACTION

Sample = tuple[list[list[float]], list[float]]  # per seat: features; per seat: won share


def collect(games: int, seed: int, players: int) -> list[list[Sample]]:
    g = registry.get("karanor")
    assert g is not None
    kit = g._game if hasattr(g, "_game") else g
    opts = kit.normalise_options({})
    out: list[list[Sample]] = []
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        s = kit.setup(opts, game_seed, [f"Bot {k + 1}" for k in range(players)], kit.content_pack)
        bots = [kit.bot("greedy", game_seed * 7 + k) for k in range(players)]
        rows: list[list[list[float]]] = []
        last = [-1]

        def watch(s, seat, cmd, events, rows=rows, last=last):  # type: ignore[no-untyped-def]
            if s.phase == ACTION and not s.pending and s.turn_seat != last[0]:
                last[0] = s.turn_seat
                rows.append([hard.features(s, q) for q in range(players)])

        kit.play(s, bots, max_rounds=80, on_command=watch)
        if s.result is None:
            continue
        winners = s.result.get("winners", ())
        y = [1.0 / len(winners) if q in winners else 0.0 for q in range(players)]
        out.append([(r, y) for r in rows])
    return out


def fit(samples: list[Sample], ridge: float = 1e-3, rounds: int = 12) -> list[float]:
    d = len(samples[0][0][0])
    # Standardise (the fit's own scale), then map the weights back.
    flat = [x for xs, _ in samples for x in xs]
    mu = [sum(x[j] for x in flat) / len(flat) for j in range(d)]
    sd = [math.sqrt(sum((x[j] - mu[j]) ** 2 for x in flat) / len(flat)) or 1.0 for j in range(d)]
    data = [([[(x[j] - mu[j]) / sd[j] for j in range(d)] for x in xs], y) for xs, y in samples]
    w = [0.0] * d
    for _ in range(rounds):
        grad = [-ridge * wj for wj in w]
        hess = [[ridge if i == j else 0.0 for j in range(d)] for i in range(d)]
        for xs, y in data:
            z = [sum(wj * xj for wj, xj in zip(w, x, strict=True)) for x in xs]
            top = max(z)
            e = [math.exp(v - top) for v in z]
            tot = sum(e)
            pr = [v / tot for v in e]
            mean = [sum(pr[k] * xs[k][j] for k in range(len(xs))) for j in range(d)]
            for k, x in enumerate(xs):
                for j in range(d):
                    grad[j] += (y[k] - pr[k]) * x[j]
                cx = [x[j] - mean[j] for j in range(d)]
                pk = pr[k]
                for i in range(d):
                    ci = pk * cx[i]
                    row = hess[i]
                    for j in range(d):
                        row[j] += ci * cx[j]
        step = _solve(hess, grad)
        w = [a + b for a, b in zip(w, step, strict=True)]
        if max(abs(v) for v in step) < 1e-6:
            break
    return [w[j] / sd[j] for j in range(d)]


def log_loss(samples: list[Sample], w: list[float]) -> float:
    total = 0.0
    for xs, y in samples:
        z = [sum(a * b for a, b in zip(w, x, strict=True)) for x in xs]
        top = max(z)
        lse = top + math.log(sum(math.exp(v - top) for v in z))
        total -= sum(yk * (zk - lse) for yk, zk in zip(y, z, strict=True))
    return total / len(samples)


def _solve(a: list[list[float]], b: list[float]) -> list[float]:
    """a x = b by Gaussian elimination with partial pivoting (a is small)."""
    n = len(b)
    m = [row[:] + [b[i]] for i, row in enumerate(a)]
    for c in range(n):
        piv = max(range(c, n), key=lambda r: abs(m[r][c]))
        m[c], m[piv] = m[piv], m[c]
        for r in range(c + 1, n):
            f = m[r][c] / m[c][c]
            for k in range(c, n + 1):
                m[r][k] -= f * m[c][k]
    x = [0.0] * n
    for r in range(n - 1, -1, -1):
        x[r] = (m[r][n] - sum(m[r][k] * x[k] for k in range(r + 1, n))) / m[r][r]
    return x


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--players", type=int, default=4)
    ap.add_argument("--out", default=None, help="also write the samples as JSON here")
    a = ap.parse_args()
    t0 = time.perf_counter()
    games = collect(a.games, a.seed, a.players)
    t1 = time.perf_counter()
    train = [r for i, g in enumerate(games) if i % 5 for r in g]
    held = [r for i, g in enumerate(games) if not i % 5 for r in g]
    if a.out:
        with open(a.out, "w") as f:
            json.dump(games, f)
    w = fit(train)
    even = math.log(a.players)
    print(
        json.dumps(
            {
                "games": len(games),
                "samples": len(train) + len(held),
                "collect_s": round(t1 - t0, 1),
                "fit_s": round(time.perf_counter() - t1, 1),
                "log_loss_train": round(log_loss(train, w), 4),
                "log_loss_held_out": round(log_loss(held, w), 4),
                "log_loss_equal_chances": round(even, 4),
                "weights": dict(zip(hard.FEATURES, (round(v, 4) for v in w), strict=True)),
            },
            indent=1,
        )
    )


if __name__ == "__main__":
    main()
