"""The turn timer's clocks, as plain data (stored in `rooms.timer`): pure functions.

A timer is `{"turn": seconds a turn, "reserve": seconds of reserve per seat,
"clocks": {seat: {"since": epoch}}, "reserves": {seat: seconds left}, "v": the game
version the clocks follow}` (seats as strings: it is JSON; `v` is set by the table when
it stores moved clocks, so that no process stores older clocks over newer ones).
"""

from __future__ import annotations

import time
from typing import Any

MAX_TURN_SECONDS = 7 * 24 * 3600  # "X hours a turn" for slow games: up to a week


def now() -> float:
    return time.time()


def new_timer(turn_seconds: int, reserve_seconds: int) -> dict[str, Any]:
    return {"turn": turn_seconds, "reserve": reserve_seconds, "clocks": {}, "reserves": {}}


def advance(timer: dict[str, Any], waiting: set[int], now: float) -> dict[str, Any]:
    """The clocks after a new version: a seat still waited for keeps its clock running; a
    seat whose turn ended pays what it used past the turn's seconds from its reserve; a
    seat newly waited for starts a clock."""
    clocks: dict[str, Any] = dict(timer.get("clocks") or {})
    reserves: dict[str, Any] = dict(timer.get("reserves") or {})
    out: dict[str, Any] = {}
    for key, clock in clocks.items():
        if int(key) in waiting:
            out[key] = clock
        else:
            over = max(0.0, now - float(clock["since"]) - timer["turn"])
            reserves[key] = max(0.0, float(reserves.get(key, timer["reserve"])) - over)
    for seat in waiting:
        out.setdefault(str(seat), {"since": now})
    return {**timer, "clocks": out, "reserves": reserves}


def deadlines(timer: dict[str, Any]) -> dict[int, float]:
    """When each waited-for seat's time runs out (epoch seconds)."""
    reserves = timer.get("reserves") or {}
    return {
        int(key): float(clock["since"]) + timer["turn"] + float(reserves.get(key, timer["reserve"]))
        for key, clock in (timer.get("clocks") or {}).items()
    }


def public_timer(timer: dict[str, Any] | None) -> dict[str, Any] | None:
    """The timer as rooms show it: settings, and each waited-for seat's deadline."""
    if not timer:
        return None
    return {
        "turn_seconds": timer["turn"],
        "reserve_seconds": timer["reserve"],
        "deadlines": [{"seat": s, "at": round(t, 3)} for s, t in sorted(deadlines(timer).items())],
    }
