"""In-process fixtures for `app.rooms`: a real RoomService on a migrated database (SQLite
and PostgreSQL), no server process, fake sockets that record what they are sent."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from typing import Any

import orjson
import pytest
from starlette.websockets import WebSocketState

from app.config import Settings
from app.games import registry
from app.realtime.hub import Connection
from app.rooms.service import RoomService
from app.store.db import create_db_engine
from tests.games.toy import GAME as TOY


class FakeWebSocket:
    """What `app.realtime.hub.Connection` needs of a socket: it records what is sent."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []
        self.application_state = WebSocketState.CONNECTED
        self.close_code: int | None = None

    async def send_text(self, text: str) -> None:
        self.sent.append(orjson.loads(text))

    async def close(self, code: int = 1000) -> None:
        self.close_code = code
        self.application_state = WebSocketState.DISCONNECTED

    def views(self) -> list[dict[str, Any]]:
        return [m for m in self.sent if m["type"] == "view"]


def socket(code: str, seat_id: int | None) -> tuple[Connection, FakeWebSocket]:
    fake = FakeWebSocket()
    return Connection(fake, code, seat_id), fake  # type: ignore[arg-type]


async def settle() -> None:
    """Let every queued socket write and pushed version go out."""
    for _ in range(5):
        await asyncio.sleep(0)


def make_settings(url: str, **overrides: Any) -> Settings:
    return Settings(database_url=url, bot_delay=0, redis_url=None, **overrides)


@pytest.fixture
def run_service(
    migrated_database_url: str,
) -> Callable[[Callable[[RoomService], Coroutine[Any, Any, None]]], None]:
    """`run_service(body)`: run `await body(service)` with a started service, shut down
    after. The toy game of tests/games is hosted besides the built-in ones."""
    registry.register(TOY)

    def run(body: Callable[[RoomService], Coroutine[Any, Any, None]], **overrides: Any) -> None:
        async def main() -> None:
            engine = create_db_engine(migrated_database_url)
            service = RoomService(engine, make_settings(migrated_database_url, **overrides))
            await service.startup()
            try:
                await body(service)
            finally:
                await service.shutdown()
                engine.dispose()

        asyncio.run(main())

    return run
