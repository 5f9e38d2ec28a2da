"""Upgrades from every version (issue 32): a database written by the code of each
Alembic revision, with live games in it, upgraded to head and played on.

Each `tests/store/upgrades/REVISION.json` was written by `tests.store.upgrades.make`
running the server of the last commit at that revision (its own code, through its HTTP
API) on SQLite: for each game that tree hosted a room in the lobby, a game mid-turn
(Karanor's with open trade offers) and a finished game; from the revision with Play
again, a finished game with its rematch. Here, on SQLite and on PostgreSQL: the schema
is made at REVISION by today's migrations, the rows are loaded as they were written, the
database is upgraded to head, and today's server serves it: every room reads with the
state it had, every game loads to the state its whole log replays to (before and after
playing on), games mid-turn play on, lobbies start and play, finished games refuse
commands with a 4xx, and a rematch room takes its players and plays.
"""

from __future__ import annotations

import datetime as dt
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import httpx
import orjson
import pytest
from sqlalchemy import MetaData, text
from sqlalchemy.sql import sqltypes

from app.rooms.replay import replay_room
from app.store import migrate
from app.store.db import create_db_engine
from tests.helpers.client import Room, bearer
from tests.helpers.server import ServerProcess
from tests.ops.faults import START_TIMEOUT, play

pytestmark = [pytest.mark.slow]

FIXTURES = sorted((Path(__file__).parent / "upgrades").glob("*.json"))
STATUS = {
    "lobby": "lobby",
    "playing": "playing",
    "finished": "finished",
    "finished_with_rematch": "finished",
    "rematch_lobby": "lobby",
}


def test_a_fixture_for_every_revision() -> None:
    """A new migration needs its fixture (`python -m tests.store.upgrades.make`)."""
    have = {orjson.loads(path.read_bytes())["revision"] for path in FIXTURES}
    assert have == set(migrate.script_revisions())


def _value(column: Any, value: Any) -> Any:
    """A value as SQLite handed it out, in the form the target column takes."""
    if value is None:
        return None
    kind = column.type
    if isinstance(kind, sqltypes.JSON) and isinstance(value, str):
        return orjson.loads(value)
    if isinstance(kind, sqltypes.DateTime) and isinstance(value, str):
        return dt.datetime.fromisoformat(value)
    if isinstance(kind, sqltypes.Boolean):
        return bool(value)
    return value


def load_fixture(url: str, fixture: dict[str, Any]) -> None:
    """The schema at the fixture's revision, its rows, then every migration after it."""
    migrate.upgrade(url, fixture["revision"])
    engine = create_db_engine(url, sqlite_foreign_keys=False)
    try:
        meta = MetaData()
        meta.reflect(engine)
        with engine.begin() as conn:
            for table in meta.sorted_tables:
                dumped = fixture["tables"].get(table.name)
                if not dumped or not dumped["rows"]:
                    continue
                columns = [table.c[name] for name in dumped["columns"]]
                rows = [
                    {c.name: _value(c, v) for c, v in zip(columns, row, strict=True)}
                    for row in dumped["rows"]
                ]
                conn.execute(table.insert(), rows)
                if engine.dialect.name == "postgresql" and "id" in table.c:
                    conn.execute(
                        text(
                            f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                            f" (SELECT max(id) FROM {table.name}))"
                        )
                    )
    finally:
        engine.dispose()
    migrate.upgrade(url)
    assert migrate.current_revision(url) == migrate.head_revision()


def assert_replays(url: str, code: str, when: str) -> None:
    """The game as the server loads it is the game its whole log replays to."""
    engine = create_db_engine(url)
    try:
        replayed, loaded = replay_room(engine, code)
    finally:
        engine.dispose()
    differ = sorted(k for k in set(replayed) | set(loaded) if replayed.get(k) != loaded.get(k))
    assert not differ, f"{code} {when}: the replay differs in {differ}"


@pytest.mark.parametrize("path", FIXTURES, ids=[p.stem for p in FIXTURES])
def test_upgrade_from_revision_plays_on(
    path: Path, database_url: str, server_factory: Callable[..., ServerProcess]
) -> None:
    fixture = orjson.loads(path.read_bytes())
    load_fixture(database_url, fixture)
    server = server_factory(
        env={
            "DATABASE_URL": database_url,
            "KARANOR_BOT_DELAY_SECONDS": "0",
            "KARANOR_LOG_LEVEL": "warning",
            "KARANOR_ROOMS_PER_HOUR": "0",
        },
        start_timeout=START_TIMEOUT,
    ).start()
    rng = random.Random(4)
    rooms = {r["code"]: r for r in fixture["rooms"]}
    with httpx.Client(base_url=server.url, timeout=30) as http:
        for code, made in rooms.items():
            r = http.get(f"/api/rooms/{code}")
            assert r.status_code == 200, r.text
            assert r.json()["status"] == STATUS[made["state"]], (made["state"], r.json())
            for token in made["tokens"]:
                view = http.get(f"/api/rooms/{code}/view", headers=bearer(token))
                assert view.status_code == 200, view.text
            room = Room(server.url, code, list(made["tokens"]))
            if made["state"] == "playing":
                assert_replays(database_url, code, "as upgraded")
                if made.get("offers"):
                    view = http.get(f"/api/rooms/{code}/view", headers=room.host).json()
                    assert view["offers"], "the open offers are kept"
                play([http], room, rng, 4)
                assert_replays(database_url, code, "played on")
            elif made["state"] == "lobby":
                r = http.post(f"/api/rooms/{code}/start", json={}, headers=room.host)
                assert r.status_code == 200, r.text
                play([http], room, rng, 4)
                assert_replays(database_url, code, "started after the upgrade")
            elif made["state"].startswith("finished"):
                assert_replays(database_url, code, "finished")
                r = http.post(
                    f"/api/rooms/{code}/commands",
                    json={"id": "after-the-end", "command": {"type": "end_turn"}},
                    headers=room.host,
                )
                assert 400 <= r.status_code < 500, r.text
        for code, made in rooms.items():
            if made["state"] != "finished_with_rematch":
                continue
            again = http.get(f"/api/rooms/{code}").json()["rematch"]
            assert again in rooms and rooms[again]["state"] == "rematch_lobby"
            # The other player of the finished game asks Play again: a seat in it.
            r = http.post(f"/api/rooms/{code}/rematch", headers=bearer(made["tokens"][1]))
            assert r.status_code == 201, r.text
            assert r.json()["code"] == again
            tokens = [*rooms[again]["tokens"], r.json()["seat"]["token"]]
            room = Room(server.url, again, tokens)
            r = http.post(f"/api/rooms/{again}/start", json={}, headers=room.host)
            assert r.status_code == 200, r.text
            play([http], room, rng, 4)
            assert_replays(database_url, again, "rematch")
