"""From outside, over HTTP and WebSocket: a Dark Road command carrying a field it does not
read, with control characters in it, is refused with a coded 4xx and nothing is stored
(issue 32; docs/security.md: control characters are refused in every string a game
stores). Found by the round-three probe: the Workshop takes `pick` (a piece) and never
reads `pick2`, and `"pick2": "a\\u0000b"` was accepted and stored as sent, on both
databases."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.config import Settings
from app.main import create_app
from app.store import migrate

SEED = 37  # a seeded game where the one seat can use the Workshop on a piece early
HOSTILE = "a\u0000b"
WHAT = ("type", "building")


@pytest.fixture
def http(database_url: str) -> Iterator[TestClient]:
    migrate.upgrade(database_url)
    settings = Settings(database_url=database_url, bot_delay=0, game_seed=SEED)
    with TestClient(create_app(settings)) as client:
        yield client


def workshop_position(http: TestClient) -> tuple[str, str, dict[str, Any], int]:
    """A one-seat Dark Road game played (buildings first, else at random, seeded) until
    the Workshop on a piece is a legal action: (code, token, that action, version)."""
    made = http.post("/api/rooms", json={"name": "Ann", "game": "darkroad"}).json()
    code, token = made["code"], made["seat"]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    assert http.post(f"/api/rooms/{code}/start", headers=auth).status_code == 200
    rng = random.Random(0)
    for n in range(200):
        view = http.get(f"/api/rooms/{code}/view", headers=auth).json()
        actions = view["legal_actions"]
        for action in actions:
            workshop = action["type"] == "building" and action["building"] == "workshop"
            on_a_piece = any(v is not None for k, v in action.items() if k not in WHAT)
            if workshop and on_a_piece:
                return code, token, action, view["version"]
        buildings = [a for a in actions if a["type"] == "building"]
        sent = http.post(
            f"/api/rooms/{code}/commands",
            json={"id": f"walk-{n}", "command": rng.choice(buildings or actions)},
            headers=auth,
        )
        assert sent.status_code == 200, sent.text
    raise AssertionError("no Workshop on a piece in 200 moves")


def answer_to(socket: Any, command_id: str) -> dict[str, Any]:
    """The ack or error of command `command_id` (views and presence pass by)."""
    for _ in range(20):
        message: dict[str, Any] = socket.receive_json()
        if message["type"] in ("ack", "error") and message.get("id") == command_id:
            return message
    raise AssertionError(f"no answer to {command_id}")


def stored(http: TestClient, code: str, token: str) -> tuple[int, list[dict[str, Any]]]:
    auth = {"Authorization": f"Bearer {token}"}
    view = http.get(f"/api/rooms/{code}/view", headers=auth).json()
    log = http.get(f"/api/rooms/{code}/log", headers=auth).json()["entries"]
    return view["version"], log


def test_an_unread_field_with_control_characters_is_refused_and_not_stored(
    http: TestClient,
) -> None:
    code, token, action, version = workshop_position(http)
    hostile = {**action, "pick2": HOSTILE}
    assert action.get("pick2") is None  # a field the Workshop does not read
    before = stored(http, code, token)

    over_http = http.post(
        f"/api/rooms/{code}/commands",
        json={"id": "hostile-http", "command": hostile},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert 400 <= over_http.status_code < 500, over_http.text
    assert over_http.json()["error"]["code"]
    assert stored(http, code, token) == before

    with http.websocket_connect(f"/ws/rooms/{code}?token={token}") as socket:
        assert socket.receive_json()["type"] == "view"
        socket.send_json({"type": "command", "id": "hostile-ws", "command": hostile})
        answer = answer_to(socket, "hostile-ws")
        assert answer["type"] == "error" and answer["code"], answer
        assert stored(http, code, token) == before

        # The same command without the unread field is the legal move it was.
        socket.send_json({"type": "command", "id": "clean", "command": action})
        answer = answer_to(socket, "clean")
        assert (answer["type"], answer["version"]) == ("ack", version + 1), answer
    assert HOSTILE not in str(stored(http, code, token)[1])
