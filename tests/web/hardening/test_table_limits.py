"""Limits of the routes a table uses now and then (issue 32, docs/security.md): Play
again counts against the rooms an address may open in an hour; `/api/qr`, the table's
host routes and Play again asks, `/metrics` and `/readyz` are rate-limited per address
at levels a table never reaches; a link's QR code has a bounded cost; a second device
keeps its seat across Play again. In-process (TestClient), on SQLite, with the toy game."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.store import migrate
from tests.web.test_errors import error_of

TOY = "tests.games.toy:GAME"


@pytest.fixture
def client_for(sqlite_url: str) -> Iterator[Any]:
    """`client_for(**settings)`: a TestClient on a migrated SQLite database hosting the toy
    game, with these settings; closed at the end."""
    migrate.upgrade(sqlite_url)
    opened: list[TestClient] = []

    def make(**overrides: Any) -> TestClient:
        settings = Settings(database_url=sqlite_url, bot_delay=0, games=[TOY], **overrides)
        client = TestClient(create_app(settings)).__enter__()
        opened.append(client)
        return client

    yield make
    for client in opened:
        client.__exit__(None, None, None)


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def finished_toy_room(http: TestClient) -> tuple[str, list[str]]:
    """A toy room of two seats played to its end over HTTP: (code, [token 0, token 1])."""
    made = http.post("/api/rooms", json={"name": "Ann", "game": "toy"})
    assert made.status_code == 201, made.text
    code, host = made.json()["code"], made.json()["seat"]["token"]
    joined = http.post(f"/api/rooms/{code}/seats", json={"name": "Bo"}).json()
    tokens = [host, joined["seat"]["token"]]
    assert http.post(f"/api/rooms/{code}/start", headers=bearer(host)).status_code == 200
    for n in itertools.count():
        assert n < 40, "the toy game should end in a few moves"
        view = http.get(f"/api/rooms/{code}/view", headers=bearer(host)).json()
        if not view["to_act"]:
            break
        seat = view["to_act"][0]
        mine = http.get(f"/api/rooms/{code}/view", headers=bearer(tokens[seat])).json()
        sent = http.post(
            f"/api/rooms/{code}/commands",
            json={"id": f"c-{n}", "command": mine["legal_actions"][0]},
            headers=bearer(tokens[seat]),
        )
        assert sent.status_code == 200, sent.text
    assert http.get(f"/api/rooms/{code}").json()["status"] == "finished"
    return code, tokens


def test_play_again_counts_against_the_rooms_per_hour(client_for: Any) -> None:
    http = client_for(rooms_per_hour=2)
    code, (ann, bo) = finished_toy_room(http)  # the first room of the hour
    assert http.post("/api/rooms", json={"name": "A"}).status_code == 201
    refused = http.post("/api/rooms", json={"name": "A"})
    assert error_of(refused, 429) == "rate_limited"
    # Play again would open a third room: refused too, and nothing opened.
    again = http.post(f"/api/rooms/{code}/rematch", headers=bearer(bo))
    assert error_of(again, 429) == "rate_limited"
    assert http.get(f"/api/rooms/{code}").json()["rematch"] is None


def test_joining_a_rematch_takes_no_room_from_the_quota(client_for: Any) -> None:
    http = client_for(rooms_per_hour=2)
    code, (ann, bo) = finished_toy_room(http)
    opened = http.post(f"/api/rooms/{code}/rematch", headers=bearer(bo))
    assert opened.status_code == 201, opened.text  # the second room of the hour
    # The quota is spent, yet the others still take their seats in the open rematch.
    joined = http.post(f"/api/rooms/{code}/rematch", headers=bearer(ann))
    assert joined.status_code == 201, joined.text
    assert joined.json()["code"] == opened.json()["code"]
    assert error_of(http.post("/api/rooms", json={"name": "A"}), 429) == "rate_limited"


def test_a_second_device_keeps_its_seat_across_play_again(client_for: Any) -> None:
    http = client_for()
    code, (ann, bo) = finished_toy_room(http)
    first = http.post(f"/api/rooms/{code}/rematch", headers=bearer(bo)).json()
    new, phone = first["code"], first["seat"]["token"]
    # The same person asks again from a second device (the same seat of the old room).
    second = http.post(f"/api/rooms/{code}/rematch", headers=bearer(bo)).json()
    assert (second["code"], second["seat"]["index"]) == (new, first["seat"]["index"])
    laptop = second["seat"]["token"]
    for token in (phone, laptop):  # both devices hold the seat
        me = http.get(f"/api/rooms/{new}/me", headers=bearer(token))
        assert me.status_code == 200, me.text
        assert me.json()["seat"]["name"] == "Bo"
    # Ann's asks, from two devices, leave Bo's tokens alone and keep hers working.
    ann_phone = http.post(f"/api/rooms/{code}/rematch", headers=bearer(ann)).json()
    ann_laptop = http.post(f"/api/rooms/{code}/rematch", headers=bearer(ann)).json()
    assert ann_phone["seat"]["index"] == ann_laptop["seat"]["index"] == 0  # her old place
    for token in (phone, laptop, ann_phone["seat"]["token"], ann_laptop["seat"]["token"]):
        assert http.get(f"/api/rooms/{new}/me", headers=bearer(token)).json()["seat"]


def over_limit(http: TestClient, call: Any, limit: int) -> None:
    """`call()` answers other than 429 `limit` times, then 429 `rate_limited`."""
    answers = [call() for _ in range(limit)]
    assert all(r.status_code != 429 for r in answers), [r.status_code for r in answers]
    assert error_of(call(), 429) == "rate_limited"


def test_qr_codes_are_rate_limited_per_address(client_for: Any) -> None:
    http = client_for(qr_per_minute=5)
    link = {"text": "http://192.168.1.20:8000/r/AbCdEfGhIjKl"}
    over_limit(http, lambda: http.post("/api/qr", json=link), 5)
    # Another address is not held back by this one's flood.
    other = TestClient(http.app, client=("10.0.0.9", 5000))
    assert other.post("/api/qr", json=link).status_code == 200


def test_a_qr_link_is_bounded_in_bytes(client_for: Any) -> None:
    http = client_for()
    longest = "http://h/" + "a" * (256 - 9)
    assert http.post("/api/qr", json={"text": longest}).status_code == 200
    assert error_of(http.post("/api/qr", json={"text": longest + "a"}), 422) == "bad_request"
    # 120 four-byte characters: under the 500 characters, over the bytes.
    wide = "http://h/" + "\U0001f600" * 120
    assert error_of(http.post("/api/qr", json={"text": wide}), 422) == "bad_request"


def test_table_routes_are_rate_limited_per_address(client_for: Any) -> None:
    http = client_for(table_per_minute=4)
    made = http.post("/api/rooms", json={"name": "Ann", "game": "toy"}).json()
    code, host = made["code"], made["seat"]["token"]
    timer = {"turn_seconds": 60}
    over_limit(
        http, lambda: http.put(f"/api/rooms/{code}/timer", json=timer, headers=bearer(host)), 4
    )
    # Play again asks share the table's budget (a 409 here: the game is not over).
    again = http.post(f"/api/rooms/{code}/rematch", headers=bearer(host))
    assert error_of(again, 429) == "rate_limited"


@pytest.mark.parametrize("path", ["/metrics", "/readyz"])
def test_operations_routes_are_rate_limited_per_address(client_for: Any, path: str) -> None:
    http = client_for(ops_per_minute=6)
    over_limit(http, lambda: http.get(path), 6)
    assert http.get("/healthz").status_code == 200  # liveness is never refused


def test_default_limits_leave_a_table_alone(client_for: Any) -> None:
    """A table's busy evening from one address (a household behind one router): six
    devices each opening both QR codes twice, the host trying a dozen timers, everyone
    asking Play again twice, a probe and a scrape every few seconds for a minute."""
    http = client_for()
    code, (ann, bo) = finished_toy_room(http)
    link = {"text": f"http://192.168.1.20:8000/r/{code}"}
    answers = [http.post("/api/qr", json=link) for _ in range(6 * 2 * 2)]
    answers += [
        http.put(f"/api/rooms/{code}/timer", json={"turn_seconds": 30 + n}, headers=bearer(ann))
        for n in range(12)
    ]
    answers += [http.post(f"/api/rooms/{code}/rematch", headers=bearer(t)) for t in (ann, bo) * 6]
    answers += [http.get(path) for path in ("/readyz", "/metrics") * 30]
    assert [r.status_code for r in answers if r.status_code == 429] == []
