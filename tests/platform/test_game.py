"""Whole games against a real server process: every seat on its own WebSocket."""

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Callable

import httpx

from app.rooms.replay import replay_room
from app.store.db import create_db_engine
from tests.helpers.server import REPO_ROOT, ServerProcess
from tests.platform.client import (
    SocketPlayer,
    bearer,
    make_room,
    secrets_of,
    ws_url,
)


async def _play(players: list[SocketPlayer]) -> None:
    await asyncio.gather(*(p.run() for p in players))


def test_whole_game_over_websockets(serve: Callable[..., ServerProcess]) -> None:
    server = serve()
    room = make_room(server.url, humans=3)
    players = [
        SocketPlayer(ws_url(server, room, token), seat, random.Random(seat))
        for seat, token in enumerate(room.tokens)
    ]
    spectator = SocketPlayer(ws_url(server, room, None), None, random.Random(9))
    asyncio.run(_play([*players, spectator]))

    # Everybody saw the end, with a winner.
    final = players[0].views[max(players[0].views)]
    assert final["status"] == "finished"
    assert final["result"]["winners"]
    assert sum(p.commands for p in players) >= final["version"]
    with httpx.Client(base_url=server.url) as http:
        info = http.get(f"/api/rooms/{room.code}").json()
        assert info["status"] == "finished"
        assert info["version"] == final["version"]
        assert all(s["connected"] is False for s in info["seats"])

    # Every version was pushed to every socket, each its own view.
    for p in [*players, spectator]:
        assert set(p.views) == set(range(final["version"] + 1)), p.seat
        assert all(v["seat"] == p.seat for v in p.views.values())

    # No view carries another seat's secret cards; spectators see nothing private.
    for version in range(final["version"] + 1):
        texts = {p.seat: json.dumps(p.views[version]) for p in [*players, spectator]}
        assert spectator.views[version]["private"] is None
        assert spectator.views[version]["legal_actions"] == []
        for owner in players:
            for card in secrets_of(owner.views[version]):
                for other in [*players, spectator]:
                    if other.seat != owner.seat:
                        assert f'"{card}"' not in texts[other.seat], (version, card, other.seat)

    # The log: private events only to their seat; the spectator's has none.
    with httpx.Client(base_url=server.url) as http:
        logs = {
            seat: http.get(
                f"/api/rooms/{room.code}/log", headers=bearer(token) if token else {}
            ).json()["entries"]
            for seat, token in [*enumerate(room.tokens), (None, None)]
        }
    private = 0
    for seat, entries in logs.items():
        assert [e["version"] for e in entries] == list(range(1, final["version"] + 1))
        for entry in entries:
            for event in entry["events"]:
                if "to" in event:
                    assert event["to"] == seat
                    private += 1
    assert private > 0  # the filter had something to hide

    # Replaying the log rebuilds the snapshot exactly.
    engine = create_db_engine(server.env["DATABASE_URL"])
    try:
        state, snapshot = replay_room(engine, room.code)
    finally:
        engine.dispose()
    assert state.to_dict() == snapshot

    # `karanor export CODE` prints the room, seats without token hashes, and the log.
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", "export", room.code],
        cwd=REPO_ROOT,
        env=server.env,
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    exported = json.loads(out)
    assert exported["room"]["code"] == room.code
    assert len(exported["log"]) == final["version"]
    assert "token" not in out and "hash" not in out
    assert all(token not in out for token in room.tokens if token)


def test_one_human_and_two_bots_play_to_the_end(serve: Callable[..., ServerProcess]) -> None:
    server = serve()
    room = make_room(server.url, humans=1, bots=2)
    human = SocketPlayer(ws_url(server, room, room.tokens[0]), 0, random.Random(1))
    asyncio.run(_play([human]))
    final = human.views[max(human.views)]
    assert final["status"] == "finished"
    with httpx.Client(base_url=server.url) as http:
        entries = http.get(f"/api/rooms/{room.code}/log").json()["entries"]
    assert {e["seat"] for e in entries} == {0, 1, 2}  # the bots played their part
    assert len(entries) == final["version"]
