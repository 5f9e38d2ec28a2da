"""The platform's own refusals, with the HTTP status API.md gives them.

`app.rooms` raises only `PlatformError`: a game's `RuleError` becomes a 400 with the
game's code (`refused`), a database failure a 503 `unavailable`; `translated()` does
both at the edge of every public operation, so the web layer maps one error type and
knows neither the games nor the database.
"""

from __future__ import annotations

import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from sqlalchemy.exc import SQLAlchemyError

from app.games.base import RuleError

log = logging.getLogger(__name__)


class PlatformError(Exception):
    """A request the platform refuses: `status` (HTTP), a stable `code`, a message for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"PlatformError({self.status}, {self.code!r}, {self.message!r})"


def refused(error: RuleError) -> PlatformError:
    """The game's rules said no: 400 with the game's own code."""
    return PlatformError(400, error.code, error.message)


def unavailable() -> PlatformError:
    return PlatformError(503, "unavailable", "the database is unavailable; try again")


@contextmanager
def translated() -> Iterator[None]:
    """Turn a game's refusal and a database failure into `PlatformError`s."""
    try:
        yield
    except RuleError as error:
        raise refused(error) from error
    except SQLAlchemyError as error:
        log.error("database error: %s", error)
        raise unavailable() from error


def unknown_room(code: str) -> PlatformError:
    return PlatformError(404, "unknown_room", f"there is no room {code[:40]!r}")


def unknown_game(game: str) -> PlatformError:
    return PlatformError(400, "unknown_game", f"this server hosts no game {game[:40]!r}")


def bad_token() -> PlatformError:
    return PlatformError(401, "bad_token", "missing or unknown seat token for this room")


def not_host() -> PlatformError:
    return PlatformError(403, "not_host", "only the host (the seat that made the room) may do this")


def require_host(caller: Any) -> Any:
    """The caller's seat if it is the host's. :raises PlatformError: 401, 403 `not_host`."""
    if caller.seat is None:
        raise bad_token()
    if not caller.seat.host:
        raise not_host()
    return caller.seat


def stale_version(expected: int, actual: int) -> PlatformError:
    return PlatformError(
        409, "stale_version", f"expected version {expected}, but the game is at version {actual}"
    )


def rate_limited(what: str = "commands") -> PlatformError:
    return PlatformError(429, "rate_limited", f"too many {what}: slow down")


def rooms_quota_spent() -> PlatformError:
    """The rooms one address may open in an hour are spent (a new room, or Play again)."""
    return PlatformError(429, "rate_limited", "too many rooms created from here: try later")
