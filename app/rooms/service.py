"""Rooms, seats and the one command path shared by HTTP and WebSocket.

The live game is kept in memory; the database is the log, not the working copy.
A command, under the room's asyncio lock:

1. in ONE write transaction (SQLite: BEGIN IMMEDIATE; PostgreSQL: the game row
   locked FOR UPDATE): the idempotency check on (game, seat, command id), the
   `expected_version` check, the live state checked against the stored version
   (reloaded from the snapshot if they differ), `engine.apply` (a refusal writes
   nothing and leaves the state untouched), then the log row inserted and the
   game's version/snapshot/status updated WHERE version = old (compare-and-set);
2. only after the commit: each viewer's view computed once and pushed, the
   sender answered, bots woken if one must act.

If anything fails after `engine.apply` mutated the live state, that copy is
dropped and the next command reloads it from the database.

Several processes (REDIS_URL set, see `app.realtime.bus` and docs/deploy.md): the
row lock serialises commands across processes; after each commit a notice "room R
is at version V" goes through Redis. A process that learns (by a notice, its
periodic check, a client's resync, or its own next command) that the database is
ahead of what its sockets have seen reads the missed log rows FROM THE DATABASE,
replays them on its copy (the engine is deterministic) and pushes each missed
version's views with that version's events, in order; too far behind, it reloads
the snapshot and pushes one view with the missed events. Redis only carries hints.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, TypeVar

import orjson
from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError

from app.config import Settings
from app.karanor import actions, bots, engine, view
from app.karanor.errors import RuleError
from app.karanor.state import ACTION, GAME_OVER, State
from app.realtime.bus import PRESENCE_REFRESH, RedisBus
from app.realtime.hub import Connection as Socket
from app.realtime.hub import Hub
from app.rooms import errors, tokens
from app.rooms.errors import PlatformError
from app.rooms.ratelimit import RateLimiter
from app.store import repo
from app.store.db import read_connection, write_transaction
from app.store.writer import Writer

log = logging.getLogger(__name__)

CONTENT_PACK = "base"
BOT_PROPOSAL_CHANCE = 0.15  # a bot on its turn sometimes opens with a trade offer
CHAT_HISTORY = 50
CLOSE_SEAT_REMOVED = 4403
REPLAY_MAX = 64  # further behind than this, a process reloads the snapshot instead
CHAT_SEEN_MAX = 500
SNAPSHOT_EVERY = 20  # the snapshot is written every N versions and at the end
RECENT_IDS = 32  # (seat, command id) of the last commands, per live game
SYNC_INTERVAL_ENV = "KARANOR_SYNC_INTERVAL"
ROOM_IDLE_ENV = "KARANOR_ROOM_IDLE_SECONDS"  # evict a room idle this long (default 120)
WORK_ORDER = ("lobby", "version", "chat", "presence")
T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class SeatInfo:
    id: int
    index: int
    name: str
    bot: bool
    host: bool


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sends a request: a seat of the room, or a spectator (seat None)."""

    code: str
    seat: SeatInfo | None


@dataclass(frozen=True, slots=True)
class CommandResult:
    version: int
    events: list[dict[str, Any]]  # filtered for the sender
    duplicate: bool = False
    finished: bool = False


@dataclass(slots=True)
class Live:
    """The game in memory, trusted only while `version` equals the stored one."""

    game_id: int
    version: int
    state: State
    bot_seats: frozenset[int]
    views: dict[int | None, bytes] = field(default_factory=dict)  # for `version`
    public: tuple[int, dict[str, Any]] | None = None  # (version, view.public_part)
    # The last commands' (seat, command id), oldest first: a hint that a command is a
    # retry (the log's unique index is the authority).
    recent: dict[tuple[int, str], None] = field(default_factory=dict)

    def remember(self, seat: int | None, command_id: str | None) -> None:
        if seat is None or command_id is None:
            return
        self.recent[(seat, command_id)] = None
        if len(self.recent) > RECENT_IDS:
            del self.recent[next(iter(self.recent))]


@dataclass(slots=True)
class RoomEntry:
    code: str
    room_id: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    live: Live | None = None
    seats: list[SeatInfo] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    # What this process's sockets of the room have been sent:
    pushed: int | None = None  # the game version (None: the lobby, or nothing yet)
    status: str | None = None  # the room status of the last "room" message
    chat_seen: dict[int, None] = field(default_factory=dict)  # chat ids, oldest first
    # Several processes only:
    remote_seats: set[int] = field(default_factory=set)  # seats with sockets elsewhere
    todo: set[str] = field(default_factory=set)  # catch-up work asked for by notices
    worker: asyncio.Task[None] | None = None
    bot_idle: int | None = None  # a version at which no bot had to act
    used: float = field(default_factory=time.monotonic)  # last looked up (eviction)
    # Seats by token hash, once the game has started (seats no longer change then).
    auth: dict[str, SeatInfo] = field(default_factory=dict)


