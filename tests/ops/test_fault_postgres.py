"""PostgreSQL restarted mid-game under two server processes (issue 32).

The database goes away (`pg_ctl stop -m fast`: every session ended) while a game is
being played through two processes sharing it and Redis. While it is down, every
command, over HTTP and over a socket, on either process, is answered with a coded 503
`unavailable` and changes nothing. Once it is back (same port, same data), the same
processes (no restart) accept commands again at once, the game goes on to its end
through both, every command acknowledged before, during or after is in the log once,
and the other process's socket reaches the last version.

The cluster is the test's own (`tests/ops/faults.py`): the machine's shared PostgreSQL
serves the other tests and is never stopped.
"""

from __future__ import annotations

import asyncio
import random
import uuid
from collections.abc import Callable, Iterator

import httpx
import pytest
import redis

from tests.helpers.client import make_room, new_id
from tests.helpers.policy import choose
from tests.helpers.server import ServerProcess
from tests.ops.faults import START_TIMEOUT, PrivatePostgres, acting, command, play, private_postgres
from tests.rooms.cluster.cluster import Watcher, assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

FAST = {
    "KARANOR_BOT_DELAY_SECONDS": "0",
    "KARANOR_LOG_LEVEL": "warning",
    "KARANOR_SYNC_INTERVAL": "0.5",
    "KARANOR_ROOMS_PER_HOUR": "0",
    "KARANOR_COMMAND_RATE": "1000",
    "KARANOR_COMMAND_BURST": "1000",
}


@pytest.fixture
def cluster() -> Iterator[PrivatePostgres]:
    with private_postgres() as made:
        yield made


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


def test_postgres_restarted_mid_game(
    cluster: PrivatePostgres,
    server_factory: Callable[..., ServerProcess],
    redis_url: str,
    redis_prefix: str,
) -> None:
    env = {
        "DATABASE_URL": cluster.url,
        "REDIS_URL": redis_url,
        "KARANOR_REDIS_PREFIX": redis_prefix,
        **FAST,
    }
    a, b = (server_factory(env=env, start_timeout=START_TIMEOUT).start() for _ in range(2))
    room = make_room(a.url, humans=2, options={"end_prestige": 12})
    rng = random.Random(32)
    clients = [httpx.Client(base_url=s.url, timeout=15) for s in (a, b)]

    async def body() -> None:
        guest = room.tokens[1]
        async with Watcher(f"{b.ws_url}/ws/rooms/{room.code}?token={guest}") as on_b:
            await on_b.wait_version(0)
            acked = await asyncio.to_thread(play, clients, room, rng, 8)
            before = acked[-1]["version"]
            seat, view = await asyncio.to_thread(acting, clients[0], room)

            cluster.stop("fast")
            # Every command refused with the code, on both processes, over HTTP ...
            tried = []
            for http in clients:
                for _ in range(3):
                    body = {"id": new_id(), "command": choose(view, rng)}
                    r = await asyncio.to_thread(command, http, room, seat, body, before)
                    assert r.status_code == 503, r.text
                    assert r.json()["error"]["code"] == "unavailable", r.text
                    tried.append(body)
            # ... and over the socket on the other process.
            sent = new_id()
            await on_b.send({"type": "command", "id": sent, "command": choose(view, rng)})
            error = await on_b.wait(
                lambda w: [m for m in w.of_type("error") if m.get("id") == sent]
            )
            assert error[0]["code"] == "unavailable", error
            # A new room is refused the same way (the lobby writes too).
            r = await asyncio.to_thread(
                clients[1].post, "/api/rooms", json={"name": "Late", "options": {}}
            )
            assert r.status_code == 503 and r.json()["error"]["code"] == "unavailable", r.text
            # Reads answer from memory or with the same 503, never a 500; readiness says so.
            for http in clients:
                for path in (f"/api/rooms/{room.code}", f"/api/rooms/{room.code}/log?after=0"):
                    r = await asyncio.to_thread(http.get, path)
                    assert r.status_code in (200, 503), (path, r.status_code, r.text)
                    if r.status_code == 503:
                        assert r.json()["error"]["code"] == "unavailable", r.text
                r = await asyncio.to_thread(http.get, "/readyz")
                assert r.status_code == 503, r.text

            cluster.start()
            # The same processes go on: the first command after the return is accepted,
            # and one sent during the outage, sent again, is new (nothing of it was kept).
            again = tried[0]
            r = await asyncio.to_thread(command, clients[0], room, seat, again, before)
            assert r.status_code == 200, r.text
            assert r.json()["version"] == before + 1
            assert not r.json().get("duplicate")
            acked.append({"id": again["id"], "seat": seat, "version": before + 1})
            acked += await asyncio.to_thread(play, clients, room, rng, 12)
            last = acked[-1]["version"]
            await on_b.wait_version(last)
            versions = [m["version"] for m in on_b.game_views()]
            assert versions == sorted(set(versions)), versions

        rows = assert_log_complete(cluster.url, room.code)
        assert len(rows) == last
        logged = {(s, c) for _v, s, c in rows}
        assert all((x["seat"], x["id"]) in logged for x in acked)
        # Nothing of the refused commands but the one sent again.
        assert not any((seat, t["id"]) in logged for t in tried[1:])

    try:
        asyncio.run(body())
    finally:
        for http in clients:
            http.close()
