"""The bot runner: where a bot decides, and when it plays.

The policy is the game's (`Game.bot_move`); the runner only schedules it. One task per
room while a bot may have something to do: it waits `Settings.bot_delay` (so people
can follow), asks the game for a move under the room's lock, in a worker thread (bot
thinking never blocks the event loop), then sends that move through the ordinary
command path like any seat, with `expected_version` so a move decided on an older
state is refused and decided again. With several processes, a Redis lock lets one
process play a room's bots.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time

from app.games.base import BotMove
from app.rooms.commands import CommandPath
from app.rooms.context import Platform
from app.rooms.errors import PlatformError
from app.rooms.model import Room

log = logging.getLogger(__name__)

MAX_FAILURES = 5


class BotRunner:
    def __init__(self, platform: Platform, commands: CommandPath) -> None:
        self.p = platform
        self.commands = commands
        self.lock_ttl = max(3.0, 2 * platform.settings.bot_delay + 2.0)

    def wake(self, room: Room) -> None:
        """Make sure one (never two) bot task runs for a room that seats bots."""
        room.bot_wake = True  # a running task looks again before it ends
        if self.p.closing or room.bot_task is not None and not room.bot_task.done():
            return
        live = room.live
        if live is not None and (not live.bot_seats or room.game.is_over(live.state)):
            return
        room.bot_task = asyncio.create_task(self._loop(room), name=f"bots-{room.code}")

    async def _loop(self, room: Room) -> None:
        while not self.p.closing:
            room.bot_wake = False
            try:
                await self._moves(room)
            finally:
                if self.p.bus is not None:
                    await self.p.bus.release_bot_lock(room.code)
            if not room.bot_wake:
                return

    async def decide(self, room: Room) -> tuple[BotMove, int] | None:
        """The next bot move and the version it was decided at, or None."""
        async with room.lock:
            live = await self.commands.live(room)
            if not live.bot_seats or room.game.is_over(live.state):
                return None
            # The state does not change while the lock is held; the game's bot reads it
            # in a worker thread so the event loop keeps serving other rooms.
            move = await asyncio.to_thread(
                room.game.bot_move, live.state, live.bot_seats, live.version
            )
            return (move, live.version) if move is not None else None

    async def _moves(self, room: Room) -> None:
        failures = 0
        while not self.p.closing:
            await asyncio.sleep(self.p.settings.bot_delay)
            if not await self._hold_lock(room):
                return
            try:
                room.bot_wake = False
                decided = await self.decide(room)
                if decided is None:
                    if room.bot_wake:
                        continue  # a new version came while deciding: look again
                    room.bot_idle = room.live.version if room.live else None
                    return
                move, version = decided
                await self.commands.run(
                    room, move.seat, f"bot-{version + 1}", move.command, expected_version=version
                )
            except PlatformError as error:
                if error.code == "stale_version":
                    continue  # a person moved first: decide again
                log.warning("bot in room %s refused: %r", room.code, error)
                failures += 1
            except Exception:
                log.exception("bot in room %s failed", room.code)
                failures += 1
                await asyncio.sleep(min(5.0, failures))
            else:
                failures = 0
            if failures >= MAX_FAILURES:
                return

    async def _hold_lock(self, room: Room) -> bool:
        """Several processes: take (or extend) the room's bot lock, waiting a little
        longer than its time-to-live so that a dead holder's lock expires first.
        False: another live process plays the bots. Redis down: True (the version
        check of every bot move keeps a second player harmless)."""
        bus = self.p.bus
        if bus is None:
            return True
        deadline = time.monotonic() + self.lock_ttl + 0.5
        while not self.p.closing:
            held = await bus.hold_bot_lock(room.code, self.lock_ttl)
            if held is None or held:
                return True
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.1)
        return False

    async def stop(self, rooms: list[Room]) -> None:
        tasks = [r.bot_task for r in rooms if r.bot_task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
