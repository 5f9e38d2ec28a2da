"""Which notices a room's facts make (app/notices/service.py), in-process on a real rooms
service: the game waits for you, the game is over, a rematch opens, you ran out of time,
a quarter of the turn is left; and none for a seat whose page is open and visible."""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

from app.config import Settings
from app.notices import targets
from app.notices.sender import Item
from app.notices.service import Notices, Subscription
from app.rooms.service import Caller, RoomService
from tests.rooms.conftest import socket
from tests.rooms.test_commands import add, toy_room

URL = "json://127.0.0.1:9/hook/secret"


class Caught:
    """The notices' queue, read by the test instead of sent."""

    def __init__(self, notices: Notices) -> None:
        self.items: list[Item] = []
        self.more = asyncio.Event()
        notices.sender.put = self.put  # type: ignore[method-assign]

    def put(self, item: Item) -> None:
        self.items.append(item)
        self.more.set()

    async def wait(self, count: int, timeout: float = 10.0) -> list[tuple[int, str]]:
        """Wait (on an event, bounded) for `count` items; (seat, kind) of each."""
        async with asyncio.timeout(timeout):
            while len(self.items) < count:
                self.more.clear()
                await self.more.wait()
        return [(i.seat, i.fact.kind) for i in self.items]


def notices_for(service: RoomService, tmp_path: Path) -> tuple[Notices, Caught]:
    settings = Settings(
        database_url=service.p.settings.database_url, data_dir=tmp_path,
        notice_kinds=["web_push", "json"], notice_private_addresses=True,
    )  # fmt: skip
    notices = Notices(service, settings)
    return notices, Caught(notices)


async def subscribe(notices: Notices, *callers: Caller) -> None:
    """The callers' devices subscribed once the facts so far are queued: a fact read the
    targets on its own task, so a game's first turn could otherwise find them."""
    await notices.settled()
    for caller in callers:
        await notices.subscribe(caller, Subscription(url=URL, origin="http://x/"))


def test_turn_over_and_rematch(run_service: Any, tmp_path: Path) -> None:
    async def body(service: RoomService) -> None:
        notices, caught = notices_for(service, tmp_path)
        code, (ann, bo) = await toy_room(service)
        await subscribe(notices, ann, bo)
        await service.command(ann, "a1", add(3))
        assert await caught.wait(1) == [(1, "turn")]  # Bo's turn, Bo hears of it
        await service.command(bo, "b1", add(3))
        await service.command(ann, "a2", add(3))
        await service.command(bo, "b2", add(3))  # 12: Bo wins
        found = await caught.wait(5)
        assert found[1:3] == [(0, "turn"), (1, "turn")]
        assert sorted(found[3:]) == [(0, "over"), (1, "over")]
        new_code, _index, _token = await service.rematch(ann)
        assert (await caught.wait(6))[5] == (1, "rematch")  # Bo, not Ann who opened it
        assert caught.items[5].fact.code == new_code and new_code != code
        assert all(i.fact.game == "Race to N" for i in caught.items)

    run_service(body)


def test_a_rooms_facts_are_queued_in_the_order_they_happened(
    run_service: Any, tmp_path: Path, monkeypatch: Any
) -> None:
    """The first fact's database read ends after the second's: its notice still goes first
    (a "your turn" never comes after the "game over" that followed it)."""
    real = targets.of_seats
    armed: list[int] = []
    second_read = threading.Event()

    def of_seats(conn: Any, **kw: Any) -> Any:
        if armed:
            armed.append(1)
            if len(armed) == 2:  # the first read of the test: wait for the second's
                second_read.wait(5)
            else:
                second_read.set()
        return real(conn, **kw)

    monkeypatch.setattr(targets, "of_seats", of_seats)

    async def body(service: RoomService) -> None:
        notices, caught = notices_for(service, tmp_path)
        code, (ann, bo) = await toy_room(service)
        await subscribe(notices, ann, bo)
        armed.append(0)
        await service.command(ann, "a1", add(3))  # Bo's turn
        await service.command(bo, "b1", add(3))  # Ann's turn
        assert await caught.wait(2) == [(1, "turn"), (0, "turn")]
        assert second_read.is_set()  # the reads did end out of order

    run_service(body)


def test_no_fact_for_a_seat_whose_page_is_visible(run_service: Any, tmp_path: Path) -> None:
    async def body(service: RoomService) -> None:
        notices, caught = notices_for(service, tmp_path)
        code, (ann, bo) = await toy_room(service)
        await subscribe(notices, ann, bo)
        conn, _fake = socket(code, bo.seat.id if bo.seat else None)
        await service.connect(conn)
        await service.command(ann, "a1", add(1))  # Bo sees it on the page
        await service.command(bo, "b1", add(1))  # Ann's turn: Ann's page is closed
        assert await caught.wait(1) == [(0, "turn")]
        conn.visible = False  # Bo's tab goes to the back (the socket's visibility message)
        await service.command(ann, "a2", add(1))
        assert await caught.wait(2) == [(0, "turn"), (1, "turn")]

    run_service(body)


def test_a_reminder_then_out_of_time(run_service: Any, tmp_path: Path) -> None:
    async def body(service: RoomService) -> None:
        notices, caught = notices_for(service, tmp_path)
        code, (ann, bo) = await toy_room(service)
        await subscribe(notices, bo)
        await service.set_timer(ann, 2, 0)
        started = time.time()
        await service.command(ann, "a1", add(1))
        # Bo's turn; a quarter of it left (1.5 s in), then the end of it (2 s).
        assert await caught.wait(3) == [(1, "turn"), (1, "reminder"), (1, "timeout")]
        reminder = caught.items[1].fact
        assert reminder.at is not None  # the deadline it names: Bo's clock's end
        assert abs(reminder.at - (started + 2)) < 1.0
        assert caught.items[1].fact.code == code

    run_service(body, room_idle_seconds=60)


def test_a_seat_holds_at_most_ten_targets(run_service: Any, tmp_path: Path) -> None:
    async def body(service: RoomService) -> None:
        import pytest

        from app.rooms.errors import PlatformError

        notices, _caught = notices_for(service, tmp_path)
        _code, (ann, _bo) = await toy_room(service)
        for i in range(10):
            await notices.subscribe(ann, Subscription(url=f"{URL}{i}", origin="http://x/"))
        again = await notices.subscribe(ann, Subscription(url=f"{URL}0", origin="http://x/"))
        assert len(again) == 10  # the same device again replaces its row
        with pytest.raises(PlatformError) as full:
            await notices.subscribe(ann, Subscription(url=f"{URL}x", origin="http://x/"))
        assert (full.value.status, full.value.code) == (409, "too_many_notice_targets")
        assert URL not in full.value.message
        assert len(await notices.unsubscribe(ann, None)) == 0

    run_service(body)
