"""Backups while the server runs, and restoring one into an empty database.

- SQLite: SQLite's online backup API copies the database in one step under a read
  transaction (WAL readers never block the writer): the copy is one consistent version,
  every commit before it and none after. The backup is a SQLite file (open it with
  `sqlite3` to look inside).
- PostgreSQL: a logical dump of our tables as JSON lines, read in one REPEATABLE READ,
  READ ONLY transaction (one consistent snapshot, writers never blocked). `.gz` at the end
  of the file name compresses it.

A JSON-lines backup starts with a header line `{"format": "karanor-backup", "version": 1,
"revision": REV, "tables": [...], "files": {NAME: base64}}` followed by one `{"table": NAME,
"row": {...}}` per row, parents before children.

Beside the database a backup carries the files it is given (the caller names them: the
server's keys in the data folder, `Settings.backed_up_files`): in the JSON-lines header, or
in a SQLite backup's own table `karanor_backup_files (name, content)`. A restore puts back
those the caller names again, by file name, setting aside a different file already there
(`NAME.replaced-DATE`), and never any other. A backup holds secrets (the keys, the seats'
notice addresses), so it is written readable by its owner only.

Restore reads either kind into either database, so a backup also moves a home server from
SQLite to PostgreSQL. The target must be empty (no row in any of our tables); it is
brought to the backup's schema revision, filled in one transaction, then migrated to the
latest revision.
"""

from __future__ import annotations

import base64
import gzip
import os
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import date, datetime
from pathlib import Path
from typing import IO, Any, cast

import orjson
from sqlalchemy import (
    JSON,
    Connection,
    DateTime,
    Engine,
    MetaData,
    Table,
    create_engine,
    func,
    inspect,
    select,
    text,
)
from sqlalchemy.engine import make_url

from app.config import normalize_database_url
from app.store import migrate
from app.store.db import create_db_engine, is_sqlite, write_transaction

FORMAT = "karanor-backup"
FORMAT_VERSION = 1
SQLITE_MAGIC = b"SQLite format 3\x00"
GZIP_MAGIC = b"\x1f\x8b"
VERSION_TABLE = "alembic_version"
FILES_TABLE = "karanor_backup_files"  # a SQLite backup's carried files, never restored as rows
BATCH = 500


class BackupError(Exception):
    """A backup or restore that cannot be done; the message says why and what to do."""


@dataclass
class BackupReport:
    """What a backup or a restore did."""

    path: Path
    kind: str  # "sqlite" or "jsonl"
    revision: str | None
    rows: dict[str, int] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)  # carried (backup) or put back (restore)
    set_aside: list[Path] = field(default_factory=list)  # files a restore moved out of its way

    def as_json(self) -> dict[str, Any]:
        return {
            "file": str(self.path),
            "kind": self.kind,
            "revision": self.revision,
            "rows": self.rows,
            "files": self.files,
        }


# ------------------------------------------------------------------ backup


def default_backup_name(url: str, when: datetime) -> str:
    suffix = "db" if is_sqlite(url) else "jsonl.gz"
    return f"karanor-{when:%Y%m%d-%H%M%S}.{suffix}"


def backup(url: str, path: Path, files: Sequence[Path] = ()) -> BackupReport:
    """Write a consistent copy of the database at `url` to `path` (see module doc), with
    those of `files` that exist (kept by name).

    The copy is written beside `path` and renamed into place, so `path` never holds half
    a backup. :raises BackupError: when the database is missing or empty of our schema.
    """
    url = normalize_database_url(url)
    carried = _read_files(files)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_name(path.name + ".partial")
    partial.unlink(missing_ok=True)
    os.close(os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))  # owner only
    try:
        if is_sqlite(url):
            report = _backup_sqlite(url, partial, carried)
        else:
            report = _backup_jsonl(url, partial, carried, compress=path.suffix == ".gz")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    report.path = path
    report.files = sorted(carried)
    return report


