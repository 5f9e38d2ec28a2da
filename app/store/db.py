"""Engine and session factories.

One synchronous SQLAlchemy engine per process. SQLite gets the pragmas a
multi-reader server needs (WAL, foreign keys, a busy timeout, `synchronous=FULL` unless
told otherwise: see `SQLITE_SYNCHRONOUS` and docs/security.md) and real transactions:
pysqlite's own implicit BEGIN is switched off and SQLAlchemy
emits BEGIN itself, so SAVEPOINT and transactional DDL behave as documented.
"""

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import Connection, Engine, create_engine, event, make_url
from sqlalchemy.orm import Session, sessionmaker

SQLITE_BUSY_TIMEOUT_MS = 30_000

# In WAL mode, FULL syncs the WAL at every commit: an acknowledged command survives a
# killed process, an OS crash and a power cut. NORMAL syncs only at checkpoints: it
# survives a killed process, but an OS crash or a power cut may lose the last commits
# (the database itself stays consistent). Setting: KARANOR_SQLITE_SYNCHRONOUS.
SQLITE_SYNCHRONOUS = ("FULL", "NORMAL")


def json_dumps(value: Any) -> str:
    """JSON as the engine stores it (orjson; keys that are not strings allowed)."""
    try:
        return orjson.dumps(value).decode()
    except TypeError:  # keys that are not strings: the option costs a third more
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS).decode()


def is_sqlite(url: str) -> bool:
    return make_url(url).get_backend_name() == "sqlite"


def _sqlite_file(url: str) -> Path | None:
    database = make_url(url).database
    if not database or database == ":memory:" or database.startswith("file:"):
        return None
    return Path(database)


def _sqlite_pragmas(*, foreign_keys: bool, synchronous: str) -> Callable[[Any, Any], None]:
    def on_connect(dbapi_connection: Any, _record: Any) -> None:
        # Let SQLAlchemy control BEGIN (see module docstring).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        try:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA foreign_keys={'ON' if foreign_keys else 'OFF'}")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
        finally:
            cursor.close()

    return on_connect


WRITER_OPTION = "karanor_writer"


def _on_sqlite_begin(connection: Any) -> None:
    # A writer takes SQLite's write lock at BEGIN (IMMEDIATE), so two writers queue on
    # the busy timeout instead of one failing with "database is locked" on upgrade.
    writer = connection.get_execution_options().get(WRITER_OPTION)
    connection.exec_driver_sql("BEGIN IMMEDIATE" if writer else "BEGIN")


class MissingDriver(RuntimeError):
    """The database URL names a driver that is not installed (an optional extra)."""


def create_db_engine(
    url: str,
    *,
    echo: bool = False,
    sqlite_foreign_keys: bool = True,
    sqlite_synchronous: str = "FULL",
) -> Engine:
    """Create the engine for `url` (as normalised by `app.config`).

    For a SQLite file the parent folder is created first. Migrations turn
    `sqlite_foreign_keys` off: batch mode rebuilds a table by dropping it, and
    with foreign keys on that drop would cascade-delete the rows that refer to it.
    `sqlite_synchronous` is FULL or NORMAL (see `SQLITE_SYNCHRONOUS`).

    :raises ValueError: for another `sqlite_synchronous`.
    :raises MissingDriver: a PostgreSQL URL without psycopg installed.
    """
    if sqlite_synchronous.upper() not in SQLITE_SYNCHRONOUS:
        raise ValueError(f"sqlite_synchronous must be FULL or NORMAL, not {sqlite_synchronous!r}")
    common: dict[str, Any] = {
        "echo": echo,
        "json_serializer": json_dumps,
        "json_deserializer": orjson.loads,
    }
    if not is_sqlite(url):
        if url.startswith("postgresql+psycopg"):
            try:
                import psycopg  # noqa: F401  (the driver SQLAlchemy will load)
            except ImportError:
                raise MissingDriver(
                    "PostgreSQL needs its driver, an extra of the package: "
                    "pip install 'karanor-online[postgres]' (from a checkout: "
                    "pip install '.[postgres]', or pipx install '.[postgres]')"
                ) from None
        return create_engine(url, pool_pre_ping=True, **common)

    if (path := _sqlite_file(url)) is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
    engine = create_engine(
        url,
        connect_args={"check_same_thread": False, "timeout": SQLITE_BUSY_TIMEOUT_MS / 1000},
        **common,
    )
    event.listen(
        engine,
        "connect",
        _sqlite_pragmas(foreign_keys=sqlite_foreign_keys, synchronous=sqlite_synchronous.upper()),
    )
    event.listen(engine, "begin", _on_sqlite_begin)
    return engine


def create_sessionmaker(engine: Engine) -> sessionmaker[Session]:
    """Sessions that keep loaded attributes after commit (we hand them to the web layer)."""
    return sessionmaker(bind=engine, expire_on_commit=False)


def writer_connection(engine: Engine) -> Connection:
    """A connection whose transactions (`connection.begin()`) write: `BEGIN IMMEDIATE`
    on SQLite, a plain BEGIN elsewhere. The caller closes it."""
    return engine.connect().execution_options(**{WRITER_OPTION: True})


@contextmanager
def write_transaction(engine: Engine) -> Iterator[Connection]:
    """One writing transaction: `BEGIN IMMEDIATE` on SQLite, a plain BEGIN elsewhere.

    Commits when the block ends, rolls back if it raises.
    """
    with writer_connection(engine) as connection, connection.begin():
        yield connection


def autocommit_connection(engine: Engine) -> Connection:
    """A connection in autocommit mode (the caller closes it), for statements each a
    whole write transaction by itself: the database commits each (durably, as a COMMIT
    would) before it answers. One round trip where BEGIN ... COMMIT takes two."""
    return engine.connect().execution_options(isolation_level="AUTOCOMMIT")


@contextmanager
def read_connection(engine: Engine) -> Iterator[Connection]:
    """A connection for reads (one transaction, rolled back at the end)."""
    with engine.connect() as connection:
        yield connection


def ping(engine: Engine) -> str | None:
    """None when the database answers a trivial query; else why not (for /readyz)."""
    from sqlalchemy import text
    from sqlalchemy.exc import SQLAlchemyError

    try:
        with engine.connect() as connection:
            connection.execute(text("SELECT 1"))
    except SQLAlchemyError as error:
        return str(error).splitlines()[0][:200]
    return None
