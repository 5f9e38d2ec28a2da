"""uvicorn's WebSocket protocol, leaner in memory and with a direct way to write.

- **It keeps less per idle socket** (docs/perf-sockets-cold-bots.md): uvicorn's receive
  `asyncio.Queue` and `writable` `asyncio.Event` (four deques, ~4 KB) become an `Inbox`
  and a `Flag` (a list, a future only while someone waits), and the websockets parser
  that read the upgrade request is replaced by the frame parser it delegates to, so the
  request (its headers) is not kept alive by the suspended generator (~3 KB).
- **Its keep-alive pings run on the loop's sweep** (`app.realtime.sweep`), not on a
  timer of each socket's own (~0.5 KB a socket): same pings, payload check and close 1011
  when no pong comes within `ping_timeout`, up to `sweep.RESOLUTION` late.
- **It forgets the handshake once the socket is accepted.** uvicorn's
  `WebSocketsSansIOProtocol` keeps the upgrade request (with its headers parsed into a
  dict and a list) and the 101 response for the whole life of the connection, though
  neither is read again once the handshake is sent: ~3 KB per idle socket
  (docs/perf-sockets-cold-bots.md). The ASGI scope (with its own copy of the headers)
  is untouched.
- **It offers a direct write**, as the ASGI extension `SEND_TEXTS` in the scope: a plain
  function `send_texts(messages) -> bool` that writes text frames (already UTF-8
  encoded JSON) on the transport at once, without the ASGI `send` coroutine and the
  layers around it (Starlette's `WebSocket.send_text`, the exception middleware's
  sender, uvicorn's `send`, the bytes decoded to `str` and encoded back). Under load
  that path was 22% of the server's CPU, a third of it layers (docs/performance-history.md).
  It returns False and writes nothing while the transport is paused (the peer reads
  slower than we write): the caller then queues and waits through ASGI `send`, which
  waits for the transport to drain. It raises `ConnectionError` once the socket is
  closing or gone.

`karanor serve` gives this class as uvicorn's `ws` option (`app.server.uvicorn_options`);
`app.realtime.hub.Connection` uses the extension when the scope has it (a server
without it, or Starlette's test client, takes the ASGI path).
"""

from __future__ import annotations

import asyncio
import random
import struct
from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import OPEN, Protocol
from websockets.server import ServerProtocol
from websockets.streams import StreamReader

from app.realtime.sweep import sweep_for

SEND_TEXTS = "karanor.websocket.send_texts"


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked text frame (a server's) holding `payload` (RFC 6455 5.2)."""
    length = len(payload)
    if length < 126:
        return bytes((0x81, length)) + payload
    if length < 65536:
        return bytes((0x81, 126)) + length.to_bytes(2, "big") + payload
    return bytes((0x81, 127)) + length.to_bytes(8, "big") + payload


class Inbox:
    """What uvicorn's WebSocket protocol uses of `asyncio.Queue` (`put_nowait`, `get`,
    `empty`, `qsize`), for its one reader (the ASGI `receive`): a list, and a future only
    while the reader waits. An `asyncio.Queue` holds three deques and an Event for the
    life of each socket (~3 KB)."""

    __slots__ = ("_items", "_waiter")

    def __init__(self) -> None:
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    async def get(self) -> Any:
        while not self._items:
            if self._waiter is not None:
                raise RuntimeError("Inbox.get: one reader at a time")
            waiter = self._waiter = asyncio.get_running_loop().create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)


