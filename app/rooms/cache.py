"""The rooms this process has in memory, and their eviction.

A room is looked up by code (read from the store the first time); a room idle for
`Settings.room_idle_seconds` (no socket here, no command, bot, catch-up work or
lookup meanwhile) is forgotten with its live game and cached views, and the next use
loads it again (`app.rooms.loading`). A room unused for a quarter of that keeps its
game but not the views cached for its current version (`trim`).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable, Iterator

from sqlalchemy import Connection

from app import metrics
from app.games import registry
from app.rooms import errors, loading, tokens
from app.rooms.context import Platform
from app.rooms.model import Room, SeatInfo, seat_info
from app.store import repo
from app.store.db import read_connection

log = logging.getLogger(__name__)


def preload(conn: Connection, room: Room, seats: list[SeatInfo]) -> None:
    """A playing room looked up cold (first use, or after its eviction) gets its game on
    the same connection and worker thread as its row: the command, view or socket that
    looked it up needs it next, and would otherwise wait for one more thread hop and read
    the seats again. The room is not shared yet (no lock needed); no socket of this
    process has been sent anything of it (`pushed` is its version). A game that fails to
    load is left to the ordinary path, which reports it."""
    try:
        head = repo.game_of_room(conn, room_id=room.room_id)
        if head is None:
            return
        live = loading.load(conn, room, head.id, seats)
    except Exception:
        log.warning("room %s: its game did not preload", room.code, exc_info=True)
        return
    room.live = live
    room.pushed = live.version


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

        def load() -> Room | None:
            with read_connection(self.p.db) as conn:
                row = repo.room_by_code(conn, code=code)
                if row is None:
                    return None
                game = registry.get(row.game)
                if game is None:
                    raise errors.PlatformError(
                        503, "unknown_game", f"this server no longer hosts the game {row.game!r}"
                    )
                seats = [seat_info(s) for s in repo.seats_of(conn, room_id=row.id)]
                room = Room(
                    code,
                    row.id,
                    game,
                    options=dict(row.options),
                    seats=seats,
                    timer=row.timer,
                    rematch=row.rematch,
                )
                if row.status == "playing":
                    preload(conn, room, seats)
                return room

        found = await self.p.read(load)
        if found is None:
            raise errors.unknown_room(code)
        room = self._rooms.setdefault(code, found)
        metrics.rooms_live(len(self._rooms))
        return room

    def forget(self, code: str) -> Room | None:
        room = self._rooms.pop(code, None)
        metrics.rooms_live(len(self._rooms))
        return room

    def trim(self, now: float | None = None) -> int:
        """Drop the views cached for the current version of every room unused for a
        quarter of `idle_seconds` (they are built again when needed): a room whose players
        think for a while keeps its game, not a serialised view per seat. Returns how many
        rooms were trimmed."""
        now = time.monotonic() if now is None else now
        after = self.idle_seconds / 4
        trimmed = 0
        for room in self._rooms.values():
            live = room.live
            if (
                live is not None
                and (live.views or live.public is not None)
                and now - room.used >= after
                and not room.lock.locked()
            ):
                live.views = {}
                live.previous = None
                live.public = None
                trimmed += 1
        return trimmed

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
        self.trim(now)
        for code in gone:
            del self._rooms[code]
            metrics.room_evicted()
            if self.on_evict is not None:
                self.on_evict(code)
        if gone:
            metrics.rooms_live(len(self._rooms))
        return gone
