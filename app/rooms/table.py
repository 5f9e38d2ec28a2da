"""The table around the game, for every game: a seat a bot plays while its person is
away, the turn timer, and "Play again".

- **A seat played by a bot.** The host may hand an absent person's seat to a bot during
  the game; the bot plays it through the ordinary path (the game's `bot_move`) until
  the person returns: their next socket or command on that seat takes it back (or the
  host, or the seat itself, gives it back explicitly). Stored on the seat row
  (`is_bot` with the person's token kept), so it survives a restart and every process
  sees it.
- **The turn timer** (off by default): each seat the game waits for has a clock: the
  turn's seconds, then its own reserve. When both are spent and the person was at the
  table during the turn (a socket open, now or since the clock started), a bot plays
  that one turn for them (the game's `bot_move`, command ids `standin-N`: the log says
  "a bot played for ..."), the seat stays theirs and their next clock starts afresh. A
  seat whose person was gone for the whole turn is handed to a bot until they return.
  The host may pause the clocks and resume them. The clocks live in the room row
  (`rooms.timer`), updated after each version; every change is pushed to the room's
  sockets at once (lobby and game).
- **Play again.** After the end, a seat asks for a rematch: the first ask opens a new
  room of the same game and options with the asker as host and every seat where it was
  (the same places, so the same colours and shapes): the bots seated, each other
  person's seat kept for them until their own ask takes it (a seat whose person left
  the game is not kept). The old room says where (`rematch`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from app.rooms import clocks, errors, tokens
from app.rooms.bots import BotRunner
from app.rooms.cache import RoomCache
from app.rooms.clocks import MAX_TURN_SECONDS, advance, deadlines, new_timer, now
from app.rooms.context import Platform
from app.rooms.fanout import Fanout
from app.rooms.lobby import Lobby, check_level
from app.rooms.model import Caller, Room, SeatInfo, bot_levels, seat_info
from app.store import repo
from app.store.db import read_connection, write_transaction

log = logging.getLogger(__name__)

STAND_IN_MOVES = 12  # at most, for one turn played for a seat out of time


class Table:
    def __init__(
        self,
        platform: Platform,
        cache: RoomCache,
        fanout: Fanout,
        lobby: Lobby,
        bots: BotRunner,
        catch_up: Callable[[Room], Awaitable[object]],
    ) -> None:
        """`catch_up(room)` brings the room's game to the stored version (under its lock):
        a process that serves no socket of the room may hold an old version of it."""
        self.p = platform
        self.cache = cache
        self.fanout = fanout
        self.lobby = lobby
        self.bots = bots
        self.catch_up = catch_up
        self._alarms: dict[str, asyncio.TimerHandle] = {}
        self._rings: set[asyncio.Task[None]] = set()

    # --- a seat played by a bot ----------------------------------------------------------

    async def replace_with_bot(
        self, room: Room, caller: Caller, index: int, level: str | None = None
    ) -> None:
        """The host hands an absent person's seat to a bot until they return.

        :raises PlatformError: 403 `not_host`, 404 `unknown_seat`, 409 `not_playing`,
            `seat_present` (the person is connected), `already_bot`.
        """
        host = errors.require_host(caller)
        seat = self._seat(room, index)
        if self._status(room) != "playing":
            raise errors.PlatformError(409, "not_playing", "the game is not being played")
        if seat.bot:
            raise errors.PlatformError(409, "already_bot", f"a bot already plays seat {index}")
        if seat.id in self.fanout.connected(room) or seat.id == host.id:
            raise errors.PlatformError(
                409, "seat_present", f"{seat.name} is at the table: only an absent seat"
            )
        await self._set_bot(room, index, True, None if level is None else check_level(level))

    async def hand_back(self, room: Room, caller: Caller, index: int) -> None:
        """The host (or the seat itself) takes the seat back from the bot.

        :raises PlatformError: 403 `forbidden`, 404 `unknown_seat`, 409 `not_replaced`.
        """
        seat = self._seat(room, index)
        if caller.seat is None or not (caller.seat.host or caller.seat.id == seat.id):
            raise errors.PlatformError(403, "forbidden", "only the host or the seat itself")
        if not seat.replaced:
            raise errors.PlatformError(409, "not_replaced", f"no bot plays seat {index}")
        await self._set_bot(room, index, False)

    async def returned(self, room: Room, seat: SeatInfo | None) -> None:
        """The person of a seat a bot plays is back (a socket or a command of theirs)."""
        if seat is None:
            return
        now = next((s for s in room.seats if s.id == seat.id), seat)
        if now.replaced:
            await self._set_bot(room, now.index, False)

    async def leave(self, room: Room, caller: Caller) -> None:
        """A person leaves a running game (resigns): a bot plays their seat to the end;
        the seat keeps its name, its token stops working, the version is kept (the log
        and the end screen say so).

        :raises PlatformError: 401 spectator, 409 `not_playing`.
        """
        seat = caller.seat
        if seat is None:
            raise errors.bad_token()
        if self._status(room) != "playing":
            raise errors.PlatformError(409, "not_playing", "the game is not being played")
        async with room.lock:
            live = await self.bots.commands.live(room)
            version = live.version

            def tx() -> tuple[bool, list[SeatInfo]]:
                with write_transaction(self.p.db) as conn:
                    changed = repo.seat_left(
                        conn, room_id=room.room_id, index=seat.index, version=version
                    )
                    rows = repo.seats_of(conn, room_id=room.room_id)
                    return changed, [seat_info(s) for s in rows]

            changed, room.seats = await self.p.write(tx)
            room.auth.clear()
            self.seats_changed(room)
        if changed:
            log.info("room %s: seat %d left the game", room.code, seat.index)
            self.p.publish(room.code, {"t": "seats"})
            self.bots.wake(room)
            if room.timer:
                await self.after_version(room)  # a bot needs no clock

    def _seat(self, room: Room, index: int) -> SeatInfo:
        seat = next((s for s in room.seats if s.index == index), None)
        if seat is None:
            raise errors.PlatformError(404, "unknown_seat", f"there is no seat {index}")
        return seat

    def _status(self, room: Room) -> str:
        live = room.live
        if live is None:
            return room.status or "lobby"
        return "finished" if room.game.is_over(live.state) else "playing"

    async def _set_bot(self, room: Room, index: int, bot: bool, level: str | None = None) -> bool:
        """Whether this call changed the seat (another process may have done it first)."""
        async with room.lock:

            def tx() -> tuple[bool, list[SeatInfo]]:
                with write_transaction(self.p.db) as conn:
                    changed = repo.set_seat_bot(conn, room_id=room.room_id, index=index, bot=bot)
                    if changed and level is not None:
                        repo.set_seat_level(conn, room_id=room.room_id, index=index, level=level)
                    seats = repo.seats_of(conn, room_id=room.room_id)
                    return changed, [seat_info(s) for s in seats]

            changed, room.seats = await self.p.write(tx)
            room.auth.clear()
            self.seats_changed(room)
        if changed:
            self.p.publish(room.code, {"t": "seats"})
            if bot:
                self.bots.wake(room)
        return changed

    async def reload(self, room: Room) -> None:
        """Another process changed the seats, the timer or the rematch: read them again."""

        def read() -> tuple[Any, list[SeatInfo]]:
            with read_connection(self.p.db) as conn:
                row = repo.room_by_code(conn, code=room.code)
                return row, [seat_info(s) for s in repo.seats_of(conn, room_id=room.room_id)]

        async with room.lock:
            row, room.seats = await self.p.read(read)
            if row is None:
                return
            room.timer, room.rematch = row.timer, row.rematch
            room.auth.clear()
            self.seats_changed(room)
        self.arm(room)
        if any(s.bot for s in room.seats):
            self.bots.wake(room)

    def seats_changed(self, room: Room) -> None:
        """The seats' bots changed (here or elsewhere): the game's bot seats follow, the
        room's sockets are told."""
        live = room.live
        if live is not None:
            live.bot_seats = frozenset(s.index for s in room.seats if s.bot)
            live.bot_levels = bot_levels(room.seats)
        self.push(room)
        self.fanout.push_presence(room)

    def push(self, room: Room) -> None:
        """The room as it is now ("room" message) to this process's sockets of it, in
        the lobby and in the game (a timer change is seen at once everywhere)."""
        live = room.live
        self.fanout.push_room(
            room, self._status(room), room.options, live.version if live is not None else None
        )

    # --- the turn timer ----------------------------------------------------------------------

    async def set_timer(
        self, room: Room, caller: Caller, turn_seconds: int, reserve_seconds: int
    ) -> None:
        """The host sets the turn timer (0 seconds a turn: off), in the lobby or the game."""
        errors.require_host(caller)
        if not 0 <= turn_seconds <= MAX_TURN_SECONDS or not 0 <= reserve_seconds <= (
            MAX_TURN_SECONDS
        ):
            raise errors.PlatformError(422, "bad_request", "seconds from 0 to a week")
        timer = new_timer(turn_seconds, reserve_seconds) if turn_seconds else None
        async with room.lock:
            if timer is not None and room.live is not None:
                timer = advance(timer, self._waiting(room), now())

            def tx() -> None:
                with write_transaction(self.p.db) as conn:
                    repo.set_room_timer(conn, room_id=room.room_id, timer=timer)

            await self.p.write(tx)
            room.timer = timer
        self.arm(room)
        self.push(room)
        self.p.publish(room.code, {"t": "seats"})

    async def set_paused(self, room: Room, caller: Caller, paused: bool) -> None:
        """The host pauses the clocks (they stand still) or resumes them.

        :raises PlatformError: 403 `not_host`, 409 `no_timer`.
        """
        errors.require_host(caller)
        async with room.lock:

            def tx() -> dict[str, Any] | None:
                with write_transaction(self.p.db) as conn:
                    stored = repo.room_timer_locked(conn, room_id=room.room_id)
                    if not stored:
                        return None
                    at = now()
                    timer = clocks.pause(stored, at) if paused else clocks.resume(stored, at)
                    repo.set_room_timer(conn, room_id=room.room_id, timer=timer)
                    return timer

            timer = await self.p.write(tx)
            if timer is None:
                raise errors.PlatformError(409, "no_timer", "there is no turn timer to pause")
            room.timer = timer
        self.arm(room)
        self.push(room)
        self.p.publish(room.code, {"t": "seats"})

    def _waiting(self, room: Room) -> set[int]:
        """The seats the game waits for that a person plays (bots need no clock)."""
        live = room.live
        if live is None or room.game.is_over(live.state):
            return set()
        return set(room.game.to_act(live.state)) - live.bot_seats

    async def after_version(self, room: Room) -> None:
        """A new version: the clocks move on (timer rooms only), the alarm is re-armed.

        The clocks carry the version they follow (`v`): a process never stores clocks of
        an older version over newer ones (several processes may ring or play at once)."""
        if not room.timer:
            return
        timer = advance(room.timer, self._waiting(room), now())
        if timer == room.timer:
            return
        live = room.live
        version = live.version if live is not None else -1
        timer["v"] = version

        def tx() -> dict[str, Any] | None:
            with write_transaction(self.p.db) as conn:
                stored = repo.room_timer_locked(conn, room_id=room.room_id)
                if not stored or stored.get("v", -1) > version:
                    return stored  # turned off, or moved on by a newer version
                repo.set_room_timer(conn, room_id=room.room_id, timer=timer)
                return timer

        room.timer = timer
        with contextlib.suppress(errors.PlatformError):
            room.timer = await self.p.write(tx)
        self.arm(room)
        # The room's sockets see the new deadlines (the countdowns follow the turn).
        self.push(room)

    def arm(self, room: Room) -> None:
        """Wake at the earliest deadline of the room's clocks."""
        old = self._alarms.pop(room.code, None)
        if old is not None:
            old.cancel()
        if not room.timer or self.p.closing or room.timer.get("paused") is not None:
            return
        due = deadlines(room.timer)
        if not due:
            return
        delay = max(0.0, min(due.values()) - now()) + 0.05
        loop = asyncio.get_running_loop()

        def ring() -> None:
            # Held until done: the loop keeps only a weak reference to a task.
            task = loop.create_task(self._ring(room), name=f"timer-{room.code}")
            self._rings.add(task)
            task.add_done_callback(self._rings.discard)

        self._alarms[room.code] = loop.call_later(delay, ring)

    def armed(self, code: str) -> bool:
        return code in self._alarms

    async def _ring(self, room: Room) -> None:
        """A deadline passed: a bot plays the turn of each seat out of time whose person
        was at the table; the seat of a person gone for the whole turn is handed to a
        bot until they return."""
        self._alarms.pop(room.code, None)
        try:

            def read() -> Any:
                with read_connection(self.p.db) as conn:
                    row = repo.room_by_code(conn, code=room.code)
                    return None if row is None else row.timer

            room.timer = await self.p.read(read)  # another process may have moved it on
            if not room.timer or room.timer.get("paused") is not None:
                return
            # The game as stored: this process may hold an old version of it (it follows
            # a room's versions only while it serves sockets there).
            async with room.lock:
                with contextlib.suppress(errors.PlatformError):
                    await self.catch_up(room)
            waiting = self._waiting(room)
            at_now = now()
            late = [
                seat
                for seat, at in deadlines(room.timer).items()
                if at <= at_now and seat in waiting  # a clock the game has moved past: not late
            ]
            started = {
                int(k): float(c["since"]) for k, c in (room.timer.get("clocks") or {}).items()
            }
            connected = self.fanout.connected(room)
            for seat in late:
                person = next((s for s in room.seats if s.index == seat and not s.bot), None)
                if person is None:
                    continue
                present = person.id in connected or room.left.get(person.id, 0.0) >= started.get(
                    seat, at_now
                )
                if present:
                    if await self.stand_in(room, seat):
                        log.info("room %s: seat %d out of time, a turn played", room.code, seat)
                        self.p.tell(room, "standin", seat)
                # Said once: when two processes ring together, one changes the seat.
                elif await self._set_bot(room, seat, True):
                    log.info("room %s: seat %d out of time, a bot plays it", room.code, seat)
                    self.p.tell(room, "timeout", seat)
            await self.after_version(room)
        except Exception:
            log.exception("room %s: the turn timer failed", room.code)
        finally:
            if room.code not in self._alarms:
                self.arm(room)

    async def stand_in(self, room: Room, seat: int) -> bool:
        """A bot plays `seat`'s turn (its moves until the game no longer waits for it, a
        few at most) with command ids `standin-N`; then its clock starts afresh. Whether
        a move was played (False: another process or the person moved first)."""
        played = 0
        for _ in range(STAND_IN_MOVES):
            async with room.lock:
                live = await self.bots.commands.live(room)
                if room.game.is_over(live.state) or seat not in room.game.to_act(live.state):
                    break
                move = await asyncio.to_thread(
                    room.game.bot_move, live.state, frozenset({seat}), live.version
                )
                version = live.version
            if move is None or move.seat != seat:
                break
            try:
                await self.bots.commands.run(
                    room, seat, f"standin-{version + 1}", move.command, expected_version=version
                )
            except errors.PlatformError as error:
                if error.code == "stale_version":
                    break  # the person (or another process) moved first
                log.warning("room %s: the stand-in bot was refused: %r", room.code, error)
                break
            played += 1
        if played and room.timer:
            room.timer = clocks.fresh_clock(room.timer, seat, now())
        return played > 0

    async def start(self) -> None:
        """After a restart: the clocks of every game in play with a timer run again."""

        def read() -> list[str]:
            with read_connection(self.p.db) as conn:
                return repo.rooms_with_timers(conn)

        for code in await self.p.read(read):
            with contextlib.suppress(errors.PlatformError):
                room = await self.cache.get(code)
                self.arm(room)

    def stop(self) -> None:
        for handle in self._alarms.values():
            handle.cancel()
        self._alarms.clear()

    # --- play again -------------------------------------------------------------------------

    async def rematch(
        self, room: Room, caller: Caller, may_open: Callable[[], bool] | None = None
    ) -> tuple[str, int, str]:
        """A seat of a finished game asks to play again: (new room code, its seat index
        there, its token there). Its token there is derived from its token here
        (`tokens.rematch_token`): the same for each device of its person, so that no
        ask takes the seat from another device. The first ask opens the room when
        `may_open()` allows (the asker's rooms per hour).

        :raises PlatformError: 401 spectator, 409 `not_finished`, 429 `rate_limited`.
        """
        seat = caller.seat
        if seat is None or caller.token is None:
            raise errors.bad_token()
        if self._status(room) != "finished":
            raise errors.PlatformError(409, "not_finished", "the game is not over yet")
        mine = tokens.rematch_token(caller.token)

        def read() -> Any:
            with read_connection(self.p.db) as conn:
                return repo.room_by_code(conn, code=room.code)

        row = await self.p.read(read)
        if row.rematch is None:
            if may_open is not None and not may_open():
                raise errors.rooms_quota_spent()
            code, index = await self._open_rematch(room, seat, mine)
            token = mine

            def record() -> str:
                with write_transaction(self.p.db) as conn:
                    return repo.set_rematch(conn, room_id=room.room_id, code=code)

            winner = await self.p.write(record)
            if winner == code:
                room.rematch = code
                self.fanout.push_room(
                    room, "finished", room.options, room.live.version if room.live else None
                )
                self.p.publish(room.code, {"t": "seats"})
                self.p.tell(room, "rematch", {"code": code, "by": seat.index})
                return code, index, token
            row = await self.p.read(read)  # another seat's ask won the race: join theirs
        target = await self.cache.get(row.rematch)
        again = await self._seat_again(target, seat.name, mine)
        if again is not None:  # this seat asked before (another browser): the same seat
            return target.code, again, mine
        index, token = await self.lobby.join(target, seat.name, mine)
        return target.code, index, token

    async def _open_rematch(self, room: Room, asker: SeatInfo, token: str) -> tuple[str, int]:
        """The rematch room with the seats in their places: (its code, the asker's index).
        A person's seat other than the asker's gets a token no one holds: their own ask
        (`_seat_again`, by name) gives it theirs. A seat whose person left the game is a
        bot's, at the level that played it, under a bot's name: no seat after it moves
        (a seat's place is its colour and shape)."""
        seats = list(room.seats)
        game_id, options = room.game.id, dict(room.options)
        names = {s.name for s in seats if s.left is None}

        def bot_name(index: int) -> str:
            name, n = f"Bot {index + 1}", index + 1
            while name in names:
                n += 1
                name = f"Bot {n}"
            names.add(name)
            return name

        def tx() -> str:
            code = tokens.new_room_code()
            with write_transaction(self.p.db) as conn:
                room_id = repo.insert_room(conn, code=code, game=game_id, options=options)
                for index, s in enumerate(seats):
                    left = s.left is not None
                    person = not left and (not s.bot or s.replaced)
                    held = token if s.id == asker.id else tokens.new_seat_token()
                    repo.insert_seat(
                        conn,
                        room_id=room_id,
                        index=index,
                        name=bot_name(index) if left else s.name,
                        token_hash=tokens.hash_token(held) if person else None,
                        is_bot=not person,
                        is_host=s.id == asker.id,
                        bot_level=None if person else s.level or "normal",
                    )
            return code

        code = await self.p.write(tx)
        return code, next(i for i, s in enumerate(seats) if s.id == asker.id)

    async def _seat_again(self, target: Room, name: str, token: str) -> int | None:
        """The index of the rematch seat this person took before (names are unique in a
        room, and the asker is authenticated as the old room's seat of that name); its
        token set to `token` if it had another (a seat taken before tokens were derived,
        or a person's who joined the new room by its link), left alone if not."""

        def tx() -> int | None:
            token_hash = tokens.hash_token(token)
            with write_transaction(self.p.db) as conn:
                for row in repo.seats_of(conn, room_id=target.room_id):
                    if row.name == name and row.token_hash is not None:
                        if row.token_hash != token_hash:
                            repo.set_seat_token(conn, seat_id=row.id, token_hash=token_hash)
                        return int(row.index)
            return None

        found = await self.p.write(tx)
        target.auth.clear()
        return found
