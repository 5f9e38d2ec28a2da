"""`LeanWebSocketProtocol`: a real uvicorn server with it serves WebSockets as before, and an
accepted connection no longer holds its upgrade request and response."""

from __future__ import annotations

import asyncio

import uvicorn
import websockets

from app.realtime.protocol import LeanWebSocketProtocol
from tests.helpers.server import free_port


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
        port = free_port()
        config = uvicorn.Config(
            echo, host="127.0.0.1", port=port, ws=LeanWebSocketProtocol, log_level="warning",
            lifespan="off",
        )  # fmt: skip
        server = uvicorn.Server(config)
        serving = asyncio.create_task(server.serve())
        try:
            async with asyncio.timeout(20):
                while not server.started:
                    await asyncio.sleep(0.01)
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
        finally:
            server.should_exit = True
            await serving

    asyncio.run(main())
