"""Retention: `karanor cleanup [--dry-run]` and the server's periodic pass (each backend)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from sqlalchemy import update

from app.rooms import cleanup
from app.store import repo as tables
from app.store.chat_rows import chat_messages
from app.store.db import create_db_engine, write_transaction
from tests.helpers.client import bearer, make_room, new_id
from tests.helpers.server import REPO_ROOT


def age(url: str, code: str, days: float) -> None:
    """Make every timestamp of room `code` `days` old."""
    at = datetime.now(UTC) - timedelta(days=days)
    engine = create_db_engine(url)
    try:
        with write_transaction(engine) as conn:
            room_id = (
                conn.execute(tables.rooms.select().where(tables.rooms.c.code == code)).one().id
            )
            conn.execute(
                update(tables.rooms).where(tables.rooms.c.id == room_id).values(updated_at=at)
            )
            conn.execute(
                update(tables.games).where(tables.games.c.room_id == room_id).values(updated_at=at)
            )
            conn.execute(
                update(chat_messages)
                .where(chat_messages.c.room_id == room_id)
                .values(created_at=at)
            )
            games = tables.games.select().where(tables.games.c.room_id == room_id)
            for game in conn.execute(games).all():
                conn.execute(
                    update(tables.game_events)
                    .where(tables.game_events.c.game_id == game.id)
                    .values(created_at=at)
                )
    finally:
        engine.dispose()


def karanor(url: str, *args: str) -> dict[str, Any]:
    env = {
        **os.environ,
        "DATABASE_URL": url,
        "KARANOR_FINISHED_RETENTION_DAYS": "30",
        "KARANOR_IDLE_RETENTION_DAYS": "14",
    }
    out = subprocess.run(
        [sys.executable, "-m", "app.cli", *args],
        cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    return json.loads(out.stdout.strip().splitlines()[-1])  # type: ignore[no-any-return]


@pytest.mark.slow
def test_cleanup_command_deletes_only_expired_rooms(serve: Any, database_url: str) -> None:
    server = serve(KARANOR_CLEANUP_INTERVAL_SECONDS="0")
    fresh = make_room(server.url, humans=2)
    old_lobby = make_room(server.url, humans=2, start=False)
    old_game = make_room(server.url, humans=2)
    recent_chat = make_room(server.url, humans=2, start=False)
    finished_young = make_room(server.url, humans=2)
    # A command keeps a game alive: it is its latest activity.
    with httpx.Client(base_url=server.url) as http:
        view = http.get(f"/api/rooms/{fresh.code}/view", headers=fresh.host).json()
        r = http.post(
            f"/api/rooms/{fresh.code}/commands",
            json={"id": new_id(), "command": view["legal_actions"][0]},
            headers=fresh.host,
        )
        assert r.status_code == 200
    age(database_url, fresh.code, 20)  # ... until it is 20 days old too
    age(database_url, old_lobby.code, 15)
    age(database_url, old_game.code, 15)
    age(database_url, recent_chat.code, 20)
    age(database_url, finished_young.code, 20)
    engine = create_db_engine(database_url)
    with write_transaction(engine) as conn:
        conn.execute(
            update(tables.rooms)
            .where(tables.rooms.c.code == finished_young.code)
            .values(status="finished")
        )
        # Chat today keeps a room.
        room_id = (
            conn.execute(tables.rooms.select().where(tables.rooms.c.code == recent_chat.code))
            .one()
            .id
        )
        conn.execute(chat_messages.insert().values(room_id=room_id, seat=0, name="Host", text="hi"))
    engine.dispose()
    expected = {fresh.code, old_lobby.code, old_game.code}

    dry = karanor(database_url, "cleanup", "--dry-run")
    assert dry["dry_run"] is True and dry["deleted"] == 0
    assert {r["code"] for r in dry["rooms"]} == expected
    exported = subprocess.run(
        [sys.executable, "-m", "app.cli", "export", old_game.code],
        cwd=REPO_ROOT, env={**os.environ, "DATABASE_URL": database_url},
        capture_output=True, text=True, timeout=60, check=True,
    )  # fmt: skip
    assert json.loads(exported.stdout)["room"]
    done = karanor(database_url, "cleanup")
    assert done["deleted"] == 3 and {r["code"] for r in done["rooms"]} == expected
    assert karanor(database_url, "cleanup")["deleted"] == 0
    with httpx.Client(base_url=server.url) as http:
        # (the running server may still have them cached; a fresh process must not)
        for kept in (recent_chat, finished_young):
            assert http.get(f"/api/rooms/{kept.code}").status_code == 200


@pytest.mark.slow
def test_the_server_cleans_up_periodically(serve: Any, database_url: str) -> None:
    server = serve(KARANOR_CLEANUP_INTERVAL_SECONDS="0.5", KARANOR_IDLE_RETENTION_DAYS="1")
    room = make_room(server.url, humans=2)
    with httpx.Client(base_url=server.url) as http:
        assert http.get(f"/api/rooms/{room.code}/view", headers=room.host).status_code == 200
        age(database_url, room.code, 2)
        for _ in range(100):
            r = http.get(f"/api/rooms/{room.code}")
            if r.status_code == 404:
                break
            time.sleep(0.1)
        assert r.status_code == 404 and r.json()["error"]["code"] == "unknown_room"
        assert (
            http.get(
                f"/api/rooms/{room.code}/view", headers=bearer(room.tokens[0] or "")
            ).status_code
            == 404
        )


def test_retention_zero_keeps_everything(migrated_database_url: str) -> None:
    engine = create_db_engine(migrated_database_url)
    try:
        assert cleanup.expired_rooms(engine, finished_days=0, idle_days=0) == []
        report = cleanup.cleanup(engine, finished_days=1, idle_days=1, dry_run=True)
        assert report.as_json() == {"dry_run": True, "deleted": 0, "rooms": []}
    finally:
        engine.dispose()
