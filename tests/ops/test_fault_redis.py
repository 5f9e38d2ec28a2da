"""Redis stopped mid-game and started again, under two server processes (issue 32).

Redis carries only hints between the processes (docs/deploy.md): with it gone the
commands are still acknowledged (the database decides), and once it is back (same
port, a fresh server: every subscription and key lost) the other process's socket
reaches the latest version within seconds, having seen no version twice, and the log
holds every acknowledged command once. The Redis is the test's own
(`tests/ops/faults.py`): the machine's shared one serves the other tests.

The periodic check is slowed to 30 s here, so that what brings the other process's
socket up to date after Redis's return is the re-subscription (`on_reconnect`) and the
notices, not the check that would catch up without Redis.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Callable
from pathlib import Path

import httpx
import pytest

from tests.helpers.client import make_room
from tests.helpers.server import ServerProcess
from tests.ops.faults import START_TIMEOUT, play, private_redis
from tests.rooms.cluster.cluster import Watcher, assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres]


def test_redis_restarted_mid_game(
    tmp_path: Path, server_factory: Callable[..., ServerProcess], postgres_url: str
) -> None:
    with private_redis(tmp_path) as bus:
        env = {
            "DATABASE_URL": postgres_url,
            "REDIS_URL": bus.url,
            "KARANOR_BOT_DELAY_SECONDS": "0",
            "KARANOR_LOG_LEVEL": "warning",
            "KARANOR_SYNC_INTERVAL": "30",
            "KARANOR_ROOMS_PER_HOUR": "0",
            "KARANOR_COMMAND_RATE": "1000",
            "KARANOR_COMMAND_BURST": "1000",
        }
        a, b = (server_factory(env=env, start_timeout=START_TIMEOUT).start() for _ in range(2))
        room = make_room(a.url, humans=2, options={"end_prestige": 12})
        rng = random.Random(6)
        on_a = httpx.Client(base_url=a.url, timeout=15)

        async def body() -> None:
            guest = room.tokens[1]
            async with Watcher(f"{b.ws_url}/ws/rooms/{room.code}?token={guest}") as on_b:
                await on_b.wait_version(0)
                acked = await asyncio.to_thread(play, [on_a], room, rng, 5)
                await on_b.wait_version(acked[-1]["version"])

                bus.stop()
                during = await asyncio.to_thread(play, [on_a], room, rng, 12)
                acked += during
                bus.start()
                returned = time.monotonic()
                acked += await asyncio.to_thread(play, [on_a], room, rng, 3)
                last = acked[-1]["version"]
                await on_b.wait_version(last, timeout=15)
                caught_up = time.monotonic() - returned
                print(f"\nB's socket at version {last} {caught_up:.1f} s after Redis returned")
                assert caught_up < 15
                versions = [m["version"] for m in on_b.game_views()]
                assert versions == sorted(set(versions)), versions
                assert versions[-1] == last

            rows = assert_log_complete(postgres_url, room.code)
            assert len(rows) == last
            logged = {(s, c) for _v, s, c in rows}
            assert all((x["seat"], x["id"]) in logged for x in acked)

        try:
            asyncio.run(body())
        finally:
            on_a.close()
