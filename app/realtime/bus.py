"""Redis between server processes: notices, presence, bot locks.

Only hints travel through Redis; the truth stays in the database. A notice says
"room R changed (version V, a chat line, the lobby, presence)"; the process that
gets it reads what it lacks from the database and pushes it to its own sockets.
Redis pub/sub may drop notices (a reconnect, a slow subscriber): the service
catches up on every later notice, on a periodic check and on a client's resync,
so a lost notice only delays a push.

- One pattern subscription per process (`{prefix}:room:*`) on its own connection,
  reconnected with back-off; `on_reconnect` runs after each re-subscription so the
  service can check every room it serves (notices may have been lost meanwhile).
- Publishing goes through one queue drained by one task: ordered per process, and
  the command path never waits for Redis (a notice that cannot be sent is dropped).
- Presence: a hash per room, one field per process holding the seats that process
  has sockets for and when it last said so; fields older than `PRESENCE_STALE`
  seconds (a killed process) are ignored.
- Bot lock: `SET key owner NX PX ttl` per room, refreshed and released only by
  its owner (compare in Lua); a dead owner's lock expires after `ttl`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import orjson

if TYPE_CHECKING:
    import redis.asyncio as aioredis

log = logging.getLogger(__name__)

# What a failed Redis call raises. The redis package (~5 MB of memory) is imported by
# the first `RedisBus` only: a process without REDIS_URL never loads it.
_ERRORS: tuple[type[BaseException], ...] = (OSError, TimeoutError)

DEFAULT_PREFIX = "karanor"
PRESENCE_REFRESH = 5.0  # seconds between a process's presence refreshes
PRESENCE_STALE = 15.0  # a field not refreshed for this long belongs to a dead process
PRESENCE_KEY_TTL = 60  # the whole hash goes when nobody refreshes it
PUBLISH_QUEUE = 10_000
OP_TIMEOUT = 3.0
LISTEN_WAIT = 1.0  # seconds a read of the subscription waits before looking again

Handler = Callable[[str, dict[str, Any]], None]

_REFRESH = """
if redis.call('get', KEYS[1]) == ARGV[1] then
  return redis.call('pexpire', KEYS[1], ARGV[2])
