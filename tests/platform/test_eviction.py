"""Idle rooms leave memory and come back from the database (snapshot + log) unchanged."""

import random
import time
from collections.abc import Callable

import httpx

from tests.helpers.server import ServerProcess
from tests.platform.client import bearer, make_room, play_http_step


def test_an_evicted_room_reloads_with_the_same_views(
    serve: Callable[..., ServerProcess],
) -> None:
    server = serve(
        KARANOR_ROOM_IDLE_SECONDS="0.3", KARANOR_COMMAND_RATE="1000", KARANOR_COMMAND_BURST="1000"
    )
    # A long game (end_prestige 30): the 81 commands below never reach its end.
    room = make_room(server.url, humans=3, options={"end_prestige": 30})
    rng = random.Random(11)
    with httpx.Client(base_url=server.url, timeout=15) as http:
        for round_ in range(3):
            # 27 commands a round: the reload crosses a snapshot (every 20 versions).
            for _ in range(27):
                assert play_http_step(http, room, rng) is not None
            before = [
                http.get(f"/api/rooms/{room.code}/view", headers=bearer(t)).json()
                for t in room.tokens
            ]
            time.sleep(1.0)  # evicted meanwhile (no socket, no command)
            after = [
                http.get(f"/api/rooms/{room.code}/view", headers=bearer(t)).json()
                for t in room.tokens
            ]
            assert after == before, round_
