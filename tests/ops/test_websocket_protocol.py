"""`app.realtime.protocol.LeanWebSocketProtocol`: uvicorn's WebSocket protocol as `karanor serve` runs it
keeps less per idle socket (an `Inbox` and a `Flag` instead of an asyncio Queue and Event;
the upgrade request not kept by the parser) and serves WebSockets as before, including
clients that send frames before the handshake's answer."""

from __future__ import annotations

import asyncio
import base64
import gc
import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
import websockets
from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request
from websockets.protocol import Protocol

from app.config import Settings
from app.realtime.protocol import Flag, Inbox, LeanWebSocketProtocol
from app.realtime.sweep import sweep_for
from app.server import uvicorn_options
from tests.helpers.server import uvicorn_serving

# ---------------------------------------------------------------- Inbox and Flag


def test_inbox_hands_items_over_in_order_and_survives_a_cancelled_get() -> None:
    async def main() -> None:
        inbox = Inbox()
        assert inbox.empty() and inbox.qsize() == 0
        inbox.put_nowait(1)
        inbox.put_nowait(2)
        assert inbox.qsize() == 2
        assert [await inbox.get(), await inbox.get()] == [1, 2]

        waiting = asyncio.create_task(inbox.get())
        await asyncio.sleep(0)
        assert not waiting.done()
        inbox.put_nowait(3)
        assert await waiting == 3

        with pytest.raises(TimeoutError):  # the idle close's asyncio.timeout
            async with asyncio.timeout(0.01):
                await inbox.get()
        inbox.put_nowait(4)
        assert await inbox.get() == 4 and inbox.empty()

    asyncio.run(main())


def test_flag_wakes_its_waiters_when_set() -> None:
    async def main() -> None:
        flag = Flag(True)
        await flag.wait()  # set: no wait
        flag.clear()
        assert not flag.is_set()
        first, second = asyncio.create_task(flag.wait()), asyncio.create_task(flag.wait())
        await asyncio.sleep(0)
        assert not first.done() and not second.done()
        flag.set()
        await asyncio.gather(first, second)
        assert flag.is_set()

        flag.clear()
        with pytest.raises(TimeoutError):
            async with asyncio.timeout(0.01):
                await flag.wait()
        flag.set()
        await flag.wait()

    asyncio.run(main())


# ---------------------------------------------------------------- a real server
# (objects found with `type(o) is`: isinstance on a dead weak proxy raises)


def test_karanor_serve_gives_uvicorn_this_protocol() -> None:
    assert uvicorn_options(Settings())["ws"] is LeanWebSocketProtocol


async def upper(scope: dict[str, Any], receive: Any, send: Any) -> None:
    assert scope["type"] == "websocket"
    assert (await receive())["type"] == "websocket.connect"
    await send({"type": "websocket.accept"})
    while True:
        message = await receive()
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": message["text"].upper()})


def _served(protocol_class: type, ws: Any) -> Any:
    """The server's protocol object of the client connection `ws` (an earlier test's may
    still be alive, waiting for the collector)."""
    port = ws.local_address[1]
    (served,) = [
        o
        for o in gc.get_objects()
        if type(o) is protocol_class
        and (getattr(o, "scope", None) or {}).get("client")
        and o.scope["client"][1] == port
    ]
    return served


@asynccontextmanager
async def serving(
    protocol: type[asyncio.Protocol] = LeanWebSocketProtocol, **options: Any
) -> AsyncIterator[int]:
    async with uvicorn_serving(upper, protocol, **options) as server:
        yield server.config.port


def test_a_socket_is_served_without_its_upgrade_request_kept() -> None:
    protocol_class = LeanWebSocketProtocol

    async def main() -> None:
        async with (
            serving() as port,
            websockets.connect(f"ws://127.0.0.1:{port}/x?token=t") as ws,
        ):
            for text in ["hello", "x" * 20_000, "bye"]:
                await ws.send(text)
                assert await ws.recv() == text.upper()
            served = _served(protocol_class, ws)
            assert isinstance(served.queue, Inbox) and isinstance(served.writable, Flag)
            assert served.conn.parser.gi_code is Protocol.parse.__code__
            assert served.scope["path"] == "/x"  # the ASGI scope is untouched
            # Every attribute uvicorn sets is one of the class's slots: no instance dict
            # (~1.6 KB a socket). A name a newer uvicorn adds shows here: add it.
            assert vars(served) == {}
            # This server's requests only: the process (a test worker) may still hold the
            # clients' requests of earlier tests, which say nothing of this server.
            host = f"127.0.0.1:{port}"
            gc.collect()
            requests = [
                o for o in gc.get_objects() if type(o) is Request and o.headers.get("Host") == host
            ]
            assert requests == [ws.request]  # only the client's own

    asyncio.run(main())


def _masked_text_frame(text: bytes) -> bytes:
    mask = b"\x01\x02\x03\x04"  # fixed: the half frame's leftover bytes read the same each run
    return (
        bytes((0x81, 0x80 | len(text))) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(text))
    )


def _handshake(port: int) -> bytes:
    key = base64.b64encode(os.urandom(16))
    return (
        b"GET /x HTTP/1.1\r\nHost: 127.0.0.1:%d\r\nUpgrade: websocket\r\n"
        b"Connection: Upgrade\r\nSec-WebSocket-Key: %s\r\nSec-WebSocket-Version: 13\r\n\r\n"
        % (port, key)
    )


