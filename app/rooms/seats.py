"""Who is calling: a seat of the room (by its token) or a spectator."""

from __future__ import annotations

from typing import Any

from app.rooms import errors, tokens
from app.rooms.cache import RoomCache
from app.rooms.context import Platform
from app.rooms.model import Caller, Room, seat_info
from app.store import repo
from app.store.db import read_connection


class Seats:
    def __init__(self, platform: Platform, cache: RoomCache) -> None:
        self.p = platform
        self.cache = cache

    async def authenticate(self, code: str, token: str | None) -> tuple[Room, Caller]:
        """The room and the caller's seat for `token` (None: a spectator), as the store
        says now (a seat removed or moved since is seen at once).

        :raises PlatformError: 404 `unknown_room`, 401 `bad_token`.
        """
        room = await self.cache.get(code)
        if token is None:
            return room, Caller(code, None)
        if not tokens.plausible_token(token):
            raise errors.bad_token()
        token_hash = tokens.hash_token(token)
        known = room.auth.get(token_hash)
        if known is not None:  # a started game: its seats are fixed (every message asks)
            return room, Caller(code, known, token)

        def read() -> Any:
            with read_connection(self.p.db) as conn:
                return repo.seat_by_token(conn, room_id=room.room_id, token_hash=token_hash)

        row = await self.p.read(read)
        if row is None:
            raise errors.bad_token()
        seat = seat_info(row)
        if room.live is not None:
            room.auth[token_hash] = seat
        return room, Caller(code, seat, token)
