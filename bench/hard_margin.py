"""The hard bot against greedy ones with another search margin (docs/balance*.md):

    .venv/bin/python -m bench.hard_margin GAME MARGIN LEVELS GAMES SEED ITERATIONS
    .venv/bin/python -m bench.hard_margin karanor 0.6 hard,greedy,greedy,greedy 20 30 30

    HARD_HORIZON=end HARD_TOP=3 .venv/bin/python -m bench.hard_margin karanor 0 ...
    HARD_JOBS=2 .venv/bin/python -m bench.hard_margin ...   # the games on two cores

prints the wins, their 95% intervals and the decision CPU times (a benchmark: figures,
no assertion)."""

from __future__ import annotations

import json
import os
import sys

from app.games import registry
from app.games.kit.search import Budget


def main(argv: list[str]) -> None:
    game_id, margin, bots, games, seed, iterations = argv
    game = registry.get(game_id)
    assert game is not None, game_id
    if game_id == "karanor":
        from app.karanor import hard
    else:
        from app.darkroad import hard  # type: ignore[no-redef]
    hard.Search.margin = float(margin)
    # Variants of the search (environment): HARD_HORIZON turn|next|end, HARD_TOP (the
    # candidates kept besides ending the turn), HARD_WIN (Karanor: a won game's worth).
    env = os.environ
    hard.Search.horizon = env.get("HARD_HORIZON", hard.Search.horizon)
    hard.TOP = int(env.get("HARD_TOP", hard.TOP))
    if env.get("HARD_REACT"):
        hard.Search.reactions = True  # type: ignore[attr-defined]
    if "HARD_REPLIES" in env:  # other seats' turns a rollout plays (horizon "next")
        if hasattr(hard, "REPLIES"):  # Dark Road: beyond two seats
            hard.REPLIES = int(env["HARD_REPLIES"])
        else:  # Karanor: at every count
            replies = int(env["HARD_REPLIES"])
            hard.Search.replies = lambda self, s: replies  # type: ignore[attr-defined]
    if "HARD_Z" in env:  # the paired gain's lower bound, in standard errors
        hard.Search.confidence = float(env["HARD_Z"])  # type: ignore[attr-defined]
    if "HARD_CLOSE" in env:  # Karanor: the candidates within this much gold of the best
        hard.Search.close = float(env["HARD_CLOSE"])  # type: ignore[attr-defined]
    if "HARD_FITTED" in env:  # Karanor: 0 scores by `worth`, 1 by the fitted `win_chance`
        hard.Search.fitted = env["HARD_FITTED"] == "1"  # type: ignore[attr-defined]
    if "HARD_WIN" in env:
        hard.Search.win = float(env["HARD_WIN"])  # type: ignore[attr-defined]
    out = game.simulate(
        int(games),
        len(bots.split(",")),
        seed=int(seed),
        bots=bots,
        budget=Budget(int(iterations), None),
        jobs=int(env.get("HARD_JOBS", "1")),  # processes sharing the games (forked: the
    )  # variants above are theirs too)
    keys = ("wins", "win_share_ci95", "decision_cpu_ms", "finished")
    print(json.dumps({k: out.get(k) for k in keys}))


if __name__ == "__main__":
    main(sys.argv[1:])
