"""Every error of API.md with its status and code, against a real server (each backend)."""

import asyncio
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.helpers.client import bearer, make_room, new_id
from tests.helpers.server import ServerProcess


@pytest.fixture
def http(shared_server: ServerProcess) -> Iterator[httpx.Client]:
    with httpx.Client(base_url=shared_server.url, timeout=15) as client:
        yield client


def error_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    body = response.json()
    assert set(body) == {"error"} and set(body["error"]) == {"code", "message"}, body
    assert body["error"]["message"]
    code: str = body["error"]["code"]
    return code


def draft_pick(view: dict[str, Any]) -> dict[str, Any]:
    return next(a for a in view["legal_actions"] if a["type"] == "draft_pick")


def test_create_room_answers_code_url_token_and_cookie(http: httpx.Client) -> None:
    r = http.post("/api/rooms", json={"name": "  Ada  "})
    assert r.status_code == 201
    body = r.json()
    assert body["url"] == f"/r/{body['code']}"
    assert len(body["code"]) >= 11 and body["seat"]["index"] == 0
    assert len(body["seat"]["token"]) >= 22  # >= 128 bits, URL-safe
    cookie = r.headers["set-cookie"]
    # One signed device cookie names the browser's seats (docs/api.md, "The device cookie").
    assert cookie.startswith("karanor_device=")
    for part in ("HttpOnly", "Path=/", "SameSite=lax"):
        assert part in cookie
    device = cookie.split(";")[0].split("=", 1)[1]
    me = httpx.get(
        f"{str(http.base_url).rstrip('/')}/api/rooms/{body['code']}/me",
        cookies={"karanor_device": device},
    )
    assert me.json()["seat"]["index"] == 0
    room = http.get(f"/api/rooms/{body['code']}").json()
    assert room["status"] == "lobby"
    assert room["seats"] == [
        {
            "index": 0,
            "name": "Ada",
            "bot": False,
            "host": True,
            "replaced": False,
            "level": "normal",
            "connected": False,
            "left": None,
        }
    ]
    assert room["options"]["max_players"] == 4


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"name": ""},
        {"name": "x" * 41},
        {"name": "a\x00b"},
        {"name": 5},
        {"name": "A", "options": {"max_players": 7}},
        {"name": "A", "options": {"max_players": "3"}},
        {"name": "A", "options": {"colour": "red"}},
        {"name": "A", "options": {"start_seat": "first"}},
        {"name": "A", "extra": 1},
        [],
    ],
)
def test_malformed_bodies_are_422_bad_request(http: httpx.Client, body: Any) -> None:
    assert error_of(http.post("/api/rooms", json=body), 422) == "bad_request"


def test_not_json_is_422(http: httpx.Client) -> None:
    r = http.post("/api/rooms", content=b"{nope", headers={"content-type": "application/json"})
    assert error_of(r, 422) == "bad_request"


def test_bodies_over_64_kb_are_413_too_large(http: httpx.Client) -> None:
    big = {"name": "A", "pad": "x" * 70_000}
    assert error_of(http.post("/api/rooms", json=big), 413) == "too_large"

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it streams
        yield b'{"name": "A", "pad": "'
        for _ in range(40):
            yield b"x" * 4096
        yield b'"}'

    r = http.post("/api/rooms", content=chunks(), headers={"content-type": "application/json"})
    assert error_of(r, 413) == "too_large"


def test_unknown_room_is_404(http: httpx.Client) -> None:
    for path in ("/api/rooms/NoSuchRoom123", "/api/rooms/x/view", "/api/rooms/%2E%2E/log"):
        assert error_of(http.get(path), 404) in ("unknown_room", "not_found")
    assert error_of(http.get("/api/rooms/NoSuchRoom123/view"), 404) == "unknown_room"
    r = http.post("/api/rooms/NoSuchRoom123/seats", json={"name": "B"})
    assert error_of(r, 404) == "unknown_room"
    assert error_of(http.get("/api/nothing-here"), 404) == "not_found"
    assert error_of(http.patch("/api/rooms"), 405) == "method_not_allowed"


