"""The bot runner in-process (`app/rooms/bots.py`): the game decides, once, in a worker
thread, outside any write transaction; the move goes through the ordinary command path."""

from __future__ import annotations

import asyncio
import threading
from typing import Any

import pytest

from app.rooms.service import RoomService
from tests.games.toy import GAME as TOY
from tests.rooms.test_commands import add, toy_room


async def wait_version(service: RoomService, caller: Any, version: int) -> list[Any]:
    """The log once it reaches `version` (bounded wait on the condition)."""
    async with asyncio.timeout(10):
        while True:
            log = await service.log_entries(caller, 0, 100)
            if log and log[-1]["version"] >= version:
                return log
            await asyncio.sleep(0.01)


def test_a_bot_answers_through_the_command_path(
    run_service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []
    moves: list[Any] = []
    decide = TOY.bot_move

    def watched(state: Any, bot_seats: frozenset[int], salt: int) -> Any:
        threads.append(threading.current_thread().name)
        move = decide(state, bot_seats, salt)
        if move is not None:
            moves.append(move)
        return move

    monkeypatch.setattr(TOY, "bot_move", watched)

    async def body(service: RoomService) -> None:
        code, (ann,) = await toy_room(service, humans=1, bots=1)
        await service.command(ann, "c-1", add(1))
        log = await wait_version(service, ann, 2)
        assert [(e["version"], e["seat"]) for e in log[:2]] == [(1, 0), (2, 1)]
        # The bot left the count on a multiple of four (its policy), not Ann's turn skipped.
        assert sum(e["n"] for e in log[1]["events"] if e["type"] == "added") == 3
        room = await service.cache.get(code)
        assert room.live is not None and ("bot-2" in {cid for _s, cid in room.live.recent})
        # Decided off the event loop's thread, and once per move played (a look that
        # finds nothing to do may come more than once: it costs no move).
        assert threads and threading.main_thread().name not in threads
        await service.commands.drain()
        bot_entries = [e for e in await service.log_entries(ann, 0, 100) if e["seat"] == 1]
        assert len(moves) == len(bot_entries) == 1

    run_service(body)


def test_a_game_without_bots_never_asks_one(
    run_service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls: list[int] = []
    monkeypatch.setattr(TOY, "bot_move", lambda *a: calls.append(1))

    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        await service.command(ann, "c-1", add(1))
        await service.commands.drain()
        await asyncio.sleep(0.05)
        assert calls == []

    run_service(body)
