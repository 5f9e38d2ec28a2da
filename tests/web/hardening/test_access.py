"""Access control against real servers (each backend): every command is authorised per
message; a seat never acts, trades, chats or reads as another; only the host manages."""

from __future__ import annotations

import asyncio
from typing import Any

import httpx
import orjson
import pytest
import websockets
from websockets.exceptions import ConnectionClosed

from tests.helpers.client import Room, bearer, make_room, new_id, secrets_of, ws_url
from tests.helpers.server import ServerProcess

pytestmark = pytest.mark.slow


def code_of(response: httpx.Response, status: int) -> str:
    assert response.status_code == status, response.text
    return str(response.json()["error"]["code"])


async def next_of(ws: Any, kind: str) -> dict[str, Any]:
    while True:
        message = orjson.loads(await asyncio.wait_for(ws.recv(), 10))
        if message["type"] == kind:
            return message  # type: ignore[no-any-return]


def test_host_powers_are_only_the_hosts(shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=3, options={"max_players": 4}, start=False)
    other = make_room(shared_server.url, humans=2, start=False)
    code = room.code
    guest = bearer(room.tokens[1] or "")
    strangers = {
        "guest": (guest, 403, "not_host"),
        "spectator": ({}, 401, "bad_token"),
        "other room's host": (other.host, 401, "bad_token"),
        "forged": (bearer("A" * 32), 401, "bad_token"),
    }
    with httpx.Client(base_url=shared_server.url, timeout=15) as http:
        for who, (headers, status, expected) in strangers.items():
            calls = [
                http.post(f"/api/rooms/{code}/bots", json={}, headers=headers),
                http.put(
                    f"/api/rooms/{code}/options",
                    json={"options": {"max_players": 2}},
                    headers=headers,
                ),
                http.delete(f"/api/rooms/{code}/seats/2", headers=headers),
                http.post(f"/api/rooms/{code}/start", json={}, headers=headers),
            ]
            for r in calls:
                assert code_of(r, status) == expected, (who, r.request.url)
        # Nothing changed.
        info = http.get(f"/api/rooms/{code}").json()
        assert info["status"] == "lobby" and len(info["seats"]) == 3
        assert info["options"]["max_players"] == 4
        # The host may.
        assert http.post(f"/api/rooms/{code}/start", json={}, headers=room.host).status_code == 200


def test_a_seat_never_acts_or_reads_as_another(shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=3)
    code = room.code
    tokens = [t or "" for t in room.tokens]
    with httpx.Client(base_url=shared_server.url, timeout=15) as http:
        views = [http.get(f"/api/rooms/{code}/view", headers=bearer(t)).json() for t in tokens]
        assert [v["seat"] for v in views] == [0, 1, 2]
        hands = [secrets_of(v) for v in views]
        for seat, v in enumerate(views):
            others = set().union(*(h for i, h in enumerate(hands) if i != seat))
            assert not secrets_of(v) & others
        url = f"/api/rooms/{code}/commands"
        # Seat 0 sends seat 1's legal picks: refused, nothing stored.
        for command in views[1]["legal_actions"]:
            r = http.post(url, json={"id": new_id(), "command": command}, headers=bearer(tokens[0]))
            assert r.status_code == 400, r.text
        # Naming another seat anywhere in a command is refused.
        pick = views[1]["legal_actions"][0]
        for extra in ({"seat": 1}, {"player": 1}, {"as": 1}):
            r = http.post(
                url, json={"id": new_id(), "command": {**pick, **extra}}, headers=bearer(tokens[0])
            )
            assert code_of(r, 400) == "bad_command"
        r = http.post(
            url, json={"id": new_id(), "command": pick, "seat": 1}, headers=bearer(tokens[0])
        )
        assert code_of(r, 422) == "bad_request"
        assert http.get(f"/api/rooms/{code}").json()["version"] == 0
        # Finish the draft (each seat its own pick), then trade offers.
        while True:
            view = http.get(f"/api/rooms/{code}/view", headers=bearer(tokens[0])).json()
            if view["turn"]["phase"] != "draft":
                break
            for t in tokens:
                mine = http.get(f"/api/rooms/{code}/view", headers=bearer(t)).json()
                picks = [a for a in mine["legal_actions"] if a["type"] == "draft_pick"]
                if picks:
                    r = http.post(
                        url, json={"id": new_id(), "command": picks[0]}, headers=bearer(t)
                    )
                    assert r.status_code == 200, r.text
        offer = {"type": "offer", "to": [1], "give": {"gold": 1}, "want": {}}
        r = http.post(url, json={"id": new_id(), "command": offer}, headers=bearer(tokens[0]))
        assert r.status_code == 200, r.text
        view = http.get(f"/api/rooms/{code}/view", headers=bearer(tokens[1])).json()
        offer_id = view["offers"][-1]["id"]
        # Seat 2 may not withdraw seat 0's offer, nor accept one addressed to seat 1;
        # seat 1 may not withdraw it either, seat 0 may not accept its own.
        for token, command in [
            (tokens[2], {"type": "withdraw", "offer": offer_id}),
            (tokens[2], {"type": "accept", "offer": offer_id}),
            (tokens[1], {"type": "withdraw", "offer": offer_id}),
            (tokens[0], {"type": "accept", "offer": offer_id}),
        ]:
            r = http.post(url, json={"id": new_id(), "command": command}, headers=bearer(token))
            assert r.status_code == 400, (command, r.text)
        after = http.get(f"/api/rooms/{code}/view", headers=bearer(tokens[1])).json()
        assert after["offers"][-1]["status"] == "open"
        # The log read by seat 2 carries no private event of another seat.
        entries = http.get(f"/api/rooms/{code}/log", headers=bearer(tokens[2])).json()["entries"]
        assert all(e.get("to") in (None, 2) for entry in entries for e in entry["events"])
        spectator = http.get(f"/api/rooms/{code}/log").json()["entries"]
        assert all("to" not in e for entry in spectator for e in entry["events"])


