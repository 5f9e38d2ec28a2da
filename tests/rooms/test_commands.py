"""The command path in-process (`app/rooms/commands.py`): no server process, a real
database, fake sockets. Ack first, views after; refusals and failures change nothing;
idempotent ids; another process's commits caught up."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy.exc import OperationalError

from app.rooms.errors import PlatformError
from app.rooms.model import Caller
from app.rooms.service import RoomService
from tests.rooms.conftest import settle, socket


async def toy_room(
    service: RoomService, humans: int = 2, bots: int = 0, start: bool = True
) -> tuple[str, list[Caller]]:
    code, token = await service.create_room("Ann", {"target": 12}, "toy")
    tokens = [token]
    for i in range(1, humans):
        _index, more = await service.join(code, f"P{i}")
        tokens.append(more)
    host = await service.authenticate(code, token)
    for _ in range(bots):
        await service.add_bot(host, None)
    if start:
        await service.start(host, None)
    return code, [await service.authenticate(code, t) for t in tokens]


def add(n: int) -> dict[str, Any]:
    return {"type": "add", "n": n}


def test_the_ack_comes_before_the_views(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        conn, fake = socket(code, bo.seat.id if bo.seat else None)
        await service.connect(conn)
        await settle()
        assert [v["version"] for v in fake.views()] == [0]

        result = await service.command(ann, "c-1", add(2))
        # Acknowledged (committed) before any socket is sent the new version's view.
        assert (result.version, result.duplicate) == (1, False)
        assert [e["type"] for e in result.events] == ["added", "whisper"]  # Ann's own
        assert [v["version"] for v in fake.views()] == [0]

        await service.commands.drain()
        await settle()
        pushed = fake.views()[-1]
        assert pushed["version"] == 1 and pushed["view"]["board"]["count"] == 2
        # Bo's socket reads the public event, not Ann's whisper.
        assert [e["type"] for e in pushed["events"]] == ["added"]
        assert pushed["view"]["to_act"] == [1]

    run_service(body)


def test_a_refused_command_changes_nothing(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        before = await service.view_json(ann)
        with pytest.raises(PlatformError) as refused:
            await service.command(bo, "c-1", add(1))  # not Bo's turn
        assert (refused.value.status, refused.value.code) == (400, "illegal")
        with pytest.raises(PlatformError) as bad:
            await service.command(ann, "c-2", {"type": "add", "n": "x"})
        assert (bad.value.status, bad.value.code) == (400, "bad_command")
        assert await service.view_json(ann) == before
        assert await service.log_entries(ann, 0, 100) == []

    run_service(body)


def test_a_resent_id_gets_its_first_answer(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        first = await service.command(ann, "same", add(3))
        again = await service.command(ann, "same", add(1))
        assert (again.version, again.duplicate, again.events) == (1, True, first.events)
        assert len(await service.log_entries(ann, 0, 100)) == 1

    run_service(body)


def test_a_failed_commit_acknowledges_nothing_and_drops_the_copy(
    run_service: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        room = await service.cache.get(code)
        writer = service.p.writer

        async def broken(record: Any) -> Any:
            raise OperationalError("INSERT", {}, Exception("disk I/O error"))

        monkeypatch.setattr(writer, "append", broken)
        with pytest.raises(PlatformError) as failed:
            await service.command(ann, "c-1", add(2))
        assert (failed.value.status, failed.value.code) == (503, "unavailable")
        assert room.live is None  # `apply` had changed it: it is loaded again
        monkeypatch.undo()
        # Nothing was written: the same id is a new command, at version 1.
        result = await service.command(ann, "c-1", add(2))
        assert (result.version, result.duplicate) == (1, False)

    run_service(body)


def test_a_copy_behind_another_process_catches_up(
    run_service: Any, migrated_database_url: str
) -> None:
    from app.store.db import create_db_engine
    from tests.rooms.conftest import make_settings

    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        await service.view_json(ann)  # this process holds the game at version 0
        engine = create_db_engine(migrated_database_url)
        other = RoomService(engine, make_settings(migrated_database_url))
        try:
            ann_there = Caller(code, ann.seat)  # Ann's request reaching the other process
            assert (await other.command(ann_there, "c-1", add(1))).version == 1
        finally:
            await other.shutdown()
            engine.dispose()
        # Here the copy is at 0, where it is not Bo's turn: the refusal is checked
        # against the stored version, the copy caught up, the command accepted.
        result = await service.command(bo, "c-2", add(2))
        assert result.version == 2
        log = await service.log_entries(ann, 0, 100)
        assert [(e["version"], e["seat"]) for e in log] == [(1, 0), (2, 1)]

    run_service(body)


def test_a_socket_follows_its_seat_not_its_place(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, callers = await toy_room(service, humans=3, start=False)
        host, p1, p2 = callers
        assert p1.seat and p2.seat and host.seat
        conn1, fake1 = socket(code, p1.seat.id)
        conn2, fake2 = socket(code, p2.seat.id)
        await service.connect(conn1)
        await service.connect(conn2)
        await service.remove_seat(host, 1)
        await settle()
        assert fake1.close_code == 4403  # the removed seat's socket is closed
        await service.start(host, None)
        await settle()
        game_views = [m for m in fake2.views() if m["view"]["status"] != "lobby"]
        # P2 moved from place 2 to place 1: its socket gets seat 1's view, with its word.
        assert game_views[0]["view"]["seat"] == 1
        assert game_views[0]["view"]["private"] is not None
        assert not [m for m in fake1.views() if m["view"]["status"] != "lobby"]

    run_service(body)
