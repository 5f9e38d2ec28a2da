"""Tune the weights of Karanor's valuation for the hard bot (issue 30; docs/balance.md).

    .venv/bin/python -m bench.karanor_tune GAMES SEED [--rounds R] [--start k=v,...]
        [--factors 0.7,1.4] [--only k,...]

A coordinate search: from the current weights (`hard.TunedPlan`, or `--start`), each
weight of `valuation.Plan`'s in turn is scaled by each factor (0.7 and 1.4 unless
`--factors` says otherwise); a change is kept when
the seat playing the changed weights (a greedy bot on them, at each of the 4 seats in
turn) wins more of GAMES games against three greedy bots on the default weights than the
weights before did, on the same seeds (common random numbers: the comparison is paired).
Prints every trial and the weights found. Run by hand: nothing is asserted.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

from app.games import registry
from app.karanor import bots as kb
from app.karanor import hard
from app.karanor.valuation import Plan

WEIGHTS = ("p_base", "p_slope", "rev", "interact", "build_bonus", "quest_bonus",
           "deliver_bonus", "recruit", "purse", "act", "step", "artifact")  # fmt: skip


def share(weights: dict[str, float], games: int, seed: int) -> float:
    """The win share of a greedy bot on `weights` against three on the defaults."""
    plan = type("Trial", (Plan,), dict(weights))
    bot = type("TrialBot", (kb.GreedyBot,), {"valuation": plan})
    g = registry.get("karanor")
    kit: Any = getattr(g, "_game", g)
    opts = kit.normalise_options({})
    wins = 0.0
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        me = i % 4
        s = kit.setup(opts, game_seed, ["a", "b", "c", "d"], kit.content_pack)
        seats = [bot(game_seed * 7 + k) if k == me else kb.GreedyBot(game_seed * 7 + k)
                 for k in range(4)]  # fmt: skip
        kb.play(s, seats)
        if s.result is not None and me in s.result.get("winners", ()):
            wins += 1 / len(s.result["winners"])
    return wins / games


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--rounds", type=int, default=1)
    ap.add_argument("--start", default="")
    ap.add_argument("--only", default="", help="the weights to try (comma list; all by default)")
    ap.add_argument(
        "--factors", default="0.7,1.4", help="what each weight is scaled by (comma list)"
    )
    a = ap.parse_args()
    w = {k: float(getattr(hard.TunedPlan, k)) for k in WEIGHTS}
    for item in filter(None, a.start.split(",")):
        k, v = item.split("=")
        w[k] = float(v)
    t0 = time.perf_counter()
    best = share(w, a.games, a.seed)
    print(json.dumps({"start": w, "share": best}), flush=True)
    for _ in range(a.rounds):
        for k in a.only.split(",") if a.only else WEIGHTS:
            for f in map(float, a.factors.split(",")):
                trial = {**w, k: round(w[k] * f, 3)}
                got = share(trial, a.games, a.seed)
                print(json.dumps({k: trial[k], "share": got, "best": best}), flush=True)
                if got > best:
                    w, best = trial, got
                    break
    secs = round(time.perf_counter() - t0)
    print(json.dumps({"weights": w, "share": best, "seconds": secs}))


if __name__ == "__main__":
    main()
