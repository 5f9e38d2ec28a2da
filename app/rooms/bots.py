"""The bot runner: where a bot decides, and when it plays.

The policy is the game's (`Game.bot_move`); the runner only schedules it. One task per
room while a bot may have something to do: it waits `Settings.bot_delay` (so people
can follow), asks the game for a move under the room's lock, in a worker thread (bot
thinking never blocks the event loop), then sends that move through the ordinary
command path like any seat, with `expected_version` so a move decided on an older
state is refused and decided again. With several processes, a Redis lock lets one
process play a room's bots.

A room with a hard (searching) bot decides in a process pool instead: its state is
copied under the lock (`to_dict`), the lock released, and the search runs in one of
`Settings.bot_workers` processes (a semaphore bounds the decisions waiting on them), so
a bot that thinks for a second holds neither the event loop, nor a core of this
process, nor the room. Its move is sent with the version it was decided at, like any.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import logging
import multiprocessing
import os
import time
from collections.abc import Mapping
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from app.games.base import BotMove, Game
from app.rooms.commands import CommandPath
from app.rooms.context import Platform
from app.rooms.errors import PlatformError
from app.rooms.model import Room

log = logging.getLogger(__name__)

MAX_FAILURES = 5


def takes_levels(game: Game) -> bool:
    """The game's `bot_move` knows levels (a game written before them does not)."""
    try:
        return "levels" in inspect.signature(game.bot_move).parameters
    except (TypeError, ValueError):
        return False


def decide_in_worker(
    game_id: str,
    snapshot: dict[str, Any],
    bot_seats: frozenset[int],
    salt: int,
    levels: Mapping[int, str],
    budget: float,
) -> tuple[int, dict[str, Any]] | None:
    """In a pool process: the game's bot move on the state `snapshot`, as (seat, command
    JSON). Deterministic in (snapshot, salt) like `bot_move` in the event loop's process."""
    from app.games import registry

    game = registry.get(game_id)
    if game is None:
        return None
    state = game.from_dict(snapshot)
    move = game.bot_move(state, bot_seats, salt, levels=levels, budget=budget)
    return None if move is None else (move.seat, game.command_json(move.command))


def coach_in_worker(
    game_id: str, snapshot: dict[str, Any], seat: int, lang: str, version: int, budget: float
) -> dict[str, Any] | None:
    """In a pool process: the game's coach on the state `snapshot`, with its version."""
    from app.games import registry

    game = registry.get(game_id)
    coach = getattr(game, "coach", None)
    if game is None or coach is None:
        return None
    out: dict[str, Any] | None = coach(game.from_dict(snapshot), seat, lang, budget)
    return None if out is None else {**out, "version": version}


SEARCH_NICENESS = 10  # how much lower a searching bot's process runs than the server


def lower_priority() -> None:
    """A search pool's process starts here: it runs below the server, so a searching bot
    takes only the CPU the rooms leave (issue 30). On Linux in the idle class
    (`SCHED_IDLE`: it runs only when no ordinary task wants the core; a niceness of 10
    still took a share of a busy core, +7.5 ms on the others' ack p99 in `bench.bots`),
    elsewhere `SEARCH_NICENESS` lower. Its decisions keep their time budget; on a busy
    server they search less within it."""
    with contextlib.suppress(OSError):
        os.nice(SEARCH_NICENESS)
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, idle, os.sched_param(0))


class BotRunner:
    def __init__(self, platform: Platform, commands: CommandPath) -> None:
        self.p = platform
        self.commands = commands
        self.lock_ttl = max(3.0, 2 * platform.settings.bot_delay + 2.0)
        self.pool: ProcessPoolExecutor | None = None
        self.thinking = asyncio.Semaphore(platform.settings.bot_workers)

    def _pool(self) -> ProcessPoolExecutor:
        if self.pool is None:
            # spawn: a fresh interpreter, not a fork of this one's threads and sockets
            self.pool = ProcessPoolExecutor(
                max_workers=self.p.settings.bot_workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=lower_priority,
            )
        return self.pool

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

    async def coach(self, room: Room, seat: int, lang: str) -> dict[str, Any] | None:
        """The game's coach for `seat` (its hard bot's advice), searched in the pool on a
        copy of the state taken under the room's lock. None: the game has no coach."""
        game = room.game
        if getattr(game, "coach", None) is None:
            return None
        async with room.lock:
            live = await self.commands.live(room)
            job = (game.id, game.to_dict(live.state), seat, lang, live.version)
        async with self.thinking:
            loop = asyncio.get_running_loop()
            out: dict[str, Any] | None = await loop.run_in_executor(
                self._pool(), coach_in_worker, *job, self.p.settings.bot_budget
            )
        return out

    async def decide(self, room: Room) -> tuple[BotMove, int] | None:
        """The next bot move and the version it was decided at, or None."""
        game = room.game
        async with room.lock:
            live = await self.commands.live(room)
            if not live.bot_seats or game.is_over(live.state):
                return None
            version, levels = live.version, dict(live.bot_levels)
            leveled = bool(levels) and takes_levels(game)
            if not leveled or "hard" not in levels.values():
                # The state does not change while the lock is held; the game's bot reads
                # it in a worker thread so the event loop keeps serving other rooms.
                if leveled:
                    move = await asyncio.to_thread(
                        game.bot_move, live.state, live.bot_seats, version, levels
                    )
                else:
                    move = await asyncio.to_thread(
                        game.bot_move, live.state, live.bot_seats, version
                    )
                return (move, version) if move is not None else None
            job = (game.id, game.to_dict(live.state), live.bot_seats, version, levels)
        async with self.thinking:
            loop = asyncio.get_running_loop()
            out = await loop.run_in_executor(
                self._pool(), decide_in_worker, *job, self.p.settings.bot_budget
            )
        if out is None:
            return None
        seat, command = out
        return BotMove(seat, game.parse_command(command)), version

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
                # The log names the level of a bot that is not "normal": bot-hard-12.
                level = room.live.bot_levels.get(move.seat) if room.live else None
                command_id = f"bot-{level}-{version + 1}" if level else f"bot-{version + 1}"
                await self.commands.run(
                    room, move.seat, command_id, move.command, expected_version=version
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
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)
            self.pool = None
