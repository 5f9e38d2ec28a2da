"""The FastAPI application factory. It only assembles: settings, database, routers."""

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI
from fastapi.middleware.cors import CORSMiddleware

from app import __version__
from app.config import Settings, get_settings
from app.store.db import create_db_engine, create_sessionmaker
from app.web import health


def create_app(settings: Settings | None = None) -> FastAPI:
    """Build the application; the schema must already be migrated (`karanor serve` does it)."""
    settings = settings or get_settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        engine = create_db_engine(settings.database_url)
        app.state.engine = engine
        app.state.sessionmaker = create_sessionmaker(engine)
        try:
            yield
        finally:
            engine.dispose()

    app = FastAPI(title="Karanor Online", version=__version__, lifespan=lifespan)
    app.state.settings = settings
    if settings.allowed_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.allowed_origins,
            allow_methods=["*"],
            allow_headers=["*"],
        )
    app.include_router(health.router)
    return app
