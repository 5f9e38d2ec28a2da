"""Slow games (issue 29): the presets of 12, 24 and 48 hours a turn with a reserve, the
same in the lobby's form as on the server, accepted by the timer, and a reminder set for
when a quarter of the turn is left."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path
from typing import Any

from app.rooms.clocks import SLOW_PRESETS
from app.rooms.service import RoomService
from tests.notices.test_facts import notices_for, subscribe
from tests.rooms.test_commands import add, toy_room
from tests.rooms.test_table import until

ROOT = Path(__file__).resolve().parents[2]


def test_the_lobby_offers_the_servers_presets() -> None:
    source = (ROOT / "static" / "js" / "table.js").read_text()
    found = re.search(r"const SLOW_PRESETS = \[(.*)\];", source)
    assert found is not None
    pairs = re.findall(r"\[(\d+) \* 3600, (\d+) \* 3600\]", found.group(1))
    assert tuple((int(a) * 3600, int(b) * 3600) for a, b in pairs) == SLOW_PRESETS
    assert [turn // 3600 for turn, _ in SLOW_PRESETS] == [12, 24, 48]


def test_a_preset_runs_the_clock_and_sets_the_reminder(run_service: Any, tmp_path: Path) -> None:
    async def body(service: RoomService) -> None:
        notices, _caught = notices_for(service, tmp_path)
        code, (ann, bo) = await toy_room(service)
        await subscribe(notices, bo)
        for turn, reserve in SLOW_PRESETS:
            info = await service.set_timer(ann, turn, reserve)
            assert (info["timer"]["turn_seconds"], info["timer"]["reserve_seconds"]) == (
                turn,
                reserve,
            )
        turn, reserve = SLOW_PRESETS[1]  # a turn a day, two days of reserve
        await service.set_timer(ann, turn, reserve)
        await service.command(ann, "a1", add(1))
        await service.commands.drain()

        async def bos_clock() -> Any:  # the clocks move on after the version (a task)
            deadlines = (await service.room_info(code))["timer"]["deadlines"]
            return [d["seat"] for d in deadlines] == [1]

        await until(bos_clock)
        # Bo's reminder rings when 18 of the 24 hours are gone.
        handle = notices._reminders[(code, 1)]
        left = handle.when() - asyncio.get_running_loop().time()
        assert abs(left - 0.75 * turn) < 5
        await service.command(bo, "b1", add(1))  # Bo played: no reminder for Bo any more
        await service.commands.drain()
        assert (code, 1) not in notices._reminders

    run_service(body)
