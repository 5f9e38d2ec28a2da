"""Old rooms are deleted after a retention: `karanor cleanup [--dry-run]` and, in the
server, a periodic task (`Settings.cleanup_interval_seconds`, hourly by default).

- finished rooms: `finished_retention_days` after their last activity;
- lobby and playing rooms (abandoned): `idle_retention_days` after their last activity.

A room's last activity is the latest of its own change, its game's last command and
its last chat line. A retention of 0 keeps those rooms forever. Everything of a room
goes: its log, game, chat, seats. Run `karanor export CODE` first to keep a copy.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

from sqlalchemy import Engine

from app.store import retention
from app.store.db import read_connection, write_transaction

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Expired:
    code: str
    status: str
    last_activity: datetime


@dataclass
class CleanupReport:
    dry_run: bool
    rooms: list[Expired] = field(default_factory=list)

    def as_json(self) -> dict[str, Any]:
        return {
            "dry_run": self.dry_run,
            "deleted": 0 if self.dry_run else len(self.rooms),
            "rooms": [
                {"code": r.code, "status": r.status, "last_activity": r.last_activity.isoformat()}
                for r in self.rooms
            ],
        }


def _utc(at: datetime | None) -> datetime | None:
    if at is None:
        return None
    return at.replace(tzinfo=UTC) if at.tzinfo is None else at.astimezone(UTC)


def expired_rooms(
    db: Engine,
    *,
    finished_days: float,
    idle_days: float,
    now: datetime | None = None,
) -> list[Expired]:
    """The rooms past their retention, oldest first."""
    now = _utc(now) or datetime.now(UTC)
    limits = {"finished": finished_days, "lobby": idle_days, "playing": idle_days}
    kept = [d for d in limits.values() if d > 0]
    if not kept:
        return []
    # A room can only have expired if its own row is older than the shortest retention.
    oldest = now - timedelta(days=min(kept))
    with read_connection(db) as conn:
        candidates = retention.rooms_unchanged_since(conn, before=oldest)
    out: list[Expired] = []
    for row in candidates:
        days = limits.get(row.status, idle_days)
        if days <= 0:
            continue
        last = max(t for t in (_utc(_parse(x)) for x in row.times) if t is not None)
        if last < now - timedelta(days=days):
            out.append(Expired(row.code, row.status, last))
    out.sort(key=lambda r: r.last_activity)
    return out


def _parse(value: Any) -> datetime | None:
    """A timestamp as the driver gives it (SQLite aggregates come back as text)."""
    if value is None or isinstance(value, datetime):
        return value
    return datetime.fromisoformat(str(value))


def delete_room(db: Engine, code: str) -> bool:
    """Delete one room and everything of it; False if it was not there."""
    with write_transaction(db) as conn:
        return retention.delete_room(conn, code=code)


def cleanup(
    db: Engine,
    *,
    finished_days: float,
    idle_days: float,
    dry_run: bool = False,
    now: datetime | None = None,
    forget: Callable[[str], None] | None = None,
) -> CleanupReport:
    """Delete (or with `dry_run` only list) the rooms past their retention.

    `forget(code)` is called after each deletion (the server drops its cached room and
    closes its sockets).
    """
    report = CleanupReport(dry_run)
    for room in expired_rooms(db, finished_days=finished_days, idle_days=idle_days, now=now):
        if dry_run:
            report.rooms.append(room)
            continue
        if delete_room(db, room.code):
            report.rooms.append(room)
            log.info("cleanup: deleted %s room %s", room.status, room.code)
            if forget is not None:
                forget(room.code)
    return report
