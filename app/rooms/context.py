"""What every part of `app.rooms` shares: the database, the writer, the sockets, the
bus to the other processes, the room cache and the settings."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from sqlalchemy import Engine

from app.config import Settings
from app.realtime.bus import RedisBus
from app.realtime.hub import Hub
from app.rooms.errors import translated
from app.store.writer import Writer

T = TypeVar("T")
log = logging.getLogger(__name__)

# Told what happened in a room, after the fact: ("version", the events), ("timeout", the
# seat index out of time, handed to a bot), ("standin", the seat index out of time whose
# turn a bot played), ("rematch", {"code", "by"}). Never waits (app/notices).
Observer = Callable[[Any, str, Any], None]


@dataclass(slots=True)
class Platform:
    db: Engine
    settings: Settings
    hub: Hub
    writer: Writer
    bus: RedisBus | None  # None: this process is alone
    closing: bool = False
    observers: list[Observer] = field(default_factory=list)

    async def read(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a reading function in a worker thread (the event loop keeps serving
        sockets); a database failure is `unavailable`."""
        with translated():
            return await asyncio.to_thread(fn, *args)

    async def write(self, fn: Callable[..., T], *args: Any) -> T:
        """Run a writing function alone on the writer thread."""
        with translated():
            return await self.writer.solo(fn, *args)

    def tell(self, room: Any, what: str, detail: Any) -> None:
        """Tell the observers (notices) what happened in `room`; an observer's failure
        never reaches the room."""
        for observer in self.observers:
            try:
                observer(room, what, detail)
            except Exception:
                log.exception("room %s: an observer failed", getattr(room, "code", "?"))

    def publish(self, code: str, notice: dict[str, Any]) -> None:
        """Tell the other processes (if any) that room `code` changed."""
        if self.bus is not None:
            self.bus.publish(code, notice)
