"""The sockets of each room, in this process.

Sending never waits, so a slow client never stalls the room. A message is written at
once when the server offers a direct write (`app.realtime.protocol`, as `karanor serve`
runs it) and the socket can take it: no queue, no task. Otherwise (a peer reading
slower than we write, or a server without the direct write) it goes to the socket's
own bounded queue, and a socket whose queue overflows is closed (it reconnects and
gets a whole fresh view). The queue and the task writing it exist only while there is
something queued: a writer task is started by the first queued message, drains the
queue through ASGI `send` (which waits for the peer to read), lingers `LINGER_SECONDS`
for more and ends; an idle socket holds neither (memory:
docs/perf-sockets-cold-bots.md). While a queue exists every message goes behind it, so
messages always leave in order.

A seat's socket is bound to the seat's identity (its id), never to its place at the
table: which view it gets is decided at send time from the room's seats as they are
then (`deliver(..., index_of)`), and a socket whose seat is gone is closed instead.
"""

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import Callable, Iterable, Mapping, Sequence

from starlette.websockets import WebSocket, WebSocketState

from app.realtime.protocol import SEND_TEXTS
from app.realtime.sweep import sweep_for

log = logging.getLogger(__name__)

QUEUE_SIZE = 512
LINGER_SECONDS = 5.0  # a writer task waits this long for more before it ends
CLOSE_TOO_SLOW = 1013  # "try again later"
CLOSE_SEAT_REMOVED = 4403
CLOSE_IDLE = 4408
IDLE_MESSAGE = (  # ws.error_message(None, "idle", ...)
    b'{"type":"error","id":null,"code":"idle","message":"no message for too long; reconnect"}'
)


class Connection:
    """One WebSocket of a room: a seat's (`seat_id` is the seat's identity) or a
    spectator's (`seat_id` None)."""

    __slots__ = (
        "websocket", "code", "seat_id", "_queue", "_close_code", "_task", "_more", "_stopped",
        "_direct", "visible", "patches", "base", "sweep_key", "heard", "idle",
    )  # fmt: skip

    def __init__(self, websocket: WebSocket, code: str, seat_id: int | None) -> None:
        self.websocket = websocket
        self.code = code
        self.seat_id = seat_id
        # The server's direct write (app/realtime/protocol.py), when it offers one.
        scope = getattr(websocket, "scope", None) or {}
        self._direct: Callable[[Sequence[bytes]], bool] | None = (
            scope.get("extensions") or {}
        ).get(SEND_TEXTS)
        self._queue: deque[bytes] | None = None  # messages not written yet (None: none)
        self._close_code: int | None = None
        self._task: asyncio.Task[None] | None = None  # the writer, while there is one
        self._more: asyncio.Future[bool] | None = None  # a lingering writer waits on it
        self._stopped = False
        self.visible = True  # the page says when it is hidden ({"type": "visibility"})
        # The client asked for patches (docs/api.md); `base`: the game version of the
        # last whole view or patch it was sent (-1: none, or unknown), what a patch
        # is made against.
        self.patches = False
        self.base = -1
        # The idle close (`watch_idle`): the loop's time of the last message heard, on
        # the loop's sweep (app/realtime/sweep.py) rather than a timer of its own.
        self.sweep_key: int | None = None
        self.heard = 0.0
        self.idle: float | None = None

    @property
    def closing(self) -> bool:
        return self._close_code is not None

    @property
    def writing(self) -> bool:
        """A writer task exists (it has something to write, or lingers)."""
        return self._task is not None

    def start(self) -> None:
        """Registered: nothing to do until the first message (kept for callers)."""

    def watch_idle(self, seconds: float) -> None:
        """Close this socket (4408, after an `idle` error) once it has heard nothing for
        `seconds`; the reader sets `heard` on each message."""
        loop = asyncio.get_running_loop()
        self.idle = seconds
        self.heard = loop.time()
        sweep_for(loop).add(self, self.heard + seconds)

    def unwatch(self) -> None:
        """No idle close any more (the socket is gone)."""
        if self.sweep_key is not None:
            sweep_for(asyncio.get_running_loop()).discard(self)

    def swept(self, now: float) -> float | None:
        """The sweep's call at the idle deadline: a later one if something was heard."""
        if self.idle is None or self.closing or self._stopped:
            return None
        due = self.heard + self.idle
        if now < due:
            return due
        self.send(IDLE_MESSAGE)
        self.close(CLOSE_IDLE)
        return None

    def send(self, data: bytes) -> None:
        """Write one JSON message now if the socket can take it, else queue it; never
        waits."""
        if self.closing:
            return
        queue = self._queue
        if queue is None and self._direct is not None and not self._stopped:
            try:
                if self._direct((data,)):
                    return  # written: no queue, no task
            except (OSError, RuntimeError):  # closing or gone; the reader unregisters us
                self._close_code = 1006
                return
            except Exception:  # a fault of ours: said, and the socket closed (it resyncs)
                log.exception("writing on a socket of room %s failed", self.code)
                self.close(1011)
                return
            # The peer reads slower than we write: queue, and the writer waits for it.
        if queue is None:
            queue = self._queue = deque()
        elif len(queue) >= QUEUE_SIZE:
            log.info("closing a slow socket of room %s (seat id %s)", self.code, self.seat_id)
            self.close(CLOSE_TOO_SLOW)
            return
        queue.append(data)
        self._wake()

    def close(self, code: int = 1000) -> None:
        """Send what is queued, then close the socket with `code`."""
        if self.closing:
            return
        self._close_code = code
        if self._queue is not None and len(self._queue) >= QUEUE_SIZE:
            self._queue.clear()  # a slow peer: drop what it has not read, it will resync
        self._wake()

    def _wake(self) -> None:
        if self._stopped:
            return
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._writer(), name=f"ws-writer-{self.code}"
            )
            return
        more = self._more  # a lingering writer: go on (a busy one looks again anyway)
        if more is not None and not more.done():
            more.set_result(True)

    async def _writer(self) -> None:
        ws = self.websocket
        loop = asyncio.get_running_loop()
        try:
            while True:
                queue = self._queue
                while queue:
                    data = queue.popleft()
                    await ws.send_text(data.decode())
                    del data
                self._queue = None
                if self._close_code is not None:
                    if ws.application_state == WebSocketState.CONNECTED:
                        await ws.close(self._close_code)
                    return
                more = self._more = loop.create_future()
                timer = loop.call_later(LINGER_SECONDS, _resolve, more, False)
                try:
                    await more
                finally:
                    timer.cancel()
                    self._more = None
                if not self._queue and self._close_code is None:
                    return  # nothing came while lingering
        except Exception:  # the peer went away; the reader notices and unregisters us
            self._close_code = self._close_code or 1006
        finally:
            self._task = None
            self._more = None

    async def stop(self) -> None:
        """Stop the writer (the socket is gone)."""
        self._close_code = self._close_code or 1000
        self._stopped = True
        self._queue = None
        task = self._task
        if task is not None and not task.done():
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task


