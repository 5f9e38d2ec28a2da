"""`/ws/rooms/{code}`: the live game over a WebSocket (see docs/api.md).

A seat socket (seat cookie or `?token=`) or a spectator socket (no token). Bad
messages get a coded error and the socket stays open.

Security (docs/security.md):
- every command, chat line and resync is authorised again with the socket's token,
  so a seat removed (or a token revoked) stops working at once, even on a socket
  opened before (answered `bad_token`, then closed 4401);
- at most `max_sockets_per_ip` sockets per client address and `max_sockets_per_seat`
  per seat: the next is told `too_many_sockets` and closed 4429;
- commands and chat lines count against the seat's rate (`command_rate`); every other
  message (ping, resync, a bad one) against the socket's, `ws_message_rate` a second
  (bursts of `ws_message_burst`): beyond, each gets `rate_limited`;
- a socket that sends nothing (the client pings) for `ws_idle_seconds` is closed 4408.
"""

import asyncio
import contextlib
import logging
from collections.abc import Awaitable
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError
from starlette.websockets import WebSocketState

from app import metrics
from app.config import Settings
from app.realtime.hub import Connection
from app.rooms.errors import PlatformError
from app.rooms.ratelimit import ConnectionCounter, RateLimiter
from app.rooms.service import Caller, RoomService
from app.web import device
from app.web import schemas as S
from app.web.security import client_address

router = APIRouter()
log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 16 * 1024
CLOSE_POLICY = 1008
CLOSE_TOO_MANY = 4429
_messages: TypeAdapter[Any] = TypeAdapter(S.WsMessage)


class SocketLimits:
    """The process's open sockets, per client address and per seat."""

    def __init__(self, settings: Settings) -> None:
        self.per_ip = ConnectionCounter(settings.max_sockets_per_ip)
        self.per_seat = ConnectionCounter(settings.max_sockets_per_seat)


def socket_limits(websocket: WebSocket) -> SocketLimits:
    state = websocket.app.state
    limits: SocketLimits | None = getattr(state, "socket_limits", None)
    if limits is None:
        limits = state.socket_limits = SocketLimits(state.settings)
    return limits


def _dump(message: dict[str, Any]) -> bytes:
    return orjson.dumps(message)


def error_message(command_id: str | None, code: str, message: str) -> bytes:
    return _dump({"type": "error", "id": command_id, "code": code, "message": message})


def origin_allowed(websocket: WebSocket) -> bool:
    """Browsers send Origin: it must be our own host or one of `allowed_origins`.
    Non-browser clients send none and are let in (they hold tokens, not cookies)."""
    origin = websocket.headers.get("origin")
    if origin is None:
        return True
    allowed = websocket.app.state.settings.allowed_origins
    if origin.rstrip("/") in {o.rstrip("/") for o in allowed}:
        return True
    host = websocket.headers.get("host", "")
    return bool(host) and urlsplit(origin).netloc.lower() == host.lower()


async def _refuse(websocket: WebSocket, code: str, message: str, close_code: int) -> None:
    """Tell an accepted socket why, then close it (before it was registered)."""
    with contextlib.suppress(Exception):
        await websocket.send_text(error_message(None, code, message).decode())
        await websocket.close(code=close_code, reason=code)


async def _drain(websocket: WebSocket, timeout: float = 5.0) -> None:
    """After asking for a close: read (and ignore) until the peer has gone, so the
    queued answers and the close frame are written before the handler returns."""
    with contextlib.suppress(Exception):
        async with asyncio.timeout(timeout):
            while websocket.application_state != WebSocketState.DISCONNECTED:
                if (await websocket.receive())["type"] == "websocket.disconnect":
                    return


def room_socket_route(websocket: WebSocket) -> Awaitable[None]:
    """The route's endpoint, a plain Starlette one: FastAPI's dependency injection would
    keep two exit stacks and its frames alive for as long as each socket is open (~3 KB
    of memory per idle socket); the path's code and the query's token are read here. A
    plain function handing over `room_socket`'s coroutine: one frame fewer per socket."""
    token = websocket.query_params.get("token")
    patches = websocket.query_params.get("patches") in ("1", "true")
    return room_socket(websocket, websocket.path_params["code"], token, patches)


