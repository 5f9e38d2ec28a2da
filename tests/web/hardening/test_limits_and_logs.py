"""Limits (sockets per seat and per address, rooms per hour, idle sockets), security
headers and cookies, and tokens kept out of the server's logs: real servers."""

from __future__ import annotations

import asyncio
import contextlib
import re
from typing import Any

import httpx
import orjson
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.helpers.client import bearer, make_room, ws_url
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

API_CSP = "default-src 'none'; frame-ancestors 'none'"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self' ws: wss:; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)


async def first(ws: Any) -> dict[str, Any]:
    return orjson.loads(await asyncio.wait_for(ws.recv(), 10))  # type: ignore[no-any-return]


async def closed_with(ws: Any) -> int | None:
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            await asyncio.wait_for(ws.recv(), 10)
    return closed.value.rcvd.code if closed.value.rcvd else None


def test_sockets_per_seat_and_per_address(serve: Any) -> None:
    server = serve(KARANOR_MAX_SOCKETS_PER_SEAT="5", KARANOR_MAX_SOCKETS_PER_IP="8")
    room = make_room(server.url, humans=2)
    seat_url = ws_url(server, room, room.tokens[0])

    async def scenario() -> None:
        async with contextlib.AsyncExitStack() as stack:
            seats = [
                await stack.enter_async_context(websockets.connect(seat_url)) for _ in range(5)
            ]
            for ws in seats:
                assert (await first(ws))["type"] == "view"
            async with websockets.connect(seat_url) as sixth:
                refused = await first(sixth)
                assert (refused["type"], refused["code"]) == ("error", "too_many_sockets")
                assert await closed_with(sixth) == 4429
            # Another seat and spectators still get in, up to 8 sockets from this address.
            spectator = ws_url(server, room, None)
            others = [
                await stack.enter_async_context(
                    websockets.connect(ws_url(server, room, room.tokens[1]))
                ),
                await stack.enter_async_context(websockets.connect(spectator)),
                await stack.enter_async_context(websockets.connect(spectator)),
            ]
            for ws in others:
                assert (await first(ws))["type"] == "view"
            async with websockets.connect(spectator) as ninth:
                assert (await first(ninth))["code"] == "too_many_sockets"
                assert await closed_with(ninth) == 4429
            # Closing one frees its place at once.
            await seats[0].close()
            await asyncio.sleep(0.3)
            async with websockets.connect(seat_url) as again:
                assert (await first(again))["type"] == "view"

    asyncio.run(scenario())


def test_rooms_per_address_per_hour(serve: Any) -> None:
    server = serve(KARANOR_ROOMS_PER_HOUR="3")
    with httpx.Client(base_url=server.url) as http:
        made = [http.post("/api/rooms", json={"name": "A"}) for _ in range(4)]
        assert [r.status_code for r in made] == [201, 201, 201, 429]
        assert made[3].json()["error"]["code"] == "rate_limited"
        # Joining and reading are not limited by it.
        code = made[0].json()["code"]
        assert http.post(f"/api/rooms/{code}/seats", json={"name": "B"}).status_code == 201


def test_idle_sockets_are_closed_and_pings_keep_them(serve: Any) -> None:
    server = serve(KARANOR_WS_IDLE_SECONDS="1.5")
    room = make_room(server.url, humans=2, start=False)

    async def scenario() -> None:
        async with (
            websockets.connect(ws_url(server, room, None)) as quiet,
            websockets.connect(ws_url(server, room, room.tokens[1])) as pinging,
        ):
            await first(quiet)
            await first(pinging)
            for _ in range(4):
                await asyncio.sleep(0.6)
                await pinging.send('{"type":"ping"}')
            messages = []
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    messages.append(orjson.loads(await asyncio.wait_for(quiet.recv(), 10)))
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
            assert messages[-1]["code"] == "idle"
            await pinging.send('{"type":"ping"}')
            while (await first(pinging))["type"] != "pong":
                pass

    asyncio.run(scenario())


def test_security_headers_and_cookies(shared_server: ServerProcess) -> None:
    with httpx.Client(base_url=shared_server.url) as http:
        for path in (
            "/",
            "/r/SomeRoomCode123",
            "/api/rooms/NoSuchRoom123",
            "/healthz",
            "/static/js/main.js",
        ):
            r = http.get(path)
            # An API answer is data: a policy that allows nothing (app/web/security.py).
            want = API_CSP if path.startswith("/api/") else CSP
            assert r.headers["content-security-policy"] == want, path
            assert r.headers["x-content-type-options"] == "nosniff"
            assert r.headers["x-frame-options"] == "DENY"
            assert r.headers["referrer-policy"] == "no-referrer"
        assert "frame-ancestors 'none'" in http.get("/docs").headers["content-security-policy"]
        # Plain http: HttpOnly, SameSite, not Secure. A forged X-Forwarded-Proto is not believed.
        r = http.post("/api/rooms", json={"name": "A"}, headers={"X-Forwarded-Proto": "https"})
        cookie = r.headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=lax" in cookie and "Secure" not in cookie


def test_secure_cookie_behind_a_trusted_proxy(serve: Any) -> None:
    server = serve(KARANOR_TRUST_PROXY="true")
    with httpx.Client(base_url=server.url) as http:
        r = http.post("/api/rooms", json={"name": "A"}, headers={"X-Forwarded-Proto": "https"})
        assert "Secure" in r.headers["set-cookie"]
        token = r.json()["seat"]["token"]
        r = http.post(
            f"/api/rooms/{r.json()['code']}/session",
            headers={**bearer(token), "X-Forwarded-Proto": "https"},
        )
        assert "Secure" in r.headers["set-cookie"] and "HttpOnly" in r.headers["set-cookie"]
        plain = http.post("/api/rooms", json={"name": "A"})
        assert "Secure" not in plain.headers["set-cookie"]


def test_tokens_never_reach_the_logs(serve: Any) -> None:
    """Access log on (info): requests with ?token= and Bearer, good and bad, HTTP and WS."""
    server = serve(KARANOR_LOG_LEVEL="info")
    room = make_room(server.url, humans=2)
    secrets = [t for t in room.tokens if t] + ["ForgedTokenForgedToken0123456789"]
    with httpx.Client(base_url=server.url) as http:
        for token in secrets:
            http.get(f"/api/rooms/{room.code}/view?token={token}", headers=bearer(token))
            http.get(f"/api/rooms/{room.code}/me", headers=bearer(token))
            http.get(f"/api/rooms/{room.code}/nowhere?token={token}&x=1")
            http.get(f"/api/rooms/{room.code}/view", headers={"Authorization": f"Basic {token}"})
            with httpx.Client(base_url=server.url, cookies={f"karanor_{room.code}": token}) as c:
                c.get(f"/api/rooms/{room.code}/view")

    async def scenario() -> None:
        for token in secrets:
            with contextlib.suppress(ConnectionClosed, TimeoutError):
                async with websockets.connect(ws_url(server, room, token)) as ws:
                    await first(ws)
        with contextlib.suppress(Exception):
            async with websockets.connect(
                ws_url(server, room, secrets[0]),
                origin="http://evil.example",  # type: ignore[arg-type]
            ):
                pass

    asyncio.run(scenario())
    server.stop()
    log = server.log_text()
    assert "/ws/rooms/" in log and "GET /api/rooms/" in log, log[-2000:]
    assert "token=[redacted]" in log
    for token in secrets:
        assert token not in log, re.findall(r".*" + re.escape(token) + ".*", log)[:3]