def _resolve(future: "asyncio.Future[bool]", value: bool) -> None:
    if not future.done():
        future.set_result(value)


class Hub:
    """The connections of every room, by room code."""

    def __init__(self) -> None:
        self._rooms: dict[str, set[Connection]] = {}

    def add(self, conn: Connection) -> bool:
        """Register `conn`; True if its seat had no socket here before."""
        conns = self._rooms.setdefault(conn.code, set())
        fresh = conn.seat_id is not None and conn.seat_id not in self.seat_ids(conn.code)
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
        return conn.seat_id is not None and conn.seat_id not in self.seat_ids(conn.code)

    def codes(self) -> list[str]:
        """The rooms with at least one socket here."""
        return list(self._rooms)

    def connections(self, code: str) -> list[Connection]:
        return list(self._rooms.get(code, ()))

    def sockets(self) -> int:
        return sum(map(len, self._rooms.values()))

    def seat_ids(self, code: str) -> set[int]:
        """The seats (by id) with a socket here."""
        return {c.seat_id for c in self._rooms.get(code, ()) if c.seat_id is not None}

    def visible_seat_ids(self, code: str) -> set[int]:
        """The seats (by id) with a socket here whose page is visible."""
        return {c.seat_id for c in self._rooms.get(code, ()) if c.seat_id is not None and c.visible}

    def has_spectators(self, code: str) -> bool:
        return any(c.seat_id is None for c in self._rooms.get(code, ()))

    def spectators(self, code: str) -> int:
        """How many spectators' sockets are open here."""
        return sum(1 for c in self._rooms.get(code, ()) if c.seat_id is None)

    def broadcast(self, code: str, data: bytes) -> None:
        for conn in self.connections(code):
            conn.send(data)

    def deliver(
        self,
        code: str,
        messages: Mapping[int | None, bytes],
        index_of: Mapping[int, int],
        *,
        version: int | None = None,
        patches: Mapping[int | None, bytes] | None = None,
    ) -> None:
        """Send each socket the message made for its viewer: a spectator's for a
        spectator, and for a seat the one of the index `index_of` gives its seat id
        now. A socket whose seat is no longer in `index_of` is closed, never served.

        `messages` are whole views of game version `version` (None: views of versions
        not said, catch-up); a socket that asked for patches gets its viewer's patch
        from `patches` when its last view was the version just before."""
        for conn in self.connections(code):
            viewer: int | None = None
            if conn.seat_id is not None:
                viewer = index_of.get(conn.seat_id)
                if viewer is None:
                    conn.close(CLOSE_SEAT_REMOVED)
                    continue
            data = messages.get(viewer)
            if data is None:
                continue
            if conn.patches:
                if version is None:
                    conn.base = -1
                else:
                    if patches and conn.base == version - 1:
                        data = patches.get(viewer, data)
                    conn.base = version
            conn.send(data)

    def patch_viewers(self, code: str, index_of: Mapping[int, int]) -> set[int | None]:
        """The viewers with a socket here that asked for patches."""
        out: set[int | None] = set()
        for conn in self._rooms.get(code, ()):
            if conn.patches:
                out.add(None if conn.seat_id is None else index_of.get(conn.seat_id))
        return out

    def per_viewer(
        self, code: str, make: Callable[[int | None], bytes], index_of: Mapping[int, int]
    ) -> None:
        """Send each socket `make(viewer)`, computed once per viewer (as `deliver`)."""
        made: dict[int | None, bytes] = {}
        for conn in self.connections(code):
            viewer: int | None = None
            if conn.seat_id is not None:
                index = index_of.get(conn.seat_id)
                if index is None:
                    conn.close(CLOSE_SEAT_REMOVED)
                    continue
                viewer = index
            if viewer not in made:
                made[viewer] = make(viewer)
            conn.base = -1  # not a game version's view (the lobby): the next is whole
            conn.send(made[viewer])

    def close_seat(self, code: str, seat_id: int, close_code: int = CLOSE_SEAT_REMOVED) -> None:
        for conn in self.connections(code):
            if conn.seat_id == seat_id:
                conn.close(close_code)

    def close_all(self, codes: Iterable[str] | None = None, close_code: int = 1001) -> None:
        for code in list(codes if codes is not None else self._rooms):
            for conn in self.connections(code):
                conn.close(close_code)
