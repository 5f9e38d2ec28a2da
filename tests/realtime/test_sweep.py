"""`app.realtime.sweep.Sweep`: many deadlines on one timer, met never early and at most
`RESOLUTION` late; an item's deadline moved, dropped, or renewed by its own answer."""

from __future__ import annotations

import asyncio
import gc
import weakref

from app.realtime.sweep import RESOLUTION, Sweep, sweep_for


class Item:
    __slots__ = ("sweep_key", "calls", "answers", "done")

    def __init__(self, *answers: float | None) -> None:
        self.sweep_key: int | None = None
        self.calls: list[float] = []
        self.answers = list(answers)  # deadlines from now, or None
        self.done: asyncio.Future[None] = asyncio.get_running_loop().create_future()

    def swept(self, now: float) -> float | None:
        self.calls.append(now)
        answer = self.answers.pop(0) if self.answers else None
        if answer is None:
            self.done.set_result(None)
            return None
        return now + answer


def test_deadlines_are_met_in_order_never_early() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        sweep = Sweep(loop)
        start = loop.time()
        items = [Item() for _ in range(5)]
        dues = [start + d for d in (0.35, 0.05, 0.2, 0.2, 0.6)]
        for item, due in zip(items, dues, strict=True):
            sweep.add(item, due)
        assert len(sweep) == 5
        await asyncio.wait_for(asyncio.gather(*(i.done for i in items)), 5)
        for item, due in zip(items, dues, strict=True):
            (called,) = item.calls
            assert due <= called < due + RESOLUTION + 0.5  # late by a busy machine at most
        order = sorted(range(5), key=lambda i: items[i].calls[0])
        assert order[0] == 1 and order[-1] == 4
        assert len(sweep) == 0 and sweep._timer is None and not sweep._buckets

    asyncio.run(main())


def test_an_item_answering_a_deadline_is_called_again() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        sweep = Sweep(loop)
        item = Item(0.1, 0.1, None)
        sweep.add(item, loop.time() + 0.1)
        await asyncio.wait_for(item.done, 5)
        assert len(item.calls) == 3
        assert all(b - a >= 0.1 for a, b in zip(item.calls, item.calls[1:], strict=False))
        assert len(sweep) == 0

    asyncio.run(main())


def test_add_moves_the_deadline_and_discard_drops_it() -> None:
    async def main() -> None:
        loop = asyncio.get_running_loop()
        sweep = Sweep(loop)
        moved, dropped, kept = Item(), Item(), Item()
        start = loop.time()
        sweep.add(moved, start + 0.1)
        sweep.add(dropped, start + 0.1)
        sweep.add(kept, start + 0.3)
        sweep.add(moved, start + 0.4)  # later: not called at 0.1
        sweep.discard(dropped)
        sweep.discard(dropped)  # twice: nothing
        assert len(sweep) == 2 and dropped.sweep_key is None
        await asyncio.wait_for(asyncio.gather(moved.done, kept.done), 5)
        assert moved.calls[0] >= start + 0.4 and len(moved.calls) == 1
        assert kept.calls[0] < moved.calls[0]
        assert dropped.calls == []
        # Moved earlier: the timer is armed again for it.
        early = Item()
        sweep.add(early, loop.time() + 5)
        sweep.add(early, loop.time() + 0.05)
        await asyncio.wait_for(early.done, 2)

    asyncio.run(main())


def test_one_sweep_per_loop_and_none_kept_for_a_finished_loop() -> None:
    async def main() -> weakref.ref[asyncio.AbstractEventLoop]:
        loop = asyncio.get_running_loop()
        sweep = sweep_for(loop)
        assert sweep_for(loop) is sweep
        item = Item()
        sweep.add(item, loop.time() + 0.05)
        await asyncio.wait_for(item.done, 5)
        return weakref.ref(loop)

    first = asyncio.run(main())
    second = asyncio.run(main())
    gc.collect()
    # The sweep does not keep its loop alive (so it goes with it: weakly keyed).
    assert first() is None and second() is None
