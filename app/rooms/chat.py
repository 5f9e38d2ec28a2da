"""Chat: a seat's line is stored, then sent to the room's sockets here and, through a
notice, read from the store by the other processes."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from app.rooms import errors
from app.rooms.context import Platform
from app.rooms.model import Caller, Room
from app.rooms.views import chat_message
from app.store import chat_rows
from app.store.db import read_connection, write_transaction

HISTORY = 50  # lines a socket gets when it connects


def row_message(row: Any) -> bytes:
    return chat_message(row.seat, row.name, row.text, row.created_at)


class Chat:
    def __init__(self, platform: Platform) -> None:
        self.p = platform

    async def say(self, room: Room, caller: Caller, text: str) -> None:
        """Store one chat line of a seat and send it to the room.

        :raises PlatformError: 403 `forbidden` for spectators.
        """
        seat = caller.seat
        if seat is None:
            raise errors.PlatformError(403, "forbidden", "spectators may not chat")

        def tx() -> tuple[int, datetime]:
            with write_transaction(self.p.db) as conn:
                return chat_rows.insert_chat(
                    conn, room_id=room.room_id, seat=seat.index, name=seat.name, text=text
                )

        async with room.lock:
            chat_id, at = await self.p.write(tx)
            room.saw_chat([chat_id])
            self.p.hub.broadcast(room.code, chat_message(seat.index, seat.name, text, at))
        self.p.publish(room.code, {"t": "chat", "id": chat_id})

    async def recent(self, room: Room) -> list[Any]:
        def read() -> list[Any]:
            with read_connection(self.p.db) as conn:
                return chat_rows.recent_chat(conn, room_id=room.room_id, limit=HISTORY)

        return await self.p.read(read)

    async def catch_up(self, room: Room) -> None:
        """Push the room's recent lines this process's sockets have not had, oldest first."""
        if not self.p.hub.connections(room.code):
            return
        async with room.lock:
            rows = [r for r in await self.recent(room) if r.id not in room.chat_seen]
            for row in sorted(rows, key=lambda r: r.id):
                self.p.hub.broadcast(room.code, row_message(row))
            room.saw_chat(sorted(r.id for r in rows))
