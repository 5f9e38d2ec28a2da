"""Presence: which seats have a socket open, here and (through Redis) elsewhere."""

from __future__ import annotations

from app.rooms.context import Platform
from app.rooms.fanout import Fanout
from app.rooms.model import Room


class Presence:
    def __init__(self, platform: Platform, fanout: Fanout) -> None:
        self.p = platform
        self.fanout = fanout

    async def read_remote(self, room: Room) -> None:
        """Re-read which seats have sockets on the other processes."""
        if self.p.bus is None:
            return
        remote = await self.p.bus.remote_presence(room.code)
        if remote is not None:
            room.remote_seats = remote

    async def changed(self, room: Room) -> None:
        """A seat came or went on this process: tell our sockets and the others."""
        await self.announce(room)
        self.fanout.push_presence(room)

    async def announce(self, room: Room) -> None:
        """Tell the other processes which seats have sockets here."""
        if self.p.bus is not None:
            await self.p.bus.set_presence(room.code, self.p.hub.seat_ids(room.code))
            self.p.bus.publish(room.code, {"t": "presence"})

    async def refresh(self, room: Room) -> None:
        """Re-read the other processes' presence; tell our sockets if it changed."""
        if self.p.bus is None:
            return
        remote = await self.p.bus.remote_presence(room.code)
        if remote is not None and remote != room.remote_seats:
            room.remote_seats = remote
            self.fanout.push_presence(room)
