"""Pushing to this process's sockets of a room: views, the room's status, presence,
the lobby. Everything here only sends; what to send comes from the callers."""

from __future__ import annotations

from typing import Any

from app.rooms import views
from app.rooms.context import Platform
from app.rooms.model import LiveGame, Messages, Room, seat_info
from app.store import repo
from app.store.db import read_connection


class Fanout:
    def __init__(self, platform: Platform) -> None:
        self.p = platform

    def connected(self, room: Room) -> set[int]:
        """Ids of the seats with a socket here or (several processes) on another one."""
        return self.p.hub.seat_ids(room.code) | room.remote_seats

    def deliver(self, room: Room, messages: Messages) -> None:
        self.p.hub.deliver(room.code, messages, room.index_of())

    def flush(self, room: Room, out: list[Messages]) -> None:
        """Deliver catch-up messages in order, then a "room" message if the status moved."""
        for messages in out:
            self.deliver(room, messages)
        live = room.live
        if live is not None and room.pushed == live.version:
            status = "finished" if room.game.is_over(live.state) else "playing"
            if room.status != status:
                room.status = status
                self.push_room(room, status, room.options, live.version)

    def version(self, room: Room, live: LiveGame, events: list[dict[str, Any]]) -> None:
        """After a commit: the new version's view to every viewer here, built once per
        viewer; then the room's status if it moved (the game ended)."""
        hub = self.p.hub
        wanted = views.viewers(hub, room)
        if wanted:
            index_of = room.index_of()
            # The version's command is the last remembered one: a bot's, or the seat's.
            last = next(reversed(live.recent), None) if live.recent else None
            kind = views.played_by(last[1]) if last is not None else None
            by = (last[0], kind) if last is not None and kind is not None else None
            whole = views.messages(room, live, wanted, events, by)
            asking = hub.patch_viewers(room.code, index_of)
            patched = (
                views.patch_messages(room, live, asking, events, whole, by) if asking else None
            )
            hub.deliver(room.code, whole, index_of, version=live.version, patches=patched)
        room.pushed = live.version
        self.flush(room, [])

    def push_room(
        self, room: Room, status: str, options: dict[str, Any], version: int | None
    ) -> None:
        info = views.room_info(room, status, options, version, self.connected(room))
        self.p.hub.broadcast(room.code, views.dumps({"type": "room", "room": info}))

    def push_presence(self, room: Room) -> None:
        connected = self.connected(room)
        seats = [
            {"index": s.index, "connected": (s.bot and not s.replaced) or s.id in connected}
            for s in room.seats
        ]
        # Who watches (spectators' sockets on this process): the table sees it.
        watching = self.p.hub.spectators(room.code)
        message = {"type": "presence", "seats": seats, "watching": watching}
        self.p.hub.broadcast(room.code, views.dumps(message))

    async def push_lobby(self, room: Room) -> None:
        """After a lobby change: the room and a fresh lobby view to every socket (call
        under the room lock)."""

        def read() -> tuple[Any, list[Any]]:
            with read_connection(self.p.db) as conn:
                row = repo.room_by_code(conn, code=room.code)
                return row, [seat_info(s) for s in repo.seats_of(conn, room_id=room.room_id)]

        row, room.seats = await self.p.read(read)
        if row is None or row.status != "lobby":  # deleted, or started meanwhile elsewhere
            return
        room.status, room.options = "lobby", row.options
        self.push_room(room, row.status, row.options, None)
        self.p.hub.per_viewer(
            room.code,
            lambda viewer: views.whole(views.lobby_view(room, viewer, row.options), 0),
            room.index_of(),
        )
