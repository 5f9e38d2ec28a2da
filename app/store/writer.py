"""One writer thread per process: every write transaction of the process runs on it.

Two kinds of work are queued:

- `append(record)`: one accepted command to log (`LogRecord`). The records appended
  during one turn of the event loop are handed to the thread together (one wake-up of
  the thread for them all). The writer drains
  what is waiting, writes every waiting record in ONE transaction (sorted by game,
  so that on PostgreSQL several processes take row locks in the same order) and
  commits: a group commit (on PostgreSQL a group of distinct games is one statement,
  committed alone in autocommit mode; the thread keeps its connection between groups,
  `Writer._store`). Each record is answered with its own `Appended`
  outcome as soon as that commit is done. A record whose compare-and-set on the
  game version fails (another process moved the game first) writes nothing and is
  answered `CONFLICT`; the others are unaffected. A database error (a unique-index
  race with another process, a deadlock, a failed commit) rolls the whole batch
  back and each record is written again alone, in its own transaction, and
  answered with that outcome (`DUPLICATE` when its command id was logged first).
- `solo(fn, *args)`: `fn` runs alone on the writer thread (it opens its own
  transaction); lobby changes, chat, room creation.

The writer knows nothing of rooms or games: it is handed rows and says whether
they are in the database. Data flows one way; the caller decides what follows.

On SQLite this also ends lock contention between threads of the process (no
BEGIN IMMEDIATE waiting on the busy handler); on PostgreSQL the compare-and-set on
the game version keeps several processes correct.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging
import os
import queue
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import IntegrityError, SQLAlchemyError

from app.store import repo
from app.store.db import autocommit_connection, is_sqlite, write_transaction, writer_connection

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_BATCH = 128


@dataclass(frozen=True, slots=True)
class LogRecord:
    """One accepted command: the log row of version `old_version + 1` of a game."""

    game_id: int
    room_id: int
    old_version: int
    seat: int
    command_id: str
    command: dict[str, Any]
    events: list[dict[str, Any]]
    status: str  # the game's status after it: "playing" or "finished"
    snapshot: dict[str, Any] | None = None  # the state after it, when it is to be kept


class Appended(enum.Enum):
    """What became of a `LogRecord`."""

    COMMITTED = "committed"  # logged: version old_version + 1 is durable
    CONFLICT = "conflict"  # the game was not at old_version: nothing written
    DUPLICATE = "duplicate"  # (game, seat, command id) was logged before: nothing written


def write_records(conn: Connection, records: list[LogRecord]) -> list[Appended]:
    """Write records in the caller's transaction: for each, `COMMITTED` (once the caller
    commits) or `CONFLICT` (its game was not at `old_version`: nothing of it written)."""
    written = repo.append_events(conn, records)
    for record, ok in zip(records, written, strict=True):
        if ok and record.status == "finished":
            repo.set_room_status(conn, room_id=record.room_id, status="finished", expect="playing")
    return [Appended.COMMITTED if ok else Appended.CONFLICT for ok in written]


class _Item:
    __slots__ = ("args", "fn", "future", "loop", "record")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
        fn: Callable[..., Any] | None = None,
        args: tuple[Any, ...] = (),
        record: LogRecord | None = None,
    ) -> None:
        self.loop = loop
        self.future = future
        self.fn = fn
        self.args = args
        self.record = record


def _set(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


def _set_all(answers: list[tuple[asyncio.Future[Any], bool, Any]]) -> None:
    for future, ok, value in answers:
        _set(future, ok, value)


def _no_wakeup_preemption() -> None:
    """Linux: this thread (the writer) in the SCHED_BATCH class, which keeps a woken
    thread from preempting the running one. Each hand-over wakes the writer; it could
    not run anyway before the event loop's thread lets go of the GIL, so preempting it
    only cost two context switches per wake-up when both threads share a CPU."""
    batch = getattr(os, "SCHED_BATCH", None)
    if batch is not None:
        with contextlib.suppress(OSError):
            os.sched_setscheduler(0, batch, os.sched_param(0))


class Writer:
    """The process's writer thread (started lazily on first use).

    `on_batch(size)`, when given, is called on the writer thread after each group
    commit (metrics)."""

    def __init__(
        self,
        engine: Engine,
        max_batch: int = MAX_BATCH,
        on_batch: Callable[[int], None] | None = None,
    ) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self.on_batch = on_batch
        self._queue: queue.SimpleQueue[_Item | list[_Item] | None] = queue.SimpleQueue()
        # Records appended during one turn of an event loop, handed over together.
        self._handing: dict[asyncio.AbstractEventLoop, list[_Item]] = {}
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        # The writer thread's own connection, kept open between groups (`_store`):
        # checking one out of the pool costs a round trip to PostgreSQL (its pre-ping, a
        # quarter of the writer's time there) and, on SQLite, more CPU than a small
        # group's own statements.
        self._held: Connection | None = None
        self._sqlite = is_sqlite(str(engine.url))

    def _ensure(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._thread is None:
                thread = threading.Thread(target=self._main, name="db-writer", daemon=True)
                thread.start()
                self._thread = thread

    async def solo(self, fn: Callable[..., T], *args: Any) -> T:
        """Run `fn(*args)` alone on the writer thread; its result or its exception."""
        self._ensure()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Item(loop, future, fn=fn, args=args))
        return await future

    async def append(self, record: LogRecord) -> Appended:
        """Log one command (group commit); answered once its transaction is committed.

        :raises SQLAlchemyError: the database failed (nothing of this record written).
        """
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Appended] = loop.create_future()
        item = _Item(loop, future, record=record)
        waiting = self._handing.get(loop)
        if waiting is None:
            # Handed over at the end of this turn of the loop, with every record the
            # turn's other commands append: one put (one wake-up of the writer thread)
            # for them all, instead of one each.
            self._handing[loop] = [item]
            loop.call_soon(self._hand_over, loop)
        else:
            waiting.append(item)
        return await future

    def _hand_over(self, loop: asyncio.AbstractEventLoop) -> None:
        items = self._handing.pop(loop, None)
        if items:
            self._ensure()
            self._queue.put(items)

    def stop(self) -> None:
        thread = self._thread
        if thread is None:
            return
        self._queue.put(None)
        thread.join(timeout=30)
        self._thread = None

    # --- the writer thread ------------------------------------------------------------

    @staticmethod
    def _answer(item: _Item, ok: bool, value: Any) -> None:
        with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
            item.loop.call_soon_threadsafe(_set, item.future, ok, value)

    def _main(self) -> None:
        _no_wakeup_preemption()
        try:
            self._serve()
        finally:
            self._release()

    def _serve(self) -> None:
        while True:
            first = self._queue.get()
            if first is None:
                return
            items = first if isinstance(first, list) else [first]
            stop = False
            while len(items) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                if isinstance(more, list):
                    items.extend(more)
                else:
                    items.append(more)
            records = [i for i in items if i.record is not None]
            if records:
                self._run_group(records)
            for item in items:
                if item.fn is not None:
                    self._run_solo(item)
            if stop:
                return

    def _store(self, records: list[LogRecord]) -> list[Appended]:
        """Write and commit records on the connection the writer keeps:

        - PostgreSQL, when they are ONE statement that needs no transaction (distinct
          games, none finishing its game: `set_room_status` would follow): that
          statement alone in autocommit mode (one round trip to the database instead
          of three: the pool's pre-ping, the statement, COMMIT); other groups take a
          connection from the pool for their transaction;
        - SQLite: every group, in a transaction (`BEGIN IMMEDIATE`): a checkout from the
          pool and its return cost more than the transaction's own statements.

        A failure closes the kept connection; the next group takes a fresh one.

        :raises SQLAlchemyError: nothing of the records written.
        """
        one = all(r.status != "finished" for r in records) and repo.one_statement(
            self.engine.dialect, records
        )
        if not one and not self._sqlite:
            with write_transaction(self.engine) as conn:
                return write_records(conn, records)
        kept = self._held
        if kept is None or kept.closed or kept.invalidated:
            kept = autocommit_connection(self.engine) if one else writer_connection(self.engine)
            self._held = kept
        try:
            if one:
                return write_records(kept, records)
            with kept.begin():
                return write_records(kept, records)
        except BaseException:
            self._release()  # the next group checks out a fresh one (pinged)
            raise

    def _release(self) -> None:
        conn, self._held = self._held, None
        if conn is not None:
            with contextlib.suppress(Exception):
                conn.close()

    def _run_solo(self, item: _Item) -> None:
        assert item.fn is not None
        try:
            value = item.fn(*item.args)
        except BaseException as error:  # noqa: BLE001 (handed to the waiting task)
            self._answer(item, False, error)
        else:
            self._answer(item, True, value)

    def _run_alone(self, item: _Item) -> None:
        """One record written and committed alone (`_store`)."""
        assert item.record is not None
        try:
            (outcome,) = self._store([item.record])
        except IntegrityError:
            # Another process logged this command id, or this version, first: both
            # mean nothing of ours is in; the caller reads the log to tell which.
            self._answer(item, True, Appended.DUPLICATE)
        except BaseException as error:  # noqa: BLE001
            self._answer(item, False, error)
        else:
            self._answer(item, True, outcome)

    def _run_group(self, items: list[_Item]) -> None:
        if len(items) == 1:
            self._run_alone(items[0])
            self._batch_done(1)
            return
        items.sort(key=lambda i: i.record.game_id if i.record is not None else 0)
        records = [i.record for i in items if i.record is not None]
        try:
            outcomes = self._store(records)
        except SQLAlchemyError as error:
            log.info("group commit of %d commands failed (%r): one by one", len(items), error)
            for item in items:
                self._run_alone(item)
            return
        except BaseException as error:  # noqa: BLE001 (a bug: every waiting task hears it)
            for item in items:
                self._answer(item, False, error)
            return
        self._batch_done(len(items))
        # One wake-up of each waiting loop for the whole group (not one per record).
        by_loop: dict[asyncio.AbstractEventLoop, list[tuple[asyncio.Future[Any], bool, Any]]]
        by_loop = {}
        for item, outcome in zip(items, outcomes, strict=True):
            by_loop.setdefault(item.loop, []).append((item.future, True, outcome))
        for loop, answers in by_loop.items():
            with contextlib.suppress(RuntimeError):  # a closed loop: nobody waits any more
                loop.call_soon_threadsafe(_set_all, answers)

    def _batch_done(self, size: int) -> None:
        if self.on_batch is not None:
            with contextlib.suppress(Exception):
                self.on_batch(size)
