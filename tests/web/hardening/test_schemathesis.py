"""Schemathesis against the app's own OpenAPI schema, in-process (ASGI), on each backend.

Every HTTP operation is fuzzed from its schema (valid and invalid bodies, paths,
queries, headers). Each example goes out in one of several guises drawn by Hypothesis:
as generated, against a real room (a lobby one or a game in play) with the host's
token, a guest's token, a forged token, another room's token, a malformed
Authorization header, or none. Whatever happens: no 5xx, and every answer is
documented (status code, content type, body schema).
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable
from schemathesis import GenerationMode, checks

from app.config import Settings
from app.main import create_app
from app.store import migrate

pytestmark = pytest.mark.slow

MAX_EXAMPLES = 40
AUTH = ["generated", "host", "guest", "forged", "other_room", "malformed", "none"]


@dataclass
class Room:
    code: str
    host: str
    guest: str


@dataclass
class World:
    """Real rooms to aim the fuzzer at; remade when a case changed them."""

    client: Any
    rooms: dict[str, Room] = field(default_factory=dict)
    dirty: set[str] = field(default_factory=set)

    def make(self, kind: str) -> Room:
        c = self.client
        r = c.post("/api/rooms", json={"name": "Host", "options": {"max_players": 3}})
        assert r.status_code == 201, r.text
        code, host = r.json()["code"], r.json()["seat"]["token"]
        r = c.post(f"/api/rooms/{code}/seats", json={"name": "Guest"})
        assert r.status_code == 201, r.text
        guest = r.json()["seat"]["token"]
        if kind == "playing":
            r = c.post(f"/api/rooms/{code}/start", json={}, headers=_bearer(host))
            assert r.status_code == 200, r.text
        return Room(code, host, guest)

    def room(self, kind: str) -> Room:
        if kind not in self.rooms or kind in self.dirty:
            self.rooms[kind] = self.make(kind)
            self.dirty.discard(kind)
        return self.rooms[kind]


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@pytest.fixture(scope="module")
def app_and_world(backend_url: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    from schemathesis.python import asgi

    migrate.upgrade(backend_url)
    data: Path = tmp_path_factory.mktemp("data")
    app = create_app(
        Settings(
            data_dir=data,
            database_url=backend_url,
            bot_delay=0,
            rooms_per_hour=0,
            cleanup_interval_seconds=0,
            command_rate=10_000,
            command_burst=10_000,
        )
    )
    with asgi.get_client(app) as client:
        yield app, World(client)
    # The lifespan (database engine, bot tasks) ends with the schema's own event loop.
    asgi.shutdown_lifespans()


@pytest.fixture(scope="module")
def api_schema(app_and_world: Any) -> Any:
    app, _ = app_and_world
    return schemathesis.openapi.from_asgi("/openapi.json", app)


@pytest.fixture(scope="module")
def world(app_and_world: Any) -> World:
    return app_and_world[1]


def _labels() -> list[str]:
    """Every operation of the schema (read from an app that is never started)."""
    spec = create_app(Settings(database_url="sqlite://")).openapi()
    loaded = schemathesis.openapi.from_dict(spec)
    return sorted(result.ok().label for result in loaded.get_all_operations())


LABELS = _labels()
MODES = [GenerationMode.POSITIVE, GenerationMode.NEGATIVE]


def test_every_route_is_fuzzed() -> None:
    """The schema lists every HTTP route of the app (pages aside)."""
    assert len(LABELS) >= 14, LABELS
    assert "POST /api/rooms/{code}/commands" in LABELS


@pytest.mark.parametrize("mode", MODES, ids=lambda m: m.value)
@pytest.mark.parametrize("label", LABELS)
def test_api_answers_are_documented_and_never_5xx(
    label: str, mode: GenerationMode, api_schema: Any, world: World
) -> None:
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None, label

    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    @settings(
        max_examples=MAX_EXAMPLES,
        deadline=None,
        phases=[Phase.explicit, Phase.generate],
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def run(case: Any, data: Any) -> None:
        check(case, data, world)

    try:
        run()
    except Unsatisfiable:
        # Nothing the schema forbids (GET /healthz, or a path of plain strings): no negative case.
        assert mode is GenerationMode.NEGATIVE, label


def check(case: Any, data: Any, world: World) -> None:
    target = data.draw(st.sampled_from(["generated", "lobby", "playing"]), label="room")
    auth = data.draw(st.sampled_from(AUTH), label="auth")
    params = case.path_parameters if case.path_parameters is not None else {}
    room: Room | None = None
    if "code" in params and target != "generated":
        room = world.room(target)
        params["code"] = room.code
    headers = dict(case.headers or {})
    if auth != "generated":
        headers.pop("Authorization", None)
        headers.pop("authorization", None)
    if auth in ("host", "guest") and room is not None:
        headers["Authorization"] = f"Bearer {room.host if auth == 'host' else room.guest}"
    elif auth == "forged":
        headers["Authorization"] = f"Bearer {secrets.token_urlsafe(24)}"
    elif auth == "other_room":
        headers["Authorization"] = f"Bearer {world.room('lobby').host}"
    elif auth == "malformed":
        headers["Authorization"] = data.draw(
            st.sampled_from(["Basic dXNlcjpwYXNz", "Bearer", "Bearer  ", "token abc", "x" * 300])
        )
    case.headers = headers
    started = time.monotonic()
    # Not checked: `positive_data_acceptance` (a schema-valid command the rules refuse is a
    # documented 400), and `ignored_auth` once we put our own token in place of the
    # generated one (the guises above test authentication themselves).
    excluded = [checks.positive_data_acceptance]
    if auth != "generated":
        excluded.append(checks.ignored_auth)
    response = case.call_and_validate(excluded_checks=excluded)
    assert time.monotonic() - started < 10
    # Changes that spoil a room for later cases: use a fresh one next time.
    if room is not None and response.status_code < 300 and case.method.upper() != "GET":
        world.dirty.add(target)