def _read_files(files: Sequence[Path]) -> dict[str, bytes]:
    carried: dict[str, bytes] = {}
    for file in files:
        try:
            carried[file.name] = file.read_bytes()
        except FileNotFoundError:
            continue  # not made yet (a server never started, Web Push off): nothing to keep
        except OSError as error:
            raise BackupError(f"cannot read {file} to keep it in the backup ({error})") from None
    return carried


def _sqlite_file(url: str) -> Path:
    database = make_url(url).database
    if not database or database == ":memory:":
        raise BackupError(f"{url} is not a SQLite file")
    return Path(database)


def _backup_sqlite(url: str, partial: Path, carried: dict[str, bytes]) -> BackupReport:
    import sqlite3

    source_path = _sqlite_file(url)
    if not source_path.is_file():
        raise BackupError(f"no database at {source_path} (check KARANOR_DATA_DIR/DATABASE_URL)")
    source = sqlite3.connect(f"file:{source_path}?mode=ro", uri=True, timeout=30)
    target = sqlite3.connect(partial)  # the empty owner-only file: a new database
    try:
        source.backup(target)  # pages=-1: everything in one step, one consistent read
        target.execute("PRAGMA journal_mode=DELETE")  # a single self-contained file
        if carried:
            with target:
                target.execute(
                    f"CREATE TABLE {FILES_TABLE} (name TEXT PRIMARY KEY, content BLOB NOT NULL)"
                )
                target.executemany(f"INSERT INTO {FILES_TABLE} VALUES (?, ?)", carried.items())
    finally:
        target.close()
        source.close()
    engine = _read_only_sqlite(partial)
    try:
        with engine.connect() as connection:
            revision = _revision(connection)
            rows = {t.name: _count(connection, t) for t in _tables(connection)}
    finally:
        engine.dispose()
    if revision is None:
        raise BackupError(f"{source_path} holds no Karanor schema (never served?)")
    return BackupReport(partial, "sqlite", revision, rows)


def _jsonable(value: Any) -> Any:
    if isinstance(value, datetime | date):
        return value.isoformat()
    return value


def _backup_jsonl(
    url: str, partial: Path, carried: dict[str, bytes], *, compress: bool
) -> BackupReport:
    engine = create_db_engine(url)
    rows: dict[str, int] = {}
    try:
        with engine.connect() as connection:
            connection = connection.execution_options(isolation_level="REPEATABLE READ")
            with connection.begin():
                connection.execute(text("SET TRANSACTION READ ONLY"))
                revision = _revision(connection)
                if revision is None:
                    raise BackupError("the database holds no Karanor schema (never migrated?)")
                tables = _tables(connection)
                raw = cast(IO[bytes], gzip.open(partial, "wb") if compress else partial.open("wb"))  # noqa: SIM115
                with raw as out:
                    header = {
                        "format": FORMAT,
                        "version": FORMAT_VERSION,
                        "revision": revision,
                        "tables": [str(t.name) for t in tables],
                        "files": {n: base64.b64encode(c).decode() for n, c in carried.items()},
                    }
                    out.write(orjson.dumps(header) + b"\n")
                    for table in tables:
                        rows[table.name] = 0
                        order = list(table.primary_key.columns) or list(table.columns)
                        result = connection.execution_options(yield_per=BATCH).execute(
                            select(table).order_by(*order)
                        )
                        for row in result.mappings():
                            line = {
                                "table": str(table.name),
                                "row": {str(k): _jsonable(v) for k, v in row.items()},
                            }
                            out.write(orjson.dumps(line) + b"\n")
                            rows[table.name] += 1
    finally:
        engine.dispose()
    return BackupReport(partial, "jsonl", revision, rows)


# ------------------------------------------------------------------ shared


def _revision(connection: Connection) -> str | None:
    """The schema revision, read with one query as `migrate.revision_of` does (Alembic
    stays out of a serving process, which takes rolling backups)."""
    if not inspect(connection).has_table(migrate.VERSION_TABLE):
        return None
    rows = connection.execute(text(f"SELECT version_num FROM {migrate.VERSION_TABLE}")).all()
    return ",".join(sorted(str(row[0]) for row in rows)) or None