end
return redis.call('set', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) and 1 or 0
"""
_RELEASE = """
if redis.call('get', KEYS[1]) == ARGV[1] then return redis.call('del', KEYS[1]) end
return 0
"""


class RedisBus:
    """This process's link to the others through one Redis server."""

    def __init__(self, url: str, prefix: str = DEFAULT_PREFIX) -> None:
        """`prefix` names keys and channels (several deployments, or tests, may share
        one Redis: `Settings.redis_prefix`)."""
        self.url = url
        self.prefix = prefix.strip() or DEFAULT_PREFIX
        self.process_id = uuid.uuid4().hex[:12]
        global _ERRORS
        import redis.asyncio as aioredis
        from redis.exceptions import RedisError

        _ERRORS = (RedisError, OSError, TimeoutError)
        self.redis: aioredis.Redis = aioredis.Redis.from_url(
            url, socket_connect_timeout=OP_TIMEOUT, socket_timeout=OP_TIMEOUT
        )
        self._queue: asyncio.Queue[tuple[str, bytes]] = asyncio.Queue(PUBLISH_QUEUE)
        self._tasks: list[asyncio.Task[None]] = []
        self._handler: Handler | None = None
        self._on_reconnect: Callable[[], Coroutine[Any, Any, None]] | None = None
        self.connected = asyncio.Event()
        self._catch_ups: set[asyncio.Task[None]] = set()

    # --- names ------------------------------------------------------------------------

    def channel(self, code: str) -> str:
        return f"{self.prefix}:room:{code}"

    def _presence_key(self, code: str) -> str:
        return f"{self.prefix}:presence:{code}"

    def _bot_key(self, code: str) -> str:
        return f"{self.prefix}:bot:{code}"

    # --- lifecycle --------------------------------------------------------------------

    def start(
        self, handler: Handler, on_reconnect: Callable[[], Coroutine[Any, Any, None]]
    ) -> None:
        """Start listening and publishing (never raises: Redis may come up later)."""
        self._handler = handler
        self._on_reconnect = on_reconnect
        self._tasks = [
            asyncio.create_task(self._listen(), name="redis-listen"),
            asyncio.create_task(self._publisher(), name="redis-publish"),
        ]

    async def close(self) -> None:
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        with contextlib.suppress(Exception):
            await self.redis.aclose()

    # --- notices ----------------------------------------------------------------------

    def publish(self, code: str, notice: dict[str, Any]) -> None:
        """Queue a notice for the other processes; never waits, never raises."""
        try:
            data = orjson.dumps({**notice, "p": self.process_id}, option=orjson.OPT_NON_STR_KEYS)
        except TypeError:
            log.exception("a notice that cannot be serialised was dropped: %r", notice)
            return
        try:
            self._queue.put_nowait((self.channel(code), data))
        except asyncio.QueueFull:
            log.warning("redis publish queue full: a notice for room %s dropped", code)

    async def _publisher(self) -> None:
        failing = False
        while True:
            channel, data = await self._queue.get()
            try:
                await asyncio.wait_for(self.redis.publish(channel, data), OP_TIMEOUT)
            except _ERRORS as error:
                if not failing:  # once per outage
                    log.warning("redis publish failed (%s); the others will catch up", error)
                failing = True
            else:
                if failing:
                    log.warning("redis publish works again")
                failing = False

    async def _listen(self) -> None:
        pattern = f"{self.prefix}:room:*"
        skip = len(pattern) - 1
        delay = 0.2
        while True:
            pubsub = self.redis.pubsub()
            try:
                await pubsub.psubscribe(pattern)
                # The first message is the subscription's confirmation: we are live.
                first = await pubsub.get_message(timeout=OP_TIMEOUT)
                if first is None or first.get("type") != "psubscribe":
                    raise ConnectionError(f"no confirmation of the subscription: {first!r}")
                self.connected.set()
                delay = 0.2
                if self._on_reconnect is not None:
                    # Held until done: the loop keeps only a weak reference to a task.
                    task = asyncio.create_task(self._on_reconnect(), name="redis-catch-up")
                    self._catch_ups.add(task)
                    task.add_done_callback(self._catch_ups.discard)
                while True:
                    # A read with its own timeout: None when the rooms are quiet. (Blocking
                    # `listen()` reads fell under the client's socket_timeout in some
                    # redis-py releases: each 3 s of silence dropped the subscription.)
                    message = await pubsub.get_message(timeout=LISTEN_WAIT)
                    if message is None or message.get("type") != "pmessage":
                        continue
                    self._dispatch(message["channel"][skip:].decode(), message["data"])
            except asyncio.CancelledError:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                raise
            except Exception as error:  # Redis gone: retry with back-off
                self.connected.clear()
                log.warning("redis subscription lost (%s); retrying in %.1fs", error, delay)
                with contextlib.suppress(Exception):
                    await pubsub.aclose()
                await asyncio.sleep(delay)
                delay = min(delay * 2, 5.0)

    def _dispatch(self, code: str, data: bytes) -> None:
        try:
            notice = orjson.loads(data)
        except orjson.JSONDecodeError:
            return
        if not isinstance(notice, dict) or notice.get("p") == self.process_id:
            return
        if self._handler is not None:
            try:
                self._handler(code, notice)
            except Exception:
                log.exception("notice for room %s failed", code)

    # --- presence ---------------------------------------------------------------------

    async def set_presence(self, code: str, seats: set[int]) -> None:
        """Say which seats this process has sockets for in room `code` (none: forget)."""
        key = self._presence_key(code)
        try:
            if seats:
                value = orjson.dumps({"s": sorted(seats), "t": time.time()})
                async with self.redis.pipeline(transaction=False) as pipe:
                    pipe.hset(key, self.process_id, value)
                    pipe.expire(key, PRESENCE_KEY_TTL)
                    await asyncio.wait_for(pipe.execute(), OP_TIMEOUT)
            else:
                await asyncio.wait_for(self.redis.hdel(key, self.process_id), OP_TIMEOUT)
        except _ERRORS as error:
            log.warning("redis presence update failed: %s", error)

    async def remote_presence(self, code: str) -> set[int] | None:
        """Seats with a socket on another live process; None if Redis does not answer."""
        try:
            fields = await asyncio.wait_for(
                self.redis.hgetall(self._presence_key(code)), OP_TIMEOUT
            )
        except _ERRORS as error:
            log.warning("redis presence read failed: %s", error)
            return None
        seats: set[int] = set()
        fresh_after = time.time() - PRESENCE_STALE
        for process, raw in fields.items():
            name = process.decode() if isinstance(process, bytes) else str(process)
            if name == self.process_id:
                continue
            with contextlib.suppress(ValueError, TypeError, KeyError):
                value = orjson.loads(raw)
                if float(value["t"]) >= fresh_after:
                    seats.update(int(s) for s in value["s"])
        return seats

    # --- bot lock ---------------------------------------------------------------------

    async def hold_bot_lock(self, code: str, ttl: float) -> bool | None:
        """Take the room's bot lock, or extend it if this process holds it already.
        False if another process holds it; None if Redis does not answer."""
        try:
            result = await asyncio.wait_for(
                self.redis.eval(_REFRESH, 1, self._bot_key(code), self.process_id, int(ttl * 1000)),
                OP_TIMEOUT,
            )
        except _ERRORS as error:
            log.warning("redis bot lock failed: %s", error)
            return None
        return bool(result)

    async def bot_lock_free(self, code: str) -> bool:
        """Whether nobody holds the room's bot lock (True too if Redis does not answer)."""
        try:
            return not await asyncio.wait_for(self.redis.exists(self._bot_key(code)), OP_TIMEOUT)
        except _ERRORS:
            return True

    async def release_bot_lock(self, code: str) -> None:
        with contextlib.suppress(*_ERRORS):
            await asyncio.wait_for(
                self.redis.eval(_RELEASE, 1, self._bot_key(code), self.process_id),
                OP_TIMEOUT,
            )
