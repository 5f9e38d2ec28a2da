"""Run Alembic migrations from Python, from any working directory."""

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import text

from app.config import normalize_database_url
from app.paths import project_root
from app.store.db import create_db_engine, is_sqlite


def alembic_config(url: str) -> Config:
    """An Alembic config bound to `url`, with paths resolved from the project root."""
    root = project_root()
    config = Config(str(root / "alembic.ini"))
    config.set_main_option("script_location", str(root / "migrations"))
    config.attributes["url"] = normalize_database_url(url)
    # Keep the host application's logging configuration.
    config.attributes["configure_logger"] = False
    return config


# Several server processes starting at once on one PostgreSQL database migrate one
# after the other (the later ones find the schema at head and do nothing).
MIGRATION_LOCK_KEY = 0x4B41524E  # "KARN"


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at `url` up to `revision` (default: the latest).

    On PostgreSQL an advisory lock serialises concurrent upgrades (N processes started
    together by `docker compose up --scale app=N`)."""
    url = normalize_database_url(url)
    if is_sqlite(url):
        command.upgrade(alembic_config(url), revision)
        return
    engine = create_db_engine(url)
    try:
        with engine.connect() as lock:
            lock.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
            lock.commit()
            try:
                command.upgrade(alembic_config(url), revision)
            finally:
                lock.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
                lock.commit()
    finally:
        engine.dispose()


def downgrade(url: str, revision: str) -> None:
    """Take the database at `url` down to `revision` (`"base"` drops every table)."""
    command.downgrade(alembic_config(url), revision)


def current_revision(url: str) -> str | None:
    """The revision the database at `url` is at, or None for an empty database."""
    engine = create_db_engine(normalize_database_url(url))
    try:
        with engine.connect() as connection:
            return MigrationContext.configure(connection).get_current_revision()
    finally:
        engine.dispose()


def head_revision() -> str | None:
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()
