"""The platform's own refusals, with the HTTP status API.md gives them."""


class PlatformError(Exception):
    """A request the platform refuses: `status` (HTTP), a stable `code`, a message for people."""

    def __init__(self, status: int, code: str, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message

    def __repr__(self) -> str:
        return f"PlatformError({self.status}, {self.code!r}, {self.message!r})"


def unknown_room(code: str) -> PlatformError:
    return PlatformError(404, "unknown_room", f"there is no room {code[:40]!r}")


def bad_token() -> PlatformError:
    return PlatformError(401, "bad_token", "missing or unknown seat token for this room")


def not_host() -> PlatformError:
    return PlatformError(403, "not_host", "only the host (the seat that made the room) may do this")


def stale_version(expected: int, actual: int) -> PlatformError:
    return PlatformError(
        409, "stale_version", f"expected version {expected}, but the game is at version {actual}"
    )
