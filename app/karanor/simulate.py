"""Whole games between bots, in-process: the engine's speed and the content's balance."""

from __future__ import annotations

import statistics
import time
from collections import Counter
from typing import Any

from . import bots
from .content import load
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
            "sequel_received",
            "quest_done",
            "quest_choice",
            "bm_drawn",
            "bm_played",
            "business_taken",
            "business_built",
            "artifact_offered",
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
                "play_black_market": "black_market",
                "use_artifact": "artifacts",
            }.get(cmd.type, "other")
            for e in events:
                t = e["type"]
                if t == "drew" and e["deck"] == "quests":
                    tally["quest_drawn"].update(e["cards"])
                elif t == "drew" and e["deck"] == "black_market":
                    tally["bm_drawn"].update(e["cards"])
                elif t == "drew" and e["deck"] == "business":
                    tally["business_taken"].update(e["cards"])
                elif t in ("draft_pick", "business_taken"):
                    tally["business_taken"][e["card"]] += 1
                elif t == "sequel":
                    tally["sequel_received"][e["card"]] += 1
                elif t == "quest_done":
                    tally["quest_done"][e["card"]] += 1
                elif t == "quest_choice" and "card" in e:
                    # An immediate-choice card leaves play once chosen: that is its use.
                    tally["quest_done"][e["card"]] += 1
                    tally["quest_choice"][f"{e['card']}#{e['option']}"] += 1
                elif t == "artifact_options":
                    tally["artifact_offered"].update(e["options"])
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

    load(content)  # parsed once per process, like imports: not part of the engine's speed
    start, cpu_start = time.perf_counter(), time.process_time()
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
    cpu_seconds = time.process_time() - cpu_start
    out: dict[str, Any] = {
        "games": games,
        "players": players,
        "bots": kind,
        "finished": finished,
        "commands": commands,
        "seconds": round(seconds, 3),
        "games_per_second": round(games / seconds, 2) if seconds else None,
        "commands_per_second": round(commands / seconds, 1) if seconds else None,
        # CPU time of this process: steadier than the wall clock on a shared machine
        "cpu_seconds": round(cpu_seconds, 3),
        "commands_per_cpu_second": round(commands / cpu_seconds, 1) if cpu_seconds else None,
        "median_rounds": statistics.median(rounds) if rounds else None,
        "wins_by_position": [wins_by_seat[i] for i in range(players)],
    }
    if stats:
        won = sum(out["wins_by_position"]) or 1
        out["win_share_by_position"] = [round(w / won, 3) for w in out["wins_by_position"]]
        out["fair_share"] = round(1 / players, 3)
        if len(rounds) >= 2:
            q = statistics.quantiles(rounds, n=4)
            out["rounds_quartiles"] = [q[0], q[1], q[2]]
        for key in ("prestige_source", "winner_prestige_source"):
            total = sum(tally[key].values()) or 1
            out[key.replace("source", "share")] = {
                k: round(v / total, 3) for k, v in tally[key].most_common()
            }
        out["tally"] = {k: dict(v.most_common()) for k, v in tally.items()}
    return out
