"""The writer's group commit on both backends: what each record's outcome says is what
the database holds (the log rows, the version, the snapshot, the room's status)."""

from __future__ import annotations

import asyncio
import os
import queue
import threading
from collections.abc import Iterator
from datetime import datetime
from typing import Any

import pytest
from sqlalchemy import Engine, event

from app.store import repo
from app.store.db import create_db_engine, read_connection, write_transaction
from app.store.writer import Appended, LogRecord, Writer


@pytest.fixture
def engine(migrated_database_url: str) -> Iterator[Engine]:
    engine = create_db_engine(migrated_database_url)
    yield engine
    engine.dispose()


def make_games(engine: Engine, count: int) -> list[tuple[int, int]]:
    """(room id, game id) of `count` started games at version 0."""
    out = []
    with write_transaction(engine) as conn:
        for i in range(count):
            room_id = repo.insert_room(conn, code=f"W{i:03d}", game="karanor", options={})
            repo.set_room_status(conn, room_id=room_id, status="playing", expect="lobby")
            game_id = repo.insert_game(
                conn, room_id=room_id, content_pack="base", options={}, seed=i, snapshot={"v": 0}
            )
            out.append((room_id, game_id))
    return out


def record(room_id: int, game_id: int, old: int, command_id: str, **extra: Any) -> LogRecord:
    return LogRecord(
        game_id=game_id,
        room_id=room_id,
        old_version=old,
        seat=old % 4,
        command_id=command_id,
        command={"type": "move", "to": "Kien", "n": old},
        events=[{"type": "moved", "seat": old % 4, "to": 2}],
        status=extra.pop("status", "playing"),
        snapshot=extra.pop("snapshot", None),
    )


def append_all(
    engine: Engine, records: list[LogRecord], batches: list[int] | None = None
) -> list[Appended]:
    """Queue every record while the writer thread is busy: they are written as one group
    (`batches` gets the size of each group committed)."""

    async def main() -> list[Appended]:
        writer = Writer(engine, on_batch=None if batches is None else batches.append)
        gate, holding = threading.Event(), threading.Event()
        hold = asyncio.ensure_future(writer.solo(_hold, holding, gate))
        await asyncio.to_thread(holding.wait, 10)  # the writer thread is busy now
        appended = [asyncio.ensure_future(writer.append(r)) for r in records]
        for _ in records:
            await asyncio.sleep(0)  # each append queued
        gate.set()
        await hold
        try:
            return list(await asyncio.gather(*appended))
        finally:
            await asyncio.to_thread(writer.stop)

    return asyncio.run(main())


def _hold(holding: threading.Event, gate: threading.Event) -> None:
    """On the writer thread: say so, then block until `gate` (records queue up behind)."""
    holding.set()
    gate.wait(10)


def log_of(engine: Engine, game_id: int) -> list[Any]:
    with read_connection(engine) as conn:
        return repo.events_after(conn, game_id=game_id, after=0)


def test_a_group_writes_every_record_and_its_snapshot(engine: Engine) -> None:
    games = make_games(engine, 3)
    records = [record(r, g, 0, f"c{g}") for r, g in games]
    (r0, g0) = games[0]
    records.append(record(r0, g0, 1, "second", snapshot={"v": 2, "at": {"Kien": [1, 2]}}))
    batches: list[int] = []
    outcomes = append_all(engine, records, batches)
    assert outcomes == [Appended.COMMITTED] * 4
    assert batches == [4]  # one transaction
    rows = log_of(engine, g0)
    assert [(r.version, r.command_id) for r in rows] == [(1, f"c{g0}"), (2, "second")]
    assert rows[1].command == {"type": "move", "to": "Kien", "n": 1}
    assert rows[1].events == [{"type": "moved", "seat": 1, "to": 2}]
    assert isinstance(rows[0].created_at, datetime)
    with read_connection(engine) as conn:
        head = repo.game_snapshot(conn, game_id=g0)
        assert (head.version, head.snapshot_version) == (2, 2)
        assert head.snapshot == {"v": 2, "at": {"Kien": [1, 2]}}
        for _r, g in games[1:]:
            assert repo.game_version(conn, game_id=g).version == 1
            assert repo.game_snapshot(conn, game_id=g).snapshot == {"v": 0}


