"""How Karanor's hard bot loses (issue 30; docs/balance.md): games of the hard bot in seat 0
against three greedy ones, and for each loss who ended the game, the hard bot's prestige
when the end was triggered, the final gap and whether gold broke a tie (rule 23).

    .venv/bin/python -m bench.karanor_endings GAMES SEED [--set weight=value,...]

The hard bot plays its tuned valuation and its last turn's search, the close calls never
overruled (as `python -m bench.hard_margin karanor 1e9 ... 1`: no clock in any decision,
so a run's games are the same on any machine). `--set` changes weights of
`hard.TunedPlan` (e.g. `--set purse=20`): the games a change leaves alone stay the same,
so two runs on one seed compare change by change. Prints one JSON object (a benchmark:
figures, no assertion).
"""

from __future__ import annotations

import argparse
import json
import time
from collections import Counter
from typing import Any

from app.games import registry
from app.games.kit.search import Budget
from app.karanor import bots as kb
from app.karanor import hard


def play(games: int, seed: int) -> dict[str, Any]:
    g = registry.get("karanor")
    kit: Any = getattr(g, "_game", g)
    opts = kit.normalise_options({})
    wins = 0.0
    how: Counter[str] = Counter()
    started = time.process_time()
    for i in range(games):
        game_seed = seed * 1_000_003 + i
        s = kit.setup(opts, game_seed, ["a", "b", "c", "d"], kit.content_pack)
        seats: list[Any] = [hard.HardBot(game_seed * 7, Budget(1, None))]
        seats += [kb.GreedyBot(game_seed * 7 + k) for k in (1, 2, 3)]
        at_trigger: list[int] = []

        def watch(s: Any, seat: int, cmd: Any, events: Any, seen: list[int] = at_trigger) -> None:
            if s.end_triggered_by is not None and not seen:
                seen.append(s.players[0].prestige)

        kb.play(s, seats, on_command=watch)
        winners = (s.result or {}).get("winners", ())
        if 0 in winners:
            wins += 1 / len(winners)
            continue
        final = [p.prestige for p in s.players]
        gap = max(final) - final[0]
        ender = "hard" if s.end_triggered_by == 0 else "other"
        how[f"ended by {ender}"] += 1
        how[
            "gold broke a prestige tie"
            if gap == 0
            else f"short by {min(gap, 4)}{'+' if gap >= 4 else ''}"
        ] += 1
        if ender == "other" and at_trigger:
            how[f"hard at {at_trigger[0]} when the end came"] += 1
    return {
        "games": games,
        "seed": seed,
        "wins": wins,
        "share": round(wins / games, 4),
        "losses": dict(sorted(how.items())),
        "cpu_seconds": round(time.process_time() - started, 1),
    }


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("games", type=int)
    ap.add_argument("seed", type=int)
    ap.add_argument("--set", default="", help="weights of hard.TunedPlan, k=v,...")
    a = ap.parse_args()
    hard.Search.margin = 1e9  # the close calls never overruled: no search, no clock
    changed = {}
    for item in filter(None, a.set.split(",")):
        k, v = item.split("=")
        if not hasattr(hard.TunedPlan, k):
            raise SystemExit(f"no weight {k!r}")
        changed[k] = float(v)
        setattr(hard.TunedPlan, k, float(v))
    print(json.dumps({"bench": "karanor_endings", "set": changed, **play(a.games, a.seed)}))


if __name__ == "__main__":
    main()
