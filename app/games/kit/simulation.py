"""The games `KitGame.simulate` plays: in this process, or shared among forked ones.

Each game is dealt from its own seed (`seed * 1_000_003 + g`) and its bots from theirs, so
which process plays a game changes nothing of it: `run(plan, games, jobs)` gives the same
games, wins and decision times for any `jobs` (the figures of speed aside). With `jobs` > 1
the processes are forked (the plan, its game and its bots' budget are inherited, not sent)
and each plays every `jobs`-th game; the finished games come back (pickled) and are put
back in their order. A run's figures of speed are then the shared wall clock's and the
processes' CPU time summed.
"""

from __future__ import annotations

import gc
import multiprocessing
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Plan:
    """What every game of one `simulate` is played with."""

    game: Any  # the KitGame
    options: Any  # normalised
    kinds: list[str]  # one bot kind a seat
    pack: str
    seed: int
    max_rounds: int
    budget: Any  # the searching bot's `search.Budget`, or None
    watcher: Any  # `KitGame.watch`'s callback (one process only), or None


@dataclass(slots=True)
class Played:
    """What some of the games gave."""

    commands: int = 0
    cpu: float = 0.0  # CPU seconds of the process(es) that played them
    finished: list[Any] = field(default_factory=list)  # the finished games' states
    times: list[float] = field(default_factory=list)  # a searching bot's decisions, wall ms
    cpu_times: list[float] = field(default_factory=list)  # and CPU ms
    order: list[int] = field(default_factory=list)  # each finished game's number
    winners: list[tuple[int, ...]] = field(default_factory=list)  # each finished game's

    def wins(self, players: int) -> list[float]:
        """Each seat's wins (a game won by several shared among them), summed in the
        games' order."""
        out = [0.0] * players
        for winners in self.winners:
            for w in winners:
                out[w] += 1 / len(winners)
        return out


def play(plan: Plan, numbers: range) -> Played:
    """Play the games `numbers` in this process."""
    g = plan.game
    players = len(plan.kinds)
    out = Played()
    names = [f"Bot {i + 1}" for i in range(players)]
    cpu_start = time.process_time()
    for n in numbers:
        game_seed = plan.seed * 1_000_003 + n
        s = g.setup(plan.options, game_seed, names, plan.pack)
        seats = [g.bot(kind, game_seed * 7 + i, plan.budget) for i, kind in enumerate(plan.kinds)]
        out.commands += g.play(s, seats, max_rounds=plan.max_rounds, on_command=plan.watcher)
        for b in seats:
            out.times += getattr(b, "times", ())
            out.cpu_times += getattr(b, "cpu_times", ())
        if g.rules.is_over(s):
            out.finished.append(s)
            out.order.append(n)
            o = g.rules.outcome(s)
            out.winners.append(tuple(o.winners) if o is not None else ())
        gc.freeze()
    out.cpu = time.process_time() - cpu_start
    return out


_PLAN: Plan | None = None  # the plan of the pool being run, inherited by its forks


def _play_share(share: range) -> Played:
    assert _PLAN is not None
    return play(_PLAN, share)


def run(plan: Plan, games: int, jobs: int = 1) -> Played:
    """Play games 0 .. `games` - 1, in `jobs` processes (at most one a game)."""
    jobs = min(jobs, games)
    if jobs <= 1:
        return play(plan, range(games))
    global _PLAN
    _PLAN = plan
    try:
        forked = multiprocessing.get_context("fork")
        with ProcessPoolExecutor(max_workers=jobs, mp_context=forked) as pool:
            shares = list(pool.map(_play_share, [range(k, games, jobs) for k in range(jobs)]))
    finally:
        _PLAN = None
    return merged(shares)


def merged(shares: list[Played]) -> Played:
    """The shares' games as one process would have played them: the finished games in
    their order (so their wins sum to the same floats), the decision times joined
    (their percentiles do not depend on the order)."""
    out = Played()
    games = sorted(
        (
            (n, s, w)
            for part in shares
            for n, s, w in zip(part.order, part.finished, part.winners, strict=True)
        ),
        key=lambda game: game[0],
    )
    for n, s, winners in games:
        out.order.append(n)
        out.finished.append(s)
        out.winners.append(winners)
    for part in shares:
        out.commands += part.commands
        out.cpu += part.cpu
        out.times += part.times
        out.cpu_times += part.cpu_times
    return out
