"""`LeanWebSocketProtocol`: a real uvicorn server with it serves WebSockets as before, an
accepted connection no longer holds its upgrade request and response, and its direct write
(the `SEND_TEXTS` extension) puts well-formed text frames on the wire."""

from __future__ import annotations

import asyncio

import pytest
import websockets

from app.realtime.protocol import SEND_TEXTS, LeanWebSocketProtocol, text_frame
from tests.helpers.server import uvicorn_serving


async def echo(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
    assert scope["type"] == "websocket"
    assert (await receive())["type"] == "websocket.connect"  # type: ignore[operator]
    await send({"type": "websocket.accept"})  # type: ignore[operator]
    while True:
        message = await receive()  # type: ignore[operator]
        if message["type"] == "websocket.disconnect":
            return
        await send({"type": "websocket.send", "text": message["text"].upper()})  # type: ignore[operator]


def test_an_accepted_socket_forgets_its_handshake() -> None:
    async def main() -> None:
        async with uvicorn_serving(echo, LeanWebSocketProtocol) as server:
            port = server.config.port
            async with websockets.connect(f"ws://127.0.0.1:{port}/x?token=t") as ws:
                await ws.send("hello")
                assert await ws.recv() == "HELLO"
                protocols = [
                    p for p in server.server_state.connections
                    if isinstance(p, LeanWebSocketProtocol)
                ]  # fmt: skip
                assert len(protocols) == 1
                assert protocols[0].request is None and protocols[0].response is None
                assert protocols[0].scope["query_string"] == b"token=t"

    asyncio.run(main())


SIZES = [0, 1, 125, 126, 127, 65535, 65536, 200_000]


async def direct(scope: dict, receive: object, send: object) -> None:  # type: ignore[type-arg]
    """Accepts, then answers "go" with one message of every size of SIZES, in two
    direct writes (several frames in one write, and one alone)."""
    assert (await receive())["type"] == "websocket.connect"  # type: ignore[operator]
    await send({"type": "websocket.accept"})  # type: ignore[operator]
    send_texts = scope["extensions"][SEND_TEXTS]
    while True:
        message = await receive()  # type: ignore[operator]
        if message["type"] == "websocket.disconnect":
            return
        payloads = ["é" * (n // 2) + "x" * (n % 2) for n in SIZES]  # UTF-8, n bytes each
        assert send_texts([p.encode() for p in payloads[:-1]]) is True
        assert send_texts([payloads[-1].encode()]) is True


def test_text_frames_of_every_length_class_reach_a_client_whole() -> None:
    """RFC 6455 5.2: payload lengths under 126 in the header's 7 bits, up to 65535 in 16
    more bits, beyond in 64: the websockets client parses each as the message sent."""

    async def main() -> None:
        async with (
            uvicorn_serving(direct, LeanWebSocketProtocol) as server,
            websockets.connect(f"ws://127.0.0.1:{server.config.port}/", max_size=None) as ws,
        ):
            await ws.send("go")
            for n in SIZES:
                got = await ws.recv()
                assert isinstance(got, str) and len(got.encode()) == n

    asyncio.run(main())


def test_the_direct_write_waits_for_a_paused_transport_and_stops_at_close() -> None:
    """Paused (the peer reads slower than we write): nothing written, False. Closed:
    `ConnectionError`, so the caller stops writing to it."""

    async def main() -> None:
        async with uvicorn_serving(echo, LeanWebSocketProtocol) as server:
            async with websockets.connect(f"ws://127.0.0.1:{server.config.port}/") as ws:
                await ws.send("a")
                assert await ws.recv() == "A"
                (protocol,) = [
                    p for p in server.server_state.connections
                    if isinstance(p, LeanWebSocketProtocol)
                ]  # fmt: skip
                send_texts = protocol.scope["extensions"][SEND_TEXTS]
                protocol.pause_writing()
                assert send_texts([b"held"]) is False
                protocol.resume_writing()
                assert send_texts([b"now"]) is True
                assert await ws.recv() == "now"
            async with asyncio.timeout(10):
                while not protocol.disconnected:  # uvicorn sets a flag, no event to await
                    await asyncio.sleep(0.01)
            with pytest.raises(ConnectionError):
                send_texts([b"late"])

    asyncio.run(main())


def test_text_frame_headers() -> None:
    assert text_frame(b"hi") == b"\x81\x02hi"
    assert text_frame(b"x" * 126)[:4] == b"\x81\x7e\x00\x7e"
    assert text_frame(b"x" * 65536)[:10] == b"\x81\x7f" + (65536).to_bytes(8, "big")
