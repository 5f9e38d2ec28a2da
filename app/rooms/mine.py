"""My games: the rooms a device holds seats in, as its home page lists them (issue 28).

Given the device's (room code, seat token) pairs, each room that still exists and still
knows the token is described for that seat: the game, the other players, the status, whose
turn it is, when the last move was made; the rooms waiting for this seat first, then the
others being played, the lobbies, the finished ones, each group newest first.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from app.rooms import errors
from app.rooms.cache import RoomCache
from app.rooms.commands import CommandPath
from app.rooms.context import Platform
from app.rooms.seats import Seats
from app.rooms.views import iso
from app.store import repo
from app.store.db import read_connection

MAX_ROOMS = 60
ORDER = {"playing": 1, "lobby": 2, "finished": 3}


class MyGames:
    def __init__(
        self, platform: Platform, cache: RoomCache, seats: Seats, commands: CommandPath
    ) -> None:
        self.p = platform
        self.cache = cache
        self.seats = seats
        self.commands = commands

    async def rooms(self, held: Sequence[tuple[str, str, bool]]) -> list[dict[str, Any]]:
        """The rooms of `held` (code, token, hidden) this device still has a seat in."""
        out = []
        seen: set[str] = set()
        for code, token, hidden in held[:MAX_ROOMS]:
            if code in seen:
                continue
            seen.add(code)
            try:
                item = await self._one(code, token)
            except errors.PlatformError:
                continue  # a room gone, a seat removed: not this device's any more
            if item is not None:
                item["hidden"] = hidden
                out.append(item)
        out.sort(key=_order)
        return out

    async def _one(self, code: str, token: str) -> dict[str, Any] | None:
        room, caller = await self.seats.authenticate(code, token)
        me = caller.seat
        if me is None:
            return None

        def read() -> tuple[Any, Any, datetime | None]:
            with read_connection(self.p.db) as conn:
                row = repo.room_by_code(conn, code=code)
                head = repo.game_of_room(conn, room_id=room.room_id)
                last = None if head is None else repo.last_move_at(conn, game_id=head.id)
                return row, head, last

        row, head, last = await self.p.read(read)
        status = "lobby" if head is None else str(head.status)
        to_act: list[int] = []
        if status == "playing":
            async with room.lock:
                live = await self.commands.live(room)
                to_act = list(room.game.to_act(live.state))
        names = {s.index: s.name for s in room.seats}
        when = last or (row.updated_at if row is not None else None)
        return {
            "code": code,
            "url": f"/r/{code}",
            "game": room.game.id,
            "title": room.game.title,
            "status": status,
            "seat": me.index,
            "players": [
                {"index": s.index, "name": s.name, "bot": s.bot}
                for s in room.seats
                if s.index != me.index
            ],
            "to_act": [{"index": i, "name": names.get(i, "")} for i in to_act],
            "my_turn": me.index in to_act,
            "last_move_at": iso(when) if when is not None else None,
            "version": None if head is None else head.version,
            "replay_url": f"/r/{code}/replay" if status == "finished" else None,
        }


def _order(item: dict[str, Any]) -> tuple[int, float]:
    group = 0 if item["my_turn"] else ORDER.get(item["status"], 4)
    when = item["last_move_at"]
    stamp = datetime.fromisoformat(when.replace("Z", "+00:00")).timestamp() if when else 0.0
    return group, -stamp
