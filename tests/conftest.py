"""Fixtures shared by the whole suite.

- `database_url`: runs a test once on SQLite (a fresh file) and once on
  PostgreSQL (a fresh schema in the `test` database, dropped afterwards).
- `migrated_database_url`: the same, with the schema migrated to head.
- `sqlite_url`, `postgres_url`: one backend only.
- `redis_url`: the local Redis server.
- `server_factory`: real `karanor serve` processes, stopped after the test.

PostgreSQL or Redis unreachable: skipped outside CI, failed with CI=true.
"""

import uuid
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.helpers.server import ServerProcess
from tests.helpers.services import (
    POSTGRES_DB,
    POSTGRES_HOST,
    POSTGRES_PORT,
    POSTGRES_USERS,
    REDIS_URL,
    postgres_base_url,
    postgres_conninfo,
    redis_reachable,
    unavailable,
)

pytest_plugins = ["tests.helpers.browser"]  # the `browser` and `screens` fixtures


def _sqlite_url(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'db' / 'karanor.db'}"


def _postgres_schema_url() -> Iterator[str]:
    """A fresh schema per test; every connection gets it as search_path via libpq options."""
    import psycopg

    base = postgres_base_url()
    if base is None:
        unavailable(
            f"PostgreSQL not reachable at {POSTGRES_HOST}:{POSTGRES_PORT} "
            f"(database {POSTGRES_DB}, users tried: {', '.join(POSTGRES_USERS)})"
        )
    schema = f"t_{uuid.uuid4().hex[:16]}"
    with psycopg.connect(postgres_conninfo(base), autocommit=True) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        # application_name tags this test's connections so teardown can end them.
        yield f"{base}?options=-csearch_path%3D{schema}&application_name={schema}"
    finally:
        with psycopg.connect(postgres_conninfo(base), autocommit=True) as connection:
            connection.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = %s",
                (schema,),
            )
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def sqlite_url(tmp_path: Path) -> str:
    return _sqlite_url(tmp_path)


@pytest.fixture
def postgres_url() -> Iterator[str]:
    yield from _postgres_schema_url()


@pytest.fixture(
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def database_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """An empty database, on each backend in turn."""
    if request.param == "sqlite":
        yield _sqlite_url(tmp_path)
    else:
        yield from _postgres_schema_url()


@pytest.fixture
def migrated_database_url(database_url: str) -> str:
    """`database_url` with the schema migrated to head."""
    from app.store import migrate

    migrate.upgrade(database_url)
    return database_url


@pytest.fixture
def redis_url() -> str:
    if not redis_reachable(REDIS_URL):
        unavailable(f"Redis not reachable at {REDIS_URL}")
    return REDIS_URL


# The settings of the test servers: bots without a pause, quiet logs, no room quota.
FAST_ENV = {
    "KARANOR_BOT_DELAY_SECONDS": "0",
    "KARANOR_LOG_LEVEL": "warning",
    "KARANOR_ROOMS_PER_HOUR": "0",
}


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def backend_url(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[str]:
    """A fresh database per module, on each backend in turn (not migrated)."""
    if request.param == "sqlite":
        yield _sqlite_url(tmp_path_factory.mktemp("db"))
    else:
        yield from _postgres_schema_url()


@pytest.fixture(scope="module")
def shared_server(
    backend_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One real server for a whole module (tests that need no restart), on each backend:
    the one shared server fixture."""
    server = ServerProcess(
        tmp_path_factory.mktemp("server"), env={"DATABASE_URL": backend_url, **FAST_ENV}
    )
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def serve(
    server_factory: Callable[..., ServerProcess], database_url: str
) -> Callable[..., ServerProcess]:
    """Start a server on this test's database (each backend in turn), with extra settings:
    `serve(KARANOR_X="1")`; stopped at the end of the test."""

    def start(**env: str) -> ServerProcess:
        return server_factory(env={"DATABASE_URL": database_url, **FAST_ENV, **env}).start()

    return start


@pytest.fixture
def server_factory(tmp_path: Path) -> Iterator[Callable[..., ServerProcess]]:
    """Make (not yet started) server processes; all are stopped at the end of the test."""
    servers: list[ServerProcess] = []

    def make(**kwargs: Any) -> ServerProcess:
        workdir = kwargs.pop("workdir", tmp_path / f"server{len(servers)}")
        server = ServerProcess(workdir, **kwargs)
        servers.append(server)
        return server

    yield make
    for server in servers:
        server.kill()
