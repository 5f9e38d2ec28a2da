"""The FastAPI application factory. It only assembles: settings, database, routers."""

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.routing import Match, WebSocketRoute
from starlette.types import Receive, Scope, Send
from starlette.websockets import WebSocket

from app import __version__, metrics
from app.config import Settings, get_settings
from app.games import registry
from app.notices.service import Notices
from app.realtime.hub import Hub
from app.rooms import cleanup
from app.rooms.service import RoomService
from app.store import rolling
from app.store.db import create_db_engine
from app.web import games, health, i18n, limits, me, notices, pages, qr, rooms, shell, table, ws
from app.web.errors import (
    MAX_BODY_BYTES,
    BodyLimitMiddleware,
    InternalErrorMiddleware,
    install_error_handlers,
)
from app.web.security import OriginCheckMiddleware, SecurityHeadersMiddleware

log = logging.getLogger(__name__)


async def run_cleanup(app: FastAPI) -> cleanup.CleanupReport:
    """One cleanup pass of the rooms past their retention (in a worker thread)."""
    settings: Settings = app.state.settings
    service: RoomService = app.state.rooms
    loop = asyncio.get_running_loop()

    def forget(code: str) -> None:
        loop.call_soon_threadsafe(service.forget, code)

    return await asyncio.to_thread(
        cleanup.cleanup,
        app.state.engine,
        finished_days=settings.finished_retention_days,
        idle_days=settings.idle_retention_days,
        forget=forget,
    )


async def _cleanup_loop(app: FastAPI, every: float) -> None:
    while True:
        try:
            report = await run_cleanup(app)
            if report.rooms:
                log.info("cleanup: %d old rooms deleted", len(report.rooms))
        except Exception:
            log.exception("cleanup failed; trying again later")
        await asyncio.sleep(every)


def _command_measured(game: str, seconds: float, code: str | None) -> None:
    if code is None:
        metrics.command_done(seconds, game)
    else:
        metrics.error(code)


def _room_socket_route() -> WebSocketRoute:
    """The `/ws/rooms/{code}` route of `app.web.ws` (its path, matched as the router would)."""
    for route in ws.router.routes:
        if isinstance(route, WebSocketRoute) and route.endpoint is ws.room_socket_route:
            return route
    raise LookupError("app.web.ws has no room socket route")  # pragma: no cover


class KaranorApp(FastAPI):
    """The FastAPI application, with a fast path for the room WebSocket.

    A room socket is handed to its endpoint before every middleware: none of them does
    anything for a WebSocket (the origin check is the endpoint's own, the others are
    HTTP-only), but each one's frame, and the router's, would stay alive as long as the
    socket is open (~10 KB of memory per idle socket, docs/perf-sockets-cold-bots.md).
    Every other scope (HTTP, lifespan, any other WebSocket path) takes the usual way.
    """

    _room_socket = _room_socket_route()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            if self.root_path:  # as FastAPI and Starlette set them for the router
                scope["root_path"] = self.root_path
            match, child = self._room_socket.matches(scope)
            if match is Match.FULL:
                scope["app"] = self
                scope.update(child)  # endpoint, path_params
                await ws.room_socket_route(WebSocket(scope, receive, send))
                return
        await super().__call__(scope, receive, send)


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application; the schema must already be migrated (`karanor serve` does it)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_db_engine(
            settings.database_url, sqlite_synchronous=settings.sqlite_synchronous
        )
        app.state.engine = engine
        registry.add_plugins(settings.games)
        app.state.rooms = RoomService(
            engine,
            settings,
            Hub(),
            on_batch=metrics.writer_batch,
            on_command=_command_measured,
        )
        app.state.notices = Notices(app.state.rooms, settings)
        app.state.notices.start()
        app.state.socket_limits = ws.SocketLimits(settings)
        app.state.room_quota = rooms.room_quota(settings.rooms_per_hour)
        app.state.address_limits = limits.AddressLimits(settings)
        # A database down at start: /healthz says so, and bots wake on the next command.
        with contextlib.suppress(Exception):
            await app.state.rooms.startup()
        tasks = []
        if settings.cleanup_interval_seconds > 0:
            tasks.append(
                asyncio.create_task(
                    _cleanup_loop(app, settings.cleanup_interval_seconds), name="cleanup"
                )
            )
        if settings.auto_backups_on:
            rolling_backups = rolling.keep_backups(
                settings.database_url,
                settings.backup_dir,
                settings.backup_every_hours * 3600,
                settings.backup_keep,
                settings.backed_up_files,
            )
            tasks.append(asyncio.create_task(rolling_backups, name="backups"))
        try:
            yield
        finally:
            for task in tasks:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await app.state.notices.stop()
            await app.state.rooms.shutdown()
            engine.dispose()

    app = KaranorApp(title="Karanor Online", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)
    if settings.allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.allowed_origins,
            allow_methods=["*"],
            allow_headers=["*"],
        )
    # Answers of 1 KB or more (JSON, pages) gzipped for clients that take it (issue 31);
    # HTTP only (WebSockets pass through); the static files and the games' content come
    # compressed already (Content-Encoding set: left alone).
    app.add_middleware(GZipMiddleware, minimum_size=1000, compresslevel=6)
    app.add_middleware(BodyLimitMiddleware, limit=MAX_BODY_BYTES)
    app.add_middleware(OriginCheckMiddleware, allowed_origins=settings.allowed_origins)
    # An unhandled error becomes its 500 inside the headers middleware (Starlette's own
    # handler sits outside every middleware: its answer had none of the headers).
    app.add_middleware(InternalErrorMiddleware)
    app.add_middleware(SecurityHeadersMiddleware)  # every answer, errors included
    app.include_router(health.router)
    app.include_router(games.router)
    app.include_router(i18n.router)
    app.include_router(rooms.router)
    app.include_router(me.router)
    app.include_router(table.router)
    app.include_router(notices.router)
    app.include_router(qr.router)
    app.include_router(ws.router)
    app.include_router(shell.router)
    app.include_router(pages.router)
    games.document_commands(app)
    return app
