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
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
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
from app.karanor.state import GAME_OVER, State
from app.realtime.hub import Connection as Socket
from app.realtime.hub import Hub
from app.rooms import errors, tokens
from app.rooms.errors import PlatformError
from app.rooms.ratelimit import RateLimiter
from app.store import repo
from app.store.db import read_connection, write_transaction

log = logging.getLogger(__name__)

CONTENT_PACK = "base"
CHAT_HISTORY = 50
CLOSE_SEAT_REMOVED = 4403
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


@dataclass(slots=True)
class RoomEntry:
    code: str
    room_id: int
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    live: Live | None = None
    seats: list[SeatInfo] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None


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

    # --- plumbing ---------------------------------------------------------------------

    async def _run(self, fn: Callable[..., T], *args: Any) -> T:
        return await asyncio.to_thread(fn, *args)

    async def _entry(self, code: str) -> RoomEntry:
        """The room `code` (cached), or 404 `unknown_room`."""
        entry = self._entries.get(code)
        if entry is not None:
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

        return await self._run(tx), token

    async def room_info(self, code: str) -> dict[str, Any]:
        entry = await self._entry(code)

        def read() -> tuple[Any, list[SeatInfo], Any]:
            with read_connection(self.db) as conn:
                room = repo.room_by_code(conn, code=code)
                seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=entry.room_id)]
                game = repo.game_of_room(conn, room_id=entry.room_id)
                return room, seats, game

        room, seats, game = await self._run(read)
        entry.seats = seats
        return self._info(entry, room.status, room.options, game.version if game else None)

    def _info(
        self, entry: RoomEntry, status: str, options: dict[str, Any], version: int | None
    ) -> dict[str, Any]:
        connected = self.hub.seats_connected(entry.code)
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

        def read() -> Any:
            with read_connection(self.db) as conn:
                return repo.seat_by_token(
                    conn, room_id=entry.room_id, token_hash=tokens.hash_token(token)
                )

        row = await self._run(read)
        if row is None:
            raise errors.bad_token()
        return Caller(code, _seat_info(row))

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
        then: Callable[[T], None] | None = None,
    ) -> T:
        """Run `fn(conn, room)` in a write transaction on a room still in its lobby, then
        `then(result)`, then tell the room's sockets; all under the room lock. One retry
        on a unique-index race (another process took the same seat index)."""
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

            out, entry.seats = await self._run(tx)
            if then is not None:
                then(out)
            await self._push_lobby(entry)
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

        def close(removed: tuple[int, dict[int, int]]) -> None:
            self.hub.close_seat(entry.code, removed[0], CLOSE_SEAT_REMOVED)
            self.hub.reindex(entry.code, removed[1])

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

            self.hub.deliver(entry.code, await self._run(tx))
            self._push_room(entry, "playing", entry.live.state.options if entry.live else {}, 0)
        self._kick_bots(entry, True)
        return await self.room_info(caller.code)

    # --- views ------------------------------------------------------------------------

    def _ensure_live(self, conn: Connection, entry: RoomEntry, game_id: int, version: int) -> Live:
        """The in-memory game, reloaded from the snapshot unless it is at `version`."""
        live = entry.live
        if live is not None and live.game_id == game_id and live.version == version:
            return live
        entry.live = None
        stored = repo.game_snapshot(conn, game_id=game_id)
        stored_version, snapshot = stored.version, stored.snapshot
        seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=entry.room_id)]
        entry.seats = seats
        live = Live(
            game_id,
            stored_version,
            State.from_dict(snapshot),
            frozenset(s.index for s in seats if s.bot),
        )
        entry.live = live
        return live

    def _view(self, live: Live, seat: int | None) -> bytes:
        """The serialised view of `seat` at the live version, computed once per version."""
        data = live.views.get(seat)
        if data is None:
            picture = view.view(live.state, seat)
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

    def _current_view(self, entry: RoomEntry, seat: int | None) -> tuple[bytes, int]:
        """(view JSON, version) now, for `seat`; call under the room lock."""
        with read_connection(self.db) as conn:
            game = repo.game_of_room(conn, room_id=entry.room_id)
            if game is None:
                room = repo.room_by_code(conn, code=entry.code)
                entry.seats = [_seat_info(s) for s in repo.seats_of(conn, room_id=entry.room_id)]
                return self._lobby_view(entry, seat, room.options), 0
            live = self._ensure_live(conn, entry, game.id, game.version)
            return self._view(live, seat), live.version

    async def view_json(self, caller: Caller) -> bytes:
        entry = await self._entry(caller.code)
        seat = caller.seat.index if caller.seat else None
        async with entry.lock:
            data, _version = await self._run(self._current_view, entry, seat)
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
            wanted = self.hub.viewers(entry.code)
            result, messages, waiting = await self._run(
                self._command_tx, entry, seat, command_id, cmd, expected_version, wanted
            )
            if messages:
                self.hub.deliver(entry.code, messages)
            if result is not None and result.finished and not result.duplicate:
                live = entry.live
                options = live.state.options if live else {}
                self._push_room(entry, "finished", options, result.version)
        return result, waiting

    def _command_tx(
        self,
        entry: RoomEntry,
        seat: int | None,
        command_id: str | None,
        cmd: actions.Command | None,
        expected_version: int | None,
        wanted: set[int | None],
    ) -> tuple[CommandResult | None, dict[int | None, bytes], bool]:
        mutated = False
        try:
            with write_transaction(self.db) as conn:
                game = repo.game_of_room(conn, room_id=entry.room_id)
                if game is None:
                    raise PlatformError(409, "not_started", "the game has not started yet")
                if seat is not None and command_id is not None:
                    dup = repo.event_by_command(
                        conn, game_id=game.id, seat=seat, command_id=command_id
                    )
                    if dup is not None:
                        return self._duplicate(dup, seat), {}, False
                head = repo.game_version(conn, game_id=game.id, lock=True)
                if expected_version is not None and expected_version != head.version:
                    raise errors.stale_version(expected_version, head.version)
                live = self._ensure_live(conn, entry, game.id, head.version)
                if cmd is None:
                    choice = self._bot_choice(live)
                    if choice is None:
                        return None, {}, False
                    seat, cmd = choice
                    command_id = f"bot-{head.version + 1}"
                assert seat is not None and command_id is not None
                state, events = engine.apply(live.state, seat, cmd)
                mutated = True
                status = "finished" if state.phase == GAME_OVER else "playing"
                written = repo.append_event(
                    conn,
                    game_id=game.id,
                    old_version=head.version,
                    seat=seat,
                    command_id=command_id,
                    command=actions.to_json(cmd),
                    events=events,
                    snapshot=state.to_dict(),
                    status=status,
                )
                if not written:
                    raise errors.stale_version(head.version, head.version + 1)
                if status == "finished":
                    repo.set_room_status(
                        conn, room_id=entry.room_id, status="finished", expect="playing"
                    )
        except IntegrityError:
            # Another process logged this command id (or this version) first.
            entry.live = None
            return self._after_race(entry, seat, command_id)
        except BaseException:
            if mutated:
                entry.live = None
            raise
        live.version = head.version + 1
        live.views = {}
        messages = {viewer: self._view_message(live, viewer, events) for viewer in wanted}
        result = CommandResult(
            live.version, view.events_for(events, seat), finished=status == "finished"
        )
        return result, messages, self._bots_waiting(live)

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
        s = live.state
        for seat in bots.to_act(s):
            if seat in live.bot_seats:
                legal = list(engine.legal_actions(s, seat))
                if legal:
                    seed = (s.seed * 31 + live.version * 7 + seat) & ((1 << 63) - 1)
                    return seat, bots.make("greedy", seed).decide(s, seat, legal)
        return None

    @staticmethod
    def _bots_waiting(live: Live) -> bool:
        return any(seat in live.bot_seats for seat in bots.to_act(live.state))

    def _kick_bots(self, entry: RoomEntry, waiting: bool) -> None:
        """Make sure one (never two) bot task runs for the room when a bot must act."""
        if not waiting or self._closing:
            return
        if entry.bot_task is not None and not entry.bot_task.done():
            return
        entry.bot_task = asyncio.create_task(self._bot_loop(entry), name=f"bots-{entry.code}")

    async def _bot_loop(self, entry: RoomEntry) -> None:
        failures = 0
        while not self._closing:
            await asyncio.sleep(self.settings.bot_delay)
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

        def tx() -> datetime:
            with write_transaction(self.db) as conn:
                return repo.insert_chat(
                    conn, room_id=entry.room_id, seat=seat.index, name=seat.name, text=text
                )

        async with entry.lock:
            at = await self._run(tx)
            message = {"type": "chat", "seat": seat.index, "name": seat.name, "text": text}
            self.hub.broadcast(entry.code, _dumps({**message, "at": _iso(at)}))

    # --- sockets ----------------------------------------------------------------------

    async def connect(self, socket: Socket) -> None:
        """Register a socket: its view, then the last chat lines, then presence."""
        entry = await self._entry(socket.code)

        def read() -> tuple[bytes, int, list[Any]]:
            data, version = self._current_view(entry, socket.seat)
            with read_connection(self.db) as conn:
                chat = repo.recent_chat(conn, room_id=entry.room_id, limit=CHAT_HISTORY)
            return data, version, chat

        async with entry.lock:
            data, version, chat = await self._run(read)
            fresh = self.hub.add(socket)
            socket.send(b'{"type":"view","version":%d,"events":[],"view":%s}' % (version, data))
            for row in chat:
                socket.send(
                    _dumps(
                        {
                            "type": "chat",
                            "seat": row.seat,
                            "name": row.name,
                            "text": row.text,
                            "at": _iso(row.created_at),
                        }
                    )
                )
        if fresh:
            self._push_presence(entry)

    async def resync(self, socket: Socket) -> None:
        entry = await self._entry(socket.code)
        async with entry.lock:
            data, version = await self._run(self._current_view, entry, socket.seat)
            socket.send(b'{"type":"view","version":%d,"events":[],"view":%s}' % (version, data))

    async def disconnect(self, socket: Socket) -> None:
        gone = self.hub.remove(socket)
        await socket.stop()
        entry = self._entries.get(socket.code)
        if gone and entry is not None:
            self._push_presence(entry)

    def _push_presence(self, entry: RoomEntry) -> None:
        connected = self.hub.seats_connected(entry.code)
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

        def read() -> Any:
            with read_connection(self.db) as conn:
                return repo.room_by_code(conn, code=entry.code)

        room = await self._run(read)
        self._push_room(entry, room.status, room.options, None)
        self.hub.per_viewer(
            entry.code,
            lambda seat: (
                b'{"type":"view","version":0,"events":[],"view":%s}'
                % self._lobby_view(entry, seat, room.options)
            ),
        )

    # --- lifecycle --------------------------------------------------------------------

    async def startup(self) -> None:
        """Wake the bots of games left waiting on one (after a restart)."""

        def read() -> list[str]:
            with read_connection(self.db) as conn:
                return repo.playing_games_with_bots(conn)

        for code in await self._run(read):
            with contextlib.suppress(PlatformError):
                self._kick_bots(await self._entry(code), True)

    async def shutdown(self) -> None:
        self._closing = True
        tasks = [e.bot_task for e in self._entries.values() if e.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        self.hub.close_all()
