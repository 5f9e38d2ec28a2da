"""How `karanor serve` runs uvicorn: limits against slow clients, the file-descriptor limit,
the proxy headers believed, the addresses printed for friends.

Slow clients (slowloris): uvicorn closes an idle keep-alive connection after
`keep_alive_timeout`, but waits forever for the headers of a request that has begun, or of
a connection that sent nothing. `HeaderTimeoutProtocol` closes a connection whose request
head is not complete `header_timeout` seconds after the connection (or the request) began,
and refuses a head larger than `max_header_bytes` (400). `max_connections` caps open
connections and tasks (above it uvicorn answers 503).

WebSockets: uvicorn runs `app.realtime.protocol.LeanWebSocketProtocol` (less kept per idle
socket, and a direct write for the hub).
"""

from __future__ import annotations

import asyncio
import gc
import logging
import sys
from typing import TYPE_CHECKING, Any

from app import __version__
from app.netinfo import listen_urls

if TYPE_CHECKING:
    from app.config import Settings

log = logging.getLogger(__name__)

WS_MAX_SIZE = 64 * 1024  # larger frames are cut off; up to 16 KB get a coded answer


def raise_fd_limit() -> tuple[int, int] | None:
    """Raise this process's soft limit of open files to its hard limit, when allowed.

    Each WebSocket is a file descriptor: the usual soft limit of 1,024 caps a server at
    about a thousand players. Returns (old, new) soft limits, or None where there is no
    such limit (Windows) or it cannot be changed.
    """
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard
    if target == resource.RLIM_INFINITY:
        target = 1_048_576  # macOS refuses RLIM_INFINITY for NOFILE; Linux's usual nr_open
    if soft != resource.RLIM_INFINITY and soft >= target:
        return (soft, soft)
    try:
        resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    except (ValueError, OSError):
        return None
    return (soft, target)


FD_RESERVE = 100  # open files kept for the database, logs, Redis and the listening socket


def connection_limit(settings: Settings) -> int | None:
    """`max_connections`, or for 0 the open-file limit less `FD_RESERVE`: past it, accept()
    would fail with EMFILE in a loop instead of new clients getting a clean 503."""
    if settings.max_connections:
        return settings.max_connections
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft == resource.RLIM_INFINITY:
        return None
    return max(soft - FD_RESERVE, 16)


def _header_timeout_protocol(settings: Settings) -> type[asyncio.Protocol] | str:
    """uvicorn's httptools protocol with a header timeout and a head-size cap (see module doc);
    "h11" (with its own incomplete-event cap) where httptools is not installed."""
    try:
        import httptools
        from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
    except ImportError:  # pragma: no cover - uvicorn[standard] brings httptools
        return "h11"

    header_timeout = settings.header_timeout
    max_head = settings.max_header_bytes

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _head_timer: asyncio.TimerHandle | None = None
        _head_bytes = 0

        def _arm_head_timer(self) -> None:
            if self._head_timer is None:
                self._head_timer = self.loop.call_later(header_timeout, self._head_too_slow)

        def _cancel_head_timer(self) -> None:
            if self._head_timer is not None:
                self._head_timer.cancel()
                self._head_timer = None

        def _head_too_slow(self) -> None:
            self._head_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm_head_timer()

        def connection_lost(self, exc: Exception | None) -> None:
            self._cancel_head_timer()
            super().connection_lost(exc)

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._head_bytes = 0
            self._arm_head_timer()

        def on_url(self, url: bytes) -> None:
            self._count_head(len(url))
            super().on_url(url)

        def on_header(self, name: bytes, value: bytes) -> None:
            self._count_head(len(name) + len(value) + 4)
            super().on_header(name, value)

        def _count_head(self, size: int) -> None:
            self._head_bytes += size
            if self._head_bytes > max_head:
                # Raised inside a parser callback, it leaves feed_data as an
                # HttpParserError: uvicorn answers 400 and closes the connection.
                raise httptools.HttpParserError(f"request head over {max_head} bytes")

        def on_headers_complete(self) -> None:
            self._cancel_head_timer()
            super().on_headers_complete()

    return HeaderTimeoutProtocol


