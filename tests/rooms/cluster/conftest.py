"""Two real server processes on one PostgreSQL schema and one Redis (a unique key prefix
per test, so tests never hear each other)."""

import uuid
from collections.abc import Callable, Iterator

import pytest
import redis

from tests.helpers.server import ServerProcess

FAST_ENV = {
    "KARANOR_BOT_DELAY_SECONDS": "0",
    "KARANOR_LOG_LEVEL": "warning",
    "KARANOR_SYNC_INTERVAL": "0.5",
}


@pytest.fixture
def redis_prefix(redis_url: str) -> Iterator[str]:
    prefix = f"test-{uuid.uuid4().hex[:12]}"
    yield prefix
    client = redis.Redis.from_url(redis_url)
    try:
        keys = list(client.scan_iter(match=f"{prefix}:*"))
        if keys:
            client.delete(*keys)
    finally:
        client.close()


@pytest.fixture
def start_servers(
    server_factory: Callable[..., ServerProcess],
    postgres_url: str,
    redis_url: str,
    redis_prefix: str,
) -> Callable[..., list[ServerProcess]]:
    """`start_servers(n, **env)`: n processes sharing the database and Redis."""

    def start(n: int = 2, **env: str) -> list[ServerProcess]:
        shared = {
            "DATABASE_URL": postgres_url,
            "REDIS_URL": redis_url,
            "KARANOR_REDIS_PREFIX": redis_prefix,
            **FAST_ENV,
            **env,
        }
        return [server_factory(env=shared).start() for _ in range(n)]

    return start
