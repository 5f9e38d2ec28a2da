"""The server runner of the tests: `bench.server` (kept there so that the benchmarks
import nothing of the tests), under the name the tests have always used; and
`module_server`, one server for a test module."""

from collections.abc import Callable, Iterator, Mapping
from typing import Any

import pytest

from bench.server import REPO_ROOT, ServerError, ServerProcess, free_port, uvicorn_serving

__all__ = [
    "REPO_ROOT",
    "ServerError",
    "ServerProcess",
    "free_port",
    "module_server",
    "uvicorn_serving",
]


def module_server(
    env: Mapping[str, str], then: Callable[[ServerProcess], None] | None = None
) -> Any:
    """A module-scoped fixture: one real server with `env` for a test module's tests, each
    making rooms of its own (starting a server is a good part of a short browser test's
    time on a busy machine); `then(process)` runs once it is up."""

    @pytest.fixture(scope="module")
    def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
        process = ServerProcess(tmp_path_factory.mktemp("server"), env=dict(env))
        process.start()
        try:
            if then is not None:
                then(process)
            yield process
        finally:
            process.kill()

    return server
