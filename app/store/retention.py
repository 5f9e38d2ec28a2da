"""The statements behind the cleanup of old rooms (policy: `app.rooms.cleanup`)."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from sqlalchemy import Connection, delete, func, select

from app.store.chat_rows import chat_messages
from app.store.repo import game_events, games, rooms, seats


@dataclass(frozen=True, slots=True)
class Activity:
    """A room and the times of its last changes (None: never); the driver's values."""

    code: str
    status: str
    times: tuple[Any, ...]  # room row, game row, last command, last chat line


def rooms_unchanged_since(conn: Connection, *, before: datetime) -> list[Activity]:
    """Every room whose own row is older than `before`, with its last activity times."""
    candidates = conn.execute(
        select(rooms.c.id, rooms.c.code, rooms.c.status, rooms.c.updated_at).where(
            rooms.c.updated_at < before
        )
    ).all()
    if not candidates:
        return []
    ids = [row.id for row in candidates]
    game_at = dict(
        conn.execute(
            select(games.c.room_id, func.max(games.c.updated_at))
            .where(games.c.room_id.in_(ids))
            .group_by(games.c.room_id)
        ).all()
    )
    event_at = dict(
        conn.execute(
            select(games.c.room_id, func.max(game_events.c.created_at))
            .join(game_events, game_events.c.game_id == games.c.id)
            .where(games.c.room_id.in_(ids))
            .group_by(games.c.room_id)
        ).all()
    )
    chat_at = dict(
        conn.execute(
            select(chat_messages.c.room_id, func.max(chat_messages.c.created_at))
            .where(chat_messages.c.room_id.in_(ids))
            .group_by(chat_messages.c.room_id)
        ).all()
    )
    return [
        Activity(
            row.code,
            row.status,
            (row.updated_at, game_at.get(row.id), event_at.get(row.id), chat_at.get(row.id)),
        )
        for row in candidates
    ]


def delete_room(conn: Connection, *, code: str) -> bool:
    """Delete one room and everything of it; False if it was not there."""
    room_id = conn.execute(select(rooms.c.id).where(rooms.c.code == code)).scalar()
    if room_id is None:
        return False
    game_ids = select(games.c.id).where(games.c.room_id == room_id).scalar_subquery()
    conn.execute(delete(game_events).where(game_events.c.game_id.in_(game_ids)))
    conn.execute(delete(games).where(games.c.room_id == room_id))
    conn.execute(delete(chat_messages).where(chat_messages.c.room_id == room_id))
    conn.execute(delete(seats).where(seats.c.room_id == room_id))
    conn.execute(delete(rooms).where(rooms.c.id == room_id))
    return True
