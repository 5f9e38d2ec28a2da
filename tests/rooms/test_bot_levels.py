"""Bot levels (issue 30): the host sets a bot seat's level in the lobby (and when a bot
takes over a seat); the level is part of the room, of its export and of the log (a
hard bot's commands are `bot-hard-N`); a hard bot decides in the process pool."""

from __future__ import annotations

import asyncio
import os
from types import SimpleNamespace
from typing import Any

import pytest

from app.rooms import loading
from app.rooms.bots import SEARCH_NICENESS
from app.rooms.errors import PlatformError
from app.rooms.model import seat_info
from app.rooms.service import RoomService
from app.store.db import read_connection


def test_a_seat_stored_without_a_level_reads_normal() -> None:
    row = SimpleNamespace(id=1, index=1, name="Bot", is_bot=True, is_host=False, token_hash=None)
    assert seat_info(row).level == "normal"  # a row from before the column
    row.bot_level = None
    assert seat_info(row).level == "normal"
    row.bot_level = "hard"
    assert seat_info(row).level == "hard"


def test_levels_in_the_lobby_a_hard_bot_in_the_pool_and_the_coach(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, token = await service.create_room("Ann", {"coach": True}, "karanor")
        host = await service.authenticate(code, token)
        assert await service.add_bot(host, None, "hard") == 1
        assert await service.add_bot(host, None) == 2
        info = await service.room_info(code)
        assert [s["level"] for s in info["seats"]] == ["normal", "hard", "normal"]
        info = await service.set_bot_level(host, 2, "easy")
        assert [s["level"] for s in info["seats"]] == ["normal", "hard", "easy"]
        with pytest.raises(PlatformError) as bad:
            await service.set_bot_level(host, 2, "grandmaster")
        assert (bad.value.status, bad.value.code) == (400, "bad_level")
        with pytest.raises(PlatformError) as person:
            await service.set_bot_level(host, 0, "hard")
        assert (person.value.status, person.value.code) == (409, "not_a_bot")

        await service.start(host, None)
        room = await service.cache.get(code)
        assert room.live is not None and room.live.bot_levels == {1: "hard", 2: "easy"}
        # The game replayed from its deal (a load whose seat's run began before the
        # snapshot) keeps the levels too (it played every bot at "normal").
        with read_connection(service.p.db) as conn:
            again = loading._from_the_deal(conn, room, room.live.game_id, room.live.version)
        assert again.bot_levels == {1: "hard", 2: "easy"}
        # The draft asks every seat at once: both bots pick, the hard one in the pool.
        async with asyncio.timeout(60):
            while not any(cid.startswith("bot-hard-") for _s, cid in room.live.recent):
                await asyncio.sleep(0.05)
        ids = {seat: cid for seat, cid in room.live.recent}
        assert ids[1].startswith("bot-hard-")
        assert service.bots.pool is not None
        # The pool's processes run below the server's priority: a search takes only the
        # CPU the rooms leave.
        niceness = await asyncio.wrap_future(service.bots.pool.submit(os.nice, 0))
        assert niceness == min(19, os.nice(0) + SEARCH_NICENESS)
        if hasattr(os, "SCHED_IDLE"):  # Linux: only when no ordinary task wants the core
            policy = await asyncio.wrap_future(service.bots.pool.submit(os.sched_getscheduler, 0))
            assert policy == os.SCHED_IDLE
        with pytest.raises(PlatformError) as started:
            await service.set_bot_level(host, 1, "easy")
        assert started.value.code == "room_started"

        # The coach (room option): its suggestion is one of the seat's legal actions, its
        # reason in the asked language. The draft asks Ann too.
        async with room.lock:
            legal = room.game.legal_actions(room.live.state, 0)
        advice = await service.coach(host, "fr")
        assert advice["action"] in legal and legal
        assert advice["reason"].startswith(("Selon ses plans", "À la fin de votre tour"))
        # A room without the option has no coach.
        other, token = await service.create_room("Bea", {}, "karanor")
        bea = await service.authenticate(other, token)
        await service.add_bot(bea, None)
        await service.start(bea, None)
        with pytest.raises(PlatformError) as refused:
            await service.coach(bea, "en")
        assert (refused.value.status, refused.value.code) == (409, "coach_off")

    run_service(body, bot_budget=0.2)