def test_a_group_of_distinct_games_writes_each_as_alone(engine: Engine) -> None:
    """The rooms' case (one command per game in a group; on PostgreSQL one statement for
    the group): each game's version, status and snapshot, its log row, and a stale one
    left untouched."""
    games = make_games(engine, 4)
    (r0, g0), (r1, g1), (r2, g2), (r3, g3) = games
    assert append_all(engine, [record(r3, g3, 0, "before")]) == [Appended.COMMITTED]
    records = [
        record(r0, g0, 0, "plain"),
        record(r1, g1, 0, "snap", snapshot={"v": 1, "k": ["é", None]}),
        record(r2, g2, 0, "end", status="finished", snapshot={"over": True}),
        record(r3, g3, 0, "stale"),  # g3 is at version 1 now
    ]
    outcomes = append_all(engine, records)
    assert outcomes == [Appended.COMMITTED] * 3 + [Appended.CONFLICT]
    with read_connection(engine) as conn:
        heads = {g: repo.game_snapshot(conn, game_id=g) for _r, g in games}
        assert (heads[g0].version, heads[g0].snapshot_version, heads[g0].snapshot) == (
            1, 0, {"v": 0}
        )  # fmt: skip
        assert (heads[g1].version, heads[g1].snapshot_version, heads[g1].snapshot) == (
            1, 1, {"v": 1, "k": ["é", None]}
        )  # fmt: skip
        assert repo.game_version(conn, game_id=g2).status == "finished"
        assert (heads[g3].version, heads[g3].snapshot) == (1, {"v": 0})
    for (_r, g), command_id in zip(games[:3], ["plain", "snap", "end"], strict=True):
        (row,) = log_of(engine, g)
        assert (row.version, row.seat, row.command_id) == (1, 0, command_id)
        assert row.command == {"type": "move", "to": "Kien", "n": 0}
        assert row.events == [{"type": "moved", "seat": 0, "to": 2}]
        assert isinstance(row.created_at, datetime)
    assert [r.command_id for r in log_of(engine, g3)] == ["before"]


def test_a_conflict_writes_nothing_of_its_record_and_spares_the_others(engine: Engine) -> None:
    (r0, g0), (r1, g1) = make_games(engine, 2)
    outcomes = append_all(
        engine, [record(r0, g0, 0, "ok"), record(r1, g1, 5, "stale"), record(r0, g0, 1, "next")]
    )
    assert outcomes == [Appended.COMMITTED, Appended.CONFLICT, Appended.COMMITTED]
    assert [r.command_id for r in log_of(engine, g0)] == ["ok", "next"]
    assert log_of(engine, g1) == []
    with read_connection(engine) as conn:
        assert repo.game_version(conn, game_id=g1).version == 0


def test_a_duplicate_id_fails_alone_after_the_group_is_rolled_back(engine: Engine) -> None:
    (r0, g0), (r1, g1) = make_games(engine, 2)
    assert append_all(engine, [record(r0, g0, 0, "first")]) == [Appended.COMMITTED]
    # Same (game, seat, command id) as the logged one: the unique index refuses it.
    again = LogRecord(
        game_id=g0,
        room_id=r0,
        old_version=1,
        seat=0,
        command_id="first",
        command={},
        events=[],
        status="playing",
    )
    outcomes = append_all(engine, [again, record(r1, g1, 0, "other")])
    assert outcomes == [Appended.DUPLICATE, Appended.COMMITTED]
    assert [r.command_id for r in log_of(engine, g0)] == ["first"]
    assert [r.command_id for r in log_of(engine, g1)] == ["other"]


def test_the_last_command_finishes_the_room(engine: Engine) -> None:
    (r0, g0), (r1, g1) = make_games(engine, 2)
    outcomes = append_all(
        engine,
        [
            record(r0, g0, 0, "end", status="finished", snapshot={"over": True}),
            record(r1, g1, 0, "a"),
        ],
    )
    assert outcomes == [Appended.COMMITTED, Appended.COMMITTED]
    with read_connection(engine) as conn:
        assert repo.game_version(conn, game_id=g0).status == "finished"
        statuses = {
            row.id: row.status
            for row in (repo.room_by_code(conn, code=c) for c in ("W000", "W001"))
        }
    assert statuses == {r0: "finished", r1: "playing"}


class CountingQueue(queue.SimpleQueue):  # type: ignore[type-arg]
    """The writer's queue, counting the hand-overs (each one wakes the writer thread)."""

    def __init__(self) -> None:
        self.puts = 0

    def put(self, item: Any, block: bool = True, timeout: float | None = None) -> None:
        self.puts += 1
        super().put(item, block, timeout)


def test_the_appends_of_one_loop_turn_wake_the_writer_once(engine: Engine) -> None:
    """The records appended during one turn of the event loop are handed to the writer
    thread together (one wake-up, not one per record) and committed as one group."""
    games = make_games(engine, 4)
    batches: list[int] = []

    async def main() -> list[Appended]:
        writer = Writer(engine, on_batch=batches.append)
        writer._queue = counting = CountingQueue()
        try:
            outcomes = await asyncio.gather(
                *(writer.append(record(r, g, 0, "x")) for r, g in games)
            )
            assert counting.puts == 1
            return list(outcomes)
        finally:
            await asyncio.to_thread(writer.stop)

    assert asyncio.run(main()) == [Appended.COMMITTED] * 4
    assert batches == [4]


