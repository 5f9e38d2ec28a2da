"""`/ws/rooms/{code}`: the live game over a WebSocket (see docs/api.md).

A seat socket (seat cookie or `?token=`) or a spectator socket (no token). Bad
messages get a coded error and the socket stays open.
"""

import logging
from dataclasses import replace
from typing import Any
from urllib.parse import urlsplit

import orjson
from fastapi import APIRouter, WebSocket, WebSocketDisconnect
from pydantic import TypeAdapter, ValidationError
from sqlalchemy.exc import SQLAlchemyError

from app.karanor.errors import RuleError
from app.realtime.hub import Connection
from app.rooms import tokens
from app.rooms.errors import PlatformError
from app.rooms.service import Caller, RoomService, SeatInfo
from app.web import schemas as S

router = APIRouter()
log = logging.getLogger(__name__)

MAX_MESSAGE_CHARS = 16 * 1024
CLOSE_POLICY = 1008
_messages: TypeAdapter[Any] = TypeAdapter(S.WsMessage)


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


@router.websocket("/ws/rooms/{code}")
async def room_socket(websocket: WebSocket, code: str, token: str | None = None) -> None:
    if not origin_allowed(websocket):
        await websocket.close(code=CLOSE_POLICY, reason="origin not allowed")
        return
    service: RoomService = websocket.app.state.rooms
    await websocket.accept()
    try:
        caller = await service.authenticate(
            code, token or websocket.cookies.get(tokens.cookie_name(code))
        )
    except PlatformError as error:
        await websocket.send_text(error_message(None, error.code, error.message).decode())
        await websocket.close(code=4000 + error.status, reason=error.code)
        return
    seat = caller.seat
    conn = Connection(websocket, code, seat.index if seat else None, seat.id if seat else None)
    await service.connect(conn)
    try:
        while not conn.closing:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                text = raw.decode("utf-8", "replace")
            await _handle(service, caller, conn, text)
    except WebSocketDisconnect:
        pass
    except Exception:
        log.exception("socket of room %s failed", code)
    finally:
        await service.disconnect(conn)


async def _handle(service: RoomService, caller: Caller, conn: Connection, text: str) -> None:
    if len(text) > MAX_MESSAGE_CHARS:
        conn.send(error_message(None, "too_large", f"messages are at most {MAX_MESSAGE_CHARS}"))
        return
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        conn.send(error_message(None, "bad_message", "a message is one JSON object"))
        return
    command_id = data.get("id") if isinstance(data, dict) else None
    if not isinstance(command_id, str):
        command_id = None
    try:
        message = _messages.validate_python(data)
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "message"
        conn.send(error_message(command_id, "bad_message", f"{where}: {first.get('msg')}"))
        return
    # Stamp this socket's current seat (it may have moved in the lobby).
    if caller.seat is not None and conn.seat is not None and caller.seat.index != conn.seat:
        caller = Caller(caller.code, _moved(caller, conn.seat))
    try:
        if isinstance(message, S.WsCommand):
            if caller.seat is None:
                raise PlatformError(403, "forbidden", "spectators may not send commands")
            result = await service.command(
                caller, message.id, message.command, message.expected_version
            )
            conn.send(_dump({"type": "ack", "id": message.id, "version": result.version}))
        elif isinstance(message, S.WsChat):
            await service.chat(caller, message.text)
        elif isinstance(message, S.WsResync):
            await service.resync(conn)
        else:
            conn.send(b'{"type":"pong"}')
    except (PlatformError, RuleError) as error:
        conn.send(error_message(command_id, error.code, error.message))
    except SQLAlchemyError as error:
        log.error("database error on a socket of room %s: %s", conn.code, error)
        conn.send(error_message(command_id, "unavailable", "the database is unavailable"))


def _moved(caller: Caller, index: int) -> SeatInfo:
    assert caller.seat is not None
    return replace(caller.seat, index=index)
