"""The table around the game (`app/rooms/table.py`), in-process: a seat a bot plays while
its person is away, the turn timer, "Play again" (issue: a table friends finish a game at)."""

from __future__ import annotations

import asyncio
from typing import Any

import orjson
import pytest

from app.rooms.errors import PlatformError
from app.rooms.service import RoomService
from tests.rooms.conftest import settle, socket
from tests.rooms.test_commands import add, toy_room


async def until(check: Any, timeout: float = 10.0) -> Any:
    """Wait for `await check()` to be truthy (a condition, bounded)."""
    async with asyncio.timeout(timeout):
        while not (found := await check()):
            await asyncio.sleep(0.02)
    return found


def test_an_absent_seat_is_played_by_a_bot_until_its_person_returns(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2, bots=1)
        with pytest.raises(PlatformError) as not_host:
            await service.replace_with_bot(bo, 0)
        assert (not_host.value.status, not_host.value.code) == (403, "not_host")
        conn, fake = socket(code, bo.seat.id if bo.seat else None)
        await service.connect(conn)
        with pytest.raises(PlatformError) as present:
            await service.replace_with_bot(ann, 1)
        assert present.value.code == "seat_present"  # Bo is at the table
        await service.disconnect(conn)

        info = await service.replace_with_bot(ann, 1)
        assert info["seats"][1]["replaced"] and info["seats"][1]["bot"]
        await service.command(ann, "a-1", add(1))
        # Bo's turn: the bot plays it (and the real bot seat after it), then Ann's again.
        log = await until(lambda: _log_if(service, ann, lambda log: len(log) >= 3), timeout=10)
        assert [e["seat"] for e in log[:3]] == [0, 1, 2]
        # Bo comes back (a socket of theirs): the seat is theirs again.
        conn2, _fake2 = socket(code, bo.seat.id if bo.seat else None)
        await service.connect(conn2)
        info = await service.room_info(code)
        assert not info["seats"][1]["replaced"] and not info["seats"][1]["bot"]
        with pytest.raises(PlatformError) as given:
            await service.hand_back(ann, 1)
        assert given.value.code == "not_replaced"

    run_service(body)


async def _log_if(service: RoomService, caller: Any, ok: Any) -> Any:
    log = await service.log_entries(caller, 0, 100)
    return log if ok(log) else None


def test_a_seat_out_of_time_is_played_by_a_bot(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2)
        info = await service.set_timer(ann, 1, 0)
        assert info["timer"]["turn_seconds"] == 1
        assert [d["seat"] for d in info["timer"]["deadlines"]] == [0]  # Ann's clock runs
        await service.command(ann, "a-1", add(2))
        # Bo does nothing: one second later a bot plays Bo's seat.
        log = await until(lambda: _log_if(service, ann, lambda log: len(log) >= 2))
        assert log[1]["seat"] == 1
        info = await service.room_info(code)
        assert info["seats"][1]["replaced"]
        with pytest.raises(PlatformError):
            await service.set_timer(bo, 0, 0)  # only the host
        assert (await service.set_timer(ann, 0, 0))["timer"] is None

    run_service(body, room_idle_seconds=0.05)


