"""A process killed with SIGKILL: nothing acknowledged is lost, its clients go on
through the other process."""

import asyncio
import contextlib
import random
from collections.abc import Callable
from typing import Any

import httpx
import pytest

from tests.helpers.client import bearer, make_room, my_move, new_id
from tests.helpers.policy import choose
from tests.helpers.server import ServerProcess
from tests.rooms.cluster.cluster import Watcher, assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


def ws(server: ServerProcess, code: str, token: str | None = None) -> str:
    url = f"{server.ws_url}/ws/rooms/{code}"
    return f"{url}?token={token}" if token else url


async def _play(
    player: Watcher, seat: int, acked: list[dict[str, Any]], rng: random.Random
) -> None:
    """Send commands from this socket whenever its seat must act, one at a time."""
    sent: str | None = None
    seen = 0
    while not player.closed:
        await asyncio.sleep(0.005)
        new = player.messages[seen:]
        seen += len(new)
        for m in new:
            if m["type"] == "ack" and m["id"] == sent:
                acked.append({"id": sent, "seat": seat, "version": m["version"]})
                sent = None
            elif m["type"] == "error" and m["id"] == sent:
                sent = None
        views = player.of_type("view")
        if sent is None and views and my_move(views[-1]["view"]):
            command = choose(views[-1]["view"], rng)
            sent = new_id()
            with contextlib.suppress(Exception):
                await player.send({"type": "command", "id": sent, "command": command})


def test_sigkill_loses_nothing_and_clients_resume_on_the_other(
    start_servers: Callable[..., list[ServerProcess]], postgres_url: str
) -> None:
    # The seat plays as fast as the servers answer: past the default command rate.
    a, b = start_servers(2, KARANOR_COMMAND_RATE="1000", KARANOR_COMMAND_BURST="1000")
    room = make_room(a.url, humans=2, options={"end_prestige": 30})
    tokens = [t for t in room.tokens if t is not None]

    async def body() -> None:
        acked: list[dict[str, Any]] = []
        async with Watcher(ws(b, room.code)) as watcher_b:
            # B's socket has its first view (version 0) before anyone plays through A.
            await watcher_b.wait(lambda w: w.of_type("view"))
            players = [await Watcher(ws(a, room.code, t)).__aenter__() for t in tokens]
            tasks = [
                asyncio.create_task(_play(p, seat, acked, random.Random(seat)))
                for seat, p in enumerate(players)
            ]
            await asyncio.sleep(1.5)  # commands in flight through A ...
            a.kill()  # ... when it dies
            await asyncio.wait_for(asyncio.gather(*tasks), 10)
            assert len(acked) >= 5, acked
            last = max(s["version"] for s in acked)

            # The clients reconnect through B: the current view at once, nothing lost.
            async with httpx.AsyncClient(base_url=b.url, timeout=15) as http:
                stored = (await http.get(f"/api/rooms/{room.code}")).json()["version"]
                assert stored >= last
                for seat, token in enumerate(tokens):
                    async with Watcher(ws(b, room.code, token)) as again:
                        await again.wait(lambda w: w.of_type("view"))
                        assert again.of_type("view")[0]["version"] == stored
                        assert again.latest["seat"] == seat
                for step in acked:
                    r = await http.post(
                        f"/api/rooms/{room.code}/commands",
                        json={"id": step["id"], "command": {"type": "end_turn"}},
                        headers=bearer(tokens[step["seat"]]),
                    )
                    assert r.status_code == 200, r.text
                    assert r.json() == {**r.json(), "duplicate": True, "version": step["version"]}

            # B's own socket saw every version A made before it died, in order.
            await watcher_b.wait_version(stored)
            versions = [m["version"] for m in watcher_b.game_views()]
            assert versions == list(range(stored + 1)), versions

        rows = assert_log_complete(postgres_url, room.code)
        assert len(rows) == stored
        logged = {(seat, command_id) for _v, seat, command_id in rows}
        assert all((s["seat"], s["id"]) in logged for s in acked)

    asyncio.run(body())
