"""What `karanor simulate` reports of Karanor games beyond the kit's figures (speed,
games finished): rounds, wins by position in turn order and, with `--stats`, what
docs/balance.md reports (cards drawn / completed / played, prestige by source)."""

from __future__ import annotations

import statistics
from collections import Counter
from typing import Any

from app.games.base import Events

from .state import State

TALLIES = (
    "quest_drawn", "sequel_received", "quest_done", "quest_choice", "bm_drawn", "bm_played",
    "business_taken", "business_built", "artifact_offered", "artifact_kept",
    "prestige_source", "winner_prestige_source",
)  # fmt: skip
SOURCES = {
    "complete_quest": "quests",
    "quest_choice": "quests",
    "build": "businesses",
    "deliver": "deliveries",
    "buy_villa": "villas",
    "play_black_market": "black_market",
    "use_artifact": "artifacts",
}


class Tally:
    """Watches every command of every game (`KitGame.watch`): cards and prestige."""

    def __init__(self) -> None:
        self.tally: dict[str, Counter[str]] = {k: Counter() for k in TALLIES}
        self.by_seat: dict[int, dict[int, Counter[str]]] = {}  # id(state) -> seat -> sources
        self.last: State | None = None  # kept: its id is not reused while it is watched

    def __call__(self, s: State, seat: int, cmd: Any, events: Events) -> None:
        if s is not self.last:
            self.last, self.by_seat[id(s)] = s, {}
        tally = self.tally
        source = SOURCES.get(cmd.type, "other")
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
                self.by_seat[id(s)].setdefault(e["seat"], Counter())[source] += e["delta"]


def figures(finished: list[State], players: int, tally: Tally | None) -> dict[str, Any]:
    """Rounds and wins by position of the finished games; with a `tally`, the balance
    figures too."""
    rounds = [s.round for s in finished]
    wins: Counter[int] = Counter()
    for s in finished:
        for w in (s.result or {}).get("winners", ()):
            wins[(w - s.start_seat) % players] += 1  # position in turn order
            if tally is not None:
                won = tally.by_seat.get(id(s), {}).get(w, Counter())
                tally.tally["winner_prestige_source"].update(won)
    out: dict[str, Any] = {
        "median_rounds": statistics.median(rounds) if rounds else None,
        "wins_by_position": [wins[i] for i in range(players)],
    }
    if tally is None:
        return out
    won_games = sum(out["wins_by_position"]) or 1
    out["win_share_by_position"] = [round(w / won_games, 3) for w in out["wins_by_position"]]
    out["fair_share"] = round(1 / players, 3)
    if len(rounds) >= 2:
        q = statistics.quantiles(rounds, n=4)
        out["rounds_quartiles"] = [q[0], q[1], q[2]]
    for key in ("prestige_source", "winner_prestige_source"):
        total = sum(tally.tally[key].values()) or 1
        out[key.replace("source", "share")] = {
            k: round(v / total, 3) for k, v in tally.tally[key].most_common()
        }
    out["tally"] = {k: dict(v.most_common()) for k, v in tally.tally.items()}
    return out
