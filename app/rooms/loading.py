"""A room's game in memory, loaded from the store and kept up with the stored version.

- `load`: the stored snapshot, then the log rows after it replayed (the engine is
  deterministic): the one way a game is rebuilt, used by the live cache, by
  `app.rooms.replay` and by a cold load after eviction.
- `sync`: the in-memory game brought to (at least) the stored version. Behind by a
  few versions (another process moved the game), the missed log rows are replayed on
  the copy and each version's messages for the wanted viewers appended to `out`, in
  order; otherwise (no copy, or far behind) the game is loaded again and one message
  carries the events the sockets missed.

Both run in a worker thread with a read connection, under the room's lock.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection

from app.games.base import Game, RuleError
from app.rooms import takeback, views
from app.rooms.model import LiveGame, Messages, Room, SeatInfo, Viewer, bot_levels, seat_info
from app.store import repo

log = logging.getLogger(__name__)

REPLAY_MAX = 64  # further behind than this, a process reloads the snapshot instead


def replay_rows(game: Game, live: LiveGame, rows: Iterable[Any], options: dict[str, Any]) -> None:
    """Apply logged commands (rows with `version`, `seat`, `command`, `command_id`) to the
    live game, its take-back stack kept (app.rooms.takeback).

    :raises RuleError: a logged command the rules refuse (a corrupt log).
    :raises takeback.Gap: a take-back names a version before these rows.
    """
    for row in rows:
        live.state = takeback.replay_rows(
            game,
            live.state,
            [row],
            live.takebacks,
            lambda seat: takeback.allowed(options, seat, live.bot_seats),
        )
        live.remember(row.seat, row.command_id)


def load(
    conn: Connection, room: Room, game_id: int, seats: list[SeatInfo] | None = None
) -> LiveGame:
    """The game as stored: snapshot plus the log rows after it; the seats re-read (unless
    `seats` were just read on the same connection)."""
    stored = repo.game_snapshot(conn, game_id=game_id)
    if seats is None:
        seats = [seat_info(s) for s in repo.seats_of(conn, room_id=room.room_id)]
    room.seats = seats
    game = room.game
    live = LiveGame(
        game_id,
        stored.version,
        game.from_dict(stored.snapshot),
        frozenset(s.index for s in room.seats if s.bot),
        bot_levels=bot_levels(room.seats),
    )
    at = stored.snapshot_version
    rows = []
    if at < stored.version:
        rows = repo.events_after(conn, game_id=game_id, after=at, limit=stored.version - at)
        if [r.version for r in rows] != list(range(at + 1, stored.version + 1)):
            raise RuntimeError(f"room {room.code}: log rows missing after version {at}")
    if _run_before(conn, game_id, at, rows, lambda seat: takeback.allowed(
        room.options, seat, live.bot_seats
    )):  # fmt: skip
        # The seat's run of commands began before the snapshot (stored inside it: every
        # take-back stores one): the run's first commands may still be taken back, so
        # the game is replayed from its deal and the whole run's stack rebuilt.
        return _from_the_deal(conn, room, game_id, stored.version)
    if rows:
        try:
            _replay_loaded(game, live, rows, room.options)
        except takeback.Gap:
            # A take-back writes the snapshot, so a load never meets one it cannot
            # follow; a log that says otherwise is replayed from the deal.
            live = _from_the_deal(conn, room, game_id, stored.version)
    return live


def _run_before(conn: Connection, game_id: int, at: int, rows: list[Any], may: Any) -> bool:
    """Whether the last seat's run of commands (take-backs included) goes back past the
    snapshot at version `at`: every row after it and the row that made it are that
    seat's, and the seat may take back."""
    if at <= 0:
        return False
    head = repo.events_after(conn, game_id=game_id, after=at - 1, limit=1)
    if not head or head[0].version != at:
        return False
    seat = rows[-1].seat if rows else head[0].seat
    return bool(head[0].seat == seat and all(r.seat == seat for r in rows) and may(seat))


