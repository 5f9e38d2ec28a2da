"""The turn timer's clocks, as plain data (stored in `rooms.timer`): pure functions.

A timer is `{"turn": seconds a turn, "reserve": seconds of reserve per seat,
"clocks": {seat: {"since": epoch}}, "reserves": {seat: seconds left}, "v": the game
version the clocks follow, "paused": epoch the host paused the clocks at (absent: running)}`
(seats as strings: it is JSON; `v` is set by the table when it stores moved clocks, so
that no process stores older clocks over newer ones).

Paused, the clocks stand still: time is counted up to the pause only, and on resume every
running clock moves on by the length of the pause (`resume`).
"""

from __future__ import annotations

import time
from typing import Any

MAX_TURN_SECONDS = 7 * 24 * 3600  # "X hours a turn" for slow games: up to a week
HOUR = 3600
# Slow games, a turn a day: (seconds a turn, seconds of reserve), as the lobby offers them
# (static/js/table.js SLOW_PRESETS). The reserve covers a day away now and then.
SLOW_PRESETS = ((12 * HOUR, 24 * HOUR), (24 * HOUR, 48 * HOUR), (48 * HOUR, 96 * HOUR))


def now() -> float:
    return time.time()


def new_timer(turn_seconds: int, reserve_seconds: int) -> dict[str, Any]:
    return {"turn": turn_seconds, "reserve": reserve_seconds, "clocks": {}, "reserves": {}}


def advance(timer: dict[str, Any], waiting: set[int], now: float) -> dict[str, Any]:
    """The clocks after a new version: a seat still waited for keeps its clock running; a
    seat whose turn ended pays what it used past the turn's seconds from its reserve; a
    seat newly waited for starts a clock."""
    if timer.get("paused") is not None:
        now = min(now, float(timer["paused"]))  # no time passes while paused
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


def fresh_clock(timer: dict[str, Any], seat: int, now: float) -> dict[str, Any]:
    """The clocks with `seat`'s clock started again (a bot played its turn for it: the
    next one is the person's, with the turn's seconds)."""
    if timer.get("paused") is not None:
        now = min(now, float(timer["paused"]))
    clocks = dict(timer.get("clocks") or {})
    if str(seat) in clocks:
        clocks[str(seat)] = {"since": now}
    return {**timer, "clocks": clocks}


def pause(timer: dict[str, Any], now: float) -> dict[str, Any]:
    if timer.get("paused") is not None:
        return timer
    return {**timer, "paused": now}


def resume(timer: dict[str, Any], now: float) -> dict[str, Any]:
    """The clocks running again, each moved on by the length of the pause."""
    at = timer.get("paused")
    if at is None:
        return timer
    gone = max(0.0, now - float(at))
    running = (timer.get("clocks") or {}).items()
    clocks = {k: {**c, "since": float(c["since"]) + gone} for k, c in running}
    out = {k: v for k, v in timer.items() if k != "paused"}
    return {**out, "clocks": clocks}


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
    paused = timer.get("paused")
    return {
        "turn_seconds": timer["turn"],
        "reserve_seconds": timer["reserve"],
        "deadlines": [{"seat": s, "at": round(t, 3)} for s, t in sorted(deadlines(timer).items())],
        # Paused: the epoch of the pause (each seat has `at - paused` seconds left), else null.
        "paused": None if paused is None else round(float(paused), 3),
    }
