"""Run Alembic migrations from Python, from any working directory.

Alembic is configured in code: no alembic.ini is read at run time (the one at the top of
the source tree is for developers running `alembic revision`). The migration scripts are
found through `app.paths` (inside the installed package, or the source tree's
`migrations/`).
"""

from functools import cache

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Engine, text

from app.config import normalize_database_url
from app.paths import migrations_dir
from app.store.db import create_db_engine, is_sqlite


def alembic_config(url: str) -> Config:
    """An Alembic config bound to `url`, built in code (no ini file)."""
    config = Config()
    config.set_main_option("script_location", str(migrations_dir()))
    config.set_main_option("path_separator", "os")
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


@cache
def head_revision() -> str | None:
    """The latest revision this version of the program knows."""
    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def revision_of(engine: Engine) -> str | None:
    """The revision the database behind `engine` is at (None: never migrated).

    :raises sqlalchemy.exc.SQLAlchemyError: when the database cannot be reached.
    """
    with engine.connect() as connection:
        return MigrationContext.configure(connection).get_current_revision()


def is_known_revision(revision: str) -> bool:
    """Whether this version of the program has the migration `revision`."""
    from alembic.util import CommandError

    try:
        return (
            ScriptDirectory.from_config(alembic_config("sqlite://")).get_revision(revision)
            is not None
        )
    except CommandError:
        return False


def previous_revision(revision: str) -> str | None:
    """The revision just before `revision` (None for the first)."""
    script = ScriptDirectory.from_config(alembic_config("sqlite://")).get_revision(revision)
    down = script.down_revision if script is not None else None
    return down if isinstance(down, str) or down is None else down[0]
