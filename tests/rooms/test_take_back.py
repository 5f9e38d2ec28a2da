"""Take-backs through the platform (`POST /api/rooms/{code}/undo`, app/rooms/takeback.py), in
process on both databases, for each game: a command that revealed nothing is taken back
(a log row of its own), every seat's view is again the one before it, `can_undo` says so
exactly when the server accepts; a revealing command, another seat's, a room without
take-backs: 409 `not_undoable`, nothing changed. The game loaded again from the store (and
replayed from its whole log) is the live one."""

from __future__ import annotations

from typing import Any

import orjson
import pytest

from app.games import registry
from app.rooms.errors import PlatformError
from app.rooms.model import Caller
from app.rooms.replay import replay_room
from app.rooms.service import RoomService

# What a take-back may not give back as it was: the version and the Undo offer.
VOLATILE = ("version", "can_undo")


async def seated(
    service: RoomService, game: str, options: dict[str, Any]
) -> tuple[str, list[Caller]]:
    code, token = await service.create_room("Ann", options, game)
    _i, more = await service.join(code, "Bo")
    host = await service.authenticate(code, token)
    await service.start(host, None)
    return code, [await service.authenticate(code, t) for t in (token, more)]


async def view(service: RoomService, caller: Caller) -> dict[str, Any]:
    out: dict[str, Any] = orjson.loads(await service.view_json(caller))
    return out


def same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return {k: v for k, v in a.items() if k not in VOLATILE} == {
        k: v for k, v in b.items() if k not in VOLATILE
    }


async def refused(service: RoomService, caller: Caller) -> str:
    with pytest.raises(PlatformError) as error:
        await service.take_back(caller, f"undo-{id(error)}")
    return f"{error.value.status} {error.value.code}"


@pytest.mark.parametrize(
    ("database_url", "game_id"),
    [("sqlite", "karanor"), ("sqlite", "darkroad"), ("postgresql", "karanor")],
    indirect=["database_url"],
)
def test_take_back_restores_every_view(run_service: Any, game_id: str) -> None:
    game = registry.get(game_id)
    assert game is not None

    async def body(service: RoomService) -> None:
        code, seats = await seated(service, game_id, {"max_players": 2})
        undone = 0
        refusals = 0
        for step in range(300):
            views = [await view(service, s) for s in seats]
            acting = views[0]["to_act"][0]
            me = seats[acting]
            legal = views[acting]["legal_actions"]
            # Prefer a kind that may be taken back, now and then end the turn.
            takeable = [a for a in legal if a["type"] in game.take_backs]
            choice = takeable[step % len(takeable)] if takeable and step % 4 else legal[0]
            await service.command(me, f"c-{step}", choice)
            after = [await view(service, s) for s in seats]
            other = seats[1 - acting]
            # Only the seat that acted is offered Undo, and only when the server accepts.
            assert after[1 - acting]["can_undo"] is False
            assert await refused(service, other) == "409 not_undoable"
            if after[acting]["can_undo"]:
                result = await service.take_back(me, f"undo-{step}")
                assert result.version == after[0]["version"] + 1
                assert result.events == [
                    {"type": "take_back", "seat": acting, "version": after[0]["version"]}
                ]
                back = [await view(service, s) for s in seats]
                assert all(same(b, v) for b, v in zip(back, views, strict=True))
                undone += 1
                # The command again (the game goes on); it may be taken back again later.
                await service.command(me, f"c-{step}-again", choice)
            else:
                assert await refused(service, me) == "409 not_undoable"
                refusals += 1
            if undone >= 4 and refusals >= 2:
                break
        assert undone >= 4 and refusals >= 2

        # The log holds the take-backs; a cold load and a whole replay agree with it.
        entries = await service.log_entries(seats[0], 0, 5000)
        assert sum(e["events"][0]["type"] == "take_back" for e in entries) == undone
        live = await view(service, seats[0])
        service.forget(code)
        assert await view(service, seats[0]) == live
        replayed, loaded = replay_room(service.p.db, code)
        assert replayed == loaded

    run_service(body)


