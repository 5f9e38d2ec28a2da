"""Data access for the rooms' chat lines (SQLAlchemy Core on a given connection; the
caller owns the transaction, as in `app.store.repo`)."""

from datetime import datetime
from typing import Any, cast

from sqlalchemy import Connection, Table, func, insert, select

from app.store.models import ChatMessage, utcnow

chat_messages = cast(Table, ChatMessage.__table__)

Record = Any  # rows are read by column name (row.text, row.created_at ...)


def insert_chat(
    conn: Connection, *, room_id: int, seat: int | None, name: str, text: str
) -> tuple[int, datetime]:
    """Store one chat line; returns its id and time."""
    at = utcnow()
    result = conn.execute(
        insert(chat_messages).values(
            room_id=room_id, seat=seat, name=name, text=text, created_at=at
        )
    )
    chat_id: int = result.inserted_primary_key[0]  # type: ignore[index]
    return chat_id, at


def last_chat_ids(conn: Connection, *, room_ids: list[int]) -> dict[int, int]:
    """The id of the newest chat line of each room that has one."""
    query = (
        select(chat_messages.c.room_id, func.max(chat_messages.c.id))
        .where(chat_messages.c.room_id.in_(room_ids))
        .group_by(chat_messages.c.room_id)
    )
    return {room_id: last for room_id, last in conn.execute(query).all()}


def recent_chat(conn: Connection, *, room_id: int, limit: int) -> list[Record]:
    """The last `limit` messages, oldest first."""
    query = (
        select(chat_messages.c.seat, chat_messages.c.name, chat_messages.c.text)
        .add_columns(chat_messages.c.created_at, chat_messages.c.id)
        .where(chat_messages.c.room_id == room_id)
        .order_by(chat_messages.c.id.desc())
        .limit(limit)
    )
    return list(reversed(conn.execute(query).all()))