def test_room_deleted_by_another_process_is_404(
    http: httpx.Client, shared_server: ServerProcess
) -> None:
    """A room this process has cached but another process deleted (karanor cleanup)
    answers 404 unknown_room, never a 500."""
    from app.rooms.cleanup import delete_room
    from app.store.db import create_db_engine

    room = make_room(shared_server.url, humans=2)
    assert http.get(f"/api/rooms/{room.code}").status_code == 200  # now cached
    db = create_db_engine(shared_server.env["DATABASE_URL"])
    try:
        assert delete_room(db, room.code)
    finally:
        db.dispose()
    r = http.get(f"/api/rooms/{room.code}")
    assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_room"


def test_lobby_rules(http: httpx.Client, shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=2, options={"max_players": 3}, start=False)
    code, host, guest = room.code, room.host, bearer(room.tokens[1] or "")
    # Only the host manages the room; a spectator is 401, another seat 403.
    assert error_of(http.post(f"/api/rooms/{code}/bots", json={}), 401) == "bad_token"
    assert error_of(http.post(f"/api/rooms/{code}/bots", json={}, headers=guest), 403) == "not_host"
    assert error_of(http.post(f"/api/rooms/{code}/start", headers=guest), 403) == "not_host"
    r = http.delete(f"/api/rooms/{code}/seats/1", headers=guest)
    assert error_of(r, 403) == "not_host"
    r = http.put(f"/api/rooms/{code}/options", json={"options": {"end_prestige": 4}}, headers=guest)
    assert error_of(r, 403) == "not_host"
    # The host changes options; the rules refuse impossible ones.
    r = http.put(f"/api/rooms/{code}/options", json={"options": {"end_prestige": 4}}, headers=host)
    assert r.status_code == 200 and r.json()["options"]["end_prestige"] == 4
    # Removing: unknown seat 404, the host's own seat 409.
    assert error_of(http.delete(f"/api/rooms/{code}/seats/5", headers=host), 404) == "unknown_seat"
    r = http.delete(f"/api/rooms/{code}/seats/0", headers=host)
    assert error_of(r, 409) == "cannot_remove_host"
    assert error_of(http.delete(f"/api/rooms/{code}/seats/9", headers=host), 422) == "bad_request"
    # Full: 409 room_full.
    r = http.post(f"/api/rooms/{code}/seats", json={"name": "Third"})
    third = bearer(r.json()["seat"]["token"])
    assert r.json()["seat"]["index"] == 2
    assert error_of(http.post(f"/api/rooms/{code}/seats", json={"name": "4"}), 409) == "room_full"
    assert error_of(http.post(f"/api/rooms/{code}/bots", json={}, headers=host), 409) == "room_full"
    r = http.put(f"/api/rooms/{code}/options", json={"options": {"max_players": 2}}, headers=host)
    assert error_of(r, 400) == "bad_options"
    # A removed seat's token stops working; later seats move down one.
    assert http.delete(f"/api/rooms/{code}/seats/1", headers=host).status_code == 200
    assert error_of(http.get(f"/api/rooms/{code}/me", headers=guest), 401) == "bad_token"
    assert error_of(http.get(f"/api/rooms/{code}/view", headers=guest), 401) == "bad_token"
    assert http.get(f"/api/rooms/{code}/me", headers=third).json()["seat"]["index"] == 1
    names = [s["name"] for s in http.get(f"/api/rooms/{code}").json()["seats"]]
    assert names == ["Host", "Third"]
    # Commands before the start: 409 not_started. The lobby view is minimal.
    r = http.post(
        f"/api/rooms/{code}/commands", json={"id": "a", "command": {"type": "work"}}, headers=third
    )
    assert error_of(r, 409) == "not_started"
    lobby = http.get(f"/api/rooms/{code}/view", headers=third).json()
    assert (lobby["status"], lobby["seat"], lobby["version"]) == ("lobby", 1, 0)
    # Start; then joining, bots, starting again are 409 room_started.
    r = http.post(f"/api/rooms/{code}/start", json={"options": {"end_prestige": 3}}, headers=host)
    assert r.status_code == 200 and r.json()["status"] == "playing" and r.json()["version"] == 0
    assert (
        error_of(http.post(f"/api/rooms/{code}/seats", json={"name": "x"}), 409) == "room_started"
    )
    assert error_of(http.post(f"/api/rooms/{code}/start", headers=host), 409) == "room_started"
    assert error_of(http.post(f"/api/rooms/{code}/bots", headers=host), 409) == "room_started"
    assert error_of(http.delete(f"/api/rooms/{code}/seats/1", headers=host), 409) == "room_started"


