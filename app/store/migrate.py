"""Run Alembic migrations from Python, from any working directory; read the schema's
revision without Alembic.

Alembic is configured in code: no alembic.ini is read at run time (the one at the top of
the source tree is for developers running `alembic revision`). The migration scripts are
found through `app.paths` (inside the installed package, or the source tree's
`migrations/`).

Alembic is imported only inside the functions that migrate: a serving process never
needs it (~10 MB resident for the life of the process, docs/perf-sockets-cold-bots.md).
`karanor serve` migrates in a child process (`upgrade_in_child`), and `/readyz` reads the
database's revision with one query (`revision_of`) and this program's latest revision
from the migration scripts' source (`head_revision`), neither importing Alembic.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from functools import cache
from typing import TYPE_CHECKING

from sqlalchemy import Engine, inspect, text

from app.config import normalize_database_url
from app.paths import migrations_dir
from app.store.db import create_db_engine, is_sqlite

if TYPE_CHECKING:
    from alembic.config import Config

VERSION_TABLE = "alembic_version"  # Alembic's default, which migrations/env.py keeps


def alembic_config(url: str) -> Config:
    """An Alembic config bound to `url`, built in code (no ini file)."""
    from alembic.config import Config

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
    from alembic import command

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


class MigrationFailed(RuntimeError):
    """`upgrade_in_child`'s child process failed (it printed why on its stderr, ours)."""

    def __init__(self, status: int) -> None:
        super().__init__(f"the database migration failed (exit status {status}); not serving")
        self.status = status


def upgrade_in_child(url: str) -> None:
    """`karanor db upgrade` of the database at `url`, in a child Python process: Alembic
    and the migration scripts never enter this process (a server's memory). The child's
    errors go to this process's stderr.

    :raises MissingDriver: a PostgreSQL URL without psycopg installed (said here, before
        the child, as by every command).
    :raises MigrationFailed: when the child exits with an error.
    """
    url = normalize_database_url(url)
    create_db_engine(url).dispose()
    done = subprocess.run(
        [sys.executable, "-m", "app.cli", "db", "upgrade"],
        env={**os.environ, "DATABASE_URL": url},  # not in argv: `ps` would show a password
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,  # "database at revision ...": the banner follows
        check=False,
    )
    if done.returncode != 0:
        raise MigrationFailed(done.returncode)


def downgrade(url: str, revision: str) -> None:
    """Take the database at `url` down to `revision` (`"base"` drops every table)."""
    from alembic import command

    command.downgrade(alembic_config(url), revision)


def current_revision(url: str) -> str | None:
    """The revision the database at `url` is at, or None for an empty database."""
    engine = create_db_engine(normalize_database_url(url))
    try:
        return revision_of(engine)
    finally:
        engine.dispose()


def revision_of(engine: Engine) -> str | None:
    """The revision the database behind `engine` is at (None: never migrated), read with
    one query on Alembic's version table (several rows, never written by our linear
    history, are joined by commas: not a revision this program knows).

    :raises sqlalchemy.exc.SQLAlchemyError: when the database cannot be reached.
    """
    with engine.connect() as connection:
        if not inspect(connection).has_table(VERSION_TABLE):
            return None
        rows = connection.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).all()
    return ",".join(sorted(str(row[0]) for row in rows)) or None


def script_revisions() -> dict[str, str | None]:
    """Every migration script's `revision` and its `down_revision`, read from the scripts'
    source (`migrations/versions/*.py`) without importing them or Alembic."""
    found: dict[str, str | None] = {}
    for path in sorted((migrations_dir() / "versions").glob("*.py")):
        values: dict[str, object] = {}
        for node in ast.parse(path.read_text(encoding="utf-8"), str(path)).body:
            target = value = None
            if isinstance(node, ast.Assign) and len(node.targets) == 1:
                target, value = node.targets[0], node.value
            elif isinstance(node, ast.AnnAssign):
                target, value = node.target, node.value
            if (
                isinstance(target, ast.Name)
                and target.id in ("revision", "down_revision")
                and value is not None
            ):
                values[target.id] = ast.literal_eval(value)
        revision, down = values.get("revision"), values.get("down_revision")
        if not isinstance(revision, str) or not (down is None or isinstance(down, str)):
            raise ValueError(f"{path}: no plain revision / down_revision strings")
        found[revision] = down
    return found


@cache
def head_revision() -> str | None:
    """The latest revision this version of the program knows (None: no migration), from
    the scripts' source: the one revision no other script follows. Checked against
    Alembic's own answer by tests/store/test_migrations.py.

    :raises ValueError: when the scripts have several heads (branches are not used).
    """
    revisions = script_revisions()
    heads = sorted(set(revisions) - set(revisions.values()))
    if len(heads) > 1:
        raise ValueError(f"the migration scripts have several heads: {heads}")
    return heads[0] if heads else None


def is_known_revision(revision: str) -> bool:
    """Whether this version of the program has the migration `revision`."""
    from alembic.script import ScriptDirectory
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
    from alembic.script import ScriptDirectory

    script = ScriptDirectory.from_config(alembic_config("sqlite://")).get_revision(revision)
    down = script.down_revision if script is not None else None
    return down if isinstance(down, str) or down is None else down[0]