def uvicorn_options(settings: Settings) -> dict[str, Any]:
    """The keyword arguments `karanor serve` gives `uvicorn.run` (tests start uvicorn with
    the same ones)."""
    from app.realtime.protocol import LeanWebSocketProtocol
    from app.web.logs import log_config

    return {
        "host": settings.host,
        "port": settings.port,
        "log_level": settings.log_level.lower(),
        # Seat tokens redacted from every line; JSON lines with log_format=json.
        "log_config": log_config(settings.log_level, settings.log_format),
        # uvicorn's sans-io WebSocket protocol keeping less per idle socket, with a direct
        # write (app.realtime.protocol).
        "ws": LeanWebSocketProtocol,
        "ws_max_size": WS_MAX_SIZE,
        "ws_per_message_deflate": False,  # no compression bombs; our messages are small
        # X-Forwarded-For/-Proto only when told we sit behind a proxy, and only from the
        # proxies in forwarded_allow_ips; else anyone could claim https or any address.
        "proxy_headers": settings.trust_proxy,
        "forwarded_allow_ips": settings.forwarded_allow_ips,
        # Slow clients (module doc).
        "http": _header_timeout_protocol(settings),
        "timeout_keep_alive": settings.keep_alive_timeout,
        "limit_concurrency": connection_limit(settings),
        "h11_max_incomplete_event_size": settings.max_header_bytes,
        "timeout_graceful_shutdown": 10,
        # No `server: uvicorn` on every answer: it tells a scanner what to try, and it
        # was ~0.7 KB of a game page's first visit (40 requests; issue 31).
        "server_header": False,
    }


def banner(settings: Settings, fd_limits: tuple[int, int] | None) -> list[str]:
    """What `karanor serve` prints before it serves."""
    urls = listen_urls(settings.host, settings.port)
    lines = [f"Karanor Online {__version__} on {urls[0]}"]
    if len(urls) > 1:
        lines.append("Friends on your network can open:")
        lines += [f"  {url}" for url in urls[1:]]
    elif settings.host in ("0.0.0.0", "::"):
        lines.append("No network address found besides loopback (is this machine online?)")
    if settings.sqlite_path is not None:
        lines.append(
            f"Database: {settings.sqlite_path} (SQLite, synchronous={settings.sqlite_synchronous})"
        )
    else:
        lines.append("Database: " + _hide_password(settings.database_url))
    if fd_limits is not None:
        old, new = fd_limits
        if new > old:
            lines.append(f"Open-file limit raised from {old} to {new}")
        else:
            lines.append(f"Open-file limit: {new} (the hard limit)")
    else:
        lines.append("Open-file limit unchanged (could not raise it)")
    return lines


def _hide_password(url: str) -> str:
    from sqlalchemy import make_url

    return make_url(url).render_as_string(hide_password=True)


# The cyclic garbage collector's thresholds for a serving process: (young, middle, old).
# Python's (700, 10, 10) runs a young collection every 700 container allocations, and a
# full one (every object of the process: modules, content, every live game) every 100
# young ones: under load that is about 14% of the server's CPU and a pause of 35-120 ms
# every few seconds, the commands' tail (docs/performance-history.md, third round). Almost
# nothing the command path allocates is cyclic garbage (plain dicts and lists freed by
# reference counting); the collector still runs, 14x and 200x less often.
GC_THRESHOLDS = (10_000, 20, 100)


def tune_gc() -> None:
    """Collect once, move every object alive now (imports, content, the app) to the
    collector's permanent generation, which a full collection no longer walks, and set
    `GC_THRESHOLDS`. Called once the app is built, before serving."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(*GC_THRESHOLDS)


SWITCH_INTERVAL = 0.001  # seconds; Python's default is 0.005


def tune_threads(database_url: str) -> None:
    """On SQLite, a thread holding the GIL (a bot deciding, the writer building its
    statements) hands it to the event loop after `SWITCH_INTERVAL` at most once the loop
    asks, not after 5 ms: the ack's p99 at 1,000 commands/s went from 47 to 31 ms. Not
    on PostgreSQL: psycopg's writer does much of its protocol in Python, and with 1 ms
    slices each group commit took longer (p99 at 800/s 128 -> 170 ms; docs/performance-history.md,
    fourth round)."""
    from app.store.db import is_sqlite

    if is_sqlite(database_url):
        sys.setswitchinterval(SWITCH_INTERVAL)


def serve(settings: Settings) -> None:
    """Migrate (in a child process: Alembic never enters the server's memory), print where
    to play, serve until stopped."""
    import uvicorn

    from app.main import create_app
    from app.store import migrate

    fd_limits = raise_fd_limit()
    migrate.upgrade_in_child(settings.database_url)
    lines = banner(settings, fd_limits)
    if settings.log_format == "json":
        print(json_banner(settings, lines), flush=True)
    else:
        print("\n".join(lines), flush=True)
    app = create_app(settings)
    tune_gc()
    tune_threads(settings.database_url)
    uvicorn.run(app, **uvicorn_options(settings))


def json_banner(settings: Settings, lines: list[str]) -> str:
    """The banner as one JSON log line (KARANOR_LOG_FORMAT=json), in JsonFormatter's shape."""
    from datetime import UTC, datetime

    import orjson

    entry = {
        "time": datetime.now(UTC).isoformat(timespec="milliseconds"),
        "level": "info",
        "logger": __name__,
        "message": "; ".join(line.strip() for line in lines),
        "version": __version__,
        "urls": listen_urls(settings.host, settings.port),
    }
    return orjson.dumps(entry).decode()
