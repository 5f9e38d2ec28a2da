"""Issue 20's critical finding, across two processes: the host removes a middle seat,
then starts; no socket may get the view of a seat other than the one its token names
now (the removed seat's sockets close everywhere, the seats after it move down one).

Before the fix the removal answered 500 (the Redis notice could not be serialised),
the other process kept the removed seat's socket open and sent it seat 1's hand, the
seat that moved from 2 to 1 got seat 2's hand, and the last one a spectator's view.
"""

import asyncio
import uuid
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest

from tests.helpers.client import bearer
from tests.helpers.server import ServerProcess
from tests.rooms.cluster.cluster import Watcher

pytestmark = [pytest.mark.slow, pytest.mark.postgres, pytest.mark.redis]

CLOSE_SEAT_REMOVED = 4403


def ws(server: ServerProcess, code: str, token: str | None = None) -> str:
    url = f"{server.ws_url}/ws/rooms/{code}"
    return f"{url}?token={token}" if token else url


def canonical(value: Any) -> bytes:
    return orjson.dumps(value, option=orjson.OPT_SORT_KEYS)


def close_code(watcher: Watcher) -> int | None:
    code: int | None = watcher._ws.close_code
    return code


@pytest.mark.parametrize(
    ("remove_via", "start_via", "notices"),
    [("a", "b", "heard"), ("a", "a", "heard"), ("a", "a", "lost")],
    ids=[
        "removed-on-one-started-on-the-other",
        "removed-and-started-on-one",
        "every-notice-lost",
    ],
)
def test_a_removed_middle_seat_leaks_no_view_on_any_process(
    start_servers: Callable[..., list[ServerProcess]],
    remove_via: str,
    start_via: str,
    notices: str,
) -> None:
    if notices == "heard":
        # No periodic check: every push to the other process comes from a Redis notice.
        a, b = start_servers(2, KARANOR_SYNC_INTERVAL="60")
    else:
        # B never hears A (another Redis prefix): it learns only from its periodic
        # check of the database, and must still address every view by seat identity.
        (a,) = start_servers(1)
        (b,) = start_servers(1, KARANOR_REDIS_PREFIX=f"lost-{uuid.uuid4().hex[:8]}")
    servers = {"a": a, "b": b}

    async def body() -> None:
        async with httpx.AsyncClient(timeout=15) as http:
            r = await http.post(
                f"{a.url}/api/rooms", json={"name": "Host", "options": {"max_players": 4}}
            )
            assert r.status_code == 201, r.text
            code, host = r.json()["code"], r.json()["seat"]["token"]
            tokens = [host]
            for i, server in ((1, b), (2, a), (3, b)):
                r = await http.post(f"{server.url}/api/rooms/{code}/seats", json={"name": f"P{i}"})
                assert r.status_code == 201, r.text
                assert r.json()["seat"]["index"] == i
                tokens.append(r.json()["seat"]["token"])

            # Every seat has a socket on each process, and each process a spectator.
            sockets: list[tuple[str | None, Watcher]] = []
            for token in [*tokens, None]:
                for server in (a, b):
                    watcher = Watcher(ws(server, code, token))
                    await watcher.__aenter__()
                    sockets.append((token, watcher))
            try:
                for _token, watcher in sockets:
                    await watcher.wait(
                        lambda w: w.of_type("view") and len(w.latest["players"]) == 4
                    )

                # The host removes seat 1 (a middle one): 200, not 500.
                remover = servers[remove_via]
                r = await http.delete(
                    f"{remover.url}/api/rooms/{code}/seats/1", headers=bearer(host)
                )
                assert r.status_code == 200, r.text
                assert [s["name"] for s in r.json()["seats"]] == ["Host", "P2", "P3"]
                removed = tokens[1]
                # Now: seat 0 Host, seat 1 P2 (was 2), seat 2 P3 (was 3).
                now_index = {tokens[0]: 0, tokens[2]: 1, tokens[3]: 2}

                # Started at once (no waiting for the lobby to reach the other process).
                r = await http.post(
                    f"{servers[start_via].url}/api/rooms/{code}/start", headers=bearer(host)
                )
                assert r.status_code == 200, r.text

                # The removed seat's sockets close on both processes, and get no game view.
                for token, watcher in sockets:
                    if token == removed:
                        await watcher.wait(lambda w: w.closed)
                        assert close_code(watcher) == CLOSE_SEAT_REMOVED
                        assert watcher.game_views() == [], watcher.url
                r = await http.get(f"{a.url}/api/rooms/{code}/view", headers=bearer(removed))
                assert r.status_code == 401, r.text

                # Every other socket's first game view is its seat's view now, as the
                # HTTP view with the same token (or none) shows it.
                expected: dict[str | None, dict[str, Any]] = {}
                http.cookies.clear()  # the joins' seat cookies: a spectator sends none
                for token in [*now_index, None]:
                    headers = bearer(token) if token else {}
                    r = await http.get(f"{b.url}/api/rooms/{code}/view", headers=headers)
                    assert r.status_code == 200, r.text
                    expected[token] = r.json()
                    assert expected[token]["version"] == 0
                    assert expected[token]["seat"] == (now_index[token] if token else None)
                privates = [canonical(expected[t]["private"]) for t in now_index]
                assert len(set(privates)) == 3  # hands differ: the check can tell seats apart
                assert expected[None]["private"] is None

                for token, watcher in sockets:
                    if token == removed:
                        continue
                    await watcher.wait(lambda w: w.game_views())
                    first = watcher.game_views()[0]
                    assert first["version"] == 0
                    view = first["view"]
                    want = expected[token]
                    assert view["seat"] == want["seat"], watcher.url
                    assert view["private"] == want["private"], watcher.url
                    assert view == want, watcher.url
                    assert not watcher.closed, watcher.url
            finally:
                for _token, watcher in sockets:
                    await watcher.close()

    asyncio.run(body())