def test_start_needs_two_seats(http: httpx.Client, shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=1, options={"max_players": 2}, start=False)
    r = http.post(f"/api/rooms/{room.code}/start", headers=room.host)
    assert error_of(r, 409) == "not_enough_players"


def test_tokens_and_sessions(http: httpx.Client, shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=2)
    code = room.code
    forged = bearer("A" * 32)
    assert error_of(http.get(f"/api/rooms/{code}/view", headers=forged), 401) == "bad_token"
    assert error_of(http.get(f"/api/rooms/{code}/me", headers=forged), 401) == "bad_token"
    r = http.post(f"/api/rooms/{code}/commands", json={"id": "x", "command": {}}, headers=forged)
    assert error_of(r, 401) == "bad_token"
    basic = {"Authorization": "Basic dXNlcjpwYXNz"}
    assert error_of(http.get(f"/api/rooms/{code}/view", headers=basic), 401) == "bad_token"
    r = http.post(f"/api/rooms/{code}/commands", json={"id": "x", "command": {"type": "work"}})
    assert error_of(r, 401) == "bad_token"
    # Another room's token is no good here.
    other = make_room(shared_server.url, humans=2, start=False)
    assert error_of(http.get(f"/api/rooms/{code}/me", headers=other.host), 401) == "bad_token"
    # Spectators: no seat, no private part.
    assert http.get(f"/api/rooms/{code}/me").json() == {"seat": None}
    spectator = http.get(f"/api/rooms/{code}/view").json()
    assert spectator["seat"] is None and spectator["private"] is None
    assert spectator["legal_actions"] == []
    # POST /session turns a Bearer token into this browser's cookie.
    with httpx.Client(base_url=shared_server.url) as browser:
        assert browser.get(f"/api/rooms/{code}/me").json() == {"seat": None}
        assert error_of(browser.post(f"/api/rooms/{code}/session"), 401) == "bad_token"
        r = browser.post(f"/api/rooms/{code}/session", headers=bearer(room.tokens[1] or ""))
        assert r.status_code == 200 and r.json()["seat"]["index"] == 1
        assert "HttpOnly" in r.headers["set-cookie"]
        me = browser.get(f"/api/rooms/{code}/me").json()["seat"]
        assert me == {"index": 1, "name": "Player 1", "host": False, "bot": False}
        mine = browser.get(f"/api/rooms/{code}/view").json()
        assert mine["seat"] == 1 and mine["private"] is not None


def test_commands_idempotence_and_versions(
    http: httpx.Client, shared_server: ServerProcess
) -> None:
    room = make_room(shared_server.url, humans=2)
    code, host = room.code, room.host
    url = f"/api/rooms/{code}/commands"
    view = http.get(f"/api/rooms/{code}/view", headers=host).json()
    assert view["version"] == 0 and view["status"] == "playing"
    assert {a["type"] for a in view["legal_actions"]} == {"draft_pick"}
    # Rule refusals: 400 with the engine's code; nothing is stored.
    r = http.post(url, json={"id": new_id(), "command": {"type": "work"}}, headers=host)
    assert error_of(r, 400) == "wrong_phase"
    r = http.post(url, json={"id": new_id(), "command": {"type": "fly"}}, headers=host)
    assert error_of(r, 400) == "unknown_command"
    r = http.post(url, json={"id": new_id(), "command": {"type": "move"}}, headers=host)
    assert error_of(r, 400) == "bad_command"
    r = http.post(url, json={"id": "", "command": {"type": "work"}}, headers=host)
    assert error_of(r, 422) == "bad_request"
    r = http.post(url, json={"id": "x" * 65, "command": {"type": "work"}}, headers=host)
    assert error_of(r, 422) == "bad_request"
    # A stale expected_version: 409.
    pick = draft_pick(view)
    r = http.post(url, json={"id": new_id(), "command": pick, "expected_version": 3}, headers=host)
    assert error_of(r, 409) == "stale_version"
    # Accepted, then resent: the same answer, nothing changes.
    first_id = new_id()
    body = {"id": first_id, "command": pick, "expected_version": 0}
    first = http.post(url, json=body, headers=host)
    assert first.status_code == 200
    assert first.json()["version"] == 1 and first.json()["duplicate"] is False
    assert {"type": "draft_pick", "to": 0, "card": pick["card"]} in first.json()["events"]
    again = http.post(url, json=body, headers=host)
    assert again.status_code == 200
    assert again.json() == {**first.json(), "duplicate": True}
    assert http.get(f"/api/rooms/{code}").json()["version"] == 1
    # The same id from another seat is that seat's own command.
    guest = bearer(room.tokens[1] or "")
    guest_view = http.get(f"/api/rooms/{code}/view", headers=guest).json()
    r = http.post(url, json={"id": first_id, "command": draft_pick(guest_view)}, headers=guest)
    assert r.status_code == 200 and r.json()["version"] == 2
    # The log filters the private pick out for others.
    entries = http.get(f"/api/rooms/{code}/log?after=0", headers=guest).json()["entries"]
    assert [(e["version"], e["seat"]) for e in entries] == [(1, 0), (2, 1)]
    assert all(ev.get("to") in (None, 1) for e in entries for ev in e["events"])
    assert http.get(f"/api/rooms/{code}/log?after=1").json()["entries"][0]["version"] == 2
    assert error_of(http.get(f"/api/rooms/{code}/log?after=-1"), 422) == "bad_request"
    assert error_of(http.get(f"/api/rooms/{code}/log?after=x"), 422) == "bad_request"


