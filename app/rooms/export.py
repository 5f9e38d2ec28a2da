"""`karanor export CODE`: a room, its seats (never token hashes) and its full log as JSON."""

from datetime import datetime
from typing import Any

from sqlalchemy import Engine

from app.store import chat_rows, repo
from app.store.db import read_connection


def _iso(at: datetime | None) -> str | None:
    return None if at is None else at.isoformat()


def export_room(db: Engine, code: str) -> dict[str, Any]:
    """Everything about the room: the administrator's copy, secrets of the game included.

    :raises LookupError: no such room.
    """
    with read_connection(db) as conn:
        room = repo.room_by_code(conn, code=code)
        if room is None:
            raise LookupError(f"no room {code!r}")
        seats = repo.seats_of(conn, room_id=room.id)
        game = repo.game_of_room(conn, room_id=room.id)
        log = repo.events_after(conn, game_id=game.id, after=0) if game else []
        chat = chat_rows.recent_chat(conn, room_id=room.id, limit=1_000_000)
    return {
        "room": {
            "code": room.code,
            "status": room.status,
            "options": room.options,
            "created_at": _iso(room.created_at),
        },
        "seats": [
            {
                "index": s.index,
                "name": s.name,
                "bot": s.is_bot,
                "host": s.is_host,
                "level": s.bot_level or "normal",
            }
            for s in seats
        ],
        "game": None
        if game is None
        else {
            "content": game.content_pack,
            "options": game.options,
            "seed": game.seed,
            "version": game.version,
            "status": game.status,
        },
        "log": [
            {
                "version": r.version,
                "seat": r.seat,
                "command_id": r.command_id,
                "command": r.command,
                "events": r.events,
                "at": _iso(r.created_at),
            }
            for r in log
        ],
        "chat": [
            {"seat": m.seat, "name": m.name, "text": m.text, "at": _iso(m.created_at)} for m in chat
        ],
    }
