"""The command path: where a command is checked, applied, logged and acknowledged.

One direction, under the room's lock:

1. the live game (`app.rooms.loading`), loaded or caught up if needed;
2. idempotency: a (seat, command id) among the last commands is looked up in the log
   and its first answer returned; `expected_version` compared;
3. `game.apply` on the live state (a refusal raises and changes nothing);
4. the log record handed to the store's writer, which commits it in a group with
   other rooms' commands and says `COMMITTED`, `CONFLICT` or `DUPLICATE`;
5. committed: the caller's result is returned at once (the acknowledgement); the
   views of the new version are built and pushed after, by a task that holds the
   room's lock until they are out, so versions reach sockets in order and the next
   command of the room waits for them, never the acknowledgement.

Nothing is acknowledged before it is committed. If the commit did not happen after
`apply` changed the live state (a conflict with another process, a database error),
the copy is dropped and the next use loads it again from the store; after a conflict
the command is tried again on the fresh copy.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any

from app.games.base import RuleError
from app.rooms import errors, loading, takeback
from app.rooms.context import Platform
from app.rooms.fanout import Fanout
from app.rooms.model import CommandResult, LiveGame, Messages, Room
from app.rooms.views import viewers
from app.store import repo
from app.store.db import read_connection
from app.store.writer import Appended, LogRecord

log = logging.getLogger(__name__)

SNAPSHOT_EVERY = 20  # the snapshot is written every N versions and at the end
ATTEMPTS = 3  # conflicts with other processes before giving up (409 stale_version)


class CommandPath:
    def __init__(
        self,
        platform: Platform,
        fanout: Fanout,
        after: Callable[[Room], None],
        on_done: Callable[[str, float, str | None], None] | None = None,
    ) -> None:
        """`after(room)` runs once a new version is out (the bot runner's wake-up);
        `on_done(game id, seconds, error code or None)` measures each command."""
        self.p = platform
        self.fanout = fanout
        self.after = after
        self.on_done = on_done
        self._pending = 0  # versions whose push is scheduled and not done
        self._idle = asyncio.Event()  # set when none is
        self._idle.set()

    # --- the live game ------------------------------------------------------------------

    async def live(self, room: Room) -> LiveGame:
        """The room's game in memory (loaded if needed); call under the room lock.

        :raises PlatformError: 409 `not_started`.
        """
        if room.live is not None:
            return room.live
        return await self.catch_up(room)

    async def catch_up(self, room: Room) -> LiveGame:
        """The live game brought to the stored version, the room's sockets given every
        version they missed; call under the room lock.

        :raises PlatformError: 409 `not_started`.
        """
        wanted = viewers(self.p.hub, room)
        out: list[Messages] = []

        def read() -> LiveGame | None:
            with read_connection(self.p.db) as conn:
                head = repo.game_of_room(conn, room_id=room.room_id)
                if head is None:
                    return None
                return loading.sync(conn, room, head.id, head.version, wanted, out)

        try:
            live = await self.p.read(read)
        finally:
            self.fanout.flush(room, out)
        if live is None:
            raise errors.PlatformError(409, "not_started", "the game has not started yet")
        return live

    async def _logged(self, live: LiveGame, room: Room, seat: int, command_id: str) -> Any:
        """The sender's first answer to `command_id`, if it was accepted before."""
        found, _version = await self._lookup(live, room, seat, command_id)
        return found

    async def _lookup(
        self, live: LiveGame, room: Room, seat: int, command_id: str
    ) -> tuple[CommandResult | None, int | None]:
        """(the first answer to `command_id` if it was logged, the stored version)."""

        def read() -> tuple[Any, Any]:
            with read_connection(self.p.db) as conn:
                row = repo.event_by_command(
                    conn, game_id=live.game_id, seat=seat, command_id=command_id
                )
                return row, repo.game_version(conn, game_id=live.game_id)

        row, head = await self.p.read(read)
        version = None if head is None else head.version
        if row is None:
            return None, version
        events = room.game.events_for(row.events, seat)
        return CommandResult(row.version, events, duplicate=True), version

    async def _attempt(
        self, room: Room, seat: int, command_id: str, expected_version: int | None
    ) -> tuple[LiveGame, CommandResult | None]:
        """The game one attempt works on, and the first answer of a command id already
        logged (then nothing is to be done).

        :raises PlatformError: 409 `stale_version` (`expected_version` is not the game's).
        """
        live = await self.live(room)
        if (seat, command_id) in live.recent:
            dup = await self._logged(live, room, seat, command_id)
            if dup is not None:
                return live, dup
        if expected_version is not None and expected_version != live.version:
            if expected_version > live.version:
                live = await self.catch_up(room)  # another process moved it
            if expected_version != live.version:
                dup = await self._logged(live, room, seat, command_id)
                if dup is not None:
                    return live, dup
                raise errors.stale_version(expected_version, live.version)
        return live, None

    async def _not_appended(
        self, room: Room, live: LiveGame, outcome: Appended, seat: int, command_id: str
    ) -> CommandResult | None:
        """Not in the log, yet the copy in memory may have changed: load it again. A
        command id logged before is answered with its first outcome (returned); a
        conflict is tried once more on the fresh state (None)."""
        room.live = None
        if outcome is Appended.DUPLICATE:
            return await self._logged(live, room, seat, command_id)
        return None

    # --- one command ----------------------------------------------------------------------

    async def run(
        self,
        room: Room,
        seat: int,
        command_id: str,
        command: Any,
        expected_version: int | None = None,
    ) -> CommandResult:
        """Apply, log and acknowledge one command of `seat` (see the module docstring).

        :raises PlatformError: 400 the rules refuse it (nothing changed), 409
            `not_started` / `stale_version`, 503 `unavailable`.
        """
        loop = asyncio.get_running_loop()
        started = loop.time()
        code: str | None = None
        try:
            return await self._run(room, seat, command_id, command, expected_version)
        except errors.PlatformError as error:
            code = error.code
            raise
        finally:
            if self.on_done is not None:
                self.on_done(room.game.id, loop.time() - started, code)

    async def _run(
        self,
        room: Room,
        seat: int,
        command_id: str,
        command: Any,
        expected_version: int | None,
    ) -> CommandResult:
        game = room.game
        await room.lock.acquire()
        handed_over = False
        try:
            for _attempt in range(ATTEMPTS):
                live, dup = await self._attempt(room, seat, command_id, expected_version)
                if dup is not None:
                    return dup
                keep = takeback.allowed(room.options, seat, live.bot_seats)
                try:
                    events, point = takeback.apply(
                        game, live.state, seat, command, keep, live.takebacks, live.version
                    )
                except RuleError as error:
                    # A retry of a command accepted earlier (no longer among the recent
                    # ids) may be refused by the state it made: its first answer stands.
                    # A copy another process has moved past is caught up and asked again.
                    dup, stored = await self._lookup(live, room, seat, command_id)
                    if dup is not None:
                        return dup
                    if stored is not None and stored != live.version:
                        await self.catch_up(room)
                        continue
                    raise errors.refused(error) from error
                outcome = await self._commit(room, live, seat, command_id, command, events)
                if outcome is Appended.COMMITTED:
                    live.advance(live.version + 1, seat, command_id)
                    takeback.pushed(live.takebacks, point, live.version)
                    result = CommandResult(
                        live.version,
                        game.events_for(events, seat),
                        finished=game.is_over(live.state),
                    )
                    self._publish(room, live, events)
                    handed_over = True
                    return result
                dup = await self._not_appended(room, live, outcome, seat, command_id)
                if dup is not None:
                    return dup
            raise _kept_changing()
        finally:
            if not handed_over:
                room.lock.release()

    async def take_back(
        self,
        room: Room,
        seat: int,
        command_id: str,
        expected_version: int | None = None,
    ) -> CommandResult:
        """Take back `seat`'s last command (app.rooms.takeback): a log row of its own,
        the state returned to what it was before that command, pushed like a command.

        :raises PlatformError: 409 `not_undoable` (nothing to take back for this seat, or
            the room does not allow it), `not_started`, `stale_version`; 503.
        """
        game = room.game
        await room.lock.acquire()
        handed_over = False
        try:
            for _attempt in range(ATTEMPTS):
                live, dup = await self._attempt(room, seat, command_id, expected_version)
                if dup is not None:
                    return dup
                if not live.can_undo(seat, room.options):
                    dup = await self._logged(live, room, seat, command_id)
                    if dup is not None:
                        return dup
                    raise errors.PlatformError(
                        409,
                        "not_undoable",
                        "nothing to take back: your last command revealed something, "
                        "another seat has played since, or this room plays without take-backs",
                    )
                point = live.takebacks[-1]
                state = takeback.restore(game, live.takebacks)
                events = takeback.events(seat, point.version)
                outcome = await self._commit(
                    room,
                    live,
                    seat,
                    command_id,
                    None,
                    events,
                    wire=takeback.command(point.version),
                    state=state,
                )
                if outcome is Appended.COMMITTED:
                    live.takebacks.pop()
                    live.state = state
                    live.advance(live.version + 1, seat, command_id)
                    result = CommandResult(live.version, game.events_for(events, seat))
                    self._publish(room, live, events)
                    handed_over = True
                    return result
                dup = await self._not_appended(room, live, outcome, seat, command_id)
                if dup is not None:
                    return dup
            raise _kept_changing()
        finally:
            if not handed_over:
                room.lock.release()

    async def _commit(
        self,
        room: Room,
        live: LiveGame,
        seat: int,
        command_id: str,
        command: Any,
        events: list[dict[str, Any]],
        *,
        wire: dict[str, Any] | None = None,
        state: Any = None,
    ) -> Appended:
        """Log the command (or, given `wire` and `state`, a take-back: its log form and
        the state it returns to, always kept as the snapshot)."""
        game = room.game
        after = live.state if state is None else state
        over = game.is_over(after)
        version = live.version + 1
        try:
            record = LogRecord(
                game_id=live.game_id,
                room_id=room.room_id,
                old_version=live.version,
                seat=seat,
                command_id=command_id,
                command=game.command_json(command) if wire is None else wire,
                events=events,
                status="finished" if over else "playing",
                snapshot=game.to_dict(after)
                if over or version % SNAPSHOT_EVERY == 0 or wire is not None
                else None,
            )
            with errors.translated():
                return await self.p.writer.append(record)
        except BaseException:
            room.live = None  # ahead of the store, or unknown: reload on next use
            raise

    def _publish(self, room: Room, live: LiveGame, events: list[dict[str, Any]]) -> None:
        """Push the new version (a callback that releases the room's lock when done), run
        two turns of the event loop later: the sender's ack, queued on its socket when
        `run` returns, is written (its socket's writer wakes one turn later) before this
        version's views are built. A plain callback, not a task: pushing never waits."""
        loop = asyncio.get_running_loop()
        self._pending += 1
        self._idle.clear()
        loop.call_soon(loop.call_soon, self._push, room, live, events)

    def _push(self, room: Room, live: LiveGame, events: list[dict[str, Any]]) -> None:
        try:
            try:
                self.fanout.version(room, live, events)
            except Exception:
                log.exception("room %s: pushing version %d failed", room.code, live.version)
            finally:
                room.lock.release()
            self.p.publish(room.code, {"t": "v", "v": live.version})
            self.after(room)
            self.p.tell(room, "version", events)
        finally:
            self._pending -= 1
            if not self._pending:
                self._idle.set()

    async def drain(self) -> None:
        """Wait for the views being pushed (shutdown, tests)."""
        if self._pending:
            await self._idle.wait()


def _kept_changing() -> errors.PlatformError:
    return errors.PlatformError(
        409, "stale_version", "other commands kept changing the game first; resend"
    )
