"""The stored notice targets (table `notice_targets`): one per seat and device.

The target itself (a push endpoint or an Apprise URL) is a secret: `Listed` carries
none of it, only what a seat may be shown about its own targets."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, cast

from sqlalchemy import Connection, Table, delete, insert, select, update

from app.store.models import NoticeTarget, Seat

table = cast(Table, NoticeTarget.__table__)
seats = cast(Table, Seat.__table__)


@dataclass(frozen=True, slots=True)
class Target:
    """A target as the sender needs it (secrets included: never shown)."""

    id: int
    seat_id: int
    kind: str  # "web_push" | "url"
    target: str
    keys: dict[str, Any] | None
    lang: str
    time_zone: str
    origin: str


def digest(target: str) -> str:
    return hashlib.sha256(target.encode()).hexdigest()


def put(conn: Connection, *, seat_id: int, kind: str, target: str, keys: Any, lang: str,
        time_zone: str, origin: str) -> int:  # fmt: skip
    """Add or renew the target of one device (the same target again replaces it)."""
    key = digest(target)
    conn.execute(delete(table).where(table.c.seat_id == seat_id, table.c.digest == key))
    values = {
        "seat_id": seat_id, "kind": kind, "digest": key, "target": target, "keys": keys,
        "lang": lang, "time_zone": time_zone, "origin": origin[:256],
    }  # fmt: skip
    key_row = conn.execute(insert(table).values(**values)).inserted_primary_key
    return int(key_row[0]) if key_row else 0


def remove(conn: Connection, *, seat_id: int, target: str | None) -> int:
    """Remove one target of the seat (None: all of them); how many went."""
    where = [table.c.seat_id == seat_id]
    if target is not None:
        where.append(table.c.digest == digest(target))
    return int(conn.execute(delete(table).where(*where)).rowcount or 0)


def has(conn: Connection, *, seat_id: int, target: str) -> bool:
    where = (table.c.seat_id == seat_id, table.c.digest == digest(target))
    return conn.execute(select(table.c.id).where(*where)).first() is not None


def remove_id(conn: Connection, *, target_id: int) -> None:
    conn.execute(delete(table).where(table.c.id == target_id))


def set_failure(conn: Connection, *, target_id: int, failure: str | None) -> None:
    conn.execute(update(table).where(table.c.id == target_id).values(failure=failure))


def of_seats(conn: Connection, *, room_id: int, seat_indexes: set[int]) -> list[tuple[int, Target]]:
    """(seat index, target) of the given seats of a room."""
    rows = conn.execute(
        select(table, seats.c.index.label("seat_index"))
        .join(seats, seats.c.id == table.c.seat_id)
        .where(seats.c.room_id == room_id, seats.c.index.in_(seat_indexes))
        .order_by(table.c.id)
    ).all()
    return [
        (
            int(r.seat_index),
            Target(r.id, r.seat_id, r.kind, r.target, r.keys, r.lang, r.time_zone, r.origin),
        )  # fmt: skip
        for r in rows
    ]


def listed(conn: Connection, *, seat_id: int) -> list[dict[str, Any]]:
    """What a seat may see of its own targets: kind, when, the last failure; no secret."""
    rows = conn.execute(
        select(table.c.id, table.c.kind, table.c.failure, table.c.created_at)
        .where(table.c.seat_id == seat_id)
        .order_by(table.c.id)
    ).all()
    return [
        {"id": r.id, "kind": r.kind, "failure": r.failure, "since": r.created_at.isoformat()}
        for r in rows
    ]
