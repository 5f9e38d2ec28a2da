"""Issue 20's "5xx on input a client can send", on a real server and each backend:
integers past their column's range, NUL and other control characters in ids, names,
chat and a command's stored strings. Each is a clear coded refusal, never a 5xx nor
`unavailable` (the database is fine), and nothing is stored.

Before the fix: `log?after=9223372036854775808` answered 500 on SQLite (503 on
PostgreSQL from 2147483648), a NUL in a command id 503 on PostgreSQL, a NUL in a chat
line `unavailable` over the WebSocket, and SQLite stored chat lines with NUL and ESC.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import httpx
import orjson
import pytest
import websockets

from tests.helpers.client import Room, bearer, make_room, new_id, ws_url
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow

INT32_MAX = 2**31 - 1
HUGE = [2**31, 2**63, 9223372036854775808, 2**64 + 1]
CONTROL = ["\x00", "\x1b", "\x07", "\x7f", "\u0085", "\r", "\n"]


@pytest.fixture(scope="module")
def room(shared_server: ServerProcess) -> Room:
    return make_room(shared_server.url, humans=2)


def refused(r: httpx.Response, status: int, code: str) -> None:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.json()["error"]["code"] == code, r.text


@pytest.mark.parametrize("after", [*HUGE, -1])
def test_log_after_past_its_column_is_422(room: Room, after: int) -> None:
    with room.http() as http:
        r = http.get(f"/api/rooms/{room.code}/log", params={"after": str(after)})
        refused(r, 422, "bad_request")
        r = http.get(f"/api/rooms/{room.code}/log", params={"after": str(INT32_MAX)})
        assert r.status_code == 200, r.text
        assert r.json() == {"entries": []}


@pytest.mark.parametrize("limit", [*HUGE, 0, 5001])
def test_log_limit_past_its_range_is_422(room: Room, limit: int) -> None:
    with room.http() as http:
        refused(http.get(f"/api/rooms/{room.code}/log?limit={limit}"), 422, "bad_request")


@pytest.mark.parametrize("version", HUGE)
def test_expected_version_past_its_column_is_422(room: Room, version: int) -> None:
    with room.http() as http:
        r = http.post(
            f"/api/rooms/{room.code}/commands",
            json={"id": new_id(), "command": {"type": "end_turn"}, "expected_version": version},
            headers=room.host,
        )
        refused(r, 422, "bad_request")


@pytest.mark.parametrize("index", [*HUGE, 6, -1])
def test_seat_index_past_its_range_is_422(room: Room, index: int) -> None:
    with room.http() as http:
        r = http.delete(f"/api/rooms/{room.code}/seats/{index}", headers=room.host)
        refused(r, 422, "bad_request")


@pytest.mark.parametrize("char", CONTROL)
def test_control_characters_in_a_command_id_are_422(room: Room, char: str) -> None:
    with room.http() as http:
        r = http.post(
            f"/api/rooms/{room.code}/commands",
            json={"id": f"a{char}b", "command": {"type": "end_turn"}},
            headers=room.host,
        )
        refused(r, 422, "bad_request")
        assert http.get(f"/api/rooms/{room.code}/log").json() == {"entries": []}


@pytest.mark.parametrize("char", CONTROL)
def test_control_characters_in_names_are_422(shared_server: ServerProcess, char: str) -> None:
    with httpx.Client(base_url=shared_server.url, timeout=15) as http:
        refused(http.post("/api/rooms", json={"name": f"Ho{char}st"}), 422, "bad_request")
        r = http.post("/api/rooms", json={"name": "Host", "options": {"max_players": 3}})
        code, host = r.json()["code"], r.json()["seat"]["token"]
        http.cookies.clear()
        r = http.post(f"/api/rooms/{code}/seats", json={"name": f"Gu{char}est"})
        refused(r, 422, "bad_request")
        r = http.post(f"/api/rooms/{code}/bots", json={"name": f"B{char}ot"}, headers=bearer(host))
        refused(r, 422, "bad_request")
        assert [s["name"] for s in http.get(f"/api/rooms/{code}").json()["seats"]] == ["Host"]


@pytest.mark.parametrize("char", ["\x00", "\x1b", "\x07", "\x7f"])
def test_control_characters_in_a_trade_note_are_a_bad_command(room: Room, char: str) -> None:
    offer = {"type": "offer", "to": None, "give": {"gold": 1}, "want": {}, "note": f"hi{char}"}
    with room.http() as http:
        r = http.post(
            f"/api/rooms/{room.code}/commands",
            json={"id": new_id(), "command": offer},
            headers=room.host,
        )
        refused(r, 400, "bad_command")
        assert http.get(f"/api/rooms/{room.code}/log").json() == {"entries": []}


async def _answers(url: str, messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Send each message and collect the socket's answer to it (skipping pushes)."""
    out = []
    async with websockets.connect(url) as ws:
        await asyncio.wait_for(ws.recv(), 10)  # the first view
        for message in messages:
            await ws.send(json.dumps(message))  # orjson refuses integers past 64 bits
            while True:
                answer = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
                if answer["type"] in ("error", "ack", "chat"):
                    out.append(answer)
                    break
        # The socket is still fine afterwards.
        await ws.send('{"type": "ping"}')
        while orjson.loads(await asyncio.wait_for(ws.recv(), 10))["type"] != "pong":
            pass
    return out


def test_hostile_websocket_messages_get_bad_message(
    shared_server: ServerProcess, room: Room
) -> None:
    messages: list[dict[str, Any]] = []
    for char in CONTROL:
        messages.append({"type": "chat", "text": f"hello{char}there"})
        messages.append({"type": "command", "id": f"a{char}b", "command": {"type": "end_turn"}})
    for big in HUGE:
        messages.append(
            {
                "type": "command",
                "id": new_id(),
                "command": {"type": "end_turn"},
                "expected_version": big,
            }
        )
        messages.append({"type": "resync", "version": big})
    answers = asyncio.run(_answers(ws_url(shared_server, room, room.tokens[0]), messages))
    assert [(a["type"], a["code"]) for a in answers] == [("error", "bad_message")] * len(
        messages
    ), answers
    with room.http() as http:
        assert http.get(f"/api/rooms/{room.code}/log").json() == {"entries": []}


def test_a_note_with_nul_over_the_websocket_is_a_bad_command(
    shared_server: ServerProcess, room: Room
) -> None:
    offer = {"type": "offer", "to": None, "give": {"gold": 1}, "want": {}, "note": "a\x00b"}
    message = {"type": "command", "id": new_id(), "command": offer}
    answers = asyncio.run(_answers(ws_url(shared_server, room, room.tokens[0]), [message]))
    assert [(a["type"], a["code"]) for a in answers] == [("error", "bad_command")]
