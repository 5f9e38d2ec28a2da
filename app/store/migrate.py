"""Run Alembic migrations from Python, from any working directory."""

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory

from app.config import normalize_database_url
from app.paths import project_root
from app.store.db import create_db_engine


def alembic_config(url: str) -> Config:
    """An Alembic config bound to `url`, with paths resolved from the project root."""
    root = project_root()
    config = Config(str(root / "alembic.ini"))
    config.set_main_option("script_location", str(root / "migrations"))
    config.attributes["url"] = normalize_database_url(url)
    # Keep the host application's logging configuration.
    config.attributes["configure_logger"] = False
    return config


def upgrade(url: str, revision: str = "head") -> None:
    """Bring the database at `url` up to `revision` (default: the latest)."""
    command.upgrade(alembic_config(url), revision)


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
