"""Helpers of the scale-out tests: socket watchers and the stored log."""

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import orjson
import websockets
from sqlalchemy import text

from app.store.db import create_db_engine


class Watcher:
    """A socket that records every message it gets (read in a background task)."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.messages: list[dict[str, Any]] = []
        self.closed = False
        self._ws: Any = None
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> "Watcher":
        self._ws = await websockets.connect(self.url, max_size=2**24)
        self._task = asyncio.create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        if self._ws is not None:
            await self._ws.close()
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _read(self) -> None:
        try:
            async for raw in self._ws:
                self.messages.append(orjson.loads(raw))
        except websockets.ConnectionClosed:
            pass
        finally:
            self.closed = True

    async def send(self, message: dict[str, Any]) -> None:
        await self._ws.send(orjson.dumps(message).decode())

    def of_type(self, kind: str) -> list[dict[str, Any]]:
        return [m for m in self.messages if m["type"] == kind]

    def game_views(self) -> list[dict[str, Any]]:
        """The view messages of the game (not of the lobby), in arrival order."""
        return [m for m in self.of_type("view") if m["view"]["status"] != "lobby"]

    @property
    def latest(self) -> dict[str, Any]:
        return self.of_type("view")[-1]["view"]

    async def wait(self, check: Callable[["Watcher"], Any], timeout: float = 20.0) -> Any:
        deadline = time.monotonic() + timeout
        while True:
            found = check(self)
            if found:
                return found
            if time.monotonic() > deadline:
                kinds = [(m["type"], m.get("version")) for m in self.messages[-10:]]
                raise AssertionError(f"timed out waiting on {self.url}; last: {kinds}")
            await asyncio.sleep(0.02)

    async def wait_version(self, version: int, timeout: float = 20.0) -> None:
        await self.wait(lambda w: any(m["version"] >= version for m in w.game_views()), timeout)


def stored_log(database_url: str, code: str) -> list[tuple[int, int | None, str | None]]:
    """(version, seat, command_id) of every row of the room's game log, by version."""
    engine = create_db_engine(database_url)
    try:
        with engine.connect() as conn:
            rows = conn.execute(
                text(
                    "SELECT e.version, e.seat, e.command_id FROM game_events e"
                    " JOIN games g ON g.id = e.game_id JOIN rooms r ON r.id = g.room_id"
                    " WHERE r.code = :code ORDER BY e.version"
                ),
                {"code": code},
            ).all()
    finally:
        engine.dispose()
    return [(r[0], r[1], r[2]) for r in rows]


def assert_log_complete(database_url: str, code: str) -> list[tuple[int, int | None, str | None]]:
    """The log holds versions 1..N once each, and no command id twice per seat."""
    rows = stored_log(database_url, code)
    versions = [r[0] for r in rows]
    assert versions == list(range(1, len(rows) + 1)), versions
    ids = [(seat, command_id) for _v, seat, command_id in rows]
    assert len(ids) == len(set(ids))
    return rows
