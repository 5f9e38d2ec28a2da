"""Prometheus metrics of one server process, served at `GET /metrics` (docs/deploy.md).

The program calls the small functions below at the moment something happens; each is a
few nanoseconds of counter arithmetic and never raises. Every process has its own
figures (several processes behind a balancer: scrape each one). The default registry
also carries the client's process metrics (memory, CPU, open files).

`karanor_errors_total` counts the refusals of the command path (`app/rooms/commands.py`:
a rule's code, `stale_version`, `not_started`, ...), whichever way the command came (HTTP,
WebSocket, a bot). Other error answers are not counted: a bad token, a command that does
not parse (`bad_command`, `unknown_command`) or is rate-limited, a malformed body or
message, `forbidden_origin`, a lobby refusal.

| metric | type | labels | meaning |
|---|---|---|---|
| `karanor_rooms_live` | gauge | | rooms held in this process's memory |
| `karanor_sockets` | gauge | | open WebSockets (from the upgrade, before any token check) |
| `karanor_commands_total` | counter | `game` | commands acknowledged as accepted (*) |
| `karanor_command_seconds` | histogram | `game` | from receiving a command to its acknowledgement |
| `karanor_errors_total` | counter | `code` | commands refused, by code (see above) |
| `karanor_writer_batch_size` | histogram | | commands written per group commit |
| `karanor_room_evictions_total` | counter | | rooms dropped from memory after `room_idle_seconds` |

(*) A repeated command id, answered again from the log, counts again.
"""

from typing import Any

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

ROOMS_LIVE = Gauge("karanor_rooms_live", "Rooms held in this process's memory.")
SOCKETS = Gauge("karanor_sockets", "Open WebSockets.")
COMMANDS = Counter("karanor_commands", "Commands accepted (committed and acknowledged).", ["game"])
COMMAND_SECONDS = Histogram(
    "karanor_command_seconds",
    "Seconds from receiving a command to its acknowledgement.",
    ["game"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.02, 0.035, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
ERRORS = Counter("karanor_errors", "Commands refused, by error code.", ["code"])
WRITER_BATCH = Histogram(
    "karanor_writer_batch_size",
    "Commands written per group commit.",
    buckets=(1, 2, 4, 8, 16, 32, 64, 128, 256),
)
EVICTIONS = Counter("karanor_room_evictions", "Rooms dropped from memory when idle.")


def rooms_live(count: int) -> None:
    """The number of rooms now held in memory (call after a load or an eviction)."""
    ROOMS_LIVE.set(count)


def socket_opened() -> None:
    """A WebSocket was accepted."""
    SOCKETS.inc()


def socket_closed() -> None:
    """A WebSocket that `socket_opened` counted has closed (whatever the reason)."""
    SOCKETS.dec()


def command_done(seconds: float, game: str = "karanor") -> None:
    """A command was committed and acknowledged, `seconds` after it was received."""
    children = _per_game.get(game)
    if children is None:  # `labels()` costs a lock and a key check a call: once a game
        children = _per_game[game] = (COMMANDS.labels(game), COMMAND_SECONDS.labels(game))
    children[0].inc()
    children[1].observe(seconds)


_per_game: dict[str, tuple[Any, Any]] = {}


def error(code: str) -> None:
    """A command was refused with `code` (over HTTP or WebSocket, or a bot's)."""
    ERRORS.labels(code).inc()


def writer_batch(size: int) -> None:
    """The writer committed `size` commands in one transaction."""
    WRITER_BATCH.observe(size)


def room_evicted() -> None:
    """An idle room was dropped from memory."""
    EVICTIONS.inc()


def exposition(registry: CollectorRegistry = REGISTRY) -> tuple[bytes, str]:
    """The current figures in Prometheus's text format, and its content type."""
    return generate_latest(registry), CONTENT_TYPE_LATEST
