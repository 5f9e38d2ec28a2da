"""Several processes: catching up with what the others did (REDIS_URL set).

Redis carries only hints ("room R is at version V", "a chat line", "the lobby
changed", "presence changed"); the truth is read from the store. A notice schedules
work in the room's worker task (one at a time, in a fixed order); a periodic check
catches what a lost notice would have told (versions and chat lines ahead of what
our sockets saw), refreshes presence, and wakes bots that stalled (their process died
or a wake-up was lost). See docs/deploy.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from typing import Any

from app.realtime.bus import PRESENCE_REFRESH
from app.rooms.bots import BotRunner
from app.rooms.cache import RoomCache
from app.rooms.chat import Chat
from app.rooms.commands import CommandPath
from app.rooms.context import Platform
from app.rooms.errors import PlatformError
from app.rooms.fanout import Fanout
from app.rooms.model import Room
from app.rooms.presence import Presence
from app.rooms.table import Table
from app.store import chat_rows, repo
from app.store.db import read_connection

log = logging.getLogger(__name__)

WORK_ORDER = ("own-presence", "lobby", "version", "seats", "chat", "presence")


class Cluster:
    def __init__(
        self,
        platform: Platform,
        cache: RoomCache,
        commands: CommandPath,
        fanout: Fanout,
        chat: Chat,
        presence: Presence,
        bots: BotRunner,
        table: Table,
    ) -> None:
        self.p = platform
        self.cache = cache
        self.commands = commands
        self.fanout = fanout
        self.chat = chat
        self.presence = presence
        self.bots = bots
        self.table = table
        self.interval = platform.settings.sync_interval
        self._task: asyncio.Task[None] | None = None
        self._bot_seen: dict[str, tuple[int, float]] = {}

    def start(self) -> None:
        if self.p.bus is None or self._task is not None:
            return
        self.p.bus.start(self.on_notice, self.after_reconnect)
        self._task = asyncio.create_task(self._watch(), name="sync-watch")

    async def stop(self) -> None:
        tasks = [r.worker for r in self.cache if r.worker is not None]
        if self._task is not None:
            tasks.append(self._task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.p.bus is not None:
            for code in self.p.hub.codes():
                await self.p.bus.set_presence(code, set())
            await self.p.bus.close()

    def forget(self, code: str) -> None:
        self._bot_seen.pop(code, None)

    # --- notices --------------------------------------------------------------------------

    def on_notice(self, code: str, notice: dict[str, Any]) -> None:
        """A notice from another process (see `app.realtime.bus`)."""
        room = self.cache.cached(code)
        if room is None or self.p.closing:
            return  # no socket of ours has ever watched this room
        kind = notice.get("t")
        if kind == "v":
            version = notice.get("v")
            if isinstance(version, int) and (room.pushed is None or version > room.pushed):
                self.schedule(room, "version")
        elif kind == "lobby":
            removed = notice.get("removed")
            if isinstance(removed, int):
                # That seat's sockets here close at once; the others find their (maybe
                # new) place from the seats re-read by the lobby work below.
                self.p.hub.close_seat(code, removed)
                self.schedule(room, "own-presence")
            room.auth.clear()
            self.schedule(room, "lobby")
        elif kind == "seats":
            self.schedule(room, "seats", always=True)
        elif kind == "chat":
            if notice.get("id") not in room.chat_seen:
                self.schedule(room, "chat")
        elif kind == "presence":
            self.schedule(room, "presence")

    def schedule(self, room: Room, what: str, *, always: bool = False) -> None:
        """Queue catch-up work (only for rooms with sockets here, unless `always`)."""
        if (
            not self.p.hub.connections(room.code)
            and not room.connecting
            and what != "own-presence"
            and not always
        ):
            return
        room.todo.add(what)
        if room.worker is None or room.worker.done():
            room.worker = asyncio.create_task(self._work(room), name=f"sync-{room.code}")

    async def _work(self, room: Room) -> None:
        while room.todo and not self.p.closing:
            what = next((w for w in WORK_ORDER if w in room.todo), None)
            if what is None:
                room.todo.clear()
                return
            room.todo.discard(what)
            try:
                if what == "version":
                    async with room.lock:  # after a socket being registered is in the hub
                        if self.p.hub.connections(room.code):
                            await self.commands.catch_up(room)
                elif what == "lobby":
                    async with room.lock:
                        await self.fanout.push_lobby(room)
                elif what == "seats":
                    await self.table.reload(room)
                elif what == "chat":
                    await self.chat.catch_up(room)
                elif what == "presence":
                    await self.presence.refresh(room)
                elif what == "own-presence":
                    await self.presence.announce(room)
            except PlatformError as error:
                if error.code != "not_started":
                    log.warning("room %s: catching up (%s): %r", room.code, what, error)
            except Exception:
                log.exception("room %s: catching up (%s) failed", room.code, what)
                await asyncio.sleep(0.5)

    async def after_reconnect(self) -> None:
        """(Re)subscribed to Redis: notices may have been lost meanwhile; check all."""
        with contextlib.suppress(Exception):
            await self._check_rooms()
            for code in self.p.hub.codes():
                room = self.cache.cached(code)
                if room is not None:
                    self.schedule(room, "own-presence")
                    self.schedule(room, "presence")

    # --- the periodic check ----------------------------------------------------------------

    async def _watch(self) -> None:
        assert self.p.bus is not None
        last_presence = 0.0
        while not self.p.closing:
            await asyncio.sleep(self.interval)
            try:
                await self._check_rooms()
                if time.monotonic() - last_presence >= PRESENCE_REFRESH:
                    last_presence = time.monotonic()
                    for code in self.p.hub.codes():
                        room = self.cache.cached(code)
                        if room is not None:
                            await self.p.bus.set_presence(code, self.p.hub.seat_ids(code))
                            await self.presence.refresh(room)
                await self._check_bots()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("periodic check failed: %s", error)

    async def _check_rooms(self) -> None:
        rooms = [r for c in self.p.hub.codes() if (r := self.cache.cached(c)) is not None]
        if not rooms:
            return

        def read() -> tuple[dict[int, int], dict[int, int]]:
            ids = [r.room_id for r in rooms]
            with read_connection(self.p.db) as conn:
                return repo.game_versions(conn, room_ids=ids), chat_rows.last_chat_ids(
                    conn, room_ids=ids
                )

        versions, chats = await self.p.read(read)
        for room in rooms:
            version = versions.get(room.room_id)
            if version is not None and (room.pushed is None or version > room.pushed):
                self.schedule(room, "version")
            last_chat = chats.get(room.room_id)
            if last_chat is not None and last_chat not in room.chat_seen:
                self.schedule(room, "chat")

    async def _check_bots(self) -> None:
        """Wake the bots of a game that waits on them and has not moved for a while,
        when no process holds its bot lock (the holder died, or a wake-up was lost)."""
        assert self.p.bus is not None

        def read() -> list[tuple[str, int]]:
            with read_connection(self.p.db) as conn:
                return repo.bot_games(conn)

        now = time.monotonic()
        stall = self.bots.lock_ttl
        seen = {}
        for code, version in await self.p.read(read):
            first = self._bot_seen.get(code)
            seen[code] = first if first is not None and first[0] == version else (version, now)
            if now - seen[code][1] < stall:
                continue
            room = self.cache.cached(code)
            if room is not None and (
                room.bot_idle == version or room.bot_task is not None and not room.bot_task.done()
            ):
                continue
            if not await self.p.bus.bot_lock_free(code):
                continue
            with contextlib.suppress(PlatformError):
                self.bots.wake(room or await self.cache.get(code))
        self._bot_seen = seen
