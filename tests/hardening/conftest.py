"""Fixtures of the hardening tests: real servers on each backend, with test-friendly limits."""

from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import _postgres_schema_url, _sqlite_url
from tests.helpers.server import ServerProcess

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
def hard_server(
    backend_url: str, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One real server per module and backend."""
    workdir: Path = tmp_path_factory.mktemp("server")
    server = ServerProcess(workdir, env={"DATABASE_URL": backend_url, **FAST_ENV})
    server.start()
    try:
        yield server
    finally:
        server.kill()


@pytest.fixture
def serve(
    server_factory: Callable[..., ServerProcess], database_url: str
) -> Callable[..., ServerProcess]:
    """Start a server with extra settings on this test's database (each backend)."""

    def start(**env: str) -> ServerProcess:
        return server_factory(env={"DATABASE_URL": database_url, **FAST_ENV, **env}).start()

    return start
