"""A socket's writer (`app.realtime.hub.Connection`): messages go out in order, a slow
socket is closed, and an idle socket holds no task and no queue (its memory)."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest
from starlette.websockets import WebSocketState

from app.realtime import hub
from app.realtime.hub import CLOSE_TOO_SLOW, Connection
from app.realtime.protocol import SEND_TEXTS


class Socket:
    """Records what is written; `gate` (when set) holds each write until released."""

    def __init__(self) -> None:
        self.sent: list[str] = []
        self.application_state = WebSocketState.CONNECTED
        self.close_code: int | None = None
        self.gate: asyncio.Event | None = None

    async def send_text(self, text: str) -> None:
        if self.gate is not None:
            await self.gate.wait()
        self.sent.append(text)

    async def close(self, code: int = 1000) -> None:
        self.close_code = code
        self.application_state = WebSocketState.DISCONNECTED


def connection() -> tuple[Connection, Socket]:
    sock = Socket()
    return Connection(sock, "ROOM", 7), sock  # type: ignore[arg-type]


async def writer_done(conn: Connection) -> None:
    task: Any = conn._task
    if task is not None:
        await task


def test_an_idle_socket_holds_no_task_and_no_queue() -> None:
    async def main() -> None:
        conn, _sock = connection()
        conn.start()
        assert not conn.writing and conn._queue is None

    asyncio.run(main())


def test_messages_go_out_in_order_then_the_writer_ends(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hub, "LINGER_SECONDS", 0.01)

    async def main() -> None:
        conn, sock = connection()
        for i in range(5):
            conn.send(b'{"n":%d}' % i)
        assert conn.writing
        task = conn._task
        await writer_done(conn)
        assert sock.sent == [f'{{"n":{i}}}' for i in range(5)]
        assert not conn.writing and conn._queue is None
        # A later message starts a new writer.
        conn.send(b'{"n":5}')
        assert conn.writing and conn._task is not task
        await writer_done(conn)
        assert sock.sent[-1] == '{"n":5}'

    asyncio.run(main())


def test_a_message_while_the_writer_lingers_reuses_it() -> None:
    async def main() -> None:
        conn, sock = connection()
        conn.send(b"1")
        task = conn._task
        while conn._more is None:  # written, now lingering for more
            await asyncio.sleep(0)
        conn.send(b"2")
        while len(sock.sent) < 2:
            await asyncio.sleep(0)
        assert conn._task is task and sock.sent == ["1", "2"]
        conn.close()
        await writer_done(conn)
        assert sock.close_code == 1000 and not conn.writing

    asyncio.run(main())


def test_close_writes_what_is_queued_first() -> None:
    async def main() -> None:
        conn, sock = connection()
        conn.send(b"a")
        conn.send(b"b")
        conn.close(4403)
        conn.send(b"after")  # ignored: the socket is closing
        await writer_done(conn)
        assert sock.sent == ["a", "b"] and sock.close_code == 4403

    asyncio.run(main())


def test_a_socket_that_does_not_read_is_closed_and_its_queue_dropped() -> None:
    async def main() -> None:
        conn, sock = connection()
        sock.gate = asyncio.Event()  # the peer reads nothing
        conn.send(b"first")
        await asyncio.sleep(0)  # the writer is now stuck on "first"
        for i in range(hub.QUEUE_SIZE + 1):
            conn.send(b"%d" % i)
        assert conn.closing
        sock.gate.set()
        await writer_done(conn)
        assert sock.sent == ["first"] and sock.close_code == CLOSE_TOO_SLOW

    asyncio.run(main())


def test_stop_ends_the_writer_and_later_messages_start_nothing() -> None:
    async def main() -> None:
        conn, sock = connection()
        sock.gate = asyncio.Event()
        conn.send(b"x")
        await asyncio.sleep(0)
        await conn.stop()
        assert not conn.writing
        conn.send(b"y")
        assert not conn.writing and sock.sent == []

    asyncio.run(main())


class DirectSocket(Socket):
    """A socket whose server offers the direct write (app/realtime/protocol.py):
    `paused` makes it refuse (the peer reads slowly), `gone` makes it raise."""

    def __init__(self) -> None:
        super().__init__()
        self.direct: list[bytes] = []
        self.paused = False
        self.gone = False
        self.scope = {"extensions": {SEND_TEXTS: self.send_texts}}

    def send_texts(self, messages: Any) -> bool:
        if self.gone:
            raise ConnectionError("closing")
        if self.paused:
            return False
        self.direct.extend(messages)
        return True


def direct_connection() -> tuple[Connection, DirectSocket]:
    sock = DirectSocket()
    return Connection(sock, "ROOM", 7), sock  # type: ignore[arg-type]


def test_a_direct_write_needs_no_queue_and_no_task() -> None:
    async def main() -> None:
        conn, sock = direct_connection()
        for i in range(3):
            conn.send(b"%d" % i)
        assert sock.direct == [b"0", b"1", b"2"] and sock.sent == []
        assert not conn.writing and conn._queue is None

    asyncio.run(main())


def test_a_paused_socket_queues_and_later_messages_wait_behind_the_queue(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(hub, "LINGER_SECONDS", 0.01)

    async def main() -> None:
        conn, sock = direct_connection()
        conn.send(b"a")
        sock.paused = True
        conn.send(b"b")  # refused by the transport: queued, a writer takes it via ASGI
        sock.paused = False
        conn.send(b"c")  # the queue is not drained yet: behind it, not direct
        assert conn.writing and list(conn._queue or ()) == [b"b", b"c"]
        await writer_done(conn)
        assert sock.direct == [b"a"] and sock.sent == ["b", "c"]
        conn.send(b"d")  # drained: direct again
        assert sock.direct == [b"a", b"d"]

    asyncio.run(main())


def test_a_socket_gone_under_a_direct_write_is_closing() -> None:
    async def main() -> None:
        conn, sock = direct_connection()
        sock.gone = True
        conn.send(b"x")
        assert conn.closing and not conn.writing
        conn.send(b"y")  # ignored
        assert sock.direct == [] and sock.sent == []

    asyncio.run(main())


def test_a_fault_in_the_direct_write_is_logged_and_the_socket_closed(
    caplog: pytest.LogCaptureFixture,
) -> None:
    async def main() -> None:
        conn, sock = direct_connection()

        def broken(messages: Any) -> bool:
            raise AttributeError("a bug")

        conn._direct = broken
        conn.send(b"x")
        assert conn.closing
        await writer_done(conn)
        assert sock.close_code == 1011

    asyncio.run(main())
    assert "writing on a socket of room ROOM failed" in caplog.text