@pytest.mark.parametrize(
    ("database_url", "game_id"),
    [("sqlite", "karanor"), ("sqlite", "darkroad")],
    indirect=["database_url"],
)
def test_a_run_of_commands_is_taken_back_one_by_one(run_service: Any, game_id: str) -> None:
    """A seat's run of commands that revealed nothing keeps one copy, the state before the
    first (the others are replayed from it: `takeback.restore`); taking the run back
    command by command gives every seat, each time, the views it had before that command,
    also once the game is loaded again from the store in the middle of it."""
    game = registry.get(game_id)
    assert game is not None

    async def body(service: RoomService) -> None:
        code, seats = await seated(service, game_id, {"max_players": 2})
        longest = 0
        reloaded = False
        for step in range(400):
            views = [await view(service, s) for s in seats]
            acting = views[0]["to_act"][0]
            me = seats[acting]
            takeable = [a for a in views[acting]["legal_actions"] if a["type"] in game.take_backs]
            if not takeable:
                await service.command(me, f"c-{step}", views[acting]["legal_actions"][0])
                continue
            # A run: up to 4 commands that may be taken back, the views before each kept.
            run: list[list[dict[str, Any]]] = []
            for k in range(4):
                now = [await view(service, s) for s in seats]
                legal = [a for a in now[acting]["legal_actions"] if a["type"] in game.take_backs]
                if not legal or now[0]["to_act"] != [acting]:
                    break
                await service.command(me, f"c-{step}-{k}", legal[(step + k) % len(legal)])
                if not (await view(service, me))["can_undo"]:
                    break  # it revealed something: the run ends here
                run.append(now)
                live = (await service.cache.get(code)).live
                assert live is not None
                # A copy only where a point does not follow the one below it (the state
                # before a run's first command); each later command of the run keeps none.
                stack = live.takebacks
                assert stack[0].before is not None
                for below, point in zip(stack, stack[1:], strict=False):
                    follows = point.version == below.version + 1
                    assert (point.before is None) == follows, [
                        (q.version, q.before is not None) for q in stack
                    ]
                if k > 0:
                    assert stack[-1].before is None  # right after the run's previous one
            if len(run) == 4 and not reloaded:
                service.forget(code)  # loaded again: the stack rebuilt from the log
                reloaded = True
            for k, before in enumerate(reversed(run)):
                # Every command of the run may still be taken back, also once the game
                # was loaded again after a take-back stored a snapshot inside the run.
                assert (await view(service, me))["can_undo"], (k, len(run))
                await service.take_back(me, f"undo-{step}-{k}")
                back = [await view(service, s) for s in seats]
                assert all(same(b, v) for b, v in zip(back, before, strict=True)), k
                longest = max(longest, k + 1)
                if k == 0 and len(run) > 1:
                    service.forget(code)  # idle: evicted between two take-backs
            # Go on with the game: the acting seat ends its run with something else.
            views = [await view(service, s) for s in seats]
            acting = views[0]["to_act"][0]
            others = [a for a in views[acting]["legal_actions"] if a["type"] not in game.take_backs]
            pick = others[0] if others else views[acting]["legal_actions"][0]
            await service.command(seats[acting], f"e-{step}", pick)
            if longest >= 3 and reloaded:
                break
        assert longest >= 3 and reloaded
        replayed, loaded = replay_room(service.p.db, code)
        assert replayed == loaded

    run_service(body)


@pytest.mark.parametrize("database_url", ["sqlite"], indirect=True)
def test_a_room_without_take_backs_refuses_them(run_service: Any) -> None:
    async def body(service: RoomService) -> None:
        code, seats = await seated(service, "karanor", {"max_players": 2, "take_backs": False})
        info = await service.room_info(code)
        assert info["options"]["take_backs"] is False
        for step in range(40):
            v = await view(service, seats[0])
            acting = v["to_act"][0]
            mine = await view(service, seats[acting])
            move = [a for a in mine["legal_actions"] if a["type"] == "move"]
            await service.command(seats[acting], f"c-{step}", (move or mine["legal_actions"])[0])
            if move:
                assert (await view(service, seats[acting]))["can_undo"] is False
                assert await refused(service, seats[acting]) == "409 not_undoable"
                return
        raise AssertionError("no move in 40 commands")

    run_service(body)
