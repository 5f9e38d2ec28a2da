"""The external services the suite relies on are reachable (skipped outside CI if not)."""

import redis
from sqlalchemy import text

from app.store.db import create_db_engine


def test_redis_answers(redis_url: str) -> None:
    client = redis.Redis.from_url(redis_url)
    try:
        assert client.ping()
    finally:
        client.close()


def test_postgres_schema_is_isolated(postgres_url: str) -> None:
    engine = create_db_engine(postgres_url)
    try:
        with engine.connect() as connection:
            schema = connection.scalar(text("SELECT current_schema()"))
    finally:
        engine.dispose()
    assert schema is not None and schema.startswith("t_")
