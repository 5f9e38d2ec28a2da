"""A process killed (SIGKILL) while it holds rooms: the other serves them (issue 32).

Two processes on one PostgreSQL and one Redis. Process A holds three rooms: a Karanor
and a Dark Road game whose every seat has its socket on A, and a Karanor game of one
person and two bots that A plays (at a human pace, so A likely dies holding their
bot lock in the middle of their turns). A is killed. Within a few seconds each room is served
by B: each seat's socket opened on B gets the stored version at once, a command through
B is acknowledged, and the bots' turns go on (played by B once A's lock expires).
Nothing acknowledged through A is lost.
"""

from __future__ import annotations

import asyncio
import random
import time
import uuid
from collections.abc import Callable, Iterator

import httpx
import pytest
import redis

from tests.helpers.client import Room
from tests.helpers.server import ServerProcess
from tests.ops.faults import START_TIMEOUT, make_game_room, play
from tests.rooms.cluster.cluster import Watcher, assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

FEW_SECONDS = 10.0  # the bot lock's TTL (3 s) plus a loaded machine's slack


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


def test_killed_process_rooms_served_by_the_other(
    server_factory: Callable[..., ServerProcess],
    postgres_url: str,
    redis_url: str,
    redis_prefix: str,
) -> None:
    env = {
        "DATABASE_URL": postgres_url,
        "REDIS_URL": redis_url,
        "KARANOR_REDIS_PREFIX": redis_prefix,
        "KARANOR_BOT_DELAY_SECONDS": "0.5",
        "KARANOR_LOG_LEVEL": "warning",
        "KARANOR_SYNC_INTERVAL": "0.5",
        "KARANOR_ROOMS_PER_HOUR": "0",
        "KARANOR_COMMAND_RATE": "1000",
        "KARANOR_COMMAND_BURST": "1000",
    }
    a, b = (server_factory(env=env, start_timeout=START_TIMEOUT).start() for _ in range(2))
    rooms = [
        make_game_room(a.url, "karanor", 2),
        make_game_room(a.url, "darkroad", 2),
        make_game_room(a.url, "karanor", 1, bots=2),
    ]
    rng = random.Random(9)
    on_a = httpx.Client(base_url=a.url, timeout=15)
    on_b = httpx.Client(base_url=b.url, timeout=15)

    async def served_by_b(room: Room, killed: float) -> float:
        """Seconds from the kill until B gave every seat the stored version and
        acknowledged a command of the room (after a bot's turn, when it is one)."""
        stored = (await asyncio.to_thread(on_b.get, f"/api/rooms/{room.code}")).json()
        for token in room.tokens:
            if token is None:
                continue
            async with Watcher(f"{b.ws_url}/ws/rooms/{room.code}?token={token}") as seat:
                await seat.wait(lambda w: w.of_type("view"), FEW_SECONDS)
                assert seat.of_type("view")[0]["version"] >= stored["version"]
        steps = await asyncio.to_thread(play, [on_b], room, rng, 2)
        acked.extend({**step, "code": room.code} for step in steps)
        return time.monotonic() - killed

    acked: list[dict[str, object]] = []

    async def body() -> None:
        held = []
        for room in rooms:
            for token in room.tokens:
                if token is not None:
                    held.append(Watcher(f"{a.ws_url}/ws/rooms/{room.code}?token={token}"))
        for watcher in held:
            await watcher.__aenter__()
        for room in rooms:
            steps = await asyncio.to_thread(play, [on_a], room, rng, 4)
            acked.extend({**step, "code": room.code} for step in steps)
        a.kill()
        killed = time.monotonic()
        for watcher in held:
            await watcher.close()
        took = await asyncio.gather(*(served_by_b(room, killed) for room in rooms))
        print(f"\nserved by B after the kill: {[round(t, 1) for t in took]} s")
        assert max(took) < FEW_SECONDS, took

    try:
        asyncio.run(body())
    finally:
        on_a.close()
        on_b.close()
    logged = set()
    for room in rooms:
        logged |= {(room.code, s, c) for _v, s, c in assert_log_complete(postgres_url, room.code)}
    # Every acknowledged command, through A before the kill or B after it, is logged.
    assert len(acked) == 3 * (4 + 2)
    for step in acked:
        assert (step["code"], step["seat"], step["id"]) in logged, step