def test_a_present_seat_out_of_time_gets_one_turn_played_and_keeps_its_seat(
    run_service: Any,
) -> None:
    """Issue 27: a person at the table (a socket open) who runs out of time has that one
    turn played by a bot ("standin" in the log and the view message); the seat stays
    theirs and their next turn has a fresh clock."""

    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2)
        conn, fake = socket(code, bo.seat.id if bo.seat else None)
        await service.connect(conn)
        await service.set_timer(ann, 1, 0)
        await service.command(ann, "a-1", add(2))
        log = await until(lambda: _log_if(service, ann, lambda log: len(log) >= 2))
        assert (log[1]["seat"], log[1]["by"]) == (1, "standin")
        assert log[0]["by"] is None  # Ann's own move
        info = await service.room_info(code)
        assert not info["seats"][1]["replaced"] and not info["seats"][1]["bot"]
        standin = await until(
            lambda: _first(fake.views(), lambda m: m.get("by") == "standin"), timeout=5
        )
        assert standin["seat"] == 1 and standin["version"] == 2
        # Ann's turn, then Bo's again with a clock of its own (Bo plays it himself).
        await service.set_timer(ann, 3600, 0)  # long turns from here: no race with a clock
        await service.command(ann, "a-2", add(1))

        async def bo_clock() -> bool:
            info = await service.room_info(code)
            return [d["seat"] for d in info["timer"]["deadlines"]] == [1]

        await until(bo_clock)
        await service.command(bo, "b-1", add(1))
        log = await service.log_entries(ann, 0, 100)
        assert [(e["seat"], e["by"]) for e in log] == [
            (0, None), (1, "standin"), (0, None), (1, None)
        ]  # fmt: skip

    run_service(body, room_idle_seconds=0.05)


async def _first(items: list[Any], ok: Any) -> Any:
    return next((i for i in items if ok(i)), None)


def test_timer_changes_reach_every_socket_at_once_and_the_host_pauses_the_clocks(
    run_service: Any,
) -> None:
    """A timer change (set, off, pause, resume) is a "room" message to the room's
    sockets at once, in the lobby and in the game; paused, no clock runs out."""

    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2, start=False)
        conn, fake = socket(code, bo.seat.id if bo.seat else None)
        await service.connect(conn)

        async def last_room() -> dict[str, Any] | None:
            await settle()
            rooms = [m["room"] for m in fake.sent if m["type"] == "room"]
            return rooms[-1] if rooms else None

        await service.set_timer(ann, 60, 0)  # in the lobby
        room = await last_room()
        assert room is not None and room["timer"]["turn_seconds"] == 60
        await service.start(ann, None)
        await service.set_timer(ann, 1, 0)
        info = await service.set_paused(ann, True)
        assert info["timer"]["paused"] is not None
        assert (await last_room() or {})["timer"]["paused"] is not None
        with pytest.raises(PlatformError) as not_host:
            await service.set_paused(bo, False)
        assert not_host.value.code == "not_host"
        assert not service.table.armed(code)  # paused: no alarm
        info = await service.set_paused(ann, False)
        assert info["timer"]["paused"] is None and service.table.armed(code)
        await service.set_timer(ann, 0, 0)  # off, in the game
        assert (await last_room() or {"timer": 1})["timer"] is None
        with pytest.raises(PlatformError) as none:
            await service.set_paused(ann, True)
        assert none.value.code == "no_timer"

    run_service(body)


def test_a_person_leaves_a_running_game_and_a_bot_plays_their_seat_to_the_end(
    run_service: Any,
) -> None:
    """Issue 27: resigning. The seat keeps its name, a bot plays it (not "replaced": no
    one returns), its token stops working, the version it left at is kept."""

    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2, start=False)
        with pytest.raises(PlatformError) as lobby:
            await service.leave(bo)
        assert lobby.value.code == "not_playing"
        await service.start(ann, None)
        await service.command(ann, "a-1", add(1))
        info = await service.leave(bo)
        seat = info["seats"][1]
        assert (seat["name"], seat["bot"], seat["replaced"], seat["left"]) == ("P1", True, False, 1)
        assert info["seats"][0]["left"] is None
        with pytest.raises(PlatformError) as gone:
            await service.authenticate(code, bo.token)
        assert gone.value.code == "bad_token"
        # The bot plays Bo's turn.
        log = await until(lambda: _log_if(service, ann, lambda log: len(log) >= 2))
        assert (log[1]["seat"], log[1]["by"]) == (1, "bot")

    run_service(body)