def test_rate_limit_is_429(shared_server: ServerProcess) -> None:
    """A seat's commands past its burst (40 at once, then 20 a second) are 429
    `rate_limited`. The 100 requests go out together: sent one after another, a loaded
    machine can take longer than the bucket's refill between two, and none is refused."""
    room = make_room(shared_server.url, humans=2)
    url = f"{shared_server.url}/api/rooms/{room.code}/commands"

    async def burst() -> list[httpx.Response]:
        async with httpx.AsyncClient(limits=httpx.Limits(max_connections=100)) as client:
            return await asyncio.gather(
                *(
                    client.post(
                        url, json={"id": new_id(), "command": {"type": "work"}}, headers=room.host
                    )
                    for _ in range(100)
                )
            )

    statuses = asyncio.run(burst())
    codes = [r.status_code for r in statuses]
    assert set(codes) == {400, 429}, codes  # a refused command or a refused request, no other
    assert codes.count(400) >= 40  # the burst is served
    assert error_of(statuses[codes.index(429)], 429) == "rate_limited"


def test_openapi_describes_every_route(http: httpx.Client) -> None:
    schema = http.get("/openapi.json").json()
    paths = schema["paths"]
    for path, method in [
        ("/api/rooms", "post"),
        ("/api/rooms/{code}", "get"),
        ("/api/rooms/{code}/seats", "post"),
        ("/api/rooms/{code}/seats/{index}", "delete"),
        ("/api/rooms/{code}/bots", "post"),
        ("/api/rooms/{code}/options", "put"),
        ("/api/rooms/{code}/start", "post"),
        ("/api/rooms/{code}/session", "post"),
        ("/api/rooms/{code}/me", "get"),
        ("/api/rooms/{code}/view", "get"),
        ("/api/rooms/{code}/commands", "post"),
        ("/api/rooms/{code}/log", "get"),
    ]:
        operation = paths[path][method]
        ok = next(s for s in operation["responses"] if s.startswith("2"))
        assert "$ref" in operation["responses"][ok]["content"]["application/json"]["schema"]
        assert "422" in operation["responses"]
    assert "ErrorOut" in schema["components"]["schemas"]


def test_a_link_as_a_qr_code(http: httpx.Client) -> None:
    """The lobby and the game menu show room and resume links as QR codes made here."""
    r = http.post("/api/qr", json={"text": "http://192.168.1.20:8000/r/abcDEF123"})
    assert r.status_code == 200 and r.headers["content-type"].startswith("image/svg+xml")
    assert r.text.startswith("<svg") and "<path" in r.text
    assert error_of(http.post("/api/qr", json={"text": "javascript:alert(1)"}), 422)
    assert error_of(http.post("/api/qr", json={"text": "http://x/" + "a" * 600}), 422)
