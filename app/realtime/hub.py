"""The sockets of each room, in this process.

Every socket has its own bounded send queue drained by its own task, so a slow
client never stalls the room: enqueueing never waits, and a socket whose queue
overflows is closed (it reconnects and gets a whole fresh view).
"""

import asyncio
import contextlib
import logging
from collections.abc import Callable, Iterable
from typing import Any

from starlette.websockets import WebSocket, WebSocketState

log = logging.getLogger(__name__)

QUEUE_SIZE = 512
CLOSE_TOO_SLOW = 1013  # "try again later"


class Connection:
    """One WebSocket of a room: a seat's (`seat` is its index) or a spectator's (None)."""

    def __init__(
        self, websocket: WebSocket, code: str, seat: int | None, seat_id: int | None
    ) -> None:
        self.websocket = websocket
        self.code = code
        self.seat = seat
        self.seat_id = seat_id
        self._queue: asyncio.Queue[bytes | None] = asyncio.Queue(QUEUE_SIZE)
        self._close_code: int | None = None
        self._task: asyncio.Task[None] | None = None

    @property
    def closing(self) -> bool:
        return self._close_code is not None

    def start(self) -> None:
        self._task = asyncio.create_task(self._writer(), name=f"ws-writer-{self.code}")

    def send(self, data: bytes) -> None:
        """Queue one JSON message; never waits."""
        if self.closing:
            return
        try:
            self._queue.put_nowait(data)
        except asyncio.QueueFull:
            log.info("closing a slow socket of room %s (seat %s)", self.code, self.seat)
            self.close(CLOSE_TOO_SLOW)

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close the socket with `code`."""
        if self.closing:
            return
        self._close_code = code
        if self._queue.full():  # a slow peer: drop what it has not read, it will resync
            while not self._queue.empty():
                self._queue.get_nowait()
        self._queue.put_nowait(None)

    async def _writer(self) -> None:
        ws = self.websocket
        try:
            while True:
                data = await self._queue.get()
                if data is None:
                    break
                await ws.send_text(data.decode())
            if ws.application_state == WebSocketState.CONNECTED:
                await ws.close(self._close_code or 1000)
        except Exception:  # the peer went away; the reader notices and unregisters us
            self._close_code = self._close_code or 1006

    async def stop(self) -> None:
        """Stop the writer (the socket is gone)."""
        self._close_code = self._close_code or 1000
        if self._task is not None and not self._task.done():
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._task


class Hub:
    """The connections of every room, by room code."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}

    def add(self, conn: Connection) -> bool:
        """Register `conn`; True if its seat was not connected before."""
        conns = self._rooms.setdefault(conn.code, set())
        fresh = conn.seat is not None and conn.seat not in self.seats_connected(conn.code)
        conns.add(conn)
        conn.start()
        return fresh

    def remove(self, conn: Connection) -> bool:
        """Unregister `conn`; True if its seat has no other socket left."""
        conns = self._rooms.get(conn.code)
        if not conns or conn not in conns:
            return False
        conns.discard(conn)
        if not conns:
            del self._rooms[conn.code]
        return conn.seat is not None and conn.seat not in self.seats_connected(conn.code)

    def codes(self) -> list[str]:
        """The rooms with at least one socket here."""
        return list(self._rooms)

    def connections(self, code: str) -> list[Connection]:
        return list(self._rooms.get(code, ()))

    def seats_connected(self, code: str) -> set[int]:
        return {c.seat for c in self._rooms.get(code, ()) if c.seat is not None}

    def viewers(self, code: str) -> set[int | None]:
        """Every distinct viewer (seat index, or None for spectators) with a socket."""
        return {c.seat for c in self._rooms.get(code, ())}

    def broadcast(self, code: str, data: bytes) -> None:
        for conn in self.connections(code):
            conn.send(data)

    def deliver(self, code: str, messages: dict[int | None, bytes]) -> None:
        """Send each socket the message made for its viewer (if there is one)."""
        for conn in self.connections(code):
            data = messages.get(conn.seat)
            if data is not None:
                conn.send(data)

    def per_viewer(self, code: str, make: Callable[[int | None], bytes]) -> None:
        """Send each socket `make(viewer)`, computed once per viewer."""
        made: dict[int | None, bytes] = {}
        for conn in self.connections(code):
            if conn.seat not in made:
                made[conn.seat] = make(conn.seat)
            conn.send(made[conn.seat])

    def reindex(self, code: str, moved: dict[int, int]) -> None:
        """Seats renumbered in the lobby: `moved` maps seat ids to their new index."""
        for conn in self.connections(code):
            if conn.seat_id in moved:
                conn.seat = moved[conn.seat_id]

    def close_seat(self, code: str, seat_id: int, close_code: int) -> None:
        for conn in self.connections(code):
            if conn.seat_id == seat_id:
                conn.close(close_code)

    def close_all(self, codes: Iterable[str] | None = None, close_code: int = 1001) -> None:
        for code in list(codes if codes is not None else self._rooms):
            for conn in self.connections(code):
                conn.close(close_code)

    def stats(self) -> dict[str, Any]:
        return {"rooms": len(self._rooms), "sockets": sum(map(len, self._rooms.values()))}
