"""The FastAPI application factory. It only assembles: settings, database, routers."""

import contextlib
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from app import __version__
from app.config import Settings, get_settings
from app.realtime.hub import Hub
from app.rooms.service import RoomService
from app.store.db import create_db_engine, create_sessionmaker
from app.web import health, pages, rooms, ws
from app.web.errors import MAX_BODY_BYTES, BodyLimitMiddleware, install_error_handlers


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application; the schema must already be migrated (`karanor serve` does it)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_db_engine(settings.database_url)
        app.state.engine = engine
        app.state.sessionmaker = create_sessionmaker(engine)
        app.state.rooms = RoomService(engine, settings, Hub())
        # A database down at start: /healthz says so, and bots wake on the next command.
        with contextlib.suppress(Exception):
            await app.state.rooms.startup()
        try:
            yield
        finally:
            await app.state.rooms.shutdown()
            engine.dispose()

    app = FastAPI(title="Karanor Online", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    install_error_handlers(app)
    if settings.allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.allowed_origins,
            allow_methods=["*"],
            allow_headers=["*"],
        )
    app.add_middleware(BodyLimitMiddleware, limit=MAX_BODY_BYTES)
    app.include_router(health.router)
    app.include_router(rooms.router)
    app.include_router(ws.router)
    app.include_router(pages.router)
    return app
