"""Finding PostgreSQL and Redis for tests.

Outside CI an unreachable service skips the tests that need it, with the
reason shown; with CI=true it fails them, so CI can never pass by skipping.
"""

import os
from functools import cache
from typing import NoReturn

import pytest

POSTGRES_HOST = os.environ.get("KARANOR_TEST_PG_HOST", "127.0.0.1")
POSTGRES_PORT = int(os.environ.get("KARANOR_TEST_PG_PORT", "5432"))
POSTGRES_DB = os.environ.get("KARANOR_TEST_PG_DB", "test")
POSTGRES_USERS = ("postgres", "root")
REDIS_URL = os.environ.get("KARANOR_TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def unavailable(reason: str) -> NoReturn:
    """Skip (developer machine) or fail (CI) the current test."""
    if in_ci():
        pytest.fail(f"{reason} (required because CI=true)", pytrace=False)
    pytest.skip(reason)


@cache
def postgres_base_url() -> str | None:
    """A SQLAlchemy URL for the test database with the first user that can log in, or None."""
    import psycopg

    for user in POSTGRES_USERS:
        conninfo = f"host={POSTGRES_HOST} port={POSTGRES_PORT} dbname={POSTGRES_DB} user={user}"
        try:
            with psycopg.connect(conninfo, connect_timeout=3) as connection:
                connection.execute("SELECT 1")
        except psycopg.Error:
            continue
        return f"postgresql+psycopg://{user}@{POSTGRES_HOST}:{POSTGRES_PORT}/{POSTGRES_DB}"
    return None


def postgres_conninfo(base_url: str) -> str:
    """psycopg's form of a `postgresql+psycopg://` URL (psycopg takes plain postgresql://)."""
    return base_url.replace("postgresql+psycopg://", "postgresql://", 1)


@cache
def redis_reachable(url: str = REDIS_URL) -> bool:
    import redis

    client = redis.Redis.from_url(url, socket_connect_timeout=3)
    try:
        return bool(client.ping())
    except redis.RedisError:
        return False
    finally:
        client.close()
