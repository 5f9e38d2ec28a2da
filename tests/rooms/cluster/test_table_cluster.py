"""Issue 16 across two processes (`app/rooms/table.py`): a seat the host hands to a bot,
and the turn timer, on two real servers sharing PostgreSQL and Redis.

The toy game (`tests/games/toy.py`, "Race to N") keeps the turns plain: seats play in
order 0, 1, 2, ... and its bot's move is known, so the log says exactly who played what.
The turn timer's smallest setting is 1 second a turn (`PUT .../timer`, no reserve); no
test-only setting shortens it.
"""

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest
import redis.asyncio as aioredis

from tests.helpers.client import bearer, new_id
from tests.helpers.server import ServerProcess
from tests.rooms.cluster.cluster import Watcher, assert_log_complete

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

TOY = {"KARANOR_GAMES": "tests.games.toy:GAME"}


def ws(server: ServerProcess, code: str, token: str | None = None) -> str:
    url = f"{server.ws_url}/ws/rooms/{code}"
    return f"{url}?token={token}" if token else url


def add(n: int) -> dict[str, Any]:
    return {"type": "add", "n": n}


async def toy_room(
    http: httpx.AsyncClient, via: list[ServerProcess], target: int = 50
) -> tuple[str, list[str]]:
    """A started toy room: the host made it through `via[0]`, seat i joined through
    `via[i]`. Returns (code, each seat's token)."""
    r = await http.post(
        f"{via[0].url}/api/rooms",
        json={"name": "Host", "game": "toy", "options": {"target": target}},
    )
    assert r.status_code == 201, r.text
    code, tokens = r.json()["code"], [r.json()["seat"]["token"]]
    for i, server in enumerate(via[1:], start=1):
        r = await http.post(f"{server.url}/api/rooms/{code}/seats", json={"name": f"P{i}"})
        assert r.status_code == 201, r.text
        assert r.json()["seat"]["index"] == i
        tokens.append(r.json()["seat"]["token"])
    http.cookies.clear()  # the joins' seat cookies: every call below names its token
    r = await http.post(f"{via[0].url}/api/rooms/{code}/start", headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return code, tokens


def replaced(watcher: Watcher, seat: int) -> bool | None:
    """Whether the latest "room" message this socket got shows `seat` replaced."""
    rooms = watcher.of_type("room")
    if not rooms:
        return None
    return bool(rooms[-1]["room"]["seats"][seat]["replaced"])


def seen_connected(watcher: Watcher, seat: int) -> bool | None:
    """Whether the latest presence this socket got shows `seat` connected."""
    found = watcher.of_type("presence")
    if not found:
        return None
    return next(s["connected"] for s in found[-1]["seats"] if s["index"] == seat)


async def command(
    http: httpx.AsyncClient,
    server: ServerProcess,
    code: str,
    token: str,
    n: int,
    expected_version: int | None = None,
) -> httpx.Response:
    body: dict[str, Any] = {"id": new_id(), "command": add(n)}
    if expected_version is not None:
        body["expected_version"] = expected_version
    return await http.post(
        f"{server.url}/api/rooms/{code}/commands", json=body, headers=bearer(token)
    )


async def until(check: Callable[[], Any], timeout: float, what: str) -> Any:
    """Poll `await check()` until it is truthy (a condition with a deadline)."""
    deadline = time.monotonic() + timeout
    while True:
        found = await check()
        if found:
            return found
        assert time.monotonic() < deadline, f"timed out: {what}"
        await asyncio.sleep(0.05)


class Notices:
    """Every Redis notice of one room (what each process tells the others), with the
    id of the process that sent it."""

    def __init__(self, redis_url: str, prefix: str, code: str) -> None:
        self.client = aioredis.Redis.from_url(redis_url)
        self.channel = f"{prefix}:room:{code}"
        self.got: list[dict[str, Any]] = []
        self._task: asyncio.Task[None] | None = None

    async def __aenter__(self) -> "Notices":
        self.pubsub = self.client.pubsub()
        await self.pubsub.subscribe(self.channel)
        # The subscription is confirmed before anything the test does is published.
        while await self.pubsub.get_message(timeout=1.0) is None:
            pass
        self._task = asyncio.create_task(self._read())
        return self

    async def _read(self) -> None:
        async for message in self.pubsub.listen():
            if message["type"] == "message":
                self.got.append(orjson.loads(message["data"]))

    async def __aexit__(self, *exc: object) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task
        await self.pubsub.aclose()
        await self.client.aclose()

    def of_kind(self, kind: str) -> list[dict[str, Any]]:
        return [n for n in self.got if n.get("t") == kind]


# --- 1. a seat played by a bot ----------------------------------------------------------


def test_a_replaced_seat_is_played_once_across_processes_and_handed_back(
    start_servers: Callable[..., list[ServerProcess]], postgres_url: str
) -> None:
    """The host replaces P1 through A; the bot plays P1's turns once each, whether the
    other seats play through A or B; B's sockets see the seat replaced; the host hands it
    back through B, then P1's own command through A is the next move. P1's socket on B
    takes a replaced seat back too, and every process sees it."""
    # No periodic check: every cross-process push comes from a Redis notice.
    a, b = start_servers(2, KARANOR_SYNC_INTERVAL="60", **TOY)

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            code, (host, p1, p2) = await toy_room(http, [a, a, b])
            path = f"/api/rooms/{code}"
            async with (
                Watcher(ws(a, code, host)) as host_a,
                Watcher(ws(b, code, p2)) as p2_b,
                Watcher(ws(b, code)) as spectator_b,
            ):
                sockets = (host_a, p2_b, spectator_b)
                for watcher in sockets:
                    await watcher.wait_version(0)

                # P1 is at the table on B: A knows (its socket saw the presence) and
                # refuses to hand the seat to a bot.
                async with Watcher(ws(b, code, p1)) as p1_b:
                    await p1_b.wait_version(0)
                    await host_a.wait(lambda w: seen_connected(w, 1) is True)
                    r = await http.post(f"{a.url}{path}/seats/1/bot", headers=bearer(host))
                    assert r.status_code == 409, r.text
                    assert r.json()["error"]["code"] == "seat_present"
                await host_a.wait(lambda w: seen_connected(w, 1) is False)

                # P1 is away: the host, through A, lets a bot play the seat.
                r = await http.post(f"{a.url}{path}/seats/1/bot", headers=bearer(host))
                assert r.status_code == 200, r.text
                assert r.json()["seats"][1]["replaced"] and r.json()["seats"][1]["bot"]
                # B's sockets (another seat's and a spectator's) see it replaced.
                for watcher in sockets:
                    await watcher.wait(lambda w: replaced(w, 1) is True)
                info = (await http.get(f"{b.url}{path}")).json()
                assert info["seats"][1]["replaced"] and info["seats"][1]["bot"]

                # Two rounds: the host plays through B then A, P2 through B; the bot
                # plays P1's turn after each host move, made by whichever process.
                version = 0
                for host_via in (b, a):
                    r = await command(http, host_via, code, host, 1, version)
                    assert r.status_code == 200, r.text
                    version += 1  # the host's move
                    version += 1  # the bot's move for P1
                    for watcher in sockets:
                        await watcher.wait_version(version)
                    r = await command(http, b, code, p2, 1, version)
                    assert r.status_code == 200, r.text
                    version += 1
                    for watcher in sockets:
                        await watcher.wait_version(version)
                assert version == 6
                r = await command(http, a, code, host, 1, version)
                assert r.status_code == 200, r.text
                version += 2  # the host, then the bot for P1: P2's turn
                for watcher in sockets:
                    await watcher.wait_version(version)

                # The host gives the seat back through B; A's sockets see it.
                r = await http.delete(f"{b.url}{path}/seats/1/bot", headers=bearer(host))
                assert r.status_code == 200, r.text
                assert not r.json()["seats"][1]["replaced"] and not r.json()["seats"][1]["bot"]
                for watcher in sockets:
                    await watcher.wait(lambda w: replaced(w, 1) is False)
                # P2 through B, the host through B: now the game waits for P1, and no bot
                # plays it: P1's own command through A, at exactly that version, is next.
                for token in (p2, host):
                    r = await command(http, b, code, token, 1, version)
                    assert r.status_code == 200, r.text
                    version += 1
                r = await command(http, a, code, p1, 1, version)
                assert r.status_code == 200, r.text
                assert r.json()["version"] == version + 1
                version += 1
                for watcher in sockets:
                    await watcher.wait_version(version)
                assert [m["version"] for m in spectator_b.game_views()] == list(range(version + 1))

                # Replaced again through A; P1's socket on B takes the seat back, and the
                # host's socket on A sees it given back.
                r = await http.post(f"{a.url}{path}/seats/1/bot", headers=bearer(host))
                assert r.status_code == 200, r.text
                await host_a.wait(lambda w: replaced(w, 1) is True)
                async with Watcher(ws(b, code, p1)) as p1_b:
                    await p1_b.wait_version(version)
                    await host_a.wait(lambda w: replaced(w, 1) is False)
                    info = (await http.get(f"{a.url}{path}")).json()
                    assert not info["seats"][1]["replaced"] and not info["seats"][1]["bot"]
                # No move was made meanwhile (P2's turn, a person's).
                assert (await http.get(f"{a.url}{path}")).json()["version"] == version

        rows = assert_log_complete(postgres_url, code)
        # Host, bot for P1, P2; three times; then the host and P1 itself.
        assert [seat for _v, seat, _id in rows] == [0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1]
        # The bot's three moves, each made once (its command id names its version); P1's
        # last one is its own.
        bot_rows = [
            (v, command_id) for v, _seat, command_id in rows if command_id.startswith("bot-")
        ]
        assert bot_rows == [(2, "bot-2"), (5, "bot-5"), (8, "bot-8")]

    asyncio.run(body())


def test_a_person_connected_on_another_process_is_not_replaced(
    start_servers: Callable[..., list[ServerProcess]],
) -> None:
    """The API's `409 seat_present` holds whichever process the host calls: P1 has a
    socket on B; the host's call through A (which serves no socket of the room) must
    be refused."""
    a, b = start_servers(2, **TOY)

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            code, (host, p1) = await toy_room(http, [a, b])
            async with Watcher(ws(b, code, p1)) as p1_b:
                await p1_b.wait_version(0)
                # The room's info, read through B, says P1 is at the table.
                info = (await http.get(f"{b.url}/api/rooms/{code}")).json()
                assert info["seats"][1]["connected"]
                r = await http.post(f"{a.url}/api/rooms/{code}/seats/1/bot", headers=bearer(host))
                assert r.status_code == 409, r.text
                assert r.json()["error"]["code"] == "seat_present"

    asyncio.run(body())


# --- 2. the turn timer --------------------------------------------------------------------


def test_the_turn_timer_expires_once_across_processes(
    start_servers: Callable[..., list[ServerProcess]],
    postgres_url: str,
    redis_url: str,
    redis_prefix: str,
) -> None:
    """A 1-second turn timer set through A; P1 (a socket on B, idle: at the table) runs
    out of time: a bot plays that one turn for P1 once (command id `standin-2`, whichever
    process rings), the seat stays P1's (no seat change), and both processes' sockets see
    the new version marked `by: "standin"`. Then the host (idle too, at the table) runs out
    of time the same way, and so on to the end (issue 27)."""
    a, b = start_servers(2, **TOY)

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            code, (host, p1) = await toy_room(http, [a, b], target=30)
            path = f"/api/rooms/{code}"
            async with (
                Watcher(ws(a, code, host)) as host_a,
                Watcher(ws(b, code, p1)) as p1_b,
                Watcher(ws(a, code)) as spectator_a,
                Watcher(ws(b, code)) as spectator_b,
                Notices(redis_url, redis_prefix, code) as notices,
            ):
                sockets = (host_a, p1_b, spectator_a, spectator_b)
                for watcher in sockets:
                    await watcher.wait_version(0)
                r = await command(http, a, code, host, 1, 0)
                assert r.status_code == 200, r.text
                for watcher in sockets:
                    await watcher.wait_version(1)

                # P1's turn: the host sets the timer through A; P1's clock runs.
                r = await http.put(
                    f"{a.url}{path}/timer", json={"turn_seconds": 1}, headers=bearer(host)
                )
                assert r.status_code == 200, r.text
                timer = r.json()["timer"]
                assert (timer["turn_seconds"], timer["reserve_seconds"]) == (1, 0)
                assert [d["seat"] for d in timer["deadlines"]] == [1]
                info = (await http.get(f"{b.url}{path}")).json()
                assert info["timer"] == timer  # B reads the same timer

                # P1 does nothing: a bot plays its turn (version 2), seen by the sockets
                # of both processes as a stand-in's; the seat is not handed to a bot.
                for watcher in sockets:
                    await watcher.wait_version(2)
                    v2 = next(m for m in watcher.game_views() if m["version"] == 2)
                    assert (v2.get("by"), v2.get("seat")) == ("standin", 1)
                # The host does nothing either: the same, turn after turn, to the end.
                for watcher in sockets:
                    await watcher.wait(
                        lambda w: w.game_views() and w.game_views()[-1]["view"]["result"]
                    )
                final = spectator_a.game_views()[-1]["version"]
                for watcher in sockets:
                    assert [m["version"] for m in watcher.game_views()] == list(range(final + 1))
                info = (await http.get(f"{b.url}{path}")).json()
                assert info["status"] == "finished" and info["version"] == final
                assert [s["replaced"] for s in info["seats"]] == [False, False]
                assert info["timer"]["deadlines"] == []

                # Each process's notices: one "v" per version (each move made once, by
                # one process), and no seat change after the timer's own notice.
                async def every_version_told() -> bool:
                    return len(notices.of_kind("v")) >= final

                await until(every_version_told, 10, "every version's notice")
                versions = sorted(n["v"] for n in notices.of_kind("v"))
                assert versions == list(range(1, final + 1))
                assert len(notices.of_kind("seats")) == 1, notices.of_kind("seats")

        rows = assert_log_complete(postgres_url, code)
        assert [seat for _v, seat, _id in rows] == [(v - 1) % 2 for v, _s, _i in rows]
        assert not rows[0][2].startswith("bot-")  # the host's own first move
        assert [command_id for _v, _seat, command_id in rows[1:]] == [
            f"standin-{v}" for v, _seat, _id in rows[1:]
        ]

    asyncio.run(body())


def test_a_stale_process_does_not_stop_the_timer(
    start_servers: Callable[..., list[ServerProcess]],
) -> None:
    """B served the room at version 0 (a spectator that left); the timer was set at
    version 0 and the host played halfway through its turn, through A. P1 then does
    nothing: P1's seat must be handed to a bot one turn (2 s) after the host's move,
    and the stored deadlines must only ever name the seat the game waits for."""
    a, b = start_servers(2, **TOY)
    turn = 2

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            code, (host, _p1) = await toy_room(http, [a, a])
            path = f"/api/rooms/{code}"
            async with Watcher(ws(a, code, host)) as host_a:
                await host_a.wait_version(0)
                # B holds the game at version 0: a socket of P1's there, then gone.
                async with Watcher(ws(b, code, _p1)) as p1_b:
                    await p1_b.wait_version(0)
                    await host_a.wait(lambda w: seen_connected(w, 1) is True)
                    r = await http.put(
                        f"{a.url}{path}/timer",
                        json={"turn_seconds": turn},
                        headers=bearer(host),
                    )
                    assert r.status_code == 200, r.text
                    host_deadline = r.json()["timer"]["deadlines"][0]["at"]
                    # B has read the timer (its socket got the room with the deadline).
                    await p1_b.wait(
                        lambda w: any(
                            m["room"]["timer"] and m["room"]["timer"]["deadlines"]
                            for m in w.of_type("room")
                        )
                    )
                await host_a.wait(lambda w: seen_connected(w, 1) is False)

                # The host plays halfway through its turn, through A: P1's clock starts.
                async def halfway() -> bool:
                    return time.time() >= host_deadline - turn / 2

                await until(halfway, turn, "half the host's turn")
                r = await command(http, a, code, host, 1, 0)
                assert r.status_code == 200, r.text
                moved = time.time()

                wrong: list[Any] = []

                async def p1_played_by_bot() -> bool:
                    info = (await http.get(f"{a.url}{path}")).json()
                    if info["version"] == 1:
                        deadlines = info["timer"]["deadlines"]
                        seats = [d["seat"] for d in deadlines]
                        # The clocks are stored just after the version (their own
                        # write): a read between the two sees version 1 with the host's
                        # clock as it was before the move, untouched.
                        before = deadlines == [{"seat": 0, "at": host_deadline}]
                        if seats not in ([1], []) and not before:  # it waits for P1 only
                            wrong.append(info["timer"])
                    return bool(info["version"] >= 2)

                try:
                    await until(p1_played_by_bot, turn + 8, "P1's seat out of time")
                except AssertionError:
                    raise AssertionError(
                        f"P1 idle {time.time() - moved:.1f}s on a {turn}s turn is still not "
                        f"replaced; stored deadlines named another seat: {wrong[:2]}"
                    ) from None
                assert wrong == [], wrong
                info = (await http.get(f"{a.url}{path}")).json()
                assert info["seats"][1]["replaced"]

    asyncio.run(body())
