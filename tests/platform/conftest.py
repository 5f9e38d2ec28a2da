"""Real servers for the platform tests, on SQLite and on PostgreSQL."""

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import _postgres_schema_url, _sqlite_url
from tests.helpers.server import ServerProcess

FAST_ENV = {"KARANOR_BOT_DELAY_SECONDS": "0", "KARANOR_LOG_LEVEL": "warning"}


@pytest.fixture
def serve(
    server_factory: Callable[..., ServerProcess], database_url: str
) -> Callable[..., ServerProcess]:
    """Start a server on this test's database (each backend in turn)."""

    def start(**env: str) -> ServerProcess:
        server = server_factory(env={"DATABASE_URL": database_url, **FAST_ENV, **env})
        return server.start()

    return start


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def shared_server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server for a whole module (tests that need no restart), on each backend."""
    workdir: Path = tmp_path_factory.mktemp("server")
    urls: Iterator[str] | None = None
    if request.param == "sqlite":
        url = _sqlite_url(workdir)
    else:
        urls = _postgres_schema_url()
        url = next(urls)
    server = ServerProcess(workdir, env={"DATABASE_URL": url, **FAST_ENV})
    server.start()
    try:
        yield server
    finally:
        server.kill()
        if urls is not None:
            for _ in urls:
                pass


def database_of(server: ServerProcess) -> Any:
    return server.env["DATABASE_URL"]
