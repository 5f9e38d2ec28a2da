"""Whole Dark Road games between bots, in-process: the engine's speed and the balance.

The loop and the timing are the kit's (`KitGame.simulate`); this module adds the Dark
Road's figures (seat wins, with `stats` the score spread) and keeps the function the
command line calls."""

from __future__ import annotations

import statistics
from typing import Any

from .state import State


def figures(finished: list[State], players: int, stats: bool) -> dict[str, Any]:
    """Wins by seat; with `stats` each seat's share of wins and the score spread."""
    wins = [0] * players
    totals: list[int] = []
    winning: list[int] = []
    for s in finished:
        assert s.result is not None
        for w in s.result["winners"]:
            wins[w] += 1
        scores = [x["total"] for x in s.result["scores"]]
        totals += scores
        winning.append(max(scores))
    out: dict[str, Any] = {"wins_by_seat": wins}
    if stats and totals:
        won = sum(wins) or 1
        out["win_share_by_seat"] = [round(w / won, 3) for w in wins]
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