def _from_the_deal(conn: Connection, room: Room, game_id: int, version: int) -> LiveGame:
    """The game replayed from its deal to `version` (the whole log)."""
    head = repo.game_of_room(conn, room_id=room.room_id)
    game = room.game
    names = [s.name for s in room.seats]
    live = LiveGame(
        game_id,
        version,
        game.new_game(head.options, head.seed, names),
        frozenset(s.index for s in room.seats if s.bot),
        bot_levels=bot_levels(room.seats),
    )
    rows = repo.events_after(conn, game_id=game_id, after=0, limit=version)
    _replay_loaded(game, live, rows, room.options)
    return live


def _replay_loaded(game: Game, live: LiveGame, rows: list[Any], options: dict[str, Any]) -> None:
    """Rows replayed on a game being loaded: only the last seat's trailing commands can be
    taken back still, so only they keep take-back copies (a cold load stays cheap).

    :raises takeback.Gap: a take-back names a version before these rows.
    """
    start = len(rows)
    while start > 0 and rows[start - 1].seat == rows[-1].seat:
        start -= 1  # the run, its own take-backs included (they name commands of it)
    live.state = takeback.replay_rows(game, live.state, rows[:start])
    for row in rows[:start]:
        live.remember(row.seat, row.command_id)
    replay_rows(game, live, rows[start:], options)


def sync(
    conn: Connection,
    room: Room,
    game_id: int,
    version: int,
    wanted: set[Viewer],
    out: list[Messages],
) -> LiveGame:
    """The in-memory game brought to the stored `version` (see the module docstring).
    Once `out` is delivered, the room's sockets have seen every version up to the
    result's."""
    live = room.live
    if live is not None and live.game_id != game_id:
        live = room.live = None
    if live is not None and live.version == version:
        room.pushed = live.version
        return live
    if live is not None and live.version < version <= live.version + REPLAY_MAX:
        rows = repo.events_after(
            conn, game_id=game_id, after=live.version, limit=version - live.version
        )
        if [r.version for r in rows] == list(range(live.version + 1, version + 1)):
            try:
                for row in rows:
                    replay_rows(room.game, live, [row], room.options)
                    live.advance(row.version, row.seat, row.command_id)
                    if wanted:
                        kind = views.played_by(row.command_id)
                        by = None if kind is None or row.seat is None else (row.seat, kind)
                        out.append(views.messages(room, live, wanted, row.events, by))
            except takeback.Gap:
                pass  # a take-back of a version before this copy: loaded again below
            except RuleError:
                log.exception("room %s: replaying version %d failed", room.code, version)
            else:
                room.pushed = live.version
                return live
        # A copy that cannot be brought forward is dropped; the sockets have seen what
        # was appended so far.
        room.pushed = live.version
    room.live = None
    live = room.live = load(conn, room, game_id)
    since = room.pushed
    if wanted and (since is None or since < live.version):
        events: list[dict[str, Any]] = []
        last: tuple[int, str] | None = None
        if since is not None and live.version - since <= REPLAY_MAX:
            for row in repo.events_after(conn, game_id=game_id, after=since):
                if row.version <= live.version:
                    events.extend(row.events)
                    made = views.played_by(row.command_id)
                    one = live.version == since + 1 and row.seat is not None
                    last = (row.seat, made) if one and made is not None else None
        out.append(views.messages(room, live, wanted, events, last))
    room.pushed = live.version
    return live


def current(
    conn: Connection, room: Room, viewer: Viewer, wanted: set[Viewer], out: list[Messages]
) -> tuple[bytes, int]:
    """(view JSON, version) of `viewer` now, after catching up (messages for the room's
    sockets appended to `out`); the lobby view before the start."""
    game_row = repo.game_of_room(conn, room_id=room.room_id)
    if game_row is None:
        row = repo.room_by_code(conn, code=room.code)
        room.seats = [seat_info(s) for s in repo.seats_of(conn, room_id=room.room_id)]
        return views.lobby_view(room, viewer, row.options), 0
    live = sync(conn, room, game_row.id, game_row.version, wanted, out)
    cached = viewer in live.views
    public = live.public
    data = views.view_bytes(room, live, viewer)
    if not cached:
        # A socket's first view (or a resync) is its own: kept in `live.views` it would
        # stay with every idle room until the next version (~4-16 KB per seat).
        del live.views[viewer]
        if live.public is not public:
            # So is the game's public part built for it (~6-9 KB per room; ~45 us to
            # build again): no version's push has needed it yet.
            live.public = None
    return data, live.version
