"""A game row of before revision 0002 (snapshot_version NULL: "the snapshot is at
`version`") moved on without a snapshot keeps the snapshot's version (issue 32).

Left NULL, the next load took the old snapshot for the new version and silently dropped
every command logged since the upgrade (found by tests/store/test_upgrades.py on the
0001 fixture: a game played on after the upgrade reloaded without its new commands).
Each of the store's three ways of moving a version is tried: `append_event`, the group
commit's plain statements (SQLite, and PostgreSQL with a game twice), and PostgreSQL's
one statement for distinct games.
"""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import text

from app.store import repo
from app.store.db import create_db_engine
from app.store.writer import LogRecord


def _game_at(conn: Any, version: int) -> int:
    """A room and a game at `version` with a snapshot and no snapshot_version (NULL)."""
    conn.execute(text("INSERT INTO rooms (code, options) VALUES ('OLD1', '{}')"))
    room_id = conn.execute(text("SELECT id FROM rooms WHERE code = 'OLD1'")).scalar_one()
    conn.execute(
        text(
            "INSERT INTO games (room_id, content_pack, options, seed, version, snapshot)"
            " VALUES (:r, 'base', '{}', 1, :v, '{\"at\": 3}')"
        ),
        {"r": room_id, "v": version},
    )
    return int(conn.execute(text("SELECT id FROM games")).scalar_one())


def _record(game_id: int, old: int, n: int) -> LogRecord:
    return LogRecord(
        game_id=game_id,
        room_id=0,
        old_version=old,
        seat=0,
        command_id=f"c{n}",
        command={"type": "end_turn"},
        events=[],
        status="playing",
    )


@pytest.mark.parametrize("how", ["append_event", "append_events", "append_events_twice"])
def test_null_snapshot_version_is_kept_when_the_version_moves(
    migrated_database_url: str, how: str
) -> None:
    engine = create_db_engine(migrated_database_url)
    try:
        with engine.begin() as conn:
            game_id = _game_at(conn, 3)
        with engine.begin() as conn:
            if how == "append_event":
                assert repo.append_event(
                    conn,
                    game_id=game_id,
                    old_version=3,
                    seat=0,
                    command_id="c1",
                    command={"type": "end_turn"},
                    events=[],
                    snapshot=None,
                    status="playing",
                )
            elif how == "append_events":
                assert repo.append_events(conn, [_record(game_id, 3, 1)]) == [True]
            else:  # a game twice in a group: never one statement
                records = [_record(game_id, 3, 1), _record(game_id, 4, 2)]
                assert repo.append_events(conn, records) == [True, True]
        with engine.connect() as conn:
            stored = repo.game_snapshot(conn, game_id=game_id)
        assert stored.snapshot == {"at": 3}
        assert stored.snapshot_version == 3  # not the new version: the log rows after 3 count
        assert stored.version == (5 if how == "append_events_twice" else 4)
    finally:
        engine.dispose()
