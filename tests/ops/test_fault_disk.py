"""SQLite on a full disk (issue 32).

The database lives on a small tmpfs mounted for the test; mid-game a filler file
takes every free byte. A command that needs space is answered with a coded 503
`unavailable` and changes nothing (the game's version stays, the view still reads);
`PRAGMA integrity_check` finds nothing wrong; once the filler is gone the same process
accepts commands again (the refused command, sent again, is new), the game goes on,
and a restarted process finds every acknowledged command in the log.
"""

from __future__ import annotations

import random
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.helpers.client import Room, make_room, new_id
from tests.helpers.policy import choose
from tests.helpers.server import ServerProcess
from tests.ops.faults import START_TIMEOUT, SmallDisk, acting, command, play, small_disk
from tests.rooms.cluster.cluster import assert_log_complete

pytestmark = [pytest.mark.slow]


@pytest.fixture
def disk() -> Iterator[SmallDisk]:
    with small_disk("16m") as made:
        yield made


def integrity(path: Path) -> str:
    """`PRAGMA integrity_check` on a read-only connection (the server may hold the file)."""
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30)
    try:
        return str(conn.execute("PRAGMA integrity_check").fetchone()[0])
    finally:
        conn.close()


def checkpoint(path: Path) -> None:
    """Empty the write-ahead log into the database file and truncate it, so that the
    next commit needs new space (a WAL already grown could hold a few more)."""
    conn = sqlite3.connect(path, timeout=30)
    try:
        busy, _frames, _done = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
        assert busy == 0
    finally:
        conn.close()


def test_sqlite_full_disk_refuses_with_503_and_recovers(
    disk: SmallDisk, server_factory: Callable[..., ServerProcess]
) -> None:
    path = disk.path / "karanor.db"
    url = f"sqlite:///{path}"
    server = server_factory(
        env={
            "DATABASE_URL": url,
            "KARANOR_BOT_DELAY_SECONDS": "0",
            "KARANOR_LOG_LEVEL": "warning",
            "KARANOR_ROOMS_PER_HOUR": "0",
        },
        start_timeout=START_TIMEOUT,
    ).start()
    room: Room = make_room(server.url, humans=2, options={"end_prestige": 12})
    rng = random.Random(7)
    with httpx.Client(base_url=server.url, timeout=15) as http:
        acked = play([http], room, rng, 6)
        before = acked[-1]["version"]
        seat, view = acting(http, room)

        checkpoint(path)
        assert disk.fill() > 0
        refused: list[dict[str, Any]] = []
        for _ in range(3):
            body = {"id": new_id(), "command": choose(view, rng)}
            r = command(http, room, seat, body, before)
            assert r.status_code == 503, r.text
            assert r.json()["error"]["code"] == "unavailable", r.text
            refused.append(body)
        # Nothing changed: the game reads at the version it had, the file is whole.
        seat_view = acting(http, room)[1]
        assert seat_view["version"] == before
        assert integrity(path) == "ok"

        disk.free_filler()
        again = refused[0]
        r = command(http, room, seat, again, before)
        assert r.status_code == 200, r.text
        assert r.json()["version"] == before + 1 and not r.json().get("duplicate")
        acked.append({"id": again["id"], "seat": seat, "version": before + 1})
        acked += play([http], room, rng, 6)
    last = acked[-1]["version"]

    server.stop()
    assert integrity(path) == "ok"
    server.start()
    with httpx.Client(base_url=server.url, timeout=15) as http:
        assert acting(http, room)[1]["version"] == last
    rows = assert_log_complete(url, room.code)
    assert len(rows) == last
    logged = {(s, c) for _v, s, c in rows}
    assert all((x["seat"], x["id"]) in logged for x in acked)
    assert not any((seat, x["id"]) in logged for x in refused[1:])
