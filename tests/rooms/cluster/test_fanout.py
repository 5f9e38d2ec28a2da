"""Two processes, one room: what happens through one is pushed by the other."""

import asyncio
import random
import time
import uuid
from collections.abc import Callable

import httpx
import pytest

from tests.helpers.client import Room, bearer, play_http_step
from tests.helpers.server import ServerProcess
from tests.rooms.cluster.cluster import Watcher, assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]


def ws(server: ServerProcess, code: str, token: str | None = None) -> str:
    url = f"{server.ws_url}/ws/rooms/{code}"
    return f"{url}?token={token}" if token else url


def test_every_version_reaches_the_other_process_in_order(
    start_servers: Callable[..., list[ServerProcess]], postgres_url: str
) -> None:
    # No periodic check during the test: every push comes from a Redis notice.
    a, b = start_servers(2, KARANOR_SYNC_INTERVAL="60")

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            r = await http.post(
                f"{a.url}/api/rooms",
                json={"name": "Host", "options": {"max_players": 3, "end_prestige": 3}},
            )
            code, host = r.json()["code"], r.json()["seat"]["token"]
            async with (
                Watcher(ws(b, code)) as watcher_b,
                Watcher(ws(a, code, host)) as host_a,
            ):
                # Seats joined through either process; both lobbies follow.
                tokens = [host]
                for i, server in ((1, b), (2, a)):
                    r = await http.post(
                        f"{server.url}/api/rooms/{code}/seats", json={"name": f"P{i}"}
                    )
                    assert r.status_code == 201, r.text
                    assert r.json()["seat"]["index"] == i
                    tokens.append(r.json()["seat"]["token"])
                for watcher in (watcher_b, host_a):
                    await watcher.wait(
                        lambda w: w.of_type("view") and len(w.latest["players"]) == 3
                    )
                # Started through B: A's socket gets the game and the room's new status.
                r = await http.post(f"{b.url}/api/rooms/{code}/start", headers=bearer(host))
                assert r.status_code == 200, r.text
                await host_a.wait_version(0)
                await host_a.wait(
                    lambda w: any(m["room"]["status"] == "playing" for m in w.of_type("room"))
                )
                async with Watcher(ws(b, code, tokens[1])) as seat1_b:
                    await seat1_b.wait_version(0)
                    # Forty commands, all through A.
                    room = Room(a.url, code, list(tokens))
                    rng = random.Random(3)

                    def play(steps: int) -> int:
                        with httpx.Client(base_url=a.url, timeout=15) as sync_http:
                            last = 0
                            for _ in range(steps):
                                step = play_http_step(sync_http, room, rng)
                                if step is None:
                                    break
                                last = step["version"]
                            return last

                    final = await asyncio.to_thread(play, 40)
                    assert final >= 20
                    for watcher in (watcher_b, seat1_b, host_a):
                        await watcher.wait_version(final)

                    # B pushed every version once, in order, each with its own events.
                    for watcher in (watcher_b, seat1_b):
                        versions = [m["version"] for m in watcher.game_views()]
                        assert versions == list(range(versions[0], final + 1)), versions
                        assert versions[0] == 0
                    r = await http.get(f"{b.url}/api/rooms/{code}/log", headers=bearer(tokens[1]))
                    logged = {e["version"]: e["events"] for e in r.json()["entries"]}
                    pushed = {m["version"]: m["events"] for m in seat1_b.game_views()[1:]}
                    assert pushed == {v: logged[v] for v in range(1, final + 1)}
                    spectator = {m["version"]: m["events"] for m in watcher_b.game_views()[1:]}
                    assert all(e.get("to") is None for es in spectator.values() for e in es)
                    # The views B pushed are the ones A serves.
                    r = await http.get(f"{a.url}/api/rooms/{code}/view", headers=bearer(tokens[1]))
                    assert seat1_b.game_views()[-1]["view"] == r.json()

        assert len(assert_log_complete(postgres_url, code)) == final

    asyncio.run(body())


