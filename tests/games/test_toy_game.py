"""A toy game plugged into a real server, played through the real HTTP and WebSocket
API with no change outside `tests/`: the proof that the game interface is real
(`app/games/base.py`, `KARANOR_GAMES`)."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
import websockets

from tests.helpers.client import bearer, new_id
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    workdir: Path = tmp_path_factory.mktemp("toy")
    with ServerProcess(
        workdir, env={"KARANOR_GAMES": "tests.games.toy:GAME", "KARANOR_BOT_DELAY_SECONDS": "0"}
    ) as running:
        yield running


def test_the_server_lists_the_plugged_game_and_its_commands(server: ServerProcess) -> None:
    games = httpx.get(f"{server.url}/api/games").json()["games"]
    toy = next(g for g in games if g["id"] == "toy")
    assert (toy["title"], toy["min_players"], toy["max_players"]) == ("Race to N", 2, 3)
    assert toy["defaults"] == {"target": 12, "take_backs": True}
    assert toy["options_schema"]["properties"]["target"]["maximum"] == 50
    assert games[0]["id"] == "karanor"  # the default game first
    schemas = httpx.get(f"{server.url}/openapi.json").json()["components"]["schemas"]
    command = schemas["CommandIn"]["properties"]["command"]
    toy = [v for v in command["anyOf"] if "add" in v.get("discriminator", {}).get("mapping", {})]
    assert toy[0]["oneOf"] == [{"$ref": "#/components/schemas/ToyAdd"}]
    # Declared once, on the kit: typed fields, unread ones refused.
    assert schemas["ToyAdd"]["properties"]["n"]["enum"] == [1, 2, 3]
    assert schemas["ToyAdd"]["additionalProperties"] is False
    content = httpx.get(f"{server.url}/api/games/toy/content").json()
    assert content["game"] == "toy" and "amber" in content["words"]


def test_a_bad_option_of_the_game_is_refused(server: ServerProcess) -> None:
    r = httpx.post(
        f"{server.url}/api/rooms", json={"name": "Ann", "game": "toy", "options": {"target": 99}}
    )
    assert r.status_code == 422 and r.json()["error"]["code"] == "bad_request"
    r = httpx.post(f"{server.url}/api/rooms", json={"name": "Ann", "game": "chess"})
    assert r.status_code == 400 and r.json()["error"]["code"] == "unknown_game"


async def _play(server: ServerProcess, code: str, seat: int, token: str) -> dict[str, Any]:
    """One seat's socket: answer every view that asks it to act with its first legal
    action, until the game is over; returns what it saw."""
    seen: dict[str, Any] = {"versions": [], "words": set(), "views": []}
    url = f"{server.ws_url}/ws/rooms/{code}?token={token}"
    async with websockets.connect(url) as ws:
        while True:
            message = orjson.loads(await asyncio.wait_for(ws.recv(), 30))
            if message["type"] != "view":
                continue
            view = message["view"]
            seen["versions"].append(message["version"])
            seen["views"].append(view)
            seen["words"] |= {e["word"] for e in message["events"] if e["type"] == "whisper"}
            if view["status"] == "finished":
                return seen
            if view["legal_actions"]:
                command = {"type": "command", "id": new_id(), "command": view["legal_actions"][0]}
                await ws.send(orjson.dumps(command).decode())


def test_two_people_and_a_bot_play_a_whole_game(server: ServerProcess) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as http:
        made = http.post(
            "/api/rooms", json={"name": "Ann", "game": "toy", "options": {"target": 15}}
        ).json()
        code, host = made["code"], made["seat"]["token"]
        guest = http.post(f"/api/rooms/{code}/seats", json={"name": "Bo"}).json()["seat"]
        assert http.post(f"/api/rooms/{code}/bots", headers=bearer(host)).status_code == 201
        room = http.get(f"/api/rooms/{code}").json()
        assert room["game"] == "toy" and [s["bot"] for s in room["seats"]] == [
            False,
            False,
            True,
        ]
        # The toy game allows 3 seats: a fourth is refused by the platform.
        r = http.post(f"/api/rooms/{code}/seats", json={"name": "Cy"})
        assert r.status_code == 409 and r.json()["error"]["code"] == "room_full"

        async def game() -> list[dict[str, Any]]:
            players = [
                asyncio.create_task(_play(server, code, 0, host)),
                asyncio.create_task(_play(server, code, 1, guest["token"])),
            ]
            await asyncio.sleep(0)
            r = await asyncio.to_thread(http.post, f"/api/rooms/{code}/start", headers=bearer(host))
            assert r.status_code == 200, r.text
            return await asyncio.wait_for(asyncio.gather(*players), 60)

        ann, bo = asyncio.run(game())
        final = http.get(f"/api/rooms/{code}").json()
        assert final["status"] == "finished"
        log = http.get(f"/api/rooms/{code}/log", headers=bearer(host)).json()["entries"]
        assert {e["seat"] for e in log} == {0, 1, 2}  # the bot played through the same path
        counted = sum(e["n"] for entry in log for e in entry["events"] if e["type"] == "added")
        assert counted == 15 == ann["views"][-1]["board"]["count"]
        # Each seat read its own secret word and never the other's.
        assert len(ann["words"]) == len(bo["words"]) == 1 and ann["words"] != bo["words"]
        for view in ann["views"]:
            assert view["private"] is None or view["private"]["word"] in ann["words"]
            assert not any(w in orjson.dumps(view).decode() for w in bo["words"])
        # Every socket saw the versions in order.
        for seen in (ann, bo):
            assert seen["versions"] == sorted(seen["versions"])
        spectator = httpx.get(f"{server.url}/api/rooms/{code}/view").json()  # no cookie
        assert spectator["private"] is None and spectator["result"]["winners"]
