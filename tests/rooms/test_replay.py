"""The replay of a running game (`view?at=V`, app/rooms/history.py), in process on both
databases: each viewer gets, at every version, exactly the view it had then (take-backs in
the log included), never another seat's hidden cards; another seat's view is refused until
the game is over; a version outside 0..version is 400."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from app.games import registry
from app.rooms.errors import PlatformError
from app.rooms.model import Caller
from app.rooms.service import RoomService
from tests.rooms.test_take_back import seated, view

VOLATILE = ("can_undo", "replay")
SECRETS = ("business_cards", "quests", "black_market", "draft_hand")


def plain(v: dict[str, Any]) -> dict[str, Any]:
    return {k: x for k, x in v.items() if k not in VOLATILE}


def secrets(v: dict[str, Any]) -> set[str]:
    private = v.get("private") or {}
    return {card for key in SECRETS for card in private.get(key) or []}


async def at(service: RoomService, caller: Caller, version: int, seat: int | None = None) -> Any:
    return orjson.loads(await service.view_at(caller, version, seat))


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)  # the store: test_take_back
def test_a_running_games_replay_shows_each_viewer_only_its_own(run_service: Any) -> None:
    game = registry.get("karanor")
    assert game is not None

    async def body(service: RoomService) -> None:
        code, seats = await seated(service, "karanor", {"max_players": 2})
        spectator = await service.authenticate(code, None)
        stored: dict[int, list[dict[str, Any]]] = {}

        async def keep() -> None:
            views = [await view(service, c) for c in (*seats, spectator)]
            stored[views[0]["version"]] = views

        await keep()
        took_back = 0
        for step in range(40):
            acting = stored[max(stored)][0]["to_act"][0]
            legal = stored[max(stored)][acting]["legal_actions"]
            takeable = [a for a in legal if a["type"] in game.take_backs]
            await service.command(
                seats[acting], f"c-{step}", (takeable or legal)[step % 2 if takeable else 0]
            )
            await keep()
            if stored[max(stored)][acting]["can_undo"] and took_back < 2:
                await service.take_back(seats[acting], f"u-{step}")
                took_back += 1
                await keep()
        assert took_back == 2
        top = max(stored)
        for version, (ann, bo, watcher) in stored.items():
            mine = await at(service, seats[0], version)
            assert plain(mine) == plain(ann), version
            assert plain(await at(service, seats[1], version)) == plain(bo), version
            assert plain(await at(service, spectator, version)) == plain(watcher), version
            # Nothing of Bo's hand in Ann's replay; nothing private for a spectator.
            text = orjson.dumps(mine).decode()
            assert not any(f'"{card}"' in text for card in secrets(bo) - secrets(ann))
            assert (await at(service, spectator, version))["private"] is None
        # Another seat's view waits for the end of the game; versions out of range: 400.
        for caller, seat, code_ in ((seats[0], 1, "forbidden"), (spectator, 0, "forbidden")):
            with pytest.raises(PlatformError) as refused:
                await at(service, caller, top, seat)
            assert refused.value.code == code_
        for version in (-1, top + 1):
            with pytest.raises(PlatformError) as bad:
                await at(service, seats[0], version)
            assert (bad.value.status, bad.value.code) == (400, "bad_version")
        outline = await service.replay_outline(seats[0])
        assert outline["version"] == top and outline["finished"] is False
        assert outline["turns"][0]["version"] == 0

    run_service(body)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_finished_dark_road_game_replays_every_seat(run_service: Any) -> None:
    """A whole Dark Road game (two seats, each playing its bot's choice): at every version the
    replay gives each seat its view as it was; once over, any seat's view to anyone."""
    game = registry.get("darkroad")
    assert game is not None

    async def body(service: RoomService) -> None:
        code, seats = await seated(service, "darkroad", {"max_players": 2})
        spectator = await service.authenticate(code, None)
        stored: dict[int, list[dict[str, Any]]] = {}
        for step in range(3000):
            room = await service.cache.get(code)
            assert room.live is not None
            over = game.is_over(room.live.state)
            if step % 25 == 0 or over:  # the views of every 25th version, and the last
                views = [await view(service, c) for c in seats]
                stored[views[0]["version"]] = views
            if over:
                break
            move = game.bot_move(room.live.state, frozenset({0, 1}), step)
            assert move is not None
            await service.command(seats[move.seat], f"c-{step}", game.command_json(move.command))
        top = max(stored)
        assert stored[top][0]["status"] == "finished"
        for version in sorted(stored):
            for seat, seen in enumerate(stored[version]):
                assert plain(await at(service, seats[seat], version)) == plain(seen)
                # The game is over: a spectator may see any seat's view.
                assert plain(await at(service, spectator, version, seat)) == plain(seen)

    run_service(body, command_rate=10_000.0, command_burst=10_000)
