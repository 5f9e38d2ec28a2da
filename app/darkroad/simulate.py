"""Whole Dark Road games between bots, in-process: the engine's speed and the balance."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from typing import Any

from . import bots as players_of
from .content import load
from .engine import new_game


def simulate(
    game_count: int,
    players: int,
    bots: str = "random",
    seed: int = 0,
    *,
    options: dict[str, Any] | None = None,
    stats: bool = False,
) -> dict[str, Any]:
    """Play `game_count` games of `players` bots of one kind; the figures
    `karanor simulate --game darkroad` prints (with `stats`: scores and seat wins)."""
    commands = finished = 0
    wins: Counter[int] = Counter()
    totals: list[int] = []
    winning: list[int] = []
    load()  # the pack is read once, before the clock starts
    start = time.perf_counter()
    for g in range(game_count):
        game_seed = seed * 1_000_003 + g
        s = new_game(options or {}, game_seed, [f"Bot {i + 1}" for i in range(players)])
        seats = [players_of.make(bots, game_seed * 7 + i) for i in range(players)]
        commands += players_of.play(s, seats)
        if s.phase == "game_over" and s.result:
            finished += 1
            ws = s.result["winners"]
            for w in ws:
                wins[w] += 1
            scores = [x["total"] for x in s.result["scores"]]
            totals += scores
            winning.append(max(scores))
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {
        "game": "darkroad",
        "games": game_count,
        "players": players,
        "bots": bots,
        "finished": finished,
        "commands": commands,
        "seconds": round(seconds, 3),
        "games_per_second": round(game_count / seconds, 2) if seconds else None,
        "commands_per_second": round(commands / seconds, 1) if seconds else None,
        "wins_by_seat": [wins[i] for i in range(players)],
    }
    if stats and totals:
        won = sum(out["wins_by_seat"]) or 1
        out["win_share_by_seat"] = [round(w / won, 3) for w in out["wins_by_seat"]]
        out["fair_share"] = round(1 / players, 3)
        q = (
            statistics.quantiles(totals, n=10, method="inclusive")
            if len(totals) >= 2
            else [totals[0]] * 9
        )
        out["score"] = {
            "min": min(totals),
            "p10": q[0],
            "median": statistics.median(totals),
            "p90": q[-1],
            "max": max(totals),
            "winner_median": statistics.median(winning),
        }
    return out
