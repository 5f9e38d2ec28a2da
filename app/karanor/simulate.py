"""Whole games between bots, in-process: the engine's speed and the content's balance."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from typing import Any

from . import bots
from .engine import new_game


def simulate(
    games: int,
    players: int,
    *,
    seed: int = 0,
    kind: str = "random",
    content: str = "base",
    options: dict[str, Any] | None = None,
    max_rounds: int = 80,
    stats: bool = False,
) -> dict[str, Any]:
    """Play `games` games of `players` bots; return the figures `karanor simulate` prints.

    With `stats`, also gather what docs/balance.md reports: rounds, wins by seat,
    cards drawn / completed / played, prestige by source.
    """
    commands = finished = 0
    rounds: list[int] = []
    wins_by_seat: Counter[int] = Counter()
    tally: dict[str, Counter[str]] = {
        k: Counter()
        for k in (
            "quest_drawn",
            "quest_done",
            "bm_drawn",
            "bm_played",
            "business_built",
            "artifact_kept",
            "prestige_source",
            "winner_prestige_source",
        )
    }

    def watch(events_by_seat: dict[int, Counter[str]]) -> Any:
        def on_command(s: Any, seat: int, cmd: Any, events: list[dict[str, Any]]) -> None:
            source = {
                "complete_quest": "quests",
                "quest_choice": "quests",
                "build": "businesses",
                "deliver": "deliveries",
                "buy_villa": "villas",
            }.get(cmd.type, "other")
            for e in events:
                t = e["type"]
                if t == "drew" and e["deck"] == "quests":
                    tally["quest_drawn"].update(e["cards"])
                elif t == "drew" and e["deck"] == "black_market":
                    tally["bm_drawn"].update(e["cards"])
                elif t == "quest_done":
                    tally["quest_done"][e["card"]] += 1
                elif t == "black_market":
                    tally["bm_played"][e["card"]] += 1
                elif t == "build":
                    tally["business_built"][e["card"]] += 1
                elif t == "artifact":
                    tally["artifact_kept"][e["artifact"]] += 1
                elif t == "prestige" and e["delta"] > 0:
                    tally["prestige_source"][source] += e["delta"]
                    events_by_seat.setdefault(e["seat"], Counter())[source] += e["delta"]

        return on_command

    start = time.perf_counter()
    for g in range(games):
        game_seed = seed * 1_000_003 + g
        s = new_game(content, options or {}, game_seed, [f"Bot {i + 1}" for i in range(players)])
        seats = [bots.make(kind, game_seed * 7 + i) for i in range(players)]
        by_seat: dict[int, Counter[str]] = {}
        commands += bots.play(
            s, seats, max_rounds=max_rounds, on_command=watch(by_seat) if stats else None
        )
        if s.phase == "game_over" and s.result:
            finished += 1
            rounds.append(s.round)
            for w in s.result["winners"]:
                wins_by_seat[(w - s.start_seat) % players] += 1  # position in turn order
                if stats:
                    tally["winner_prestige_source"].update(by_seat.get(w, Counter()))
    seconds = time.perf_counter() - start
    out: dict[str, Any] = {
        "games": games,
        "players": players,
        "bots": kind,
        "finished": finished,
        "commands": commands,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "commands_per_second": round(commands / seconds, 1) if seconds else None,
        "median_rounds": statistics.median(rounds) if rounds else None,
        "wins_by_position": [wins_by_seat[i] for i in range(players)],
    }
    if stats:
        out["tally"] = {k: dict(v) for k, v in tally.items()}
    return out