def test_chat_is_always_from_the_senders_seat(shared_server: ServerProcess) -> None:
    room = make_room(shared_server.url, humans=2)

    async def scenario() -> None:
        async with (
            websockets.connect(ws_url(shared_server, room, room.tokens[1])) as guest,
            websockets.connect(ws_url(shared_server, room, room.tokens[0])) as host,
        ):
            await next_of(guest, "view")
            await next_of(host, "view")
            for forged in (
                {"type": "chat", "text": "hi", "seat": 0},
                {"type": "chat", "text": "hi", "name": "Host"},
            ):
                await guest.send(orjson.dumps(forged).decode())
                assert (await next_of(guest, "error"))["code"] == "bad_message"
            await guest.send(orjson.dumps({"type": "chat", "text": "it is me"}).decode())
            line = await next_of(host, "chat")
            assert (line["seat"], line["name"], line["text"]) == (1, "Player 1", "it is me")

    asyncio.run(scenario())


def test_a_removed_seat_stops_at_once_even_on_another_process(
    serve: Any, server_factory: Any, database_url: str
) -> None:
    """Two processes on one database, no Redis: process B never hears of a removal made
    through process A, yet its socket of the removed seat is refused at the next message
    (per-message authorisation), and the seat's token is refused over HTTP."""
    a = serve()
    b = server_factory(
        env={**a.env, "KARANOR_DATA_DIR": str(a.workdir / "b"), "DATABASE_URL": database_url}
    ).start()
    room: Room = make_room(a.url, humans=3, options={"max_players": 3}, start=False)
    removed = room.tokens[2] or ""

    async def scenario() -> None:
        async with websockets.connect(f"{b.ws_url}/ws/rooms/{room.code}?token={removed}") as ws:
            view = await next_of(ws, "view")
            assert view["view"]["seat"] == 2
            with httpx.Client(base_url=a.url) as http:
                r = http.delete(f"/api/rooms/{room.code}/seats/2", headers=room.host)
                assert r.status_code == 200, r.text
            await ws.send(orjson.dumps({"type": "chat", "text": "still here?"}).decode())
            error = await next_of(ws, "error")
            assert error["code"] == "bad_token"
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401

    asyncio.run(scenario())
    with httpx.Client(base_url=b.url) as http:
        assert code_of(http.get(f"/api/rooms/{room.code}/me", headers=bearer(removed)), 401)
        r = http.post(f"/api/rooms/{room.code}/session", headers=bearer(removed))
        assert code_of(r, 401) == "bad_token"


def test_a_token_works_only_in_its_own_room(shared_server: ServerProcess) -> None:
    one = make_room(shared_server.url, humans=2)
    two = make_room(shared_server.url, humans=2)
    with httpx.Client(base_url=shared_server.url) as http:
        for path in ("view", "me", "log"):
            r = http.get(f"/api/rooms/{two.code}/{path}", headers=one.host)
            assert code_of(r, 401) == "bad_token"
        # The room cookie of one room is not read by another.
        http.cookies.set(f"karanor_{one.code}", one.tokens[0] or "")
        assert http.get(f"/api/rooms/{two.code}/me").json() == {"seat": None}
        assert http.get(f"/api/rooms/{one.code}/me").json()["seat"]["index"] == 0

    async def scenario() -> None:
        async with websockets.connect(
            f"{shared_server.ws_url}/ws/rooms/{two.code}?token={one.tokens[0]}"
        ) as ws:
            assert (await next_of(ws, "error"))["code"] == "bad_token"

    asyncio.run(scenario())