async def room_socket(
    websocket: WebSocket, code: str, token: str | None = None, patches: bool = False
) -> None:
    """One socket from its upgrade to its end, in one coroutine: an idle socket keeps
    this frame alive (and those it awaits), so opening, limits, authentication and the
    receive loop are not split across nested coroutines (~300 B each a socket)."""
    if not origin_allowed(websocket):
        await websocket.close(code=CLOSE_POLICY, reason="origin not allowed")
        return
    service: RoomService = websocket.app.state.rooms
    settings: Settings = websocket.app.state.settings
    limits = socket_limits(websocket)
    address = client_address(websocket.scope)
    await websocket.accept()
    metrics.socket_opened()
    try:
        if not limits.per_ip.acquire(address):
            await _refuse(
                websocket, "too_many_sockets", "too many sockets from here", CLOSE_TOO_MANY
            )
            return
        seat_key: tuple[str, int] | None = None
        try:
            token = token or device.token_for(websocket, settings, code)
            try:
                caller = await service.authenticate(code, token)
            except PlatformError as error:
                await _refuse(websocket, error.code, error.message, 4000 + error.status)
                return
            seat = caller.seat
            if seat is not None:
                if not limits.per_seat.acquire((code, seat.id)):
                    await _refuse(
                        websocket,
                        "too_many_sockets",
                        f"at most {settings.max_sockets_per_seat} sockets per seat",
                        CLOSE_TOO_MANY,
                    )
                    return
                seat_key = (code, seat.id)
            else:
                token = None  # a spectator's messages are not authorised again
            # The socket, served.
            conn = Connection(websocket, caller.code, seat.id if seat else None)
            conn.patches = patches
            limiter = RateLimiter(settings.ws_message_rate, settings.ws_message_burst, max_keys=1)
            idle = settings.ws_idle_seconds
            loop = asyncio.get_running_loop()
            try:
                await service.connect(conn)
                _forget_handshake(websocket)
                if idle:
                    # On the loop's sweep: no timer of the socket's own (memory); the
                    # sweep sends `idle` and closes 4408, and the receive below then
                    # answers the disconnect.
                    conn.watch_idle(idle)
                while not conn.closing:
                    message = await websocket.receive()
                    conn.heard = loop.time()
                    if message["type"] == "websocket.disconnect":
                        return
                    text = message.get("text")
                    if text is None:  # a binary frame: taken if UTF-8 (some clients send bytes)
                        try:
                            text = (message.get("bytes") or b"").decode("utf-8")
                        except UnicodeDecodeError:
                            text = None
                    if text is None:
                        _refuse_message(
                            conn, limiter, None, "bad_message", "a message is UTF-8 JSON"
                        )
                    else:
                        await _handle(service, caller, conn, text, token, limiter)
                await _drain(websocket)
            except WebSocketDisconnect:
                pass
            except Exception:
                log.exception("socket of room %s failed", caller.code)
            finally:
                conn.unwatch()
                await service.disconnect(conn)
        finally:
            limits.per_ip.release(address)
            if seat_key is not None:
                limits.per_seat.release(seat_key)
    finally:
        metrics.socket_closed()


def _forget_handshake(websocket: WebSocket) -> None:
    """The upgrade request's headers (and the query's parsed form) are read only while
    the socket opens (origin, host, seat cookie, client address, token): an idle socket
    need not keep them, ~1-2 KB with a browser's cookies (docs/perf-sockets-cold-bots.md).
    The ASGI scope's `headers` becomes empty; nothing reads it afterwards."""
    websocket.scope["headers"] = []
    for cached in ("_headers", "_query_params"):
        websocket.__dict__.pop(cached, None)


async def _authorise(service: RoomService, caller: Caller, token: str | None) -> Caller:
    """The caller as the database says now (seat removed, moved or revoked since the
    socket opened). :raises PlatformError: 401 `bad_token`, 404 `unknown_room`."""
    if token is None:
        return caller
    fresh = await service.authenticate(caller.code, token)
    if fresh.seat is None or caller.seat is None or fresh.seat.id != caller.seat.id:
        raise PlatformError(401, "bad_token", "this seat's token no longer works")
    return fresh


def _refuse_message(
    conn: Connection, limiter: RateLimiter, command_id: str | None, code: str, message: str
) -> None:
    """Answer a bad message, or past the socket's rate only `rate_limited`."""
    if not limiter.allow(None):
        code, message = "rate_limited", "too many messages: slow down"
    conn.send(error_message(command_id, code, message))


async def _handle(
    service: RoomService,
    caller: Caller,
    conn: Connection,
    text: str,
    token: str | None,
    limiter: RateLimiter,
) -> None:
    """One message. Commands and chat lines count against the seat's own rate (in the
    service); everything else (pings, resyncs, bad messages) against the socket's."""
    if len(text) > MAX_MESSAGE_CHARS:
        _refuse_message(
            conn, limiter, None, "too_large", f"messages are at most {MAX_MESSAGE_CHARS}"
        )
        return
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        _refuse_message(conn, limiter, None, "bad_message", "a message is one JSON object")
        return
    command_id = data.get("id") if isinstance(data, dict) else None
    if not isinstance(command_id, str) or not 0 < len(command_id) <= 64:
        command_id = None
    try:
        message = _messages.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ()))[:200] or "message"
        _refuse_message(conn, limiter, command_id, "bad_message", f"{where}: {first.get('msg')}")
        return
    if isinstance(message, S.WsPing | S.WsResync | S.WsVisibility) and not limiter.allow(None):
        conn.send(error_message(None, "rate_limited", "too many messages: slow down"))
        return
    try:
        try:
            # Every message, pings included, is authorised again: a seat removed or a
            # token revoked since the socket opened stops here.
            caller = await _authorise(service, caller, token)
        except PlatformError as error:
            conn.send(error_message(command_id, error.code, error.message))
            conn.close(4000 + error.status)
            return
        if isinstance(message, S.WsPing):
            conn.send(b'{"type":"pong"}')
        elif isinstance(message, S.WsVisibility):
            conn.visible = message.visible
        elif isinstance(message, S.WsCommand):
            if caller.seat is None:
                raise PlatformError(403, "forbidden", "spectators may not send commands")
            result = await service.command(
                caller, message.id, message.command, message.expected_version
            )
            conn.send(_dump({"type": "ack", "id": message.id, "version": result.version}))
        elif isinstance(message, S.WsChat):
            await service.chat(caller, message.text)
        else:
            await service.resync(conn)
    except PlatformError as error:
        conn.send(error_message(command_id, error.code, error.message))
    except Exception:
        log.exception("a message on a socket of room %s failed", conn.code)
        conn.send(error_message(command_id, "internal_error", "something went wrong"))


router.add_websocket_route("/ws/rooms/{code}", room_socket_route)
