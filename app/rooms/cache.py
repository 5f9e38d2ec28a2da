"""The rooms this process has in memory, and their eviction.

A room is looked up by code (read from the store the first time); a room idle for
`Settings.room_idle_seconds` (no socket here, no command, bot, catch-up work or
lookup meanwhile) is forgotten with its live game and cached views, and the next use
loads it again (`app.rooms.loading`).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any

from app import metrics
from app.games import registry
from app.rooms import errors, tokens
from app.rooms.context import Platform
from app.rooms.model import Room, seat_info
from app.store import repo
from app.store.db import read_connection


class RoomCache:
    def __init__(self, platform: Platform, idle_seconds: float) -> None:
        self.p = platform
        self.idle_seconds = idle_seconds
        self._rooms: dict[str, Room] = {}
        self.on_evict: Callable[[str], None] | None = None
        self.keep: Callable[[str], bool] = lambda code: False  # never evict these

    def cached(self, code: str) -> Room | None:
        return self._rooms.get(code)

    def __iter__(self) -> Iterator[Room]:
        return iter(list(self._rooms.values()))

    def __len__(self) -> int:
        return len(self._rooms)

    async def get(self, code: str) -> Room:
        """The room `code` (cached), or 404 `unknown_room`."""
        room = self._rooms.get(code)
        if room is not None:
            room.used = time.monotonic()
            return room
        if not tokens.plausible_code(code):
            raise errors.unknown_room(code)

        def load() -> tuple[Any, list[Any]] | None:
            with read_connection(self.p.db) as conn:
                row = repo.room_by_code(conn, code=code)
                if row is None:
                    return None
                return row, [seat_info(s) for s in repo.seats_of(conn, room_id=row.id)]

        found = await self.p.read(load)
        if found is None:
            raise errors.unknown_room(code)
        row, seats = found
        game = registry.get(row.game)
        if game is None:
            raise errors.PlatformError(
                503, "unknown_game", f"this server no longer hosts the game {row.game!r}"
            )
        room = self._rooms.setdefault(
            code,
            Room(
                code,
                row.id,
                game,
                options=dict(row.options),
                seats=seats,
                timer=row.timer,
                rematch=row.rematch,
            ),
        )
        metrics.rooms_live(len(self._rooms))
        return room

    def forget(self, code: str) -> Room | None:
        room = self._rooms.pop(code, None)
        metrics.rooms_live(len(self._rooms))
        return room

    def evict_idle(self, now: float | None = None) -> list[str]:
        """Forget the rooms idle for `idle_seconds`; returns their codes."""
        now = time.monotonic() if now is None else now
        hub = self.p.hub
        gone = [
            code
            for code, r in self._rooms.items()
            if now - r.used >= self.idle_seconds
            and not r.lock.locked()
            and (r.bot_task is None or r.bot_task.done())
            and (r.worker is None or r.worker.done())
            and not hub.connections(code)
            and not self.keep(code)
        ]
        for code in gone:
            del self._rooms[code]
            metrics.room_evicted()
            if self.on_evict is not None:
                self.on_evict(code)
        if gone:
            metrics.rooms_live(len(self._rooms))
        return gone
