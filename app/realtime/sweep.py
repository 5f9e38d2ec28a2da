"""Many sockets' deadlines on one event-loop timer.

An idle socket used to hold two timers of its own: uvicorn's keep-alive ping (a
`TimerHandle`, ~0.5 KB) and the idle close's `asyncio.timeout` around each receive (a
`Timeout` and its `TimerHandle`, ~0.9 KB): ~14 MB at 10,000 sockets
(docs/perf-sockets-cold-bots.md). A `Sweep` keeps each item's next deadline in a bucket
of `RESOLUTION` seconds (a list slot per item) and runs one timer for the earliest
bucket. When its bucket comes, an item is asked `swept(now)` and answers its next
deadline (it is kept) or None (it is dropped): a socket that heard something since just
answers a later deadline, so nothing is done per message.

An item has exactly one deadline: `add` again moves it (the old entry is skipped when its
bucket comes), `discard` drops it. Deadlines are met `RESOLUTION` late at most, never
early. One sweep per event loop (`sweep_for`).
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
import logging
import math
import weakref
from typing import Protocol

log = logging.getLogger(__name__)

RESOLUTION = 0.1  # seconds: a deadline is met this late at most


class Swept(Protocol):
    """What a sweep holds: a slot for its bucket, and what to do when it comes."""

    sweep_key: int | None

    def swept(self, now: float) -> float | None:
        """Called at (or just after) the item's deadline: its next one, or None."""


class Sweep:
    __slots__ = ("_loop", "_buckets", "_keys", "_timer", "_armed", "_count")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        # Not the loop itself: `sweep_for` keys its sweeps by their loops, weakly.
        self._loop = weakref.ref(loop)
        self._buckets: dict[int, list[Swept]] = {}
        self._keys: list[int] = []  # the buckets' keys, a heap
        self._timer: asyncio.TimerHandle | None = None
        self._armed: int | None = None  # the bucket the timer is set for
        self._count = 0  # items with a deadline

    def __len__(self) -> int:
        """Items with a deadline."""
        return self._count

    def add(self, item: Swept, due: float) -> None:
        """Set `item`'s deadline to `due` (loop time), replacing any it had."""
        key = math.ceil(due / RESOLUTION)
        old = item.sweep_key
        if old == key:
            return
        if old is None:
            self._count += 1
        else:
            self._drop(item, old)
        item.sweep_key = key
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = []
            heapq.heappush(self._keys, key)
        bucket.append(item)
        if self._armed is None or key < self._armed:
            self._arm(key)

    def discard(self, item: Swept) -> None:
        """Drop `item`'s deadline, if it has one."""
        key = item.sweep_key
        if key is not None:
            item.sweep_key = None
            self._drop(item, key)
            self._lose_one()

    def _lose_one(self) -> None:
        self._count -= 1
        if not self._count:  # nothing left: no timer, no buckets (nor a ref to the loop)
            if self._timer is not None:
                self._timer.cancel()
            self._timer = self._armed = None
            self._buckets.clear()
            self._keys.clear()

    def _drop(self, item: Swept, key: int) -> None:
        bucket = self._buckets.get(key)
        if bucket is not None:
            with contextlib.suppress(ValueError):
                bucket.remove(item)

    def _arm(self, key: int) -> None:
        if self._timer is not None:
            self._timer.cancel()
        loop = self._loop()
        if loop is None or loop.is_closed():
            return
        self._armed = key
        self._timer = loop.call_at(key * RESOLUTION, self._fire)

    def _fire(self) -> None:
        self._timer = self._armed = None
        keys, buckets = self._keys, self._buckets
        loop = self._loop()
        if loop is None:
            return
        now = loop.time()
        current = math.floor(now / RESOLUTION)
        while keys and keys[0] <= current:
            key = heapq.heappop(keys)
            for item in buckets.pop(key, ()):
                if item.sweep_key != key:
                    continue  # moved or dropped since
                item.sweep_key = None
                self._count -= 1
                try:
                    due = item.swept(now)
                except Exception:
                    log.exception("an item of the sweep failed; dropped")
                    continue
                if due is not None:
                    # Never in a bucket already passed (this loop would not end).
                    self.add(item, max(due, (current + 1) * RESOLUTION))
        if not self._count:
            self._count = 1
            self._lose_one()  # clears what is left
        elif keys and self._armed != keys[0]:
            self._arm(keys[0])


_sweeps: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Sweep] = weakref.WeakKeyDictionary()


def sweep_for(loop: asyncio.AbstractEventLoop) -> Sweep:
    """The sweep of `loop` (made on first use)."""
    sweep = _sweeps.get(loop)
    if sweep is None:
        sweep = _sweeps[loop] = Sweep(loop)
    return sweep
