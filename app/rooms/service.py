"""The rooms service: the one entry point of the web layer into the platform.

A facade over small parts, each with one job (see docs/architecture.md):

- `cache`     the rooms in memory, and their eviction
- `seats`     who is calling (seat tokens)
- `lobby`     rooms, seats, bots, options, the deal
- `commands`  the command path: apply, log (group commit), acknowledge, then push
- `bots`      the bot runner (the game decides, the runner schedules)
- `chat`      chat lines
- `presence`  who is connected, here and elsewhere
- `fanout`    what this process's sockets are sent
- `cluster`   catching up with the other processes (REDIS_URL)
- `loading`   a game rebuilt from the store (snapshot + log)

Every method raises only `PlatformError` (a game's refusal is a 400 with the game's
code; a database failure a 503 `unavailable`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Mapping
from typing import Any

from sqlalchemy import Engine

from app.config import Settings
from app.games import base, i18n, registry
from app.realtime.bus import RedisBus
from app.realtime.hub import Connection as Socket
from app.realtime.hub import Hub
from app.rooms import clocks, errors, loading, views
from app.rooms.bots import BotRunner
from app.rooms.cache import RoomCache
from app.rooms.chat import Chat, row_message
from app.rooms.cluster import Cluster
from app.rooms.commands import CommandPath
from app.rooms.context import Platform
from app.rooms.errors import PlatformError, translated
from app.rooms.fanout import Fanout
from app.rooms.history import Replays
from app.rooms.lobby import Lobby
from app.rooms.mine import MyGames
from app.rooms.model import Caller, CommandResult, Messages, Room, seat_info
from app.rooms.presence import Presence
from app.rooms.ratelimit import RateLimiter
from app.rooms.seats import Seats
from app.rooms.table import Table
from app.store import chat_rows, db, migrate, repo
from app.store.db import read_connection
from app.store.writer import Writer

log = logging.getLogger(__name__)

__all__ = ["Caller", "CommandResult", "RoomService"]


class RoomService:
    """All room operations of this process."""

    def __init__(
        self,
        db: Engine,
        settings: Settings,
        hub: Hub | None = None,
        *,
        on_batch: Callable[[int], None] | None = None,
        on_command: Callable[[str, float, str | None], None] | None = None,
    ) -> None:
        bus = RedisBus(settings.redis_url, settings.redis_prefix) if settings.redis_url else None
        self.p = Platform(db, settings, hub or Hub(), Writer(db, on_batch=on_batch), bus)
        self.hub = self.p.hub
        self.limiter = RateLimiter(settings.command_rate, settings.command_burst)
        self.cache = RoomCache(self.p, settings.room_idle_seconds)
        self.fanout = Fanout(self.p)
        self.seats = Seats(self.p, self.cache)
        self.replays = Replays(self.p)
        self.lobby = Lobby(self.p, self.cache, self.fanout)
        self.commands = CommandPath(self.p, self.fanout, self._after_version, on_command)
        self.bots = BotRunner(self.p, self.commands)
        self.chat_lines = Chat(self.p)
        self.presence = Presence(self.p, self.fanout)
        self.table = Table(
            self.p, self.cache, self.fanout, self.lobby, self.bots, self.commands.catch_up
        )
        self.cluster = Cluster(
            self.p, self.cache, self.commands, self.fanout, self.chat_lines, self.presence,
            self.bots, self.table,
        )  # fmt: skip
        self.cache.on_evict = self.cluster.forget
        self.cache.keep = self.table.armed
        self._tasks: set[asyncio.Task[None]] = set()
        self._evict_task: asyncio.Task[None] | None = None

    def _after_version(self, room: Room) -> None:
        self.bots.wake(room)
        if room.timer:
            task = asyncio.get_running_loop().create_task(self.table.after_version(room))
            self._tasks.add(task)
            task.add_done_callback(self._tasks.discard)

    def _check_rate(self, code: str, seat: int) -> None:
        if not self.limiter.allow((code, seat)):
            raise errors.rate_limited()

    # --- games -------------------------------------------------------------------------

    @staticmethod
    def games() -> list[dict[str, Any]]:
        """The games this server hosts, as `GET /api/games` lists them."""
        return [base.info(g) for g in registry.games()]

    @staticmethod
    def command_schemas() -> list[dict[str, Any]]:
        """The JSON schema of one command of each hosted game (for OpenAPI)."""
        return [dict(g.command_schema) for g in registry.games()]

    @staticmethod
    def catalogue(game_id: str, lang: str = i18n.DEFAULT) -> dict[str, Any]:
        """What the browser needs to draw a game, in `lang`. :raises PlatformError: 404."""
        game = registry.get(game_id)
        if game is None:
            raise PlatformError(404, "unknown_game", f"this server hosts no game {game_id[:40]!r}")
        return game.catalogue(lang if lang in i18n.LANGUAGES else i18n.DEFAULT)

    # --- rooms and seats ---------------------------------------------------------------

    async def create_room(
        self, name: str, options: Mapping[str, Any] | None, game: str | None = None
    ) -> tuple[str, str]:
        """A new room of `game` (None: the default game); returns (code, host token)."""
        return await self.lobby.create(name, game, options)

    def forget(self, code: str) -> None:
        """A room was deleted (cleanup): close its sockets and drop what is cached."""
        self.hub.close_all([code])
        self.cache.forget(code)
        self.cluster.forget(code)

    async def room_info(self, code: str) -> dict[str, Any]:
        room = await self.cache.get(code)

        def read() -> tuple[Any, list[Any], Any]:
            with read_connection(self.p.db) as conn:
                row = repo.room_by_code(conn, code=code)
                seats = repo.seats_of(conn, room_id=room.room_id)
                return row, seats, repo.game_of_room(conn, room_id=room.room_id)

        row, seats, game = await self.p.read(read)
        if row is None:  # deleted since it was cached (karanor cleanup, another process)
            self.cache.forget(code)
            raise errors.unknown_room(code)
        room.seats, room.options = [seat_info(s) for s in seats], dict(row.options)
        room.rematch = row.rematch
        await self.presence.read_remote(room)
        info = self.lobby.info_now(room, row.status, game.version if game else None)
        info["timer"] = clocks.public_timer(row.timer)  # as stored: every process's truth
        return info

    async def authenticate(self, code: str, token: str | None) -> Caller:
        """:raises PlatformError: 404 `unknown_room`, 401 `bad_token`."""
        _room, caller = await self.seats.authenticate(code, token)
        return caller

    async def join(self, code: str, name: str) -> tuple[int, str]:
        return await self.lobby.join(await self.cache.get(code), name)

    async def add_bot(self, caller: Caller, name: str | None, level: str | None = None) -> int:
        return await self.lobby.add_bot(await self.cache.get(caller.code), caller, name, level)

    async def set_bot_level(self, caller: Caller, index: int, level: str) -> dict[str, Any]:
        room = await self.cache.get(caller.code)
        await self.lobby.set_bot_level(room, caller, index, level)
        return await self.room_info(caller.code)

    async def remove_seat(self, caller: Caller, index: int) -> dict[str, Any]:
        await self.lobby.remove_seat(await self.cache.get(caller.code), caller, index)
        return await self.room_info(caller.code)

    async def set_options(self, caller: Caller, options: Mapping[str, Any]) -> dict[str, Any]:
        await self.lobby.set_options(await self.cache.get(caller.code), caller, options)
        return await self.room_info(caller.code)

    async def start(self, caller: Caller, options: Mapping[str, Any] | None) -> dict[str, Any]:
        room = await self.cache.get(caller.code)
        await self.lobby.start(room, caller, options)
        self.bots.wake(room)
        # A timer set in the lobby: the first seat's clock runs from the start, not from
        # the first move; the notices hear of the first turn.
        if room.timer:
            await self.table.after_version(room)
        self.p.tell(room, "version", [])
        return await self.room_info(caller.code)

    # --- the table around the game ---------------------------------------------------------

    async def replace_with_bot(
        self, caller: Caller, index: int, level: str | None = None
    ) -> dict[str, Any]:
        """Host: a bot plays an absent person's seat until they return."""
        room = await self.cache.get(caller.code)
        # Who is at the table on the other processes, now: this process follows their
        # presence only while it has sockets in the room itself.
        await self.presence.read_remote(room)
        await self.table.replace_with_bot(room, caller, index, level)
        return await self.room_info(caller.code)

    async def hand_back(self, caller: Caller, index: int) -> dict[str, Any]:
        """Host or the seat itself: the seat is the person's again."""
        await self.table.hand_back(await self.cache.get(caller.code), caller, index)
        return await self.room_info(caller.code)

    async def set_timer(self, caller: Caller, turn_seconds: int, reserve: int) -> dict[str, Any]:
        """Host: the turn timer (0 seconds a turn: off)."""
        await self.table.set_timer(await self.cache.get(caller.code), caller, turn_seconds, reserve)
        return await self.room_info(caller.code)

    async def leave(self, caller: Caller) -> dict[str, Any]:
        """A person leaves a running game: a bot plays their seat to the end."""
        await self.table.leave(await self.cache.get(caller.code), caller)
        return await self.room_info(caller.code)

    async def set_paused(self, caller: Caller, paused: bool) -> dict[str, Any]:
        """Host: the clocks stand still (paused) or run again."""
        await self.table.set_paused(await self.cache.get(caller.code), caller, paused)
        return await self.room_info(caller.code)

    async def rematch(
        self, caller: Caller, may_open: Callable[[], bool] | None = None
    ) -> tuple[str, int, str]:
        """A seat of a finished game plays again: (new room code, seat index, token).
        `may_open()` is asked before the first ask opens the new room (the asker's
        rooms per hour): False is a 429 `rate_limited`."""
        room = await self.cache.get(caller.code)
        return await self.table.rematch(room, caller, may_open)

    # --- the game ----------------------------------------------------------------------

    async def _current(self, room: Room, viewer: int | None) -> tuple[bytes, int]:
        """(view, version) of `viewer` now, the room's sockets caught up on the way."""
        wanted = views.viewers(self.hub, room)
        out: list[Messages] = []

        def read() -> tuple[bytes, int]:
            with read_connection(self.p.db) as conn:
                return loading.current(conn, room, viewer, wanted, out)

        async with room.lock:
            try:
                return await self.p.read(read)
            finally:
                self.fanout.flush(room, out)

    async def view_json(self, caller: Caller) -> bytes:
        room = await self.cache.get(caller.code)
        data, _version = await self._current(room, caller.seat.index if caller.seat else None)
        return data

    async def command(
        self,
        caller: Caller,
        command_id: str,
        command: Any,
        expected_version: int | None = None,
    ) -> CommandResult:
        """Apply one command of the caller's seat (see `app.rooms.commands`).

        :raises PlatformError: 401 spectator, 400 refused, 409 `not_started` /
            `stale_version`, 429, 503.
        """
        if caller.seat is None:
            raise errors.bad_token()
        self._check_rate(caller.code, caller.seat.index)
        room = await self.cache.get(caller.code)
        with translated():
            parsed = room.game.parse_command(command)
        await self.table.returned(room, room.seat_by_id(caller.seat.id))
        return await self.commands.run(
            room, caller.seat.index, command_id, parsed, expected_version
        )

    async def my_rooms(self, held: list[tuple[str, str, bool]]) -> list[dict[str, Any]]:
        """The rooms a device holds seats in (its home page's "my games")."""
        return await MyGames(self.p, self.cache, self.seats, self.commands).rooms(held)

    async def view_at(self, caller: Caller, at: int, seat: int | None) -> bytes:
        """The view at version `at` (a replay: app.rooms.history)."""
        room = await self.cache.get(caller.code)
        own = caller.seat.index if caller.seat else None
        return await self.replays.view_at(room, own, at, seat)

    async def replay_outline(self, caller: Caller) -> dict[str, Any]:
        """The stored version and where each turn began (a replay's marks)."""
        return await self.replays.outline(await self.cache.get(caller.code))

    async def take_back(
        self, caller: Caller, command_id: str, expected_version: int | None = None
    ) -> CommandResult:
        """Take back the caller's last command (app.rooms.takeback).

        :raises PlatformError: 401 spectator, 409 `not_undoable` / `not_started` /
            `stale_version`, 429, 503.
        """
        if caller.seat is None:
            raise errors.bad_token()
        self._check_rate(caller.code, caller.seat.index)
        room = await self.cache.get(caller.code)
        await self.table.returned(room, room.seat_by_id(caller.seat.id))
        return await self.commands.take_back(room, caller.seat.index, command_id, expected_version)

    async def coach(self, caller: Caller, lang: str) -> dict[str, Any]:
        """ "What would you do?" for the caller's seat, when the room's options allow it.

        :raises PlatformError: 401 (no seat), 409 `coach_off` (the option is off, or the
            game has no coach), `not_playing`.
        """
        if caller.seat is None:
            raise errors.bad_token()
        room = await self.cache.get(caller.code)
        if not room.options.get("coach"):
            raise errors.PlatformError(409, "coach_off", "this room has no coach")
        status = await self.room_info(caller.code)
        if status["status"] != "playing":
            raise errors.PlatformError(409, "not_playing", "the game is not being played")
        out = await self.bots.coach(room, caller.seat.index, lang)
        if out is None:
            raise errors.PlatformError(409, "coach_off", "this game has no coach")
        return out

    async def log_entries(self, caller: Caller, after: int, limit: int) -> list[dict[str, Any]]:
        room = await self.cache.get(caller.code)
        viewer = caller.seat.index if caller.seat else None

        def read() -> list[dict[str, Any]]:
            with read_connection(self.p.db) as conn:
                game = repo.game_of_room(conn, room_id=room.room_id)
                if game is None:
                    return []
                rows = repo.events_after(conn, game_id=game.id, after=after, limit=limit)
            events_for = room.game.events_for
            return [
                {
                    "version": r.version,
                    "seat": r.seat,
                    "events": events_for(r.events, viewer),
                    "by": views.played_by(r.command_id),
                }
                for r in rows
            ]

        return await self.p.read(read)

    async def chat(self, caller: Caller, text: str) -> None:
        """:raises PlatformError: 403 `forbidden` for spectators, 429 `rate_limited`."""
        if caller.seat is None:
            raise PlatformError(403, "forbidden", "spectators may not chat")
        self._check_rate(caller.code, caller.seat.index)
        await self.chat_lines.say(await self.cache.get(caller.code), caller, text)

    # --- sockets -----------------------------------------------------------------------

    def _viewer(self, room: Room, socket: Socket) -> int | None:
        if socket.seat_id is None:
            return None
        seat = room.seat_by_id(socket.seat_id)
        if seat is None:
            raise errors.bad_token()
        return seat.index

    async def connect(self, socket: Socket) -> None:
        """Register a socket: its view, then the last chat lines, then presence."""
        room = await self.cache.get(socket.code)
        room.connecting += 1
        try:
            fresh = await self._register(room, socket)
        finally:
            room.connecting -= 1
        if fresh:
            await self.presence.changed(room)
        elif socket.seat_id is None:
            self.fanout.push_presence(room)  # one more watches

    async def _register(self, room: Room, socket: Socket) -> bool:
        await self.presence.read_remote(room)
        if socket.seat_id is not None:
            await self.table.returned(room, room.seat_by_id(socket.seat_id))
        async with room.lock:
            wanted = views.viewers(self.hub, room)
            out: list[Messages] = []

            def read() -> tuple[bytes, int, list[Any]]:
                with read_connection(self.p.db) as conn:
                    viewer = self._viewer(room, socket)
                    data, version = loading.current(conn, room, viewer, wanted, out)
                    chat = chat_rows.recent_chat(conn, room_id=room.room_id, limit=50)
                return data, version, chat

            try:
                data, version, chat = await self.p.read(read)
            finally:
                self.fanout.flush(room, out)
            if room.live is None:
                room.status = "lobby"
            fresh = self.hub.add(socket)
            socket.send(views.whole(data, version))
            socket.base = version if room.live is not None else -1
            for row in chat:
                socket.send(row_message(row))
            room.saw_chat([row.id for row in chat])
        return fresh

    async def resync(self, socket: Socket) -> None:
        room = await self.cache.get(socket.code)
        data, version = await self._current(room, self._viewer(room, socket))
        socket.send(views.whole(data, version))
        socket.base = version if room.live is not None else -1

    async def disconnect(self, socket: Socket) -> None:
        gone = self.hub.remove(socket)
        await socket.stop()
        room = self.cache.cached(socket.code)
        if gone and room is not None and socket.seat_id is not None:
            room.left[socket.seat_id] = clocks.now()  # at the table until now (the timer)
        if gone and room is not None:
            await self.presence.changed(room)
        elif socket.seat_id is None and room is not None:
            self.fanout.push_presence(room)  # one fewer watches

    # --- operations ----------------------------------------------------------------------

    async def readiness(self) -> dict[str, Any]:
        """Whether this process can serve: the database answers and its schema is at the
        revision this program needs. `{"ready": bool, ...}` with what was found."""

        def check() -> dict[str, Any]:
            problem = db.ping(self.p.db)
            if problem is not None:
                log.warning("readiness: database unreachable: %s", problem)
                return {"ready": False, "database": "unreachable"}
            try:
                revision = migrate.revision_of(self.p.db)
            except Exception as error:  # the database went away between the two queries
                log.warning("readiness: schema revision unreadable: %s", error)
                return {"ready": False, "database": "unreachable"}
            head = migrate.head_revision()
            if revision != head:
                return {"ready": False, "database": "ok", "schema": revision, "head": head}
            return {"ready": True, "database": "ok", "schema": revision}

        return await asyncio.to_thread(check)

    # --- lifecycle ---------------------------------------------------------------------

    def evict_idle(self, now: float | None = None) -> int:
        """Forget the rooms idle for `room_idle_seconds`; returns how many."""
        return len(self.cache.evict_idle(now))

    async def _evict_loop(self) -> None:
        idle = self.cache.idle_seconds
        while not self.p.closing:
            await asyncio.sleep(max(0.05, min(30.0, idle / 2)))
            try:
                self.evict_idle()
            except Exception:
                log.exception("evicting idle rooms failed")

    async def startup(self) -> None:
        """Join the other processes (REDIS_URL), then wake the bots of games left
        waiting on one (after a restart)."""
        if self._evict_task is None:
            self._evict_task = asyncio.create_task(self._evict_loop(), name="evict-rooms")
        self.cluster.start()

        def read() -> list[str]:
            with read_connection(self.p.db) as conn:
                return repo.playing_games_with_bots(conn)

        for code in await self.p.read(read):
            with contextlib.suppress(PlatformError):
                self.bots.wake(await self.cache.get(code))
        await self.table.start()

    async def shutdown(self) -> None:
        self.p.closing = True
        self.table.stop()
        rooms = list(self.cache)
        await self.bots.stop(rooms)
        await self.commands.drain()
        if self._evict_task is not None:
            self._evict_task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._evict_task
        await self.cluster.stop()
        self.hub.close_all()
        await asyncio.to_thread(self.p.writer.stop)