class Flag:
    """What uvicorn's WebSocket protocol uses of `asyncio.Event` (`set`, `clear`,
    `is_set`, `wait`), without the deque an Event holds for its life (~0.8 KB): waiters
    are kept only while there are some (a paused transport)."""

    __slots__ = ("_value", "_waiters")

    def __init__(self, value: bool = False) -> None:
        self._value = value
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._value

    def set(self) -> None:
        if self._value:
            return
        self._value = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._value = False

    async def wait(self) -> None:
        if self._value:
            return
        waiter = asyncio.get_running_loop().create_future()
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        try:
            await waiter
        finally:
            if self._waiters is not None and waiter in self._waiters:
                self._waiters.remove(waiter)


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    # uvicorn's protocol sets ~40 attributes: past 30, Python 3.11 gives an instance a
    # dict of its own (~1.6 KB a socket) instead of sharing its class's keys. In slots
    # they take 8 bytes each (docs/perf-sockets-cold-bots.md). An attribute a later
    # uvicorn adds, not named here, goes to the instance's `__dict__` as before.
    __slots__ = (
        "app", "app_state", "asgi_version", "client", "close_sent", "close_timeout",
        "close_timer", "config", "conn", "connections", "curr_msg_data_type",
        "default_headers", "disconnected", "frames", "handshake_complete",
        "handshake_initiated", "initial_response", "last_ping_rtt", "logger", "loop",
        "pending_ping_payload", "ping_interval", "ping_sent_at", "ping_timeout",
        "ping_timer", "pong_timer", "queue", "read_paused", "request", "response",
        "root_path", "scheme", "scope", "server", "tasks", "transport", "writable",
        "sweep_key", "next_ping_at",
    )  # fmt: skip

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = Inbox()  # type: ignore[assignment]
        self.writable = Flag(True)  # type: ignore[assignment]
        self.sweep_key: int | None = None
        self.next_ping_at = 0.0

    # The keep-alive pings on the loop's sweep (app/realtime/sweep.py), not on a timer of
    # each socket's own (`ping_timer`, `pong_timer`: ~0.5 KB a socket): same pings, same
    # payload check, same close 1011 when no pong comes in `ping_timeout`, up to
    # `sweep.RESOLUTION` later.

    def start_keepalive(self) -> None:
        if self.ping_interval is not None and self.ping_interval > 0:
            self.next_ping_at = self.loop.time() + self.ping_interval
            sweep_for(self.loop).add(self, self.next_ping_at)

    def stop_keepalive(self) -> None:
        super().stop_keepalive()
        sweep_for(self.loop).discard(self)

    def swept(self, now: float) -> float | None:
        """The sweep's call at this socket's deadline: the next ping's or the pong's."""
        if self.disconnected or self.close_sent or self.transport.is_closing():
            return None
        if self.pending_ping_payload is not None and self.ping_timeout is not None:
            deadline = self.ping_sent_at + self.ping_timeout
            if now < deadline:
                return deadline
            self.keepalive_timeout()  # closes 1011
            return None
        if now < self.next_ping_at:
            return self.next_ping_at
        # uvicorn's send_keepalive_ping, without its timers.
        assert self.ping_interval is not None
        self.pending_ping_payload = struct.pack("!I", random.getrandbits(32))
        self.ping_sent_at = now
        self.conn.send_ping(self.pending_ping_payload)
        self.transport.write(b"".join(self.conn.data_to_send()))
        if self.ping_timeout is not None:
            return now + self.ping_timeout  # the pong's deadline (it sets the next ping)
        self.next_ping_at = now + self.ping_interval
        return self.next_ping_at

    def handle_pong(self, event: Frame) -> None:
        # Unsolicited and stale pongs (not the payload of the ping in flight) are ignored.
        if self.pending_ping_payload is None or bytes(event.data) != self.pending_ping_payload:
            return
        self.last_ping_rtt = self.loop.time() - self.ping_sent_at
        self.pending_ping_payload = None
        if self.ping_timeout is not None and self.ping_interval is not None:
            # uvicorn pings again `ping_interval - rtt` after the pong: `ping_interval`
            # after the last ping.
            self.next_ping_at = self.ping_sent_at + self.ping_interval
            sweep_for(self.loop).add(self, self.next_ping_at)

    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the upgrade was refused
        if scope is not None:
            scope["extensions"][SEND_TEXTS] = self.send_texts
        # websockets' ServerProtocol.parse read the request into a local, then runs
        # `yield from Protocol.parse()` (the frames) for the rest of the connection: its
        # suspended frame keeps the request alive. When the frame parser waits at the top
        # of its loop with nothing buffered (a client sends nothing before the
        # handshake's answer), a fresh frame parser is in the same state.
        conn = self.conn
        outer = conn.parser
        inner = getattr(outer, "gi_yieldfrom", None)
        waiting = getattr(inner, "gi_yieldfrom", None)
        if (
            getattr(outer, "gi_code", None) is ServerProtocol.parse.__code__
            and getattr(inner, "gi_code", None) is Protocol.parse.__code__
            and getattr(waiting, "gi_code", None) is StreamReader.at_eof.__code__
            and not conn.reader.buffer
        ):
            conn.parser = Protocol.parse(conn)
            next(conn.parser)

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete and getattr(self, "request", None) is not None:
            # Read only while accepting (or refusing) the upgrade: both are done now.
            self.request = None  # type: ignore[assignment]
            self.response = None  # type: ignore[assignment]

    def send_texts(self, messages: Sequence[bytes]) -> bool:
        """Write `messages` (UTF-8 JSON) as text frames, in one write; see the module doc.

        :raises ConnectionError: the socket is closing or closed (nothing written).
        """
        conn = self.conn
        if (
            self.disconnected
            or self.close_sent
            or not self.handshake_complete
            or self.initial_response is not None
            or conn.state is not OPEN
        ):
            raise ConnectionError("the socket is closing")
        if not self.writable.is_set():
            return False
        if conn.extensions:  # negotiated compression: let websockets encode the frames
            frames = [Frame(Opcode.TEXT, m).serialize(mask=False, extensions=conn.extensions)
                      for m in messages]  # fmt: skip
        else:
            frames = [text_frame(m) for m in messages]
        self.transport.write(frames[0] if len(frames) == 1 else b"".join(frames))
        return True
