"""A uvicorn WebSocket protocol that forgets the handshake once the socket is accepted.

uvicorn's `WebSocketsSansIOProtocol` keeps the upgrade request (with its headers parsed
into a dict and a list) and the 101 response for the whole life of the connection, though
neither is read again once the handshake is sent: ~3 KB per idle socket
(docs/perf-sockets-cold-bots.md). `karanor serve` can pass this class as uvicorn's `ws`
option (`uvicorn_options(...)["ws"] = LeanWebSocketProtocol`). The ASGI scope (with its own
copy of the headers) is untouched.
"""

from __future__ import annotations

from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete and getattr(self, "request", None) is not None:
            # Read only while accepting (or refusing) the upgrade: both are done now.
            self.request = None  # type: ignore[assignment]
            self.response = None  # type: ignore[assignment]
