"""The WebSocket protocol against a real server: views, acks, coded errors, chat, presence."""

import asyncio
from collections.abc import Callable
from typing import Any

import httpx
import orjson
import pytest
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.exceptions import ConnectionClosed, InvalidStatus

from tests.helpers.client import Room, make_room, new_id, ws_url
from tests.helpers.server import ServerProcess


async def recv(ws: ClientConnection, kind: str | None = None, timeout: float = 10) -> Any:
    """The next message (of type `kind`, skipping others)."""
    while True:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), timeout))
        if kind is None or message["type"] == kind:
            return message


async def send(ws: ClientConnection, message: Any) -> None:
    await ws.send(orjson.dumps(message).decode())


def test_views_acks_and_coded_errors(shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=2)

    async def scenario() -> None:
        async with (
            websockets.connect(ws_url(shared_server, room, room.tokens[0])) as host,
            websockets.connect(ws_url(shared_server, room, None)) as watcher,
        ):
            first = await recv(host, "view")
            assert (first["version"], first["events"], first["view"]["seat"]) == (0, [], 0)
            watched = await recv(watcher, "view")
            assert watched["view"]["seat"] is None and watched["view"]["private"] is None

            # Malformed or unknown messages: coded errors, the socket stays open.
            for bad, code in [
                ("not json", "bad_message"),
                ("[1, 2]", "bad_message"),
                ('{"type": "dance"}', "bad_message"),
                ('{"type": "command", "id": "c1"}', "bad_message"),
                ('{"type": "chat", "text": ""}', "bad_message"),
                ('{"type": "chat", "text": "' + "x" * 501 + '"}', "bad_message"),
                ('{"type": "chat", "text": "' + "x" * 17_000 + '"}', "too_large"),
            ]:
                await host.send(bad)
                error = await recv(host, "error")
                assert error["code"] == code, bad
                assert error["message"]
            error_with_id = await _command(host, "c1", {"type": "work"})
            assert error_with_id == {**error_with_id, "type": "error", "id": "c1"}
            assert error_with_id["code"] == "wrong_phase"

            # A legal command: an ack with its id, and every socket gets its own view.
            pick = next(a for a in first["view"]["legal_actions"] if a["type"] == "draft_pick")
            command_id = new_id()
            await send(host, {"type": "command", "id": command_id, "command": pick})
            got: dict[str, Any] = {}
            while "ack" not in got or "view" not in got:
                message = await recv(host)
                got[message["type"]] = message
            assert got["ack"] == {"type": "ack", "id": command_id, "version": 1}
            assert got["view"]["version"] == 1
            assert {"type": "draft_pick", "to": 0, "card": pick["card"]} in got["view"]["events"]
            seen = await recv(watcher, "view")
            assert seen["version"] == 1
            assert all("to" not in e for e in seen["events"])
            # Resent: acknowledged again at the same version, no new view.
            await send(host, {"type": "command", "id": command_id, "command": pick})
            assert await recv(host, "ack") == {"type": "ack", "id": command_id, "version": 1}
            # Stale expected_version: coded error with the id.
            stale = await _command(host, "c2", pick, expected_version=0)
            assert (stale["code"], stale["id"]) == ("stale_version", "c2")
            # Spectators may neither act nor chat.
            assert (await _command(watcher, "s1", pick))["code"] == "forbidden"
            await send(watcher, {"type": "chat", "text": "hello"})
            assert (await recv(watcher, "error"))["code"] == "forbidden"
            # Resync answers with a fresh whole view.
            await send(host, {"type": "resync", "version": 0})
            fresh = await recv(host, "view")
            assert (fresh["version"], fresh["events"]) == (1, [])

    asyncio.run(scenario())


async def _command(
    ws: ClientConnection, command_id: str, command: Any, **extra: Any
) -> dict[str, Any]:
    await send(ws, {"type": "command", "id": command_id, "command": command, **extra})
    answer: dict[str, Any] = await recv(ws, "error")
    return answer


