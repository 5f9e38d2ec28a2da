"""Per-address limits of the routes a table uses now and then (docs/security.md).

Each is a token bucket per client address (`app.rooms.ratelimit.RateLimiter`): N a
minute on average, N at once, set far above what a table does (a household behind one
router included) and far below what would hold a core:

- `qr`: `POST /api/qr` (a QR code costs ~10-40 ms of CPU);
- `table`: the host's table routes (turn timer, a seat's bot) and Play again asks;
- `ops`: `GET /metrics` and `/readyz` (a probe or a scrape every few seconds).

Beyond, a route answers 429 `rate_limited` before it does any work (before the seat's
token is looked up, before the body is read). In-process: behind several processes
each counts its own.
"""

from collections.abc import Callable
from typing import Literal

from fastapi import Request

from app.config import Settings
from app.rooms.errors import PlatformError
from app.rooms.ratelimit import RateLimiter
from app.web.security import client_address

Kind = Literal["qr", "table", "ops"]


def per_minute(count: int) -> RateLimiter | None:
    """`count` a minute on average and at once (None: no limit for 0)."""
    return RateLimiter(count / 60.0, count) if count > 0 else None


class AddressLimits:
    """The buckets of one process, kept on `app.state.address_limits`."""

    def __init__(self, settings: Settings) -> None:
        self.buckets: dict[Kind, RateLimiter | None] = {
            "qr": per_minute(settings.qr_per_minute),
            "table": per_minute(settings.table_per_minute),
            "ops": per_minute(settings.ops_per_minute),
        }

    def allow(self, kind: Kind, address: str) -> bool:
        limiter = self.buckets[kind]
        return limiter is None or limiter.allow(address)


def limited(kind: Kind, what: str) -> Callable[[Request], None]:
    """A route dependency: 429 `rate_limited` once this address has spent its `kind`."""

    def check(request: Request) -> None:
        limits: AddressLimits | None = getattr(request.app.state, "address_limits", None)
        if limits is not None and not limits.allow(kind, client_address(request.scope)):
            raise PlatformError(429, "rate_limited", f"too many {what} from here: slow down")

    return check
