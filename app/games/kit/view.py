"""The generic parts of a game's views: who is viewing, their pending choice, their
listing in JSON, the events they may read. A game's `public_part` / `view` build the
game's own picture with these."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from app.games.base import Events


def viewer(seat: int | None, seats: int) -> int | None:
    """`seat` if it is one of the game's, else None (a spectator)."""
    return seat if seat is not None and 0 <= seat < seats else None


def pending_of(pending: Iterable[Mapping[str, Any]], seat: int) -> dict[str, Any] | None:
    """A copy of the first pending choice `seat` has to make, if any."""
    for x in pending:
        if x["seat"] == seat:
            return dict(x)
    return None


def events_for(events: Events, seat: int | None) -> Events:
    """The events a seat may read: private events (with `to`) only for their seat."""
    return [e for e in events if "to" not in e or (seat is not None and e["to"] == seat)]
