"""kill -9 in the middle of a game: nothing acknowledged is lost, the game goes on."""

import random
import threading
from collections.abc import Callable
from typing import Any

import httpx

from app.rooms.replay import replay_room
from app.store.db import create_db_engine
from tests.helpers.client import Room, bearer, make_room, play_http_step
from tests.helpers.server import ServerProcess


def _views(http: httpx.Client, room: Room) -> dict[int | None, Any]:
    out: dict[int | None, Any] = {
        seat: http.get(f"/api/rooms/{room.code}/view", headers=bearer(token)).json()
        for seat, token in enumerate(room.tokens)
        if token
    }
    out[None] = http.get(f"/api/rooms/{room.code}/view").json()
    return out


def test_kill_9_loses_no_acknowledged_command(serve: Callable[..., ServerProcess]) -> None:
    # The seat plays as fast as the server answers: past the default command rate.
    server = serve(KARANOR_COMMAND_RATE="1000", KARANOR_COMMAND_BURST="1000")
    room = make_room(server.url, humans=3)
    rng = random.Random(5)
    with httpx.Client(base_url=server.url, timeout=15) as http:
        for _ in range(25):
            assert play_http_step(http, room, rng) is not None
        before = _views(http, room)

    # A quiet kill: the restarted server shows every seat exactly the same view.
    server.kill()
    server.start()
    with httpx.Client(base_url=server.url, timeout=15) as http:
        assert _views(http, room) == before

    # A kill while commands are in flight: every acknowledged one survives.
    acked: list[dict[str, Any]] = []
    stop = threading.Event()
    flowing = threading.Event()  # a few commands acknowledged: the kill lands mid-flood

    def flood() -> None:
        with httpx.Client(base_url=server.url, timeout=5) as http:
            while not stop.is_set():
                try:
                    step = play_http_step(http, room, rng)
                except (httpx.HTTPError, AssertionError, ValueError):
                    return  # the server died under us
                if step is None:
                    return
                acked.append(step)
                if len(acked) >= 5:
                    flowing.set()

    sender = threading.Thread(target=flood)
    sender.start()
    assert flowing.wait(30), f"only {len(acked)} commands acknowledged in 30 s"
    server.kill()
    stop.set()
    sender.join(10)
    assert acked, "no command was acknowledged before the kill"
    server.start()

    with httpx.Client(base_url=server.url, timeout=15) as http:
        stored = http.get(f"/api/rooms/{room.code}").json()["version"]
        assert stored >= acked[-1]["version"]
        for step in acked:
            # Resending an acknowledged id answers with its first outcome: it is in the log.
            token = room.tokens[step["seat"]]
            assert token is not None
            r = http.post(
                f"/api/rooms/{room.code}/commands",
                json={"id": step["id"], "command": {"type": "end_turn"}},
                headers=bearer(token),
            )
            assert r.status_code == 200, r.text
            assert r.json()["duplicate"] is True
            assert r.json()["version"] == step["version"]

        # And the game goes on to its end.
        for _ in range(20000):
            if play_http_step(http, room, rng) is None:
                break
        assert http.get(f"/api/rooms/{room.code}").json()["status"] == "finished"

    engine = create_db_engine(server.env["DATABASE_URL"])
    try:
        state, snapshot = replay_room(engine, room.code)
    finally:
        engine.dispose()
    assert state == snapshot
