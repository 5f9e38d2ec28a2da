"""Whole games against a real server process: every seat on its own WebSocket."""

import asyncio
import json
import random
import subprocess
import sys
import time
from collections.abc import Callable

import httpx

from app.rooms.replay import replay_room
from app.store.db import create_db_engine
from tests.helpers.client import (
    SocketPlayer,
    bearer,
    make_room,
    play_http_step,
    secrets_of,
    ws_url,
)
from tests.helpers.server import REPO_ROOT, ServerProcess


async def _play(players: list[SocketPlayer]) -> None:
    barrier = asyncio.Barrier(len(players))
    for p in players:
        p.barrier = barrier
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
        # Each socket's close is answered before the server has handled its end (the
        # presence): until then a seat may still read as connected, for a moment.
        deadline = time.monotonic() + 10
        while any(s["connected"] for s in info["seats"]) and time.monotonic() < deadline:
            info = http.get(f"/api/rooms/{room.code}").json()
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
    assert state == snapshot

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


def test_a_human_trades_with_a_bot(serve: Callable[..., ServerProcess]) -> None:
    """Trading issue, "Bots": a bot answers an offer addressed to it (here a generous
    one: accepted) through the same command path, without being asked to act."""
    server = serve()
    room = make_room(server.url, humans=1, bots=1, options={"end_prestige": 20})
    with httpx.Client(base_url=server.url, timeout=15) as http:
        headers = bearer(room.tokens[0] or "")
        for _ in range(400):  # play until the draft is over and it is the human's turn
            v = http.get(f"/api/rooms/{room.code}/view", headers=headers).json()
            if (
                v["turn"]["phase"] == "action"
                and v["turn"]["seat"] == 0
                and not v["turn"]["pending"]
            ):
                break
            if v["legal_actions"] and (v["turn"]["phase"] == "draft" or v["turn"]["seat"] == 0):
                step = play_http_step(http, room, random.Random(2))
                assert step is not None
            else:
                time.sleep(0.05)
        bot = v["players"][1]
        wanted = next((r for r, n in bot["resources"].items() if n), None)
        want = {"resources": {wanted: 1}} if wanted else {}
        give = {"gold": v["players"][0]["gold"]} if v["players"][0]["gold"] else {}
        assert give or want
        r = http.post(
            f"/api/rooms/{room.code}/commands",
            json={"id": "trade-1", "command": {"type": "offer", "to": [1], "give": give,
                                                "want": want}},
            headers=headers,
        )  # fmt: skip
        assert r.status_code == 200, r.text
        offer_id = max(o["id"] for o in http.get(f"/api/rooms/{room.code}/view").json()["offers"])
        for _ in range(100):
            offers = http.get(f"/api/rooms/{room.code}/view").json()["offers"]
            status = next(o["status"] for o in offers if o["id"] == offer_id)
            if status != "open":
                break
            time.sleep(0.05)
        assert status in ("accepted", "declined"), status
        entries = http.get(f"/api/rooms/{room.code}/log", headers=headers).json()["entries"]
        assert any(e["seat"] == 1 and e["events"] and e["events"][0]["type"] in (
            "trade", "offer_declined", "offer") for e in entries)  # fmt: skip
