"""A token bucket per key (room and seat): `rate` per second on average, `burst` at once."""

import time
from collections.abc import Hashable


class RateLimiter:
    def __init__(self, rate: float, burst: int, *, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.max_keys = max_keys
        self._buckets: dict[Hashable, tuple[float, float]] = {}

    def allow(self, key: Hashable, now: float | None = None) -> bool:
        """Take one token for `key`; False when its bucket is empty."""
        now = time.monotonic() if now is None else now
        tokens, last = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - last) * self.rate)
        if tokens < 1:
            self._buckets[key] = (tokens, now)
            return False
        if len(self._buckets) >= self.max_keys and key not in self._buckets:
            self._buckets.clear()  # forget idle buckets rather than grow without bound
        self._buckets[key] = (tokens - 1, now)
        return True


class ConnectionCounter:
    """Open sockets per key (a client address, a seat): `acquire` refuses past `limit`.

    In-process: behind several processes each enforces its own count.
    """

    def __init__(self, limit: int) -> None:
        self.limit = limit  # 0: no limit
        self._open: dict[Hashable, int] = {}

    def acquire(self, key: Hashable) -> bool:
        count = self._open.get(key, 0)
        if self.limit and count >= self.limit:
            return False
        self._open[key] = count + 1
        return True

    def release(self, key: Hashable) -> None:
        count = self._open.get(key, 0) - 1
        if count > 0:
            self._open[key] = count
        else:
            self._open.pop(key, None)
