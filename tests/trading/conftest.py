"""A real `karanor serve` per module for the trading tests, on SQLite and PostgreSQL.

PostgreSQL unreachable: skipped on a developer machine, failed with CI=true
(see tests/helpers/services.py).
"""

from collections.abc import Iterator

import pytest

from tests.conftest import module_server
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
    yield from module_server(request.param, tmp_path_factory, FAST_ENV)