def _dumps(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def _iso(at: datetime) -> str:
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.isoformat().replace("+00:00", "Z")


def _seat_info(row: Any) -> SeatInfo:
    return SeatInfo(row.id, row.index, row.name, bool(row.is_bot), bool(row.is_host))


def _fix_options(options: dict[str, Any] | None) -> dict[str, Any]:
    """Options as the engine reads them; `bad_options` (400) for what it refuses."""
    return engine.normalise_options(options)


class RoomService:
    """All room operations of this process. Async methods; the database work runs in
    worker threads so the event loop keeps serving sockets."""

    def __init__(self, db: Engine, settings: Settings, hub: Hub | None = None) -> None:
        self.db = db
        self.settings = settings
        self.hub = hub or Hub()
        self.limiter = RateLimiter(settings.command_rate, settings.command_burst)
        self._entries: dict[str, RoomEntry] = {}
        self._closing = False
        self.bus: RedisBus | None = RedisBus(settings.redis_url) if settings.redis_url else None
        self._watch_task: asyncio.Task[None] | None = None
        self._bot_seen: dict[str, tuple[int, float]] = {}
        self.sync_interval = float(os.environ.get(SYNC_INTERVAL_ENV) or 2.0)
        self.bot_lock_ttl = max(3.0, 2 * settings.bot_delay + 2.0)
        self.writer = Writer(db)  # every write transaction of the process runs on it
        self.room_idle = float(os.environ.get(ROOM_IDLE_ENV) or 120.0)
        self._evict_task: asyncio.Task[None] | None = None

    # --- plumbing ---------------------------------------------------------------------

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    async def _entry(self, code: str) -> RoomEntry:
        """The room `code` (cached), or 404 `unknown_room`."""
        entry = self._entries.get(code)
        if entry is not None:
            entry.used = time.monotonic()
            return entry
        if not tokens.plausible_code(code):
            raise errors.unknown_room(code)

        def load() -> tuple[int, list[SeatInfo]] | None:
            with read_connection(self.db) as conn:
                room = repo.room_by_code(conn, code=code)
                if room is None:
                    return None
                return room.id, [_seat_info(s) for s in repo.seats_of(conn, room_id=room.id)]

        found = await self._run(load)
        if found is None:
            raise errors.unknown_room(code)
        entry = self._entries.setdefault(code, RoomEntry(code, found[0], seats=found[1]))
        return entry

    def _check_rate(self, code: str, seat: int) -> None:
        if not self.limiter.allow((code, seat)):
            raise PlatformError(429, "rate_limited", "too many commands: slow down")

    # --- rooms and seats ----------------------------------------------------------------

    async def create_room(self, name: str, options: dict[str, Any] | None) -> tuple[str, str]:
        """A new room with its creator as host on seat 0; returns (code, token)."""
        opts = _fix_options(options)
        token = tokens.new_seat_token()

        def tx() -> str:
            code = tokens.new_room_code()
            with write_transaction(self.db) as conn:
                room_id = repo.insert_room(conn, code=code, options=opts)
                repo.insert_seat(
                    conn,
                    room_id=room_id,
                    index=0,
                    name=name,
                    token_hash=tokens.hash_token(token),
                    is_host=True,
                )
            return code

        return await self.writer.solo(tx), token

    def forget(self, code: str) -> None:
        """A room was deleted (cleanup): close its sockets and drop what is cached."""
        self.hub.close_all([code])
        self._entries.pop(code, None)

    async def room_info(self, code: str) -> dict[str, Any]:
        entry = await self._entry(code)

        def read() -> tuple[Any, list[SeatInfo], Any]:
            with read_connection(self.db) as conn:
                room = repo.room_by_code(conn, code=code)
                seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=entry.room_id)]
                game = repo.game_of_room(conn, room_id=entry.room_id)
                return room, seats, game

        room, seats, game = await self._run(read)
        if room is None:  # deleted since it was cached (karanor cleanup, another process)
            self._entries.pop(code, None)
            raise errors.unknown_room(code)
        entry.seats = seats
        if self.bus is not None:
            remote = await self.bus.remote_presence(code)
            if remote is not None:
                entry.remote_seats = remote
        return self._info(entry, room.status, room.options, game.version if game else None)

    def _connected(self, entry: RoomEntry) -> set[int]:
        """Seats with a socket here or (several processes) on another live process."""
        return self.hub.seats_connected(entry.code) | entry.remote_seats

    def _info(
        self, entry: RoomEntry, status: str, options: dict[str, Any], version: int | None
    ) -> dict[str, Any]:
        connected = self._connected(entry)
        return {
            "code": entry.code,
            "url": f"/r/{entry.code}",
            "status": status,
            "seats": [
                {
                    "index": s.index,
                    "name": s.name,
                    "bot": s.bot,
                    "host": s.host,
                    "connected": s.bot or s.index in connected,
                }
                for s in entry.seats
            ],
            "options": options,
            "version": version,
        }

    async def authenticate(self, code: str, token: str | None) -> Caller:
        """The caller's seat for `token` (None: a spectator).

        :raises PlatformError: 404 `unknown_room`, 401 `bad_token`.
        """
        entry = await self._entry(code)
        if token is None:
            return Caller(code, None)
        if not tokens.plausible_token(token):
            raise errors.bad_token()

        token_hash = tokens.hash_token(token)
        known = entry.auth.get(token_hash) if entry.live is not None else None
        if known is not None:  # a started game: its seats are fixed (every message asks)
            return Caller(code, known)

        def read() -> Any:
            with read_connection(self.db) as conn:
                return repo.seat_by_token(conn, room_id=entry.room_id, token_hash=token_hash)

        row = await self._run(read)
        if row is None:
            raise errors.bad_token()
        seat = _seat_info(row)
        if entry.live is not None:
            entry.auth[token_hash] = seat
        return Caller(code, seat)

    def _require_host(self, caller: Caller) -> SeatInfo:
        if caller.seat is None:
            raise errors.bad_token()
        if not caller.seat.host:
            raise errors.not_host()
        return caller.seat

    @staticmethod
    def _lobby_room(conn: Connection, code: str) -> Any:
        room = repo.room_by_code(conn, code=code)
        if room is None:
            raise errors.unknown_room(code)
        if room.status != "lobby":
            raise PlatformError(409, "room_started", "the game has already started")
        return room

    async def _lobby_write(
        self,
        entry: RoomEntry,
        fn: Callable[[Connection, Any], T],
        then: Callable[[T], dict[str, Any] | None] | None = None,
    ) -> T:
        """Run `fn(conn, room)` in a write transaction on a room still in its lobby, then
        `then(result)`, then tell the room's sockets (and the other processes, with what
        `then` returned); all under the room lock. One retry on a unique-index race
        (another process took the same seat index)."""
        async with entry.lock:

            def tx() -> tuple[T, list[SeatInfo]]:
                for attempt in range(2):
                    try:
                        with write_transaction(self.db) as conn:
                            out = fn(conn, self._lobby_room(conn, entry.code))
                            seats = repo.seats_of(conn, room_id=entry.room_id)
                            return out, [_seat_info(s) for s in seats]
                    except IntegrityError:
                        if attempt:
                            raise
                raise AssertionError("unreachable")

            out, entry.seats = await self.writer.solo(tx)
            extra = then(out) if then is not None else None
            await self._push_lobby(entry)
        if self.bus is not None:
            self.bus.publish(entry.code, {"t": "lobby", **(extra or {})})
        return out

    async def join(self, code: str, name: str) -> tuple[int, str]:
        """Take the next free seat; returns (index, token).

        :raises PlatformError: 409 `room_full` or `room_started`.
        """
        entry = await self._entry(code)
        token = tokens.new_seat_token()

        def add(conn: Connection, room: Any) -> int:
            index = self._free_index(conn, room)
            repo.insert_seat(
                conn,
                room_id=room.id,
                index=index,
                name=name,
                token_hash=tokens.hash_token(token),
            )
            return index

        return await self._lobby_write(entry, add), token

    @staticmethod
    def _free_index(conn: Connection, room: Any) -> int:
        taken = len(repo.seats_of(conn, room_id=room.id))
        if taken >= room.options["max_players"]:
            raise PlatformError(
                409, "room_full", f"all {room.options['max_players']} seats are taken"
            )
        return taken

    async def add_bot(self, caller: Caller, name: str | None) -> int:
        self._require_host(caller)
        entry = await self._entry(caller.code)

        def add(conn: Connection, room: Any) -> int:
            index = self._free_index(conn, room)
            repo.insert_seat(
                conn,
                room_id=room.id,
                index=index,
                name=name or f"Bot {index + 1}",
                token_hash=None,
                is_bot=True,
            )
            return index

        return await self._lobby_write(entry, add)

    async def remove_seat(self, caller: Caller, index: int) -> dict[str, Any]:
        """The host frees seat `index` before the start; later seats move down one.

        :raises PlatformError: 404 `unknown_seat`, 409 `cannot_remove_host`.
        """
        self._require_host(caller)
        entry = await self._entry(caller.code)

        def remove(conn: Connection, room: Any) -> tuple[int, dict[int, int]]:
            seats: dict[int, Any] = {s.index: s for s in repo.seats_of(conn, room_id=room.id)}
            if index not in seats:
                raise PlatformError(404, "unknown_seat", f"there is no seat {index}")
            if seats[index].is_host:
                raise PlatformError(409, "cannot_remove_host", "the host's seat stays")
            return seats[index].id, repo.remove_seat(conn, room_id=room.id, index=index)

        def close(removed: tuple[int, dict[int, int]]) -> dict[str, Any]:
            self.hub.close_seat(entry.code, removed[0], CLOSE_SEAT_REMOVED)
            self.hub.reindex(entry.code, removed[1])
            return {"removed": removed[0], "moved": removed[1]}

        await self._lobby_write(entry, remove, close)  # sockets renumbered before the push
        return await self.room_info(caller.code)

    async def set_options(self, caller: Caller, options: dict[str, Any]) -> dict[str, Any]:
        self._require_host(caller)
        entry = await self._entry(caller.code)

        def change(conn: Connection, room: Any) -> None:
            opts = _fix_options({**room.options, **options})
            seated = len(repo.seats_of(conn, room_id=room.id))
            if opts["max_players"] < seated:
                raise RuleError(
                    "bad_options", f"max_players {opts['max_players']}: {seated} seated"
                )
            repo.set_room_options(conn, room_id=room.id, options=opts)

        await self._lobby_write(entry, change)
        return await self.room_info(caller.code)

    async def start(self, caller: Caller, options: dict[str, Any] | None) -> dict[str, Any]:
        """Deal the game: lobby -> playing, version 0.

        :raises PlatformError: 409 `room_started`, `not_enough_players`; 400 `bad_options`.
        """
        self._require_host(caller)
        entry = await self._entry(caller.code)
        async with entry.lock:
            wanted = self.hub.viewers(entry.code)

            def tx() -> dict[int | None, bytes]:
                with write_transaction(self.db) as conn:
                    room = self._lobby_room(conn, entry.code)
                    opts = _fix_options({**room.options, **(options or {})})
                    seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=room.id)]
                    if len(seats) < 2:
                        raise PlatformError(
                            409, "not_enough_players", "a game needs at least 2 seats"
                        )
                    if opts["max_players"] < len(seats):
                        raise RuleError("bad_options", f"{len(seats)} seated: raise max_players")
                    seed = secrets.randbits(63)
                    state = engine.new_game(CONTENT_PACK, opts, seed, [s.name for s in seats])
                    game_id = repo.insert_game(
                        conn,
                        room_id=room.id,
                        content_pack=CONTENT_PACK,
                        options=opts,
                        seed=seed,
                        snapshot=state.to_dict(),
                    )
                    repo.set_room_options(conn, room_id=room.id, options=opts)
                    if not repo.set_room_status(
                        conn, room_id=room.id, status="playing", expect="lobby"
                    ):
                        raise PlatformError(409, "room_started", "the game has already started")
                entry.seats = seats
                bot_seats = frozenset(s.index for s in seats if s.bot)
                live = entry.live = Live(game_id, 0, state, bot_seats)
                return {v: self._view_message(live, v, []) for v in wanted}

            self.hub.deliver(entry.code, await self.writer.solo(tx))
            entry.pushed, entry.status = 0, "playing"
            self._push_room(entry, "playing", entry.live.state.options if entry.live else {}, 0)
        if self.bus is not None:
            self.bus.publish(entry.code, {"t": "v", "v": 0})
        self._kick_bots(entry, True)
        return await self.room_info(caller.code)

    # --- views ------------------------------------------------------------------------

    def _sync(
        self,
        conn: Connection,
        entry: RoomEntry,
        game_id: int,
        version: int,
        wanted: set[int | None],
        out: list[dict[int | None, bytes]],
    ) -> Live:
        """The in-memory game brought to (at least) the stored `version`.

        Behind by a few versions (another process moved the game), the missed log rows
        are replayed on the copy and each version's messages for the `wanted` viewers
        appended to `out`, in order; otherwise (no copy, or far behind) the snapshot is
        reloaded and one message carries the events the sockets missed. Either way the
        room's sockets, once `out` is delivered, have seen every version up to the
        result's. Call under the room lock.
        """
        live = entry.live
        if live is not None and live.game_id != game_id:
            live = entry.live = None
        if live is not None and live.version == version:
            entry.pushed = live.version
            return live
        if live is not None and live.version < version <= live.version + REPLAY_MAX:
            rows = repo.events_after(
                conn, game_id=game_id, after=live.version, limit=version - live.version
            )
            if [r.version for r in rows] == list(range(live.version + 1, version + 1)):
                try:
                    for row in rows:
                        engine.apply(live.state, row.seat, row.command)
                        live.version = row.version
                        live.remember(row.seat, row.command_id)
                        live.views = {}
                        if wanted:
                            out.append({v: self._view_message(live, v, row.events) for v in wanted})
                except RuleError:
                    log.exception("room %s: replaying version %d failed", entry.code, version)
                else:
                    entry.pushed = live.version
                    return live
            # A copy that cannot be brought forward is dropped; the sockets have seen
            # what was appended so far.
            entry.pushed = live.version
        entry.live = None
        stored = repo.game_snapshot(conn, game_id=game_id)
        seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=entry.room_id)]
        entry.seats = seats
        live = Live(
            game_id,
            stored.version,
            State.from_dict(stored.snapshot),
            frozenset(s.index for s in seats if s.bot),
        )
        at = stored.snapshot_version
        if at < stored.version:  # the log rows after the snapshot bring it to the head
            rows = repo.events_after(conn, game_id=game_id, after=at, limit=stored.version - at)
            if [r.version for r in rows] != list(range(at + 1, stored.version + 1)):
                raise RuntimeError(f"room {entry.code}: log rows missing after {at}")
            for row in rows:
                engine.apply(live.state, row.seat, row.command)
                live.remember(row.seat, row.command_id)
        entry.live = live
        since = entry.pushed
        if wanted and (since is None or since < live.version):
            events: list[dict[str, Any]] = []
            if since is not None and live.version - since <= REPLAY_MAX:
                for row in repo.events_after(conn, game_id=game_id, after=since):
                    if row.version <= live.version:
                        events.extend(row.events)
            out.append({v: self._view_message(live, v, events) for v in wanted})
        entry.pushed = live.version
        return live

    def _flush(self, entry: RoomEntry, out: list[dict[int | None, bytes]]) -> None:
        """Deliver catch-up messages in order, then a "room" message if the status moved."""
        for messages in out:
            self.hub.deliver(entry.code, messages)
        live = entry.live
        if live is not None and entry.pushed == live.version:
            status = "finished" if live.state.phase == GAME_OVER else "playing"
            if entry.status != status:
                entry.status = status
                self._push_room(entry, status, live.state.options, live.version)

    def _view(self, live: Live, seat: int | None) -> bytes:
        """The serialised view of `seat` at the live version, computed once per version."""
        data = live.views.get(seat)
        if data is None:
            if live.public is None or live.public[0] != live.version:
                live.public = (live.version, view.public_part(live.state))
            picture = view.view(live.state, seat, public=live.public[1])
            picture["version"] = live.version
            data = live.views[seat] = _dumps(picture)
        return data

    def _view_message(self, live: Live, seat: int | None, events: list[dict[str, Any]]) -> bytes:
        return b'{"type":"view","version":%d,"events":%s,"view":%s}' % (
            live.version,
            _dumps(view.events_for(events, seat)),
            self._view(live, seat),
        )

    def _lobby_view(self, entry: RoomEntry, seat: int | None, options: dict[str, Any]) -> bytes:
        return _dumps(
            {
                "version": 0,
                "status": "lobby",
                "seat": seat,
                "turn": None,
                "players": [
                    {"seat": s.index, "name": s.name, "bot": s.bot, "host": s.host}
                    for s in entry.seats
                ],
                "private": None,
                "board": None,
                "offers": [],
                "legal_actions": [],
                "result": None,
                "options": options,
            }
        )

    def _current_view(
        self,
        entry: RoomEntry,
        seat: int | None,
        wanted: set[int | None],
        out: list[dict[int | None, bytes]],
    ) -> tuple[bytes, int]:
        """(view JSON, version) now, for `seat`, after catching up (messages for the
        room's sockets appended to `out`); call under the room lock."""
        with read_connection(self.db) as conn:
            game = repo.game_of_room(conn, room_id=entry.room_id)
            if game is None:
                room = repo.room_by_code(conn, code=entry.code)
                entry.seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=entry.room_id)]
                return self._lobby_view(entry, seat, room.options), 0
            live = self._sync(conn, entry, game.id, game.version, wanted, out)
            return self._view(live, seat), live.version

    async def view_json(self, caller: Caller) -> bytes:
        entry = await self._entry(caller.code)
        seat = caller.seat.index if caller.seat else None
        async with entry.lock:
            out: list[dict[int | None, bytes]] = []
            try:
                data, _version = await self._run(
                    self._current_view, entry, seat, self.hub.viewers(entry.code), out
                )
            finally:
                self._flush(entry, out)
        return data

    # --- the command path -------------------------------------------------------------

    async def command(
        self,
        caller: Caller,
        command_id: str,
        command: dict[str, Any],
        expected_version: int | None = None,
    ) -> CommandResult:
        """Apply one command of the caller's seat (see the module docstring).

        :raises PlatformError: 401 spectator, 409 `not_started` / `stale_version`, 429.
        :raises RuleError: the rules refuse it (400), nothing changed.
        """
        if caller.seat is None:
            raise errors.bad_token()
        self._check_rate(caller.code, caller.seat.index)
        cmd = actions.parse(command)
        entry = await self._entry(caller.code)
        result, waiting = await self._command(
            entry, caller.seat.index, command_id, cmd, expected_version
        )
        assert result is not None
        self._kick_bots(entry, waiting)
        return result

    async def _command(
        self,
        entry: RoomEntry,
        seat: int | None,
        command_id: str | None,
        cmd: actions.Command | None,
        expected_version: int | None,
    ) -> tuple[CommandResult | None, bool]:
        """Under the room lock: the transaction, then the pushes. `cmd` None: a bot moves.

        :returns: the result (None if no bot had to move) and whether a bot must act next.
        """
        async with entry.lock:
            job = _CommandJob(
                self, entry, seat, command_id, cmd, expected_version, self.hub.viewers(entry.code)
            )
            try:
                result, messages, waiting = await self.writer.group(job)
                if messages:
                    job.out.append(messages)
            finally:
                self._flush(entry, job.out)
        if self.bus is not None and result is not None and not result.duplicate:
            self.bus.publish(entry.code, {"t": "v", "v": result.version})
        return result, waiting

    def _logged(self, conn: Connection, game_id: int, seat: int | None, cid: str | None) -> Any:
        """The log row of the command (seat, cid) if it was accepted before, else None."""
        if seat is None or cid is None:
            return None
        return repo.event_by_command(conn, game_id=game_id, seat=seat, command_id=cid)

    def _command_step(self, conn: Connection, job: _CommandJob) -> tuple[Any, ...]:
        """One command inside a write transaction (shared with other rooms' commands by
        the writer's group commit): nothing is written unless the command is accepted,
        and then exactly the version's compare-and-set and its log row (the snapshot
        every SNAPSHOT_EVERY versions and at the end). Returns what `_command_finish`
        needs once the transaction is committed."""
        entry = job.entry
        seat, command_id, cmd = job.seat, job.command_id, job.cmd
        job.mutated = False
        live: Live | None = entry.live
        if live is not None:
            game_id = live.game_id
        else:
            game = repo.game_of_room(conn, room_id=entry.room_id)
            if game is None:
                raise PlatformError(409, "not_started", "the game has not started yet")
            game_id = game.id
        # The row lock first (PostgreSQL: it serialises the processes), then the copy
        # brought to the stored version, then the idempotency check: the same command
        # id sent through two processes at once is found logged by the later one.
        head = repo.game_version(conn, game_id=game_id, lock=True)
        if head is None:
            entry.live = None
            raise PlatformError(409, "not_started", "the game has not started yet")
        live = self._sync(conn, entry, game_id, head.version, job.wanted, job.out)
        checked = False
        if seat is not None and command_id is not None and (seat, command_id) in live.recent:
            dup = self._logged(conn, game_id, seat, command_id)
            if dup is not None:
                return ("dup", self._duplicate(dup, seat))
            checked = True
        if job.expected_version is not None and job.expected_version != head.version:
            dup = None if checked else self._logged(conn, game_id, seat, command_id)
            if dup is not None and seat is not None:
                return ("dup", self._duplicate(dup, seat))
            raise errors.stale_version(job.expected_version, head.version)
        if cmd is None:
            choice = self._bot_choice(live)
            if choice is None:
                return ("none",)
            seat, cmd = choice
            command_id = f"bot-{head.version + 1}"
        assert seat is not None and command_id is not None
        try:
            state, events = engine.apply(live.state, seat, cmd)
        except RuleError:
            # A retry of a command accepted earlier (not among the recent ids) may be
            # refused by the state it made: its stored outcome is the answer.
            dup = (
                None
                if checked or job.cmd is None
                else self._logged(conn, game_id, seat, command_id)
            )
            if dup is not None:
                return ("dup", self._duplicate(dup, seat))
            raise
        job.mutated = True
        try:
            version = head.version + 1
            status = "finished" if state.phase == GAME_OVER else "playing"
            keep = status == "finished" or version % SNAPSHOT_EVERY == 0
            written = repo.append_event(
                conn,
                game_id=game_id,
                old_version=head.version,
                seat=seat,
                command_id=command_id,
                command=actions.to_json(cmd),
                events=events,
                snapshot=state.to_dict() if keep else None,
                status=status,
            )
            if not written:
                raise errors.stale_version(head.version, version)
            if status == "finished":
                repo.set_room_status(
                    conn, room_id=entry.room_id, status="finished", expect="playing"
                )
        except BaseException:
            entry.live = None
            raise
        return ("ok", live, version, events, status, seat, command_id)

    def _command_finish(
        self, job: _CommandJob, pending: tuple[Any, ...]
    ) -> tuple[CommandResult | None, dict[int | None, bytes], bool]:
        """After the commit: the live copy moves to the new version, each viewer's view
        is built once, the sender's result."""
        if pending[0] == "dup":
            return pending[1], {}, False
        if pending[0] == "none":
            return None, {}, False
        _, live, version, events, status, seat, command_id = pending
        job.mutated = False
        live.version = job.entry.pushed = version
        live.views = {}
        live.remember(seat, command_id)
        messages = {viewer: self._view_message(live, viewer, events) for viewer in job.wanted}
        result = CommandResult(
            live.version, view.events_for(events, seat), finished=status == "finished"
        )
        return result, messages, self._bots_waiting(live)

    def _command_tx(
        self, job: _CommandJob
    ) -> tuple[CommandResult | None, dict[int | None, bytes], bool]:
        """The command alone in its own transaction (the writer's fallback when a group
        commit failed)."""
        entry = job.entry
        try:
            with write_transaction(self.db) as conn:
                pending = self._command_step(conn, job)
        except IntegrityError:
            # Another process logged this command id (or this version) first.
            entry.live = None
            return self._after_race(entry, job.seat, job.command_id)
        except BaseException:
            if job.mutated:
                entry.live = None
            raise
        return self._command_finish(job, pending)

    @staticmethod
    def _duplicate(row: Any, seat: int) -> CommandResult:
        return CommandResult(row.version, view.events_for(row.events, seat), duplicate=True)

    def _after_race(
        self, entry: RoomEntry, seat: int | None, command_id: str | None
    ) -> tuple[CommandResult | None, dict[int | None, bytes], bool]:
        with read_connection(self.db) as conn:
            game = repo.game_of_room(conn, room_id=entry.room_id)
            if game is not None and seat is not None and command_id is not None:
                dup = repo.event_by_command(conn, game_id=game.id, seat=seat, command_id=command_id)
                if dup is not None:
                    return self._duplicate(dup, seat), {}, False
        raise PlatformError(409, "stale_version", "another command changed the game first")

    # --- bots -------------------------------------------------------------------------

    @staticmethod
    def _bot_choice(live: Live) -> tuple[int, actions.Command] | None:
        """The next bot move, if any: the seat the game waits for (now and then opening
        its turn with an offer for a token it needs), else a reply to an offer made to
        a bot, else an off-turn black-market card or artifact power worth playing."""
        s = live.state
        if not live.bot_seats or s.phase == GAME_OVER:
            return None

        def bot(seat: int) -> bots.GreedyBot:
            return bots.GreedyBot((s.seed * 31 + live.version * 7 + seat) & ((1 << 63) - 1))

        for seat in bots.to_act(s):
            if seat in live.bot_seats:
                legal = engine.legal_actions(s, seat)
                if legal:
                    player = bot(seat)
                    own_turn = s.phase == ACTION and not s.pending and seat == s.turn_seat
                    if own_turn and player.rng.random() < BOT_PROPOSAL_CHANCE:
                        offer = player.propose(s, seat)
                        if offer is not None:
                            return seat, offer
                    return seat, player.decide(s, seat, legal)
        for seat in sorted(live.bot_seats):
            reply = bot(seat).answer(s, seat)
            if reply is not None:
                return seat, reply
        if s.phase == ACTION and not s.pending:
            for seat in sorted(live.bot_seats - {s.turn_seat}):
                free = [
                    a
                    for a in engine.legal_actions(s, seat)
                    if a.type in ("play_black_market", "use_artifact")
                ]
                play = bot(seat).react(s, seat, free) if free else None
                if play is not None:
                    return seat, play
        return None

    def _bots_waiting(self, live: Live) -> bool:
        return self._bot_choice(live) is not None

    def _kick_bots(self, entry: RoomEntry, waiting: bool) -> None:
        """Make sure one (never two) bot task runs for the room when a bot must act."""
        if not waiting or self._closing:
            return
        if entry.bot_task is not None and not entry.bot_task.done():
            return
        entry.bot_task = asyncio.create_task(self._bot_loop(entry), name=f"bots-{entry.code}")

    async def _bot_loop(self, entry: RoomEntry) -> None:
        try:
            await self._bot_moves(entry)
        finally:
            if self.bus is not None:
                await self.bus.release_bot_lock(entry.code)

    async def _hold_bot_lock(self, entry: RoomEntry) -> bool:
        """Several processes: take (or extend) the room's bot lock, waiting a little
        longer than its time-to-live so that a dead holder's lock expires first.
        False: another live process plays the bots. Redis down: True (the row lock and
        the `bot-{version}` ids keep a second player harmless)."""
        if self.bus is None:
            return True
        deadline = time.monotonic() + self.bot_lock_ttl + 0.5
        while not self._closing:
            held = await self.bus.hold_bot_lock(entry.code, self.bot_lock_ttl)
            if held is None or held:
                return True
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)
        return False

    async def _bot_moves(self, entry: RoomEntry) -> None:
        failures = 0
        while not self._closing:
            await asyncio.sleep(self.settings.bot_delay)
            if not await self._hold_bot_lock(entry):
                return
            try:
                result, waiting = await self._command(entry, None, None, None, None)
            except (PlatformError, RuleError) as error:
                log.warning("bot in room %s refused: %r", entry.code, error)
                failures += 1
                waiting = failures < 5
            except Exception:
                log.exception("bot in room %s failed", entry.code)
                failures += 1
                await asyncio.sleep(min(5.0, failures))
                waiting = failures < 5
            else:
                failures = 0
                if result is None:
                    entry.bot_idle = entry.live.version if entry.live else None
                    return
            if not waiting:
                return

    # --- log and chat -----------------------------------------------------------------

    async def log_entries(self, caller: Caller, after: int, limit: int) -> list[dict[str, Any]]:
        entry = await self._entry(caller.code)
        seat = caller.seat.index if caller.seat else None

        def read() -> list[dict[str, Any]]:
            with read_connection(self.db) as conn:
                game = repo.game_of_room(conn, room_id=entry.room_id)
                if game is None:
                    return []
                rows = repo.events_after(conn, game_id=game.id, after=after, limit=limit)
            return [
                {"version": r.version, "seat": r.seat, "events": view.events_for(r.events, seat)}
                for r in rows
            ]

        return await self._run(read)

    async def chat(self, caller: Caller, text: str) -> None:
        """Persist one chat line of a seat and send it to the room.

        :raises PlatformError: 403 `forbidden` for spectators, 429 `rate_limited`.
        """
        if caller.seat is None:
            raise PlatformError(403, "forbidden", "spectators may not chat")
        self._check_rate(caller.code, caller.seat.index)
        entry = await self._entry(caller.code)
        seat = caller.seat

        def tx() -> tuple[int, datetime]:
            with write_transaction(self.db) as conn:
                return repo.insert_chat(
                    conn, room_id=entry.room_id, seat=seat.index, name=seat.name, text=text
                )

        async with entry.lock:
            chat_id, at = await self.writer.solo(tx)
            self._seen_chat(entry, [chat_id])
            message = {"type": "chat", "seat": seat.index, "name": seat.name, "text": text}
            self.hub.broadcast(entry.code, _dumps({**message, "at": _iso(at)}))
        if self.bus is not None:
            self.bus.publish(entry.code, {"t": "chat", "id": chat_id})

    @staticmethod
    def _chat_message(row: Any) -> bytes:
        return _dumps(
            {
                "type": "chat",
                "seat": row.seat,
                "name": row.name,
                "text": row.text,
                "at": _iso(row.created_at),
            }
        )

    @staticmethod
    def _seen_chat(entry: RoomEntry, ids: list[int]) -> None:
        for chat_id in ids:
            entry.chat_seen[chat_id] = None
        while len(entry.chat_seen) > CHAT_SEEN_MAX:
            del entry.chat_seen[next(iter(entry.chat_seen))]

    async def _catch_up_chat(self, entry: RoomEntry) -> None:
        """Push the room's recent chat lines this process's sockets have not had, read
        from the database, oldest first."""
        if not self.hub.viewers(entry.code):
            return

        def read() -> list[Any]:
            with read_connection(self.db) as conn:
                return repo.recent_chat(conn, room_id=entry.room_id, limit=CHAT_HISTORY)

        async with entry.lock:
            rows = [r for r in await self._run(read) if r.id not in entry.chat_seen]
            for row in sorted(rows, key=lambda r: r.id):
                self.hub.broadcast(entry.code, self._chat_message(row))
            self._seen_chat(entry, sorted(r.id for r in rows))

    # --- sockets ----------------------------------------------------------------------

    async def connect(self, socket: Socket) -> None:
        """Register a socket: its view, then the last chat lines, then presence."""
        entry = await self._entry(socket.code)
        if self.bus is not None:
            remote = await self.bus.remote_presence(entry.code)
            if remote is not None:
                entry.remote_seats = remote

        def read(
            wanted: set[int | None], out: list[dict[int | None, bytes]]
        ) -> tuple[bytes, int, list[Any]]:
            data, version = self._current_view(entry, socket.seat, wanted, out)
            with read_connection(self.db) as conn:
                chat = repo.recent_chat(conn, room_id=entry.room_id, limit=CHAT_HISTORY)
            return data, version, chat

        async with entry.lock:
            out: list[dict[int | None, bytes]] = []
            try:
                data, version, chat = await self._run(read, self.hub.viewers(entry.code), out)
            finally:
                self._flush(entry, out)
            if entry.live is None:
                entry.status = "lobby"
            fresh = self.hub.add(socket)
            socket.send(b'{"type":"view","version":%d,"events":[],"view":%s}' % (version, data))
            for row in chat:
                socket.send(self._chat_message(row))
            self._seen_chat(entry, [row.id for row in chat])
        if fresh:
            await self._presence_changed(entry)

    async def resync(self, socket: Socket) -> None:
        entry = await self._entry(socket.code)
        async with entry.lock:
            out: list[dict[int | None, bytes]] = []
            try:
                data, version = await self._run(
                    self._current_view, entry, socket.seat, self.hub.viewers(entry.code), out
                )
            finally:
                self._flush(entry, out)
            socket.send(b'{"type":"view","version":%d,"events":[],"view":%s}' % (version, data))

    async def disconnect(self, socket: Socket) -> None:
        gone = self.hub.remove(socket)
        await socket.stop()
        entry = self._entries.get(socket.code)
        if gone and entry is not None:
            await self._presence_changed(entry)

    async def _presence_changed(self, entry: RoomEntry) -> None:
        """A seat came or went on this process: tell our sockets and the others."""
        if self.bus is not None:
            await self.bus.set_presence(entry.code, self.hub.seats_connected(entry.code))
            self.bus.publish(entry.code, {"t": "presence"})
        self._push_presence(entry)

    def _push_presence(self, entry: RoomEntry) -> None:
        connected = self._connected(entry)
        seats = [
            {"index": s.index, "connected": s.bot or s.index in connected} for s in entry.seats
        ]
        self.hub.broadcast(entry.code, _dumps({"type": "presence", "seats": seats}))

    def _push_room(
        self, entry: RoomEntry, status: str, options: dict[str, Any], version: int | None
    ) -> None:
        info = self._info(entry, status, options, version)
        self.hub.broadcast(entry.code, _dumps({"type": "room", "room": info}))

    async def _push_lobby(self, entry: RoomEntry) -> None:
        """After a lobby change: the room and a fresh lobby view to every socket."""

        def read() -> tuple[Any, list[SeatInfo]]:
            with read_connection(self.db) as conn:
                room = repo.room_by_code(conn, code=entry.code)
                seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=entry.room_id)]
                return room, seats

        room, entry.seats = await self._run(read)
        if room.status != "lobby":  # started meanwhile (by another process)
            return
        entry.status = "lobby"
        self._push_room(entry, room.status, room.options, None)
        self.hub.per_viewer(
            entry.code,
            lambda seat: (
                b'{"type":"view","version":0,"events":[],"view":%s}'
                % self._lobby_view(entry, seat, room.options)
            ),
        )

    # --- several processes: notices and the periodic check ------------------------------

    def _on_notice(self, code: str, notice: dict[str, Any]) -> None:
        """A notice from another process (see `app.realtime.bus`); the work it asks for
        runs in the room's worker task, reading from the database."""
        entry = self._entries.get(code)
        if entry is None or self._closing:
            return  # no socket of ours has ever watched this room
        kind = notice.get("t")
        if kind == "v":
            version = notice.get("v")
            if isinstance(version, int) and (entry.pushed is None or version > entry.pushed):
                self._schedule(entry, "version")
        elif kind == "lobby":
            removed, moved = notice.get("removed"), notice.get("moved")
            if isinstance(removed, int):
                self.hub.close_seat(code, removed, CLOSE_SEAT_REMOVED)
            if isinstance(moved, dict):
                self.hub.reindex(code, {int(k): int(v) for k, v in moved.items()})
            if removed is not None or moved:
                self._schedule(entry, "own-presence")
            self._schedule(entry, "lobby")
        elif kind == "chat":
            if notice.get("id") not in entry.chat_seen:
                self._schedule(entry, "chat")
        elif kind == "presence":
            self._schedule(entry, "presence")

    def _schedule(self, entry: RoomEntry, what: str) -> None:
        if not self.hub.viewers(entry.code) and what != "own-presence":
            return
        entry.todo.add(what)
        if entry.worker is None or entry.worker.done():
            entry.worker = asyncio.create_task(self._work(entry), name=f"sync-{entry.code}")

    async def _work(self, entry: RoomEntry) -> None:
        while entry.todo and not self._closing:
            what = next((w for w in ("own-presence", *WORK_ORDER) if w in entry.todo), None)
            if what is None:
                entry.todo.clear()
                return
            entry.todo.discard(what)
            try:
                if what == "version":
                    await self._catch_up(entry)
                elif what == "lobby":
                    if self.hub.viewers(entry.code):
                        async with entry.lock:
                            await self._push_lobby(entry)
                elif what == "chat":
                    await self._catch_up_chat(entry)
                elif what == "presence":
                    await self._refresh_presence(entry)
                elif what == "own-presence" and self.bus is not None:
                    await self.bus.set_presence(entry.code, self.hub.seats_connected(entry.code))
                    self.bus.publish(entry.code, {"t": "presence"})
            except Exception:
                log.exception("room %s: catching up (%s) failed", entry.code, what)
                await asyncio.sleep(0.5)

    async def _catch_up(self, entry: RoomEntry) -> None:
        """Bring this process's sockets of the room up to the stored version."""
        if not self.hub.viewers(entry.code):
            return

        def read(wanted: set[int | None], out: list[dict[int | None, bytes]]) -> None:
            with read_connection(self.db) as conn:
                game = repo.game_of_room(conn, room_id=entry.room_id)
                if game is not None:
                    self._sync(conn, entry, game.id, game.version, wanted, out)

        async with entry.lock:
            out: list[dict[int | None, bytes]] = []
            try:
                await self._run(read, self.hub.viewers(entry.code), out)
            finally:
                self._flush(entry, out)

    async def _refresh_presence(self, entry: RoomEntry) -> None:
        """Re-read the other processes' presence; tell our sockets if it changed."""
        if self.bus is None:
            return
        remote = await self.bus.remote_presence(entry.code)
        if remote is not None and remote != entry.remote_seats:
            entry.remote_seats = remote
            self._push_presence(entry)

    async def _watch(self) -> None:
        """The periodic check of a process among several: rooms our sockets watch that
        the database shows ahead (lost notices), presence refresh, stalled bots."""
        assert self.bus is not None
        last_presence = 0.0
        while not self._closing:
            await asyncio.sleep(self.sync_interval)
            try:
                await self._check_rooms()
                if time.monotonic() - last_presence >= PRESENCE_REFRESH:
                    last_presence = time.monotonic()
                    for code in self.hub.codes():
                        entry = self._entries.get(code)
                        if entry is not None:
                            await self.bus.set_presence(code, self.hub.seats_connected(code))
                            await self._refresh_presence(entry)
                await self._check_bots()
            except asyncio.CancelledError:
                raise
            except Exception as error:
                log.warning("periodic check failed: %s", error)

    async def _check_rooms(self) -> None:
        entries = [self._entries[c] for c in self.hub.codes() if c in self._entries]
        if not entries:
            return

        def read() -> tuple[dict[int, int], dict[int, int]]:
            ids = [e.room_id for e in entries]
            with read_connection(self.db) as conn:
                return repo.game_versions(conn, room_ids=ids), repo.last_chat_ids(
                    conn, room_ids=ids
                )

        versions, chats = await self._run(read)
        for entry in entries:
            version = versions.get(entry.room_id)
            if version is not None and (entry.pushed is None or version > entry.pushed):
                self._schedule(entry, "version")
            last_chat = chats.get(entry.room_id)
            if last_chat is not None and last_chat not in entry.chat_seen:
                self._schedule(entry, "chat")

    async def _check_bots(self) -> None:
        """Wake the bots of a game that waits on them and has not moved for a while, when
        no process holds its bot lock (the holder died, or a wake-up was lost)."""
        assert self.bus is not None

        def read() -> list[tuple[str, int]]:
            with read_connection(self.db) as conn:
                return repo.bot_games(conn)

        now = time.monotonic()
        stall = self.bot_lock_ttl
        games = await self._run(read)
        seen = {}
        for code, version in games:
            first = self._bot_seen.get(code)
            seen[code] = first if first is not None and first[0] == version else (version, now)
            if now - seen[code][1] < stall:
                continue
            entry = self._entries.get(code)
            if entry is not None and (
                entry.bot_idle == version
                or (entry.bot_task is not None and not entry.bot_task.done())
            ):
                continue
            if not await self.bus.bot_lock_free(code):
                continue
            with contextlib.suppress(PlatformError):
                self._kick_bots(entry or await self._entry(code), True)
        self._bot_seen = seen

    # --- lifecycle --------------------------------------------------------------------

    def evict_idle(self, now: float | None = None) -> int:
        """Forget the rooms idle for `room_idle` seconds: no socket here, no command,
        bot, catch-up work or lookup meanwhile. Their live game and cached views go with
        them; the next use reloads the room from the database. Returns how many."""
        now = time.monotonic() if now is None else now
        gone = [
            code
            for code, e in self._entries.items()
            if now - e.used >= self.room_idle
            and not e.lock.locked()
            and (e.bot_task is None or e.bot_task.done())
            and (e.worker is None or e.worker.done())
            and not self.hub.viewers(code)
        ]
        for code in gone:
            del self._entries[code]
            self._bot_seen.pop(code, None)
        return len(gone)

    async def _evict_loop(self) -> None:
        while not self._closing:
            await asyncio.sleep(max(0.05, min(30.0, self.room_idle / 2)))
            try:
                self.evict_idle()
            except Exception:
                log.exception("evicting idle rooms failed")

    async def startup(self) -> None:
        """Join the other processes (REDIS_URL), then wake the bots of games left
        waiting on one (after a restart)."""
        if self._evict_task is None:
            self._evict_task = asyncio.create_task(self._evict_loop(), name="evict-rooms")
        if self.bus is not None and self._watch_task is None:
            self.bus.start(self._on_notice, self._after_reconnect)
            self._watch_task = asyncio.create_task(self._watch(), name="sync-watch")

        def read() -> list[str]:
            with read_connection(self.db) as conn:
                return repo.playing_games_with_bots(conn)

        for code in await self._run(read):
            with contextlib.suppress(PlatformError):
                self._kick_bots(await self._entry(code), True)

    async def _after_reconnect(self) -> None:
        """(Re)subscribed to Redis: notices may have been lost meanwhile; check all."""
        with contextlib.suppress(Exception):
            await self._check_rooms()
            for code in self.hub.codes():
                entry = self._entries.get(code)
                if entry is not None:
                    self._schedule(entry, "own-presence")
                    self._schedule(entry, "presence")

    async def shutdown(self) -> None:
        self._closing = True
        tasks = [e.bot_task for e in self._entries.values() if e.bot_task is not None]
        tasks += [e.worker for e in self._entries.values() if e.worker is not None]
        if self._watch_task is not None:
            tasks.append(self._watch_task)
        if self._evict_task is not None:
            tasks.append(self._evict_task)
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        if self.bus is not None:
            for code in self.hub.codes():
                await self.bus.set_presence(code, set())
            await self.bus.close()
        self.hub.close_all()
        await asyncio.to_thread(self.writer.stop)


class _CommandJob:
    """One command queued for the writer's group commit (see `app.store.writer`)."""

    __slots__ = (
        "cmd",
        "command_id",
        "entry",
        "expected_version",
        "key",
        "mutated",
        "out",
        "seat",
        "service",
        "wanted",
    )

    def __init__(
        self,
        service: RoomService,
        entry: RoomEntry,
        seat: int | None,
        command_id: str | None,
        cmd: actions.Command | None,
        expected_version: int | None,
        wanted: set[int | None],
    ) -> None:
        self.service = service
        self.entry = entry
        self.seat = seat
        self.command_id = command_id
        self.cmd = cmd
        self.expected_version = expected_version
        self.wanted = wanted
        self.out: list[dict[int | None, bytes]] = []  # catch-up messages, in order
        self.key = entry.room_id
        self.mutated = False  # engine.apply changed the live state in this attempt

    def step(self, conn: Connection) -> tuple[Any, ...]:
        return self.service._command_step(conn, self)

    def finish(self, pending: tuple[Any, ...]) -> Any:
        return self.service._command_finish(self, pending)

    def abort(self) -> None:
        if self.mutated:
            self.entry.live = None
            self.mutated = False

    def alone(self) -> Any:
        return self.service._command_tx(self)