def test_the_timer_survives_a_restart(run_service: Any, migrated_database_url: str) -> None:
    from app.store.db import create_db_engine
    from tests.rooms.conftest import make_settings

    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2)
        await service.set_timer(ann, 3600, 60)
        await service.command(ann, "a-1", add(1))

        async def bo_clock_runs() -> bool:
            info = await service.room_info(code)
            return [d["seat"] for d in info["timer"]["deadlines"]] == [1]

        await until(bo_clock_runs)
        engine = create_db_engine(migrated_database_url)
        again = RoomService(engine, make_settings(migrated_database_url))
        try:
            await again.startup()  # a restarted server arms the clocks of timer rooms
            assert again.table.armed(code)
            info = await again.room_info(code)
            assert [d["seat"] for d in info["timer"]["deadlines"]] == [1]
            assert info["timer"]["reserve_seconds"] == 60
        finally:
            await again.shutdown()
            engine.dispose()

    run_service(body)


def test_play_again_opens_one_room_for_the_same_table(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2, bots=1)
        with pytest.raises(PlatformError) as early:
            await service.rematch(ann)
        assert early.value.code == "not_finished"
        # Play to the end (target 12): everyone adds 3 or less; the bot plays itself.
        for n in range(30):
            if (await service.room_info(code))["status"] == "finished":
                break
            view = orjson.loads(await service.view_json(ann))
            who = view["to_act"]
            if who == [0]:
                await service.command(ann, f"a-{n}", view["legal_actions"][0])
            elif who == [1]:
                bo_view = orjson.loads(await service.view_json(bo))
                await service.command(bo, f"b-{n}", bo_view["legal_actions"][0])
            else:
                await asyncio.sleep(0.02)
        assert (await service.room_info(code))["status"] == "finished"

        new_code, index, token = await service.rematch(bo)
        assert index == 1  # the first to ask hosts the new room, in the same place
        again_code, ann_index, ann_token = await service.rematch(ann)
        assert (again_code, ann_index) == (new_code, 0)  # her place was kept (issue 27)
        # Asked again from another browser: the same seat and token, not a new one.
        third_code, third_index, third_token = await service.rematch(ann)
        assert (third_code, third_index, third_token) == (new_code, 0, ann_token)
        assert (await service.room_info(code))["rematch"] == new_code
        new = await service.room_info(new_code)
        assert new["game"] == "toy" and new["options"] == {"target": 12, "take_backs": True}
        assert [(s["name"], s["bot"], s["host"]) for s in new["seats"]] == [
            ("Ann", False, False),
            ("P1", False, True),
            ("Bot 3", True, False),
        ]
        assert token

    run_service(body)


def test_play_again_after_a_person_left_keeps_every_seat_in_its_place(
    run_service: Any,
) -> None:
    """Bo leaves; a bot plays his seat to the end; Play again: his seat is a bot's, at
    the level that played it, so the bot after him keeps its place, colour and shape
    (dropping his seat moved it up one: docs/api.md promises every seat its place)."""

    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service, humans=2, bots=1)
        await service.leave(bo)
        for n in range(40):
            if (await service.room_info(code))["status"] == "finished":
                break
            view = orjson.loads(await service.view_json(ann))
            if view["to_act"] == [0]:
                await service.command(ann, f"a-{n}", view["legal_actions"][0])
            else:  # the bots' turns: until the game waits for Ann again or ends
                seen = view["version"]
                await until(lambda seen=seen: _waits_for_ann_or_ends(service, ann, seen))
        assert (await service.room_info(code))["status"] == "finished"
        new_code, index, _token = await service.rematch(ann)
        assert index == 0
        new = await service.room_info(new_code)
        assert [(s["index"], s["bot"], s["host"]) for s in new["seats"]] == [
            (0, False, True),
            (1, True, False),
            (2, True, False),
        ]
        names = [s["name"] for s in new["seats"]]
        assert names[0] == "Ann" and names[2] == "Bot 3" and names[1] not in ("P1", "Bot 3")
        assert new["seats"][1]["level"] == "normal"

    run_service(body)


async def _waits_for_ann_or_ends(service: RoomService, ann: Any, version: int) -> bool:
    view = orjson.loads(await service.view_json(ann))
    return bool(
        view["status"] == "finished" or (view["version"] > version and view["to_act"] == [0])
    )