async def _early_client(protocol: type[asyncio.Protocol], cut: int) -> bytes:
    """What a server with `protocol` answers a client that sends the first `cut` bytes of
    a frame with its handshake, the rest after the 101, then another frame."""
    frame = _masked_text_frame(b"early")
    async with serving(protocol) as port:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        try:
            writer.write(_handshake(port) + frame[:cut])
            await writer.drain()
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
            assert head.startswith(b"HTTP/1.1 101")
            writer.write(frame[cut:] + _masked_text_frame(b"later"))
            await writer.drain()
            return await asyncio.wait_for(reader.read(100), 10)
        finally:
            writer.transport.abort()


@pytest.mark.parametrize("cut", [len(_masked_text_frame(b"early")), 3])
def test_frames_sent_with_the_handshake_are_answered_as_uvicorn_does(cut: int) -> None:
    """A client that does not wait for the 101 (RFC 6455 says it must) gets what uvicorn's
    own protocol gives it: a whole early frame is dropped by uvicorn (before the app's
    accept) and the next answered; half a frame garbles the stream (closed 1002)."""
    ours = asyncio.run(_early_client(LeanWebSocketProtocol, cut))
    theirs = asyncio.run(_early_client(WebSocketsSansIOProtocol, cut))
    if cut == 3:
        assert ours[:1] == theirs[:1] == b"\x88"  # a close frame
        assert ours[2:4] == theirs[2:4] == (1002).to_bytes(2, "big")
    else:
        assert ours == theirs == b"\x81\x05LATER"


def test_a_paused_transport_holds_the_writes_until_resumed() -> None:
    protocol_class = LeanWebSocketProtocol

    async def main() -> None:
        async with (
            serving() as port,
            websockets.connect(f"ws://127.0.0.1:{port}/x") as ws,
        ):
            await ws.send("a")
            assert await ws.recv() == "A"
            served = _served(protocol_class, ws)
            served.pause_writing()
            await ws.send("b")
            with pytest.raises(TimeoutError):
                await asyncio.wait_for(ws.recv(), 0.3)
            served.resume_writing()
            assert await asyncio.wait_for(ws.recv(), 5) == "B"

    asyncio.run(main())


# ---------------------------------------------------------------- keep-alive pings


async def _read_frame(reader: asyncio.StreamReader) -> tuple[int, bytes]:
    """(opcode, payload) of the server's next frame (unmasked, short)."""
    head = await asyncio.wait_for(reader.readexactly(2), 10)
    length = head[1] & 0x7F
    assert length < 126
    return head[0] & 0x0F, await reader.readexactly(length)


def _masked(opcode: int, payload: bytes) -> bytes:
    mask = os.urandom(4)
    return (
        bytes((0x80 | opcode, 0x80 | len(payload)))
        + mask
        + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))
    )


def test_keepalive_pings_come_from_the_sweep_and_a_missing_pong_closes_1011() -> None:
    """The pings run on the loop's sweep, with no timer of the socket's own: a client
    answering them is pinged again and again; one that stops answering is closed 1011
    ("keepalive ping timeout") as by uvicorn's own timers; a stale pong is ignored."""

    async def main() -> None:
        async with serving(ws_ping_interval=0.3, ws_ping_timeout=0.3) as port:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
            try:
                writer.write(_handshake(port))
                head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 10)
                assert head.startswith(b"HTTP/1.1 101")
                (served,) = [
                    o
                    for o in gc.get_objects()
                    if type(o) is LeanWebSocketProtocol
                    and not o.disconnected
                    and o.client is not None
                    and o.client[1] == writer.get_extra_info("sockname")[1]
                ]
                assert served.sweep_key is not None
                loop = asyncio.get_running_loop()
                sent_at = []
                for _ in range(3):
                    opcode, payload = await _read_frame(reader)
                    assert opcode == 0x9  # ping
                    sent_at.append(loop.time())
                    assert served.ping_timer is None and served.pong_timer is None
                    writer.write(_masked(0xA, b"stale"))  # not this ping's payload: ignored
                    writer.write(_masked(0xA, payload))
                    await writer.drain()
                # One ping_interval apart, up to the sweep's resolution (and a busy machine).
                gaps = [b - a for a, b in zip(sent_at, sent_at[1:], strict=False)]
                assert all(0.25 <= gap < 2 for gap in gaps), gaps
                # No pong now: closed 1011 once ping_timeout has passed.
                assert (await _read_frame(reader))[0] == 0x9
                opcode, payload = await _read_frame(reader)
                assert opcode == 0x8 and payload[:2] == (1011).to_bytes(2, "big")
                assert await asyncio.wait_for(reader.read(), 10) == b""  # and hung up
                assert served.sweep_key is None
            finally:
                writer.transport.abort()

    asyncio.run(main())


def test_a_closed_socket_leaves_the_sweep() -> None:
    async def main() -> None:
        async with serving(ws_ping_interval=30) as port:
            async with websockets.connect(f"ws://127.0.0.1:{port}/x") as ws:
                await ws.send("a")
                assert await ws.recv() == "A"
                served = _served(LeanWebSocketProtocol, ws)
                sweep = sweep_for(asyncio.get_running_loop())
                assert served.sweep_key is not None and len(sweep) >= 1
            async with asyncio.timeout(10):  # uvicorn sets a flag, no event to await
                while not served.disconnected:
                    await asyncio.sleep(0.01)
            assert served.sweep_key is None

    asyncio.run(main())
