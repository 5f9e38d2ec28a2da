"""A small HTTP-only table for operations tests: rooms made and played through the public
API alone (no test helper of the game), so it also drives a server installed from the
wheel. Commands are picked at random from each seat's `legal_actions`."""

import random
import uuid
from dataclasses import dataclass
from typing import Any

import httpx


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass
class Table:
    """A started room: its code and each human seat's token."""

    code: str
    tokens: list[str]


def open_table(http: httpx.Client, *, humans: int = 2, bots: int = 0) -> Table:
    """Create a room, seat `humans` players and `bots` bots, start it."""
    players = max(2, humans + bots)
    r = http.post("/api/rooms", json={"name": "Host", "options": {"max_players": players}})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    tokens = [r.json()["seat"]["token"]]
    for i in range(1, humans):
        r = http.post(f"/api/rooms/{code}/seats", json={"name": f"Player {i}"})
        assert r.status_code == 201, r.text
        tokens.append(r.json()["seat"]["token"])
    for _ in range(bots):
        r = http.post(f"/api/rooms/{code}/bots", json={}, headers=bearer(tokens[0]))
        assert r.status_code == 201, r.text
    r = http.post(f"/api/rooms/{code}/start", json={}, headers=bearer(tokens[0]))
    assert r.status_code == 200, r.text
    return Table(code, tokens)


def view(http: httpx.Client, table: Table, seat: int = 0) -> dict[str, Any]:
    r = http.get(f"/api/rooms/{table.code}/view", headers=bearer(table.tokens[seat]))
    assert r.status_code == 200, r.text
    result: dict[str, Any] = r.json()
    return result


def try_one_command(http: httpx.Client, table: Table, rng: random.Random) -> int | None:
    """Send one legal command from the first human seat that has any; the new version when
    accepted, None when no human may act now or the command was overtaken."""
    for seat, token in enumerate(table.tokens):
        current = view(http, table, seat)
        legal = current["legal_actions"]
        if current["status"] != "playing" or not legal:
            continue
        r = http.post(
            f"/api/rooms/{table.code}/commands",
            json={
                "id": str(uuid.uuid4()),
                "command": rng.choice(legal),
                "expected_version": current["version"],
            },
            headers=bearer(token),
        )
        if r.status_code == 200:
            version: int = r.json()["version"]
            return version
        assert r.status_code in (400, 409), r.text  # overtaken by a bot or another seat
        return None
    return None


def log_of(http: httpx.Client, table: Table) -> list[dict[str, Any]]:
    r = http.get(f"/api/rooms/{table.code}/log", headers=bearer(table.tokens[0]))
    assert r.status_code == 200, r.text
    entries: list[dict[str, Any]] = r.json()["entries"]
    return entries
