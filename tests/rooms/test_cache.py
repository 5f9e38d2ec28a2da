"""Idle rooms leave memory and come back from the database (snapshot + log) unchanged."""

import random
import re
import time
from collections.abc import Callable

import httpx

from tests.helpers.client import bearer, make_room, play_http_step
from tests.helpers.server import ServerProcess


def evictions(http: httpx.Client) -> float:
    """The server's count of rooms evicted from memory (its Prometheus metrics; reading
    them touches no room)."""
    text = http.get("/metrics").text
    found = re.search(r"^karanor_room_evictions_total ([0-9.e+]+)$", text, re.MULTILINE)
    assert found, "the evictions counter is missing from /metrics"
    return float(found.group(1))


def wait_for_eviction(http: httpx.Client, seen: float, timeout: float = 10.0) -> float:
    """Poll until the server has evicted a room more than `seen` times."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        now = evictions(http)
        if now > seen:
            return now
        time.sleep(0.05)
    raise AssertionError(f"no room was evicted within {timeout} s")


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
            # The room leaves memory (no socket, no command): the next views are loaded
            # from the database. Without eviction this fails instead of passing anyway.
            # (Read at once: the room was just used, it cannot be evicted before 0.3 s.)
            wait_for_eviction(http, evictions(http))
            after = [
                http.get(f"/api/rooms/{room.code}/view", headers=bearer(t)).json()
                for t in room.tokens
            ]
            assert after == before, round_
