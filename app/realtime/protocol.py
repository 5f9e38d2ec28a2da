"""uvicorn's WebSocket protocol, leaner in memory and with a direct way to write.

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
  that path was 22% of the server's CPU, a third of it layers (docs/performance.md).
  It returns False and writes nothing while the transport is paused (the peer reads
  slower than we write): the caller then queues and waits through ASGI `send`, which
  waits for the transport to drain. It raises `ConnectionError` once the socket is
  closing or gone.

`karanor serve` gives this class as uvicorn's `ws` option (`app.server.uvicorn_options`);
`app.realtime.hub.Connection` uses the extension when the scope has it (a server
without it, or Starlette's test client, takes the ASGI path).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.frames import Frame, Opcode
from websockets.protocol import OPEN

SEND_TEXTS = "karanor.websocket.send_texts"


def text_frame(payload: bytes) -> bytes:
    """A final, unmasked text frame (a server's) holding `payload` (RFC 6455 5.2)."""
    length = len(payload)
    if length < 126:
        return bytes((0x81, length)) + payload
    if length < 65536:
        return bytes((0x81, 126)) + length.to_bytes(2, "big") + payload
    return bytes((0x81, 127)) + length.to_bytes(8, "big") + payload


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    def handle_connect(self, event: Any) -> None:
        super().handle_connect(event)
        scope = getattr(self, "scope", None)  # none when the upgrade was refused
        if scope is not None:
            scope["extensions"][SEND_TEXTS] = self.send_texts

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
