"""Schemathesis against the app's own OpenAPI schema, in-process (ASGI), on each backend.

Every HTTP operation is fuzzed from its schema (valid and invalid bodies, paths,
queries, headers). Each example goes out in one of several guises drawn by Hypothesis:
as generated, against a real room (a lobby one or a game in play) with the host's
token, a guest's token, a forged token, another room's token, a malformed
Authorization header, or none. Half the cases are then made hostile: integers replaced
by the edges of the database's columns and past them (2**31, 2**63, negatives), strings
by or spiked with NUL, other control characters, bidi overrides, zero-width and astral
characters (issue 20: `log?after=2**63` was a 500, a NUL in a command id a 503 on
PostgreSQL; the fuzzer's own values stayed small). Whatever happens: no 5xx, and every
answer is documented (status code, content type, body schema). On SQLite and PostgreSQL
(`backend_url`).
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

# Cases per operation and mode: PostgreSQL's columns refuse what SQLite stores (an integer
# past 2**63, a NUL in text), so it gets the most; SQLite runs the same strategies, fewer.
MAX_EXAMPLES = {"postgresql": 40, "sqlite": 15}
# Integers at and past the edges of 32- and 64-bit columns.
EDGE_INTS = [-1, 2**31 - 1, 2**31, 2**53 + 1, 2**63 - 1, 2**63, 2**64, -(2**63) - 1]
NASTY_TEXT = [
    "\x00", "a\x00b", "\x1b[31m", "\x07", "\x7f", "\x85", "\r\n", "\u202e", "\u2066",
    "\u200b", "\ufeff", "\ud7ff", "\U0001f600", "\U0010ffff", "e\u0301", "\uff28",
]  # fmt: skip
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
    label: str, mode: GenerationMode, api_schema: Any, world: World, backend_url: str
) -> None:
    operation = api_schema.find_operation_by_label(label)
    assert operation is not None, label

    @given(case=operation.as_strategy(generation_mode=mode), data=st.data())
    @settings(
        max_examples=MAX_EXAMPLES["sqlite" if backend_url.startswith("sqlite") else "postgresql"],
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


def _leaves(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """The paths to every integer and string in `value`."""
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))]
    if isinstance(value, int | str) and not isinstance(value, bool):
        return [path]
    return []


def _nasty(value: Any, data: Any) -> Any:
    """A hostile replacement for an integer or a string (drawn)."""
    if isinstance(value, int):
        return data.draw(st.sampled_from(EDGE_INTS), label="edge int")
    how = data.draw(st.sampled_from(["spike", "replace", "unicode"]), label="text")
    nasty = data.draw(st.sampled_from(NASTY_TEXT), label="nasty")
    if how == "spike":
        cut = len(value) // 2
        return value[:cut] + nasty + value[cut:]
    if how == "replace":
        return nasty
    alphabet = st.characters(codec="utf-8", exclude_categories=["Cs"])
    return data.draw(st.text(alphabet, min_size=1, max_size=12), label="unicode")


def make_hostile(case: Any, data: Any) -> None:
    """One integer or string of the case's query or body (optional integers the fuzzer
    left out put in first) replaced by a hostile value; the rest stays as generated."""
    query = dict(case.query or {})
    for parameter in case.operation.query:
        if parameter.definition.get("schema", {}).get("type") == "integer":
            query.setdefault(parameter.name, 0)
    body = case.body
    if isinstance(body, dict) and "command" in body:
        body.setdefault("expected_version", 0)
    parts = {"query": query, "body": body}
    leaves = [(part, p) for part in parts for p in _leaves(parts[part])]
    case.query = query or case.query
    if not leaves:
        return
    part, path = data.draw(st.sampled_from(leaves), label="hostile leaf")
    if not path:  # the body is one integer or string (negative cases)
        case.body = _nasty(body, data)
        return
    holder = parts[part]
    for key in path[:-1]:
        holder = holder[key]
    holder[path[-1]] = _nasty(holder[path[-1]], data)


def check(case: Any, data: Any, world: World) -> None:
    hostile = data.draw(st.booleans(), label="hostile")
    if hostile:  # aimed where the values reach the rooms and the database
        target = data.draw(st.sampled_from(["lobby", "playing"]), label="room")
        auth = data.draw(st.sampled_from(["host", "guest", "none"]), label="auth")
        make_hostile(case, data)
    else:
        target = data.draw(st.sampled_from(["generated", "lobby", "playing"]), label="room")
        auth = data.draw(st.sampled_from(AUTH), label="auth")
    params = case.path_parameters if case.path_parameters is not None else {}
    if hostile:
        for name, value in list(params.items()):
            if isinstance(value, int):  # a string in a path may be cut to another route
                params[name] = _nasty(value, data)
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
