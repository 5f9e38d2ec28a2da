"""KARANOR_GAME_SEED (`Settings.game_seed`): every game the server starts takes that seed,
so the same seats and options make the same game; unset, each game has its own."""

from __future__ import annotations

from typing import Any

import orjson

from app.rooms.service import RoomService


async def first_view(service: RoomService) -> dict[str, Any]:
    """Seat 0's view of a new three-seat Karanor game, without what names the room."""
    code, token = await service.create_room("Ana", {}, "karanor")
    for name in ("Bo", "Cy"):
        await service.join(code, name)
    host = await service.authenticate(code, token)
    await service.start(host, None)
    view = orjson.loads(await service.view_json(host))
    view.pop("code", None)
    return dict(view)


def test_a_set_seed_makes_the_same_game(run_service: Any) -> None:
    seen: list[dict[str, Any]] = []

    async def body(service: RoomService) -> None:
        seen.extend([await first_view(service), await first_view(service)])

    run_service(body, game_seed=36)
    assert seen[0] == seen[1]


def test_without_a_seed_each_game_is_dealt_anew(run_service: Any) -> None:
    seen: list[dict[str, Any]] = []

    async def body(service: RoomService) -> None:
        seen.extend([await first_view(service), await first_view(service)])

    run_service(body)
    assert seen[0] != seen[1]
