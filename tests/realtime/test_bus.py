"""The Redis bus's subscription (`app.realtime.bus.RedisBus`), on the real Redis."""

from __future__ import annotations

import asyncio
import time
import uuid

import orjson
import pytest
import redis.asyncio as aioredis

from app.realtime import bus as bus_module
from app.realtime.bus import RedisBus

pytestmark = pytest.mark.redis


def test_a_quiet_subscription_stays_live_and_hears_the_next_notice(redis_url: str) -> None:
    """Rooms may be quiet for long: a silence longer than the client's read timeout
    (`OP_TIMEOUT`) neither drops the subscription (some redis-py releases cut blocking
    pub/sub reads at that timeout: the subscription was lost and re-made every 3 s, a
    notice sent meanwhile waited for the catch-up) nor stops the next notice."""
    prefix = f"test-{uuid.uuid4().hex[:12]}"

    async def body() -> None:
        bus = RedisBus(redis_url, prefix)
        heard: list[tuple[str, dict[str, object]]] = []
        subscribed = 0

        async def on_reconnect() -> None:
            nonlocal subscribed
            subscribed += 1

        bus.start(lambda code, notice: heard.append((code, notice)), on_reconnect)
        other = aioredis.Redis.from_url(redis_url)
        try:
            await asyncio.wait_for(bus.connected.wait(), 10)
            # The silence itself is what is tested: nothing to wait for but time.
            await asyncio.sleep(bus_module.OP_TIMEOUT + 1.5)
            assert bus.connected.is_set()
            notice = {"t": "v", "v": 7, "p": "another-process"}
            await other.publish(f"{prefix}:room:ABCD", orjson.dumps(notice))
            deadline = time.monotonic() + 10
            while not heard and time.monotonic() < deadline:
                await asyncio.sleep(0.02)
            assert heard == [("ABCD", notice)]
            assert subscribed == 1, "the subscription was made again"
        finally:
            await other.aclose()
            await bus.close()

    asyncio.run(body())
