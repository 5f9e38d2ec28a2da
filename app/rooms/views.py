"""Views: what each viewer of a room is sent, built once per version and viewer.

A viewer is a seat index or None (spectators). A seat's socket is bound to the
seat's id; `Hub.deliver` finds its view through the room's seats as they are at
send time (`Room.index_of`), so a socket can never get another seat's view.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import orjson

from app.realtime.hub import Hub
from app.rooms import clocks, patches
from app.rooms.model import LiveGame, Messages, Room, Viewer


def dumps(value: Any) -> bytes:
    """orjson; a dict with keys that are not strings (ints) has them written as strings.
    The plain call first: the option costs orjson a third more on every view."""
    try:
        return orjson.dumps(value)
    except TypeError:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)


def iso(at: datetime) -> str:
    if at.tzinfo is None:
        at = at.replace(tzinfo=UTC)
    return at.isoformat().replace("+00:00", "Z")


def viewers(hub: Hub, room: Room) -> set[Viewer]:
    """The distinct viewers with a socket here (seats by their index now)."""
    index_of = room.index_of()
    out: set[Viewer] = {index_of[i] for i in hub.seat_ids(room.code) if i in index_of}
    if hub.has_spectators(room.code):
        out.add(None)
    return out


def spliced(picture: dict[str, Any], public: Any, shared: dict[str, orjson.Fragment]) -> None:
    """Put in `picture`, for each of its values that IS the public part's value of the
    same key (the players, the board: the same object in every viewer's view), that
    value serialised once per version (`shared`, filled as needed), so that each
    viewer's `dumps` writes those bytes as they are instead of walking the value again.
    The bytes of the view are the same."""
    if not isinstance(public, dict):
        return
    for key, value in picture.items():
        if value and isinstance(value, dict | list) and public.get(key) is value:
            fragment = shared.get(key)
            if fragment is None:
                fragment = shared[key] = orjson.Fragment(dumps(value))
            picture[key] = fragment  # a value replaced, no key added: safe while iterating


def view_bytes(room: Room, live: LiveGame, viewer: Viewer) -> bytes:
    """The serialised view of `viewer` at the live version, computed once per version
    (the game's public part once for every viewer, and its values shared by the views
    serialised once: `spliced`)."""
    data = live.views.get(viewer)
    if data is None:
        game = room.game
        if live.public is None or live.public[0] != live.version:
            state = live.state
            live.public = (live.version, game.public_part(state), game.to_act(state), {})
        _, public, to_act, shared = live.public
        picture = game.view(live.state, viewer, public)
        spliced(picture, public, shared)
        picture["version"] = live.version
        picture.setdefault("game", game.id)
        picture["to_act"] = to_act  # the seats the game waits for, whatever the game
        # The server would accept this seat's `POST .../undo` (app.rooms.takeback).
        picture["can_undo"] = live.can_undo(viewer, room.options)
        data = live.views[viewer] = dumps(picture)
    return data


def played_by(command_id: str | None) -> str | None:
    """Who played a logged command, from its id: "standin" (a bot played the turn of a
    person out of time), "bot" (a bot's move: a bot's seat, or a person's seat a bot
    plays while they are away), None (the seat's person)."""
    if not command_id:
        return None
    if command_id.startswith("standin-"):
        return "standin"
    if command_id.startswith("bot-"):
        return "bot"
    return None


def view_message(
    room: Room,
    live: LiveGame,
    viewer: Viewer,
    events: list[dict[str, Any]],
    by: tuple[int, str] | None = None,
) -> bytes:
    """`by`: (seat, "standin" | "bot") when a bot made this version (see `played_by`)."""
    extra = b"" if by is None else b',"seat":%d,"by":"%s"' % (by[0], by[1].encode())
    return b'{"type":"view","version":%d%s,"events":%s,"view":%s}' % (
        live.version,
        extra,
        dumps(room.game.events_for(events, viewer)),
        view_bytes(room, live, viewer),
    )


def messages(
    room: Room,
    live: LiveGame,
    wanted: set[Viewer],
    events: list[dict[str, Any]],
    by: tuple[int, str] | None = None,
) -> Messages:
    return {v: view_message(room, live, v, events, by) for v in wanted}


def patch_message(
    room: Room,
    live: LiveGame,
    viewer: Viewer,
    events: list[dict[str, Any]],
    whole: int,
    by: tuple[int, str] | None = None,
) -> bytes | None:
    """`viewer`'s view at the live version as a patch of the one before it (docs/api.md),
    or None: no view of the version before kept for it, or the patch would be no smaller
    than the whole message (`whole` bytes)."""
    previous = live.previous
    if previous is None or previous[0] != live.version - 1:
        return None
    old = previous[1].get(viewer)
    if old is None:
        return None
    ops = patches.diff(orjson.loads(old), orjson.loads(view_bytes(room, live, viewer)))
    extra = b"" if by is None else b',"seat":%d,"by":"%s"' % (by[0], by[1].encode())
    data = b'{"type":"patch","version":%d,"from":%d%s,"events":%s,"patch":%s}' % (
        live.version,
        previous[0],
        extra,
        dumps(room.game.events_for(events, viewer)),
        dumps(ops),
    )
    return data if len(data) < whole else None


def patch_messages(
    room: Room,
    live: LiveGame,
    wanted: set[Viewer],
    events: list[dict[str, Any]],
    whole: Messages,
    by: tuple[int, str] | None = None,
) -> Messages:
    """The patches of the viewers in `wanted` that can have one (see `patch_message`)."""
    out: Messages = {}
    for viewer in wanted:
        full = whole.get(viewer)
        if full is not None:
            data = patch_message(room, live, viewer, events, len(full), by)
            if data is not None:
                out[viewer] = data
    return out


def whole(view: bytes, version: int) -> bytes:
    """A view message with no events (a socket's first, or a resync)."""
    return b'{"type":"view","version":%d,"events":[],"view":%s}' % (version, view)


def lobby_view(room: Room, viewer: Viewer, options: dict[str, Any]) -> bytes:
    return dumps(
        {
            "version": 0,
            "status": "lobby",
            "game": room.game.id,
            "seat": viewer,
            "turn": None,
            "players": [
                {"seat": s.index, "name": s.name, "bot": s.bot, "host": s.host, "level": s.level}
                for s in room.seats
            ],
            "private": None,
            "board": None,
            "offers": [],
            "legal_actions": [],
            "result": None,
            "options": options,
        }
    )


def room_info(
    room: Room, status: str, options: dict[str, Any], version: int | None, connected: set[int]
) -> dict[str, Any]:
    """The room as `GET /api/rooms/{code}` and the "room" message show it; `connected`
    holds the ids of the seats with a socket on some process."""
    return {
        "code": room.code,
        "url": f"/r/{room.code}",
        "game": room.game.id,
        "status": status,
        "seat_limit": room.game.seat_limit(options) if options else room.game.max_players,
        "seats": [
            {
                "index": s.index,
                "name": s.name,
                "bot": s.bot,
                "host": s.host,
                "replaced": s.replaced,
                "level": s.level,
                # A bot is always there; a person's seat a bot plays shows the person.
                "connected": (s.bot and not s.replaced) or s.id in connected,
                # The game version its person left at (a bot plays to the end), or null.
                "left": s.left,
            }
            for s in room.seats
        ],
        "options": options,
        "version": version,
        "timer": clocks.public_timer(room.timer),
        "rematch": room.rematch,
    }


def chat_message(seat: int | None, name: str, text: str, at: datetime) -> bytes:
    return dumps({"type": "chat", "seat": seat, "name": name, "text": text, "at": iso(at)})