def test_chat_and_presence_cross_processes(
    start_servers: Callable[..., list[ServerProcess]],
) -> None:
    a, b = start_servers(2, KARANOR_SYNC_INTERVAL="60")

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            r = await http.post(f"{a.url}/api/rooms", json={"name": "Host"})
            code, host = r.json()["code"], r.json()["seat"]["token"]
            r = await http.post(f"{b.url}/api/rooms/{code}/seats", json={"name": "Guest"})
            guest = r.json()["seat"]["token"]

            def connected(seats: list[dict[str, object]]) -> set[object]:
                return {s["index"] for s in seats if s["connected"]}

            async with Watcher(ws(a, code, host)) as host_a:
                await host_a.wait(lambda w: w.of_type("view"))
                guest_b = Watcher(ws(b, code, guest))
                await guest_b.__aenter__()
                # Presence on A reflects the socket on B: pushed, and in the room info.
                await host_a.wait(
                    lambda w: any(connected(m["seats"]) == {0, 1} for m in w.of_type("presence"))
                )
                info = (await http.get(f"{a.url}/api/rooms/{code}")).json()
                assert connected(info["seats"]) == {0, 1}

                # Chat both ways, persisted: a socket opened later gets it as history.
                await host_a.send({"type": "chat", "text": "hello from A"})
                await guest_b.wait(
                    lambda w: any(m["text"] == "hello from A" for m in w.of_type("chat"))
                )
                await guest_b.send({"type": "chat", "text": "hello from B"})
                await host_a.wait(
                    lambda w: any(m["text"] == "hello from B" for m in w.of_type("chat"))
                )
                for watcher in (host_a, guest_b):
                    texts = [m["text"] for m in watcher.of_type("chat")]
                    assert texts.count("hello from A") == 1, texts
                    assert texts.count("hello from B") == 1, texts
                async with Watcher(ws(b, code)) as late:
                    await late.wait(lambda w: len(w.of_type("chat")) >= 2)
                    assert [m["text"] for m in late.of_type("chat")] == [
                        "hello from A",
                        "hello from B",
                    ]

                # The guest leaves B: A sees it gone.
                await guest_b.close()
                await host_a.wait(lambda w: connected(w.of_type("presence")[-1]["seats"]) == {0})
                info = (await http.get(f"{a.url}/api/rooms/{code}")).json()
                assert connected(info["seats"]) == {0}

    asyncio.run(body())


def test_lost_notices_are_caught_up_from_the_database(
    start_servers: Callable[..., list[ServerProcess]], postgres_url: str
) -> None:
    """B never hears A (different Redis prefixes: every notice is lost); its periodic
    check still pushes each version, in order, with its events, read from the log."""
    (a,) = start_servers(1)
    (b,) = start_servers(1, KARANOR_REDIS_PREFIX=f"lost-{uuid.uuid4().hex[:8]}")

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            r = await http.post(
                f"{a.url}/api/rooms",
                json={"name": "Host", "options": {"max_players": 2, "end_prestige": 3}},
            )
            code, host = r.json()["code"], r.json()["seat"]["token"]
            r = await http.post(f"{a.url}/api/rooms/{code}/seats", json={"name": "P1"})
            guest = r.json()["seat"]["token"]
            async with Watcher(ws(b, code, guest)) as guest_b:
                await guest_b.wait(lambda w: w.of_type("view"))
                r = await http.post(f"{a.url}/api/rooms/{code}/start", headers=bearer(host))
                assert r.status_code == 200
                await guest_b.wait_version(0)
                room = Room(a.url, code, [host, guest])
                rng = random.Random(8)

                def play(steps: int) -> int:
                    with httpx.Client(base_url=a.url, timeout=15) as sync_http:
                        last = 0
                        for _ in range(steps):
                            step = play_http_step(sync_http, room, rng)
                            assert step is not None
                            last = step["version"]
                            if step["version"] % 7 == 0:
                                time.sleep(0.7)  # let a periodic check fall in between
                        return last

                final = await asyncio.to_thread(play, 30)
                await guest_b.wait_version(final)
                versions = [m["version"] for m in guest_b.game_views()]
                assert versions == list(range(final + 1)), versions
                r = await http.get(f"{b.url}/api/rooms/{code}/log", headers=bearer(guest))
                logged = {e["version"]: e["events"] for e in r.json()["entries"]}
                assert {m["version"]: m["events"] for m in guest_b.game_views()[1:]} == logged
        assert_log_complete(postgres_url, code)

    asyncio.run(body())


def test_redis_down_the_processes_still_serve_and_catch_up(
    start_servers: Callable[..., list[ServerProcess]], postgres_url: str
) -> None:
    """Redis unreachable: commands still work (the database decides), the other
    process still pushes every version (its periodic check reads the log)."""
    a, b = start_servers(2, REDIS_URL="redis://127.0.0.1:9/0")

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            r = await http.post(
                f"{a.url}/api/rooms",
                json={"name": "Host", "options": {"max_players": 2, "end_prestige": 3}},
            )
            code, host = r.json()["code"], r.json()["seat"]["token"]
            r = await http.post(f"{b.url}/api/rooms/{code}/seats", json={"name": "P1"})
            guest = r.json()["seat"]["token"]
            r = await http.post(f"{a.url}/api/rooms/{code}/start", headers=bearer(host))
            assert r.status_code == 200
            async with Watcher(ws(b, code, guest)) as guest_b:
                await guest_b.wait_version(0)
                room = Room(a.url, code, [host, guest])
                rng = random.Random(2)

                def play(steps: int) -> int:
                    with httpx.Client(base_url=a.url, timeout=15) as sync_http:
                        last = 0
                        for _ in range(steps):
                            step = play_http_step(sync_http, room, rng)
                            assert step is not None
                            last = step["version"]
                        return last

                final = await asyncio.to_thread(play, 15)
                await guest_b.wait_version(final)
                versions = [m["version"] for m in guest_b.game_views()]
                assert versions == list(range(versions[0], final + 1)), versions
        assert_log_complete(postgres_url, code)

    asyncio.run(body())
