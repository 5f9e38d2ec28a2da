"""Real servers for the platform tests, on SQLite and on PostgreSQL."""

from collections.abc import Callable, Iterator
from typing import Any

import pytest

from tests.conftest import module_server
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
    yield from module_server(request.param, tmp_path_factory, FAST_ENV)


def database_of(server: ServerProcess) -> Any:
    return server.env["DATABASE_URL"]