def _tables(connection: Connection) -> list[Table]:
    """Our tables as they are in this database, parents before children."""
    metadata = MetaData()
    metadata.reflect(bind=connection)
    for table in metadata.tables.values():
        for column in table.columns:
            if isinstance(column.type, JSON):
                column.type.none_as_null = True  # a NULL stays NULL, not JSON null
    return [t for t in metadata.sorted_tables if t.name not in (VERSION_TABLE, FILES_TABLE)]


def _count(connection: Connection, table: Table) -> int:
    return int(connection.scalar(select(func.count()).select_from(table)) or 0)


# ------------------------------------------------------------------ restore


@dataclass
class _Source:
    kind: str
    revision: str
    rows: Iterator[tuple[str, dict[str, Any]]]
    close: Any = None
    files: dict[str, bytes] = field(default_factory=dict)


def _open_source(path: Path) -> _Source:
    if not path.is_file():
        raise BackupError(f"no backup at {path}")
    with path.open("rb") as probe:
        magic = probe.read(len(SQLITE_MAGIC))
    if magic == SQLITE_MAGIC:
        return _sqlite_source(path)
    return _jsonl_source(path, compressed=magic.startswith(GZIP_MAGIC))


def _read_only_sqlite(path: Path) -> Engine:
    """An engine on a backup file that changes nothing in it (no WAL switch, no pragmas)."""
    return create_engine(f"sqlite:///file:{path.resolve()}?mode=ro&uri=true")


def _sqlite_source(path: Path) -> _Source:
    engine = _read_only_sqlite(path)
    connection = engine.connect()
    revision = _revision(connection)
    if revision is None:
        connection.close()
        engine.dispose()
        raise BackupError(f"{path} holds no Karanor schema")
    files: dict[str, bytes] = {}
    if inspect(connection).has_table(FILES_TABLE):
        found = connection.execute(text(f"SELECT name, content FROM {FILES_TABLE}"))
        files = {str(name): bytes(content) for name, content in found}

    def rows() -> Iterator[tuple[str, dict[str, Any]]]:
        for table in _tables(connection):
            for row in connection.execute(select(table)).mappings():
                yield table.name, dict(row)

    def close() -> None:
        connection.close()
        engine.dispose()

    return _Source("sqlite", revision, rows(), close, files)


def _jsonl_source(path: Path, *, compressed: bool) -> _Source:
    raw = cast(IO[bytes], gzip.open(path, "rb") if compressed else path.open("rb"))  # noqa: SIM115
    try:
        header = orjson.loads(raw.readline() or b"null")
    except orjson.JSONDecodeError:
        header = None
    if not isinstance(header, dict) or header.get("format") != FORMAT:
        raw.close()
        raise BackupError(f"{path} is neither a SQLite file nor a Karanor JSON-lines backup")
    if header.get("version") != FORMAT_VERSION:
        raw.close()
        raise BackupError(f"{path}: backup format version {header.get('version')} is unknown")

    def rows() -> Iterator[tuple[str, dict[str, Any]]]:
        for number, line in enumerate(raw, start=2):
            if not line.strip():
                continue
            try:
                entry = orjson.loads(line)
                yield entry["table"], entry["row"]
            except (orjson.JSONDecodeError, KeyError, TypeError) as error:
                raise BackupError(f"{path}, line {number}: not a backup row ({error})") from None

    try:
        files = {str(n): base64.b64decode(c) for n, c in (header.get("files") or {}).items()}
    except (AttributeError, TypeError, ValueError):
        raw.close()
        raise BackupError(f"{path}: the header's files are not base64 text") from None
    return _Source("jsonl", str(header["revision"]), rows(), raw.close, files)


def non_empty_tables(engine: Engine) -> dict[str, int]:
    """Our tables in this database that hold rows, with their counts."""
    with engine.connect() as connection:
        counts = {t.name: _count(connection, t) for t in _tables(connection)}
    return {name: count for name, count in counts.items() if count}