def test_chat_history_and_presence(shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=2, options={"max_players": 3}, start=False)

    async def scenario() -> None:
        async with websockets.connect(ws_url(shared_server, room, room.tokens[0])) as host:
            lobby = await recv(host, "view")
            assert lobby["view"]["status"] == "lobby" and lobby["view"]["seat"] == 0
            presence = await recv(host, "presence")
            assert presence["seats"] == [
                {"index": 0, "connected": True},
                {"index": 1, "connected": False},
            ]
            for i in range(55):  # chat shares the seat's rate limit (burst 40, 20/s)
                await send(host, {"type": "chat", "text": f"line {i}"})
                if i == 35:
                    await asyncio.sleep(1.0)
            for i in range(55):
                line = await recv(host, "chat")
                assert (line["seat"], line["name"], line["text"]) == (0, "Host", f"line {i}")
                assert line["at"].endswith("Z")
            async with websockets.connect(ws_url(shared_server, room, room.tokens[1])) as guest:
                await recv(guest, "view")
                history = [await recv(guest, "chat") for _ in range(50)]
                assert [m["text"] for m in history] == [f"line {i}" for i in range(5, 55)]
                joined = await recv(host, "presence")
                assert [s["connected"] for s in joined["seats"]] == [True, True]
                with httpx.Client(base_url=shared_server.url) as http:
                    seats = http.get(f"/api/rooms/{room.code}").json()["seats"]
                assert [s["connected"] for s in seats] == [True, True]
            left = await recv(host, "presence")
            assert [s["connected"] for s in left["seats"]] == [True, False]

            # Lobby changes reach the sockets: a bot joins, the game starts.
            with httpx.Client(base_url=shared_server.url) as http:
                http.post(f"/api/rooms/{room.code}/bots", json={}, headers=room.host)
                room_message = await recv(host, "room")
                assert [s["bot"] for s in room_message["room"]["seats"]] == [False, False, True]
                http.post(f"/api/rooms/{room.code}/start", json={}, headers=room.host)
            started = await recv(host, "view")
            while started["view"]["status"] != "playing":
                started = await recv(host, "view")
            assert started["view"]["players"][2]["name"] == "Bot 3"

    asyncio.run(scenario())


def test_chat_past_the_rate_is_refused(serve: Callable[..., ServerProcess]) -> None:
    """Chat lines count against the seat's rate: past the burst, coded `rate_limited`
    errors. A slow refill (one line per 10 s) so that a loaded machine, which takes
    longer over each line, cannot refill the bucket as fast as it is emptied."""
    server = serve(KARANOR_COMMAND_RATE="0.1", KARANOR_COMMAND_BURST="3")
    room = make_room(server.url, humans=2, start=False)

    async def scenario() -> None:
        async with websockets.connect(ws_url(server, room, room.tokens[0])) as host:
            await recv(host, "view")
            for i in range(6):
                await send(host, {"type": "chat", "text": f"flood {i}"})
            assert (await recv(host, "error"))["code"] == "rate_limited"

    asyncio.run(scenario())


def test_removed_seat_socket_is_closed(shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=3, start=False)

    async def scenario() -> None:
        async with (
            websockets.connect(ws_url(shared_server, room, room.tokens[1])) as removed,
            websockets.connect(ws_url(shared_server, room, room.tokens[2])) as moved,
        ):
            await recv(removed, "view")
            await recv(moved, "view")
            with httpx.Client(base_url=shared_server.url) as http:
                r = http.delete(f"/api/rooms/{room.code}/seats/1", headers=room.host)
                assert r.status_code == 200
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await recv(removed)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4403
            renumbered = await recv(moved, "view")
            assert renumbered["view"]["seat"] == 1

    asyncio.run(scenario())


def test_bad_token_and_origin(shared_server: ServerProcess) -> None:
    room: Room = make_room(shared_server.url, humans=2, start=False)
    url = ws_url(shared_server, room, None)

    async def scenario() -> None:
        async with websockets.connect(url + "?token=" + "B" * 32) as forged:
            assert (await recv(forged, "error"))["code"] == "bad_token"
            with pytest.raises(ConnectionClosed) as closed:
                await recv(forged)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
        async with websockets.connect(f"{shared_server.ws_url}/ws/rooms/NoSuchRoom1234") as unknown:
            assert (await recv(unknown, "error"))["code"] == "unknown_room"
        # A browser page from another site may not open a socket; our own host may.
        with pytest.raises(InvalidStatus) as refused:
            async with websockets.connect(url, origin="http://evil.example"):  # type: ignore[arg-type]
                pass
        assert refused.value.response.status_code == 403
        own = f"http://{shared_server.host}:{shared_server.port}"
        async with websockets.connect(url, origin=own) as ok:  # type: ignore[arg-type]
            assert (await recv(ok, "view"))["view"]["status"] == "lobby"

    asyncio.run(scenario())
