"""What an idle room keeps in memory: a socket's first view (and the game's public part
built for it) is not cached with the room, and a room unused for a while drops the views cached for its version (they are built
again, the same, when needed)."""

from __future__ import annotations

from typing import Any

from app.rooms.service import RoomService
from tests.rooms.conftest import settle, socket
from tests.rooms.test_commands import add, toy_room


def test_a_sockets_first_view_is_not_kept_with_the_room(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        room = await service.cache.get(code)
        conns = []
        for caller in (ann, bo):
            conn, fake = socket(code, caller.seat.id if caller.seat else None)
            await service.connect(conn)
            conns.append(fake)
        await settle()
        assert [[v["version"] for v in f.views()] for f in conns] == [[0], [0]]
        # Nor the game's public part built for those views alone.
        assert room.live is not None and room.live.views == {} and room.live.public is None
        # A version pushed to the sockets is built once per viewer and kept for it.
        await service.command(ann, "c-1", add(1))
        await service.commands.drain()
        await settle()
        assert set(room.live.views) == {0, 1}
        assert [f.views()[-1]["version"] for f in conns] == [1, 1]

    run_service(body)


def test_a_room_unused_for_a_while_drops_its_cached_views(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, (ann, bo) = await toy_room(service)
        conn, fake = socket(code, bo.seat.id if bo.seat else None)
        await service.connect(conn)
        await service.command(ann, "c-1", add(2))
        await service.commands.drain()
        await settle()
        room = await service.cache.get(code)
        live = room.live
        assert live is not None and live.views and live.public is not None
        before = (await service.view_json(bo)).decode()

        cache = service.cache
        assert cache.trim(room.used + cache.idle_seconds / 4 - 0.01) == 0  # not yet
        assert cache.trim(room.used + cache.idle_seconds / 4) == 1
        assert live.views == {} and live.public is None and room.live is live
        # Built again, the same.
        assert (await service.view_json(bo)).decode() == before
        # The eviction pass trims too (the room itself stays: it has a socket).
        live.views[None] = b"{}"
        service.evict_idle(room.used + cache.idle_seconds)
        assert cache.cached(code) is room and live.views == {}

    run_service(body)
