"""Both games' engines now against an earlier tree of `app/`, in the same run.

    git archive <commit> app | tar -x -C /tmp/before       # the tree to compare with
    .venv/bin/python -m bench.engine_compare /tmp/before [--runs 7] [--games 40]

Each run plays `karanor simulate --game G --games N --players 4 --bots random` in a fresh
process from each tree, the two in turn (the order alternating), and reads its
`commands_per_cpu_second` (CPU time of that process; the wall-clock rate where an old
tree does not print it). Prints, per game, every run's figure, the medians and the
ratio now/before of the medians and of the best runs (the machine's quietest moment).
A ratio of 1.00 is the same speed; both trees play the same seeded games when their
rules agree (`commands` says whether they did).
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def rate(tree: Path, game: str, games: int) -> tuple[float, int]:
    """(commands per CPU second, commands) of one simulate run from `tree`."""
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "simulate", "--game", game, "--games", str(games)]
        + ["--players", "4", "--bots", "random"],
        cwd=tree,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    row = json.loads(out.strip().splitlines()[-1])
    return float(row.get("commands_per_cpu_second") or row["commands_per_second"]), row["commands"]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("before", type=Path, help="a folder holding the earlier app/")
    parser.add_argument("--runs", type=int, default=7)
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--game", action="append", help="karanor, darkroad (default both)")
    args = parser.parse_args(argv)
    trees = {"before": args.before.resolve(), "now": ROOT}
    for game in args.game or ["karanor", "darkroad"]:
        rates: dict[str, list[float]] = {"before": [], "now": []}
        commands: dict[str, int] = {}
        for i in range(args.runs):
            order = ["before", "now"] if i % 2 == 0 else ["now", "before"]
            for name in order:
                r, commands[name] = rate(trees[name], game, args.games)
                rates[name].append(r)
        med = {k: statistics.median(v) for k, v in rates.items()}
        best = {k: max(v) for k, v in rates.items()}
        print(
            json.dumps(
                {
                    "game": game,
                    "commands": commands,
                    "runs": {k: sorted(round(x) for x in v) for k, v in rates.items()},
                    "median": {k: round(v) for k, v in med.items()},
                    "ratio_median": round(med["now"] / med["before"], 3),
                    "ratio_best": round(best["now"] / best["before"], 3),
                }
            )
        )


if __name__ == "__main__":
    main()