@pytest.mark.skipif(not hasattr(os, "SCHED_BATCH"), reason="Linux scheduling classes")
def test_the_writer_thread_does_not_preempt_the_event_loop(engine: Engine) -> None:
    """SCHED_BATCH: woken by a hand-over, the writer does not preempt the loop's thread
    (it could not run before the loop let go of the GIL anyway)."""

    async def main() -> int:
        writer = Writer(engine)
        try:
            await writer.solo(lambda: None)
            assert writer._thread is not None and writer._thread.native_id is not None
            return os.sched_getscheduler(writer._thread.native_id)
        finally:
            await asyncio.to_thread(writer.stop)

    assert asyncio.run(main()) == os.SCHED_BATCH
    assert os.sched_getscheduler(0) != os.SCHED_BATCH  # the caller's thread is untouched


# JSON whose text needs every kind of escaping an array literal knows (quotes, backslashes,
# braces, commas, blanks, the word NULL), and characters outside ASCII.
AWKWARD = {
    "say": 'He said "go", then \\ left {fast}, NULL',
    "lines": "one\ntwo\tthree",
    "empty": "",
    "names": ["Ålborg", "Kiến", "🐪", "a,b", "{x}", "NULL", None],
    "nested": {"q": '"\\"', "n": [1, 2.5, -3, True, False]},
}


def test_awkward_json_is_stored_exactly_in_a_group(engine: Engine) -> None:
    """On PostgreSQL the group's documents travel as arrays in psycopg's binary format
    (no escaping); on both backends what is read back is what was written."""
    games = make_games(engine, 3)
    records = [
        LogRecord(
            game_id=g,
            room_id=r,
            old_version=0,
            seat=1,
            command_id=f'id "{i}" \\',
            command={"type": "say", **AWKWARD},
            events=[AWKWARD, {"i": i}],
            status="playing",
            snapshot=AWKWARD if i != 1 else None,
        )
        for i, (r, g) in enumerate(games)
    ]
    assert append_all(engine, records) == [Appended.COMMITTED] * 3
    for i, (_r, g) in enumerate(games):
        (row,) = log_of(engine, g)
        assert row.command_id == f'id "{i}" \\'
        assert row.command == {"type": "say", **AWKWARD}
        assert row.events == [AWKWARD, {"i": i}]
        with read_connection(engine) as conn:
            head = repo.game_snapshot(conn, game_id=g)
        assert head.snapshot == (AWKWARD if i != 1 else {"v": 0})


def checkouts(engine: Engine) -> list[int]:
    """A list that grows by one at every connection taken out of `engine`'s pool."""
    seen: list[int] = []
    event.listen(engine, "checkout", lambda *_: seen.append(1))
    return seen


def test_the_writer_keeps_its_connection_between_groups(engine: Engine) -> None:
    """No pool checkout per group (on PostgreSQL its pre-ping is a round trip): SQLite
    writes every group on the connection the writer keeps; PostgreSQL runs a group of
    distinct games (one statement) in autocommit mode on the one it keeps, and a group
    that needs a transaction (a finished game) on one from the pool."""
    games = make_games(engine, 3)
    seen = checkouts(engine)

    async def main() -> None:
        writer = Writer(engine)
        try:
            for old in range(3):
                outcomes = await asyncio.gather(
                    *(writer.append(record(r, g, old, f"c{old}")) for r, g in games[:2])
                )
                assert outcomes == [Appended.COMMITTED] * 2
            r, g = games[2]
            end = record(r, g, 0, "end", status="finished", snapshot={"over": True})
            assert await writer.append(end) == Appended.COMMITTED
        finally:
            await asyncio.to_thread(writer.stop)
        assert writer._held is None  # closed when the thread stopped

    asyncio.run(main())
    postgres = engine.dialect.name == "postgresql"
    assert len(seen) == (1 + 1 if postgres else 1)
    for _r, g in games[:2]:
        assert [row.command_id for row in log_of(engine, g)] == ["c0", "c1", "c2"]


@pytest.mark.postgres
def test_a_group_after_the_kept_connection_died_is_committed(postgres_url: str) -> None:
    """The database ends the writer's kept connection (a restart, an administrator): the
    next group fails on it, is written again record by record on a fresh connection, and
    every record is committed; nothing is lost or answered wrongly."""
    from app.store import migrate

    migrate.upgrade(postgres_url)
    engine = create_db_engine(postgres_url)
    try:
        games = make_games(engine, 2)

        async def main() -> list[Appended]:
            writer = Writer(engine)
            try:
                first = await asyncio.gather(
                    *(writer.append(record(r, g, 0, "a")) for r, g in games)
                )
                assert first == [Appended.COMMITTED] * 2
                held = writer._held
                assert held is not None
                pid = held.connection.dbapi_connection.info.backend_pid  # type: ignore[union-attr]
                with read_connection(engine) as conn:
                    conn.exec_driver_sql(f"SELECT pg_terminate_backend({int(pid)})")
                return list(
                    await asyncio.gather(*(writer.append(record(r, g, 1, "b")) for r, g in games))
                )
            finally:
                await asyncio.to_thread(writer.stop)

        assert asyncio.run(main()) == [Appended.COMMITTED] * 2
        for _r, g in games:
            assert [row.command_id for row in log_of(engine, g)] == ["a", "b"]
    finally:
        engine.dispose()
