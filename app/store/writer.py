"""One writer thread per process: every write transaction of the process runs on it.

Two kinds of work are queued:

- `solo(fn, *args)`: `fn` runs alone on the writer thread (it opens its own
  transaction); used for lobby changes, chat, room creation;
- `group(job)`: a step of a group commit. The writer drains what is waiting, opens ONE
  write transaction, runs every waiting job's `step(conn)` in it (sorted by `key`, so
  that on PostgreSQL several processes take row locks in the same order), commits,
  and only then calls each job's `finish(pending)` and answers it. A job whose step
  raises a non-database error (a refusal: nothing was written) is answered with that
  error and the others go on. A database error (a unique-index race with another
  process, a deadlock, a failed commit) rolls the whole batch back: every job's
  `abort()` drops what it changed in memory and each job is run again alone
  (`job.alone()`, in its own transaction) and answered with that outcome.

On SQLite this also ends lock contention between threads of the process (no more
BEGIN IMMEDIATE waiting on the busy handler); on PostgreSQL the row locks and the
compare-and-set on the game version keep several processes correct, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import threading
from collections.abc import Callable
from typing import Any, Protocol, TypeVar

from sqlalchemy import Connection, Engine
from sqlalchemy.exc import SQLAlchemyError

from app.store.db import write_transaction

log = logging.getLogger(__name__)

T = TypeVar("T")
MAX_BATCH = 128


class GroupJob(Protocol):
    key: int

    def step(self, conn: Connection) -> Any: ...  # inside the shared transaction

    def finish(self, pending: Any) -> Any: ...  # after the commit: the answer

    def abort(self) -> None: ...  # the batch was rolled back: drop in-memory changes

    def alone(self) -> Any: ...  # run again in a transaction of its own: the answer


class _Item:
    __slots__ = ("args", "fn", "future", "job", "loop")

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        future: asyncio.Future[Any],
        fn: Callable[..., Any] | None = None,
        args: tuple[Any, ...] = (),
        job: GroupJob | None = None,
    ) -> None:
        self.loop = loop
        self.future = future
        self.fn = fn
        self.args = args
        self.job = job


def _set(future: asyncio.Future[Any], ok: bool, value: Any) -> None:
    if future.cancelled():
        return
    if ok:
        future.set_result(value)
    else:
        future.set_exception(value)


class Writer:
    """The process's writer thread (started lazily on first use)."""

    def __init__(self, engine: Engine, max_batch: int = MAX_BATCH) -> None:
        self.engine = engine
        self.max_batch = max_batch
        self._queue: queue.SimpleQueue[_Item | None] = queue.SimpleQueue()
        self._thread: threading.Thread | None = None
        self._start_lock = threading.Lock()
        self.batches = 0  # statistics: batches committed and jobs in them
        self.grouped = 0

    def _ensure(self) -> None:
        if self._thread is not None:
            return
        with self._start_lock:
            if self._thread is None:
                thread = threading.Thread(target=self._main, name="db-writer", daemon=True)
                thread.start()
                self._thread = thread

    async def solo(self, fn: Callable[..., T], *args: Any) -> T:
        self._ensure()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._queue.put(_Item(loop, future, fn=fn, args=args))
        return await future

    async def group(self, job: GroupJob) -> Any:
        self._ensure()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.put(_Item(loop, future, job=job))
        return await future

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
        while True:
            first = self._queue.get()
            if first is None:
                return
            items = [first]
            stop = False
            while len(items) < self.max_batch:
                try:
                    more = self._queue.get_nowait()
                except queue.Empty:
                    break
                if more is None:
                    stop = True
                    break
                items.append(more)
            grouped = [i for i in items if i.job is not None]
            if grouped:
                self._run_group(grouped)
            for item in items:
                if item.fn is not None:
                    self._run_solo(item)
            if stop:
                return

    def _run_solo(self, item: _Item) -> None:
        assert item.fn is not None
        try:
            value = item.fn(*item.args)
        except BaseException as error:  # noqa: BLE001 (handed to the waiting task)
            self._answer(item, False, error)
        else:
            self._answer(item, True, value)

    def _run_alone(self, item: _Item) -> None:
        assert item.job is not None
        try:
            value = item.job.alone()
        except BaseException as error:  # noqa: BLE001
            self._answer(item, False, error)
        else:
            self._answer(item, True, value)

    def _run_group(self, items: list[_Item]) -> None:
        if len(items) == 1:
            self._run_alone(items[0])
            return
        items.sort(key=lambda i: i.job.key if i.job is not None else 0)
        outcomes: list[tuple[bool, Any]] = []
        try:
            with write_transaction(self.engine) as conn:
                for item in items:
                    assert item.job is not None
                    try:
                        outcomes.append((True, item.job.step(conn)))
                    except SQLAlchemyError:
                        raise
                    except Exception as error:  # a refusal: nothing written
                        outcomes.append((False, error))
        except Exception as error:
            log.info("group commit of %d commands failed (%r): one by one", len(items), error)
            for item in items:
                assert item.job is not None
                try:
                    item.job.abort()
                except Exception:
                    log.exception("abort after a failed group commit")
            for item in items:
                self._run_alone(item)
            return
        self.batches += 1
        self.grouped += len(items)
        for item, (ok, value) in zip(items, outcomes, strict=True):
            assert item.job is not None
            if ok:
                try:
                    value = item.job.finish(value)
                except BaseException as error:  # noqa: BLE001
                    ok, value = False, error
            self._answer(item, ok, value)
