"""A fake push service (and Apprise `json://` receiver) on loopback, and a browser's side
of a Web Push subscription: the key pair and auth secret that decrypt what the server
sends (RFC 8291, aes128gcm), as a browser would."""

from __future__ import annotations

import base64
import os
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import http_ece
import orjson
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec


def b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


@dataclass
class Browser:
    """One device's push subscription: what `pushManager.subscribe` would give."""

    endpoint: str
    key: ec.EllipticCurvePrivateKey = field(
        default_factory=lambda: ec.generate_private_key(ec.SECP256R1())
    )
    auth: bytes = field(default_factory=lambda: os.urandom(16))

    def subscription(self) -> dict[str, Any]:
        public = self.key.public_key().public_bytes(
            serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
        )
        return {
            "endpoint": self.endpoint,
            "keys": {"p256dh": b64url(public), "auth": b64url(self.auth)},
        }

    def decrypt(self, body: bytes) -> dict[str, Any]:
        """The notice, decrypted with this subscription's private key (fails otherwise)."""
        plain = http_ece.decrypt(
            body, private_key=self.key, auth_secret=self.auth, version="aes128gcm"
        )
        return dict(orjson.loads(plain))


@dataclass
class Received:
    path: str
    headers: dict[str, str]
    body: bytes
    at: float


class FakePushService:
    """An HTTP server on 127.0.0.1 that records every POST; `status_for(path)` chooses
    the answer (201 by default, as push services answer)."""

    def __init__(self) -> None:
        self.received: list[Received] = []
        self.statuses: dict[str, int] = {}
        self._cond = threading.Condition()
        outer = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the standard library's name)
                length = int(self.headers.get("content-length") or 0)
                body = self.rfile.read(length)
                with outer._cond:
                    outer.received.append(
                        Received(
                            self.path,
                            {k.lower(): v for k, v in self.headers.items()},
                            body,
                            time.monotonic(),
                        )
                    )
                    outer._cond.notify_all()
                self.send_response(outer.statuses.get(self.path, 201))
                self.send_header("content-length", "0")
                self.end_headers()

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.port = self.server.server_address[1]
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self._thread.start()

    def url(self, path: str) -> str:
        return f"http://127.0.0.1:{self.port}{path}"

    def at(self, path: str) -> list[Received]:
        with self._cond:
            return [r for r in self.received if r.path == path]

    def wait_for(self, path: str, count: int, timeout: float) -> list[Received]:
        """Wait (on a condition, bounded) until `count` requests reached `path`."""
        with self._cond:
            ok = self._cond.wait_for(lambda: len(self.at_locked(path)) >= count, timeout)
            found = self.at_locked(path)
        assert ok, f"{len(found)} requests at {path}, wanted {count}"
        return found

    def at_locked(self, path: str) -> list[Received]:
        return [r for r in self.received if r.path == path]

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()
