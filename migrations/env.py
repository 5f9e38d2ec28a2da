"""Alembic environment: URL from settings (or overrides), metadata from app.store.models.

URL precedence: `config.attributes["url"]` (app.store.migrate), then
`alembic -x url=...`, then `DATABASE_URL` / the default SQLite file via
app.config.Settings. A connection passed in `config.attributes["connection"]`
is used as is.
"""

from logging.config import fileConfig

from alembic import context
from sqlalchemy import Connection

from app.config import get_settings, normalize_database_url
from app.store.db import create_db_engine, is_sqlite
from app.store.models import Base

config = context.config
if config.config_file_name is not None and config.attributes.get("configure_logger", True):
    fileConfig(config.config_file_name, disable_existing_loggers=False)

target_metadata = Base.metadata


def _database_url() -> str:
    url = config.attributes.get("url") or context.get_x_argument(as_dictionary=True).get("url")
    return normalize_database_url(url) if url else get_settings().database_url


def _configure(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=target_metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()
        if connection.dialect.name == "sqlite":
            # Foreign keys are off while migrating (see create_db_engine); check them now.
            broken = connection.exec_driver_sql("PRAGMA foreign_key_check").fetchall()
            if broken:
                raise RuntimeError(f"migration left broken foreign keys: {broken[:10]}")


def run_migrations_offline() -> None:
    url = _database_url()
    context.configure(
        url=url,
        target_metadata=target_metadata,
        literal_binds=True,
        dialect_opts={"paramstyle": "named"},
        render_as_batch=is_sqlite(url),
    )
    with context.begin_transaction():
        context.run_migrations()


def run_migrations_online() -> None:
    connection = config.attributes.get("connection")
    if connection is not None:
        _configure(connection)
        return
    engine = create_db_engine(_database_url(), sqlite_foreign_keys=False)
    try:
        with engine.connect() as connection:
            _configure(connection)
            connection.commit()
    finally:
        engine.dispose()


if context.is_offline_mode():
    run_migrations_offline()
else:
    run_migrations_online()
