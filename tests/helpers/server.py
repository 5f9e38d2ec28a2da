"""The server runner of the tests: `bench.server` (kept there so that the benchmarks
import nothing of the tests), under the name the tests have always used."""

from bench.server import REPO_ROOT, ServerError, ServerProcess, free_port, uvicorn_serving

__all__ = ["REPO_ROOT", "ServerError", "ServerProcess", "free_port", "uvicorn_serving"]
