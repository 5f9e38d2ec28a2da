"""A real `karanor serve` per module for the trading tests, on SQLite and PostgreSQL.

PostgreSQL unreachable: skipped on a developer machine, failed with CI=true
(see tests/helpers/services.py).
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import _postgres_schema_url, _sqlite_url
from tests.helpers.server import ServerProcess

FAST_ENV = {"KARANOR_BOT_DELAY_SECONDS": "0", "KARANOR_LOG_LEVEL": "warning"}


@pytest.fixture(
    scope="module",
    params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)],
)
def server(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
) -> Iterator[ServerProcess]:
    """One server process for a whole module, on each backend in turn."""
    workdir: Path = tmp_path_factory.mktemp("server")
    urls: Iterator[str] | None = None
    if request.param == "sqlite":
        url = _sqlite_url(workdir)
    else:
        urls = _postgres_schema_url()
        url = next(urls)
    process = ServerProcess(workdir, env={"DATABASE_URL": url, **FAST_ENV})
    process.start()
    try:
        yield process
    finally:
        process.kill()
        if urls is not None:
            for _ in urls:  # drops the schema
                pass