def _convert(table: Table, row: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for name, value in row.items():
        column = table.columns.get(name)
        if column is None:
            raise BackupError(f"the backup has a column {table.name}.{name} the schema lacks")
        if isinstance(value, str) and isinstance(column.type, DateTime):
            value = datetime.fromisoformat(value)
        out[name] = value
    return out


def _insert_all(
    connection: Connection, tables: dict[str, Table], rows: Iterable[tuple[str, dict[str, Any]]]
) -> dict[str, int]:
    counts: dict[str, int] = {}
    batch: list[dict[str, Any]] = []
    current: Table | None = None

    def flush() -> None:
        if current is not None and batch:
            connection.execute(current.insert(), batch)
            batch.clear()

    for name, row in rows:
        table = tables.get(name)
        if table is None:
            raise BackupError(f"the backup has a table {name!r} the schema lacks")
        if table is not current or len(batch) >= BATCH:
            flush()
            current = table
        batch.append(_convert(table, row))
        counts[name] = counts.get(name, 0) + 1
    flush()
    return counts


def _reset_sequences(connection: Connection, tables: Iterable[Table]) -> None:
    """PostgreSQL: move each id sequence past the restored ids."""
    for table in tables:
        for column in table.primary_key.columns:
            sequence = connection.scalar(
                text("SELECT pg_get_serial_sequence(:t, :c)"),
                {"t": table.name, "c": column.name},
            )
            if sequence:
                connection.execute(
                    text(
                        f'SELECT setval(:s, COALESCE((SELECT max("{column.name}") '
                        f'FROM "{table.name}"), 0) + 1, false)'
                    ),
                    {"s": sequence},
                )


def restore(url: str, path: Path, files: Sequence[Path] = ()) -> BackupReport:
    """Load the backup at `path` into the empty database at `url`, then migrate it to head;
    then put each of `files` the backup carries (by name) in its place (see module doc).

    :raises BackupError: when the database is not empty, the file is not a backup, or the
        backup comes from a newer version of the program.
    """
    url = normalize_database_url(url)
    source = _open_source(path)
    try:
        if not migrate.is_known_revision(source.revision):
            raise BackupError(
                f"{path} was made by a newer Karanor Online (schema revision "
                f"{source.revision}); install that version or newer to restore it"
            )
        engine = create_db_engine(url)
        try:
            busy = non_empty_tables(engine)
            if busy:
                listed = ", ".join(f"{name}: {count} rows" for name, count in busy.items())
                raise BackupError(
                    f"the database is not empty ({listed}); restore only into an empty "
                    "database (a new DATABASE_URL, or a KARANOR_DATA_DIR without karanor.db)"
                )
            # Empty: take it to exactly the backup's schema (down to base first if it was
            # already migrated further), fill it, then migrate to head.
            if migrate.current_revision(url) is not None:
                migrate.downgrade(url, "base")
            migrate.upgrade(url, source.revision)
            with write_transaction(engine) as connection:
                tables = {t.name: t for t in _tables(connection)}
                rows = _insert_all(connection, tables, source.rows)
                if connection.dialect.name == "postgresql":
                    _reset_sequences(connection, tables.values())
        finally:
            engine.dispose()
    finally:
        if source.close is not None:
            source.close()
    migrate.upgrade(url)
    report = BackupReport(path, source.kind, source.revision, rows)
    for file in files:
        content = source.files.get(file.name)
        if content is not None:
            aside = _put_file(file, content)
            report.files.append(file.name)
            if aside is not None:
                report.set_aside.append(aside)
    return report


def _put_file(file: Path, content: bytes) -> Path | None:
    """`content` written to `file` (owner only, renamed into place); a different file
    there is moved aside first (`NAME.replaced-DATE`, its new path returned), never lost.
    The database restored is one that was empty or set aside: nothing in it depends on
    the file it replaces."""
    aside = None
    if file.exists():
        if file.read_bytes() == content:
            return None
        aside = file.with_name(f"{file.name}.replaced-{datetime.now():%Y%m%d-%H%M%S}")
        os.replace(file, aside)
    file.parent.mkdir(parents=True, exist_ok=True)
    partial = file.with_name(file.name + ".partial")
    fd = os.open(partial, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "wb") as out:
        out.write(content)
    os.replace(partial, file)
    return aside
