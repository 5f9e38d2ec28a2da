"""Rolling backups: a home server copies its own database every few hours, keeping the
last few, so that an owner who never runs `karanor backup` still has one.

Each is an ordinary backup (`app.store.backup.backup`: SQLite's online backup API, or
PostgreSQL's JSON lines in one snapshot), taken in a worker thread while play goes on,
written beside its final name and renamed into place. Rolling backups are named
`karanor-auto-YYYYMMDD-HHMMSS.<suffix>` in the backups folder; only those are pruned (the
`backup_keep` newest stay): a backup the owner made (`karanor backup`) is never deleted.

The next one is due `every` after the newest rolling backup's time (its name), so a
restart neither takes one at once nor waits a whole interval after a long stop (the
first one a minute after start-up at the soonest). Alembic is never imported: the
schema revision is read with one query.
`karanor restore` lists the folder (`list_backups`) and restores one.
"""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from app.store.backup import BackupReport, backup, default_backup_name

log = logging.getLogger(__name__)

AUTO_PREFIX = "karanor-auto-"
_STAMP = "%Y%m%d-%H%M%S"


@dataclass(frozen=True)
class BackupFile:
    """A backup in the folder: its file, when it was taken, and whether it is rolling."""

    path: Path
    taken: datetime
    automatic: bool
    size: int


def _taken(path: Path) -> datetime | None:
    """The time in a backup's name (`karanor-[auto-]YYYYMMDD-HHMMSS.*`), or None."""
    stem = path.name.removeprefix(AUTO_PREFIX).removeprefix("karanor-")
    try:
        return datetime.strptime(stem[:15], _STAMP)
    except ValueError:
        return None


def list_backups(folder: Path) -> list[BackupFile]:
    """The backups in `folder`, newest first: named by `karanor backup` or here, or any
    other file in it whose name does not say when (dated by its modification time)."""
    if not folder.is_dir():
        return []
    found: list[BackupFile] = []
    order: dict[Path, int] = {}
    for path in folder.iterdir():
        # Not a backup: one being written (`.partial`, and its SQLite `.partial-journal`).
        if not path.is_file() or ".partial" in path.name or path.name.startswith("."):
            continue
        stat = path.stat()
        taken = _taken(path) or datetime.fromtimestamp(stat.st_mtime)
        found.append(BackupFile(path, taken, path.name.startswith(AUTO_PREFIX), stat.st_size))
        order[path] = stat.st_mtime_ns  # within one named second: the later written first
    return sorted(found, key=lambda b: (b.taken, order[b.path]), reverse=True)


def take(
    url: str, folder: Path, keep: int, now: datetime | None = None, files: Sequence[Path] = ()
) -> BackupReport:
    """One rolling backup of the database at `url` (with `files`, as `backup` keeps them)
    into `folder`, then the oldest rolling ones past `keep` deleted.
    :raises BackupError: as `backup` does."""
    now = now or datetime.now()
    name = AUTO_PREFIX + default_backup_name(url, now).removeprefix("karanor-")
    path = folder / name
    stem, dot, suffix = name.partition(".")
    for again in range(2, 100):  # never over another backup of the same second
        if not path.exists():
            break
        path = folder / f"{stem}-{again}{dot}{suffix}"
    report = backup(url, path, files)
    prune(folder, keep)
    return report


def prune(folder: Path, keep: int) -> list[Path]:
    """Delete the rolling backups past the `keep` newest; the deleted files."""
    rolling = [b for b in list_backups(folder) if b.automatic]
    gone = [b.path for b in rolling[keep:]]
    for path in gone:
        path.unlink(missing_ok=True)
    return gone


def seconds_until_due(folder: Path, every: float, now: datetime | None = None) -> float:
    """Seconds until the next rolling backup: `every` after the newest one (0: due now)."""
    now = now or datetime.now()
    rolling = [b for b in list_backups(folder) if b.automatic]
    if not rolling:
        return 0.0
    # A name says the second it began: the next begins `every` after its end at the soonest.
    since = (now - rolling[0].taken).total_seconds() - 1
    return max(0.0, every - since)


FIRST_DELAY = 60.0  # seconds after start-up at least (not while the server is busiest)


async def keep_backups(
    url: str, folder: Path, every: float, keep: int, files: Sequence[Path] = ()
) -> None:
    """Take a rolling backup (with `files`) whenever one is due, forever (a task of the server): the
    first `FIRST_DELAY` after start-up at the soonest (or `every`, if shorter). A failed
    one (a full disk, the database away) is logged and tried again an interval later."""
    await asyncio.sleep(min(FIRST_DELAY, every))
    while True:
        await asyncio.sleep(seconds_until_due(folder, every))
        try:
            report = await asyncio.to_thread(take, url, folder, keep, None, files)
            log.info("rolling backup written: %s", report.path.name)
        except Exception:
            log.exception("rolling backup failed; trying again in %.0f s", every)
            await asyncio.sleep(every)


def set_aside(database: Path, now: datetime | None = None) -> Path | None:
    """Move a SQLite database (with its -wal and -shm files) aside before a restore
    replaces it: `karanor.db` -> `karanor.db.replaced-YYYYMMDD-HHMMSS`; the new name, or
    None when there was no file."""
    if not database.exists():
        return None
    aside = database.with_name(f"{database.name}.replaced-{(now or datetime.now()):{_STAMP}}")
    for suffix in ("", "-wal", "-shm"):
        source = database.with_name(database.name + suffix)
        if source.exists():
            os.replace(source, aside.with_name(aside.name + suffix))
    return aside


def put_back(aside: Path, database: Path) -> None:
    """Undo `set_aside` after a restore that failed: what the restore began is deleted,
    the database set aside comes back under its name."""
    for suffix in ("", "-wal", "-shm", "-journal"):
        database.with_name(database.name + suffix).unlink(missing_ok=True)
        kept = aside.with_name(aside.name + suffix)
        if kept.exists():
            os.replace(kept, database.with_name(database.name + suffix))
