"""Data access for the platform, as SQLAlchemy Core statements on a given connection.

Keyword-only functions; the caller owns the transaction (`app.store.db.write_transaction`).
Nothing here knows about HTTP or the game rules.
"""

import dataclasses
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol, cast

from sqlalchemy import Connection, Dialect, Table, bindparam, delete, func, insert, select, update
from sqlalchemy.exc import DBAPIError

from app.store.db import json_dumps as _json
from app.store.models import Game, GameEvent, Room, Seat, utcnow

rooms = cast(Table, Room.__table__)
seats = cast(Table, Seat.__table__)
games = cast(Table, Game.__table__)
game_events = cast(Table, GameEvent.__table__)

# Rows are read by column name (row.version, row.events ...).
Record = Any


# --- rooms and seats ------------------------------------------------------------------


def insert_room(conn: Connection, *, code: str, game: str, options: dict[str, Any]) -> int:
    result = conn.execute(insert(rooms).values(code=code, game=game, options=options, host_seat=0))
    room_id: int = result.inserted_primary_key[0]  # type: ignore[index]
    return room_id


def room_by_code(conn: Connection, *, code: str) -> Record:  # or None
    return conn.execute(select(rooms).where(rooms.c.code == code)).first()


def set_room_options(conn: Connection, *, room_id: int, options: dict[str, Any]) -> None:
    conn.execute(
        update(rooms).where(rooms.c.id == room_id).values(options=options, updated_at=func.now())
    )


def set_room_status(conn: Connection, *, room_id: int, status: str, expect: str) -> bool:
    """Move the room from `expect` to `status`; False if it was not in `expect`."""
    result = conn.execute(
        update(rooms)
        .where(rooms.c.id == room_id, rooms.c.status == expect)
        .values(status=status, updated_at=func.now())
    )
    return result.rowcount == 1


def set_room_timer(conn: Connection, *, room_id: int, timer: dict[str, Any] | None) -> None:
    conn.execute(update(rooms).where(rooms.c.id == room_id).values(timer=timer))


def room_timer_locked(conn: Connection, *, room_id: int) -> dict[str, Any] | None:
    """The room's stored timer, its row locked until the transaction ends (PostgreSQL;
    SQLite's write transaction holds the whole database already)."""
    found: dict[str, Any] | None = conn.execute(
        select(rooms.c.timer).where(rooms.c.id == room_id).with_for_update()
    ).scalar_one_or_none()
    return found


def set_rematch(conn: Connection, *, room_id: int, code: str) -> str:
    """Record `code` as the room's rematch unless one is recorded already; returns the
    room's rematch (the first one wins when two seats ask at once)."""
    conn.execute(
        update(rooms).where(rooms.c.id == room_id, rooms.c.rematch.is_(None)).values(rematch=code)
    )
    found: str = conn.execute(select(rooms.c.rematch).where(rooms.c.id == room_id)).scalar_one()
    return found


def set_seat_bot(conn: Connection, *, room_id: int, index: int, bot: bool) -> bool:
    """A person's seat played by a bot (or given back); False if it already was so."""
    result = conn.execute(
        update(seats)
        .where(
            seats.c.room_id == room_id,
            seats.c.index == index,
            seats.c.token_hash.is_not(None),
            seats.c.is_bot.is_(not bot),
        )
        .values(is_bot=bot)
    )
    return result.rowcount == 1


def set_seat_level(conn: Connection, *, room_id: int, index: int, level: str) -> bool:
    """The level of the bot playing seat `index`; False if no such seat."""
    result = conn.execute(
        update(seats)
        .where(seats.c.room_id == room_id, seats.c.index == index)
        .values(bot_level=level)
    )
    return result.rowcount == 1


def seat_left(conn: Connection, *, room_id: int, index: int, version: int) -> bool:
    """A person leaves a running game: a bot plays the seat to the end (its token is
    dropped, the version kept). False if it is not a person's seat (or left already)."""
    result = conn.execute(
        update(seats)
        .where(
            seats.c.room_id == room_id,
            seats.c.index == index,
            seats.c.token_hash.is_not(None),
            seats.c.left_version.is_(None),
        )
        .values(is_bot=True, token_hash=None, left_version=version)
    )
    return result.rowcount == 1


def set_seat_token(conn: Connection, *, seat_id: int, token_hash: str) -> None:
    """A seat's token replaced (the previous one stops working)."""
    conn.execute(update(seats).where(seats.c.id == seat_id).values(token_hash=token_hash))


def rooms_with_timers(conn: Connection) -> list[str]:
    """Codes of the rooms in play whose turn timer is on."""
    query = select(rooms.c.code).where(rooms.c.status == "playing", rooms.c.timer.is_not(None))
    return [code for (code,) in conn.execute(query).all()]


def seats_of(conn: Connection, *, room_id: int) -> list[Record]:
    query = select(seats).where(seats.c.room_id == room_id).order_by(seats.c.index)
    return list(conn.execute(query).all())


def insert_seat(
    conn: Connection,
    *,
    room_id: int,
    index: int,
    name: str,
    token_hash: str | None,
    is_bot: bool = False,
    is_host: bool = False,
    bot_level: str | None = None,
) -> int:
    result = conn.execute(
        insert(seats).values(
            room_id=room_id,
            index=index,
            name=name,
            token_hash=token_hash,
            is_bot=is_bot,
            is_host=is_host,
            bot_level=bot_level,
        )
    )
    seat_id: int = result.inserted_primary_key[0]  # type: ignore[index]
    return seat_id


def seat_by_token(conn: Connection, *, room_id: int, token_hash: str) -> Record:  # or None
    query = select(seats).where(
        seats.c.room_id == room_id, seats.c.token_hash == token_hash, seats.c.removed.is_(False)
    )
    return conn.execute(query).first()


def remove_seat(conn: Connection, *, room_id: int, index: int) -> dict[int, int]:
    """Delete seat `index` and close the gap: later seats move down by one, in order
    (one row at a time, so UNIQUE(room_id, index) holds at every step).

    :returns: the new index of every seat that moved, by seat id.
    """
    conn.execute(delete(seats).where(seats.c.room_id == room_id, seats.c.index == index))
    moved: dict[int, int] = {}
    later = select(seats.c.id, seats.c.index).where(
        seats.c.room_id == room_id, seats.c.index > index
    )
    for seat_id, old in conn.execute(later.order_by(seats.c.index)).all():
        conn.execute(update(seats).where(seats.c.id == seat_id).values(index=old - 1))
        moved[seat_id] = old - 1
    return moved


# --- games and their log --------------------------------------------------------------


def insert_game(
    conn: Connection,
    *,
    room_id: int,
    content_pack: str,
    options: dict[str, Any],
    seed: int,
    snapshot: dict[str, Any],
) -> int:
    result = conn.execute(
        insert(games).values(
            room_id=room_id,
            content_pack=content_pack,
            options=options,
            seed=seed,
            version=0,
            snapshot=snapshot,
            snapshot_version=0,
            status="playing",
        )
    )
    game_id: int = result.inserted_primary_key[0]  # type: ignore[index]
    return game_id


def game_of_room(conn: Connection, *, room_id: int) -> Record:  # or None
    """The game's head (no snapshot): id, version, status, content_pack, options, seed."""
    query = select(
        games.c.id,
        games.c.version,
        games.c.status,
        games.c.content_pack,
        games.c.options,
        games.c.seed,
    ).where(games.c.room_id == room_id)
    return conn.execute(query).first()


# The statements of the command path, built once (no per-call construction or cache-key
# generation: SQLAlchemy memoises both on the statement object).
_GAME_VERSION = select(games.c.version, games.c.status).where(games.c.id == bindparam("g"))
_GAME_VERSION_LOCKED = _GAME_VERSION.with_for_update()
_GAME_SNAPSHOT = select(
    games.c.version,
    games.c.snapshot,
    func.coalesce(games.c.snapshot_version, games.c.version).label("snapshot_version"),
).where(games.c.id == bindparam("g"))
_EVENT_BY_COMMAND = select(game_events.c.version, game_events.c.events).where(
    game_events.c.game_id == bindparam("g"),
    game_events.c.seat == bindparam("s"),
    game_events.c.command_id == bindparam("c"),
)
# A version moved without a snapshot keeps the snapshot's version: a row written before
# revision 0002 has none (NULL: "the snapshot is at `version`"), so it is set to the
# version the snapshot was at (SET reads the row as it was) before `version` moves on;
# left NULL, the next load would take the snapshot for the new version and silently
# drop the commands logged since (an upgraded game mid-play, tests/store/test_upgrades.py).
_MOVE_GAME = (
    update(games)
    .where(games.c.id == bindparam("g"), games.c.version == bindparam("old"))
    .values(
        version=bindparam("new"),
        status=bindparam("st"),
        updated_at=func.now(),
        snapshot_version=func.coalesce(games.c.snapshot_version, games.c.version),
    )
)
_MOVE_GAME_SNAPSHOT = (
    update(games)
    .where(games.c.id == bindparam("g"), games.c.version == bindparam("old"))
    .values(
        version=bindparam("new"),
        status=bindparam("st"),
        updated_at=func.now(),
        snapshot=bindparam("snap", type_=games.c.snapshot.type),
        snapshot_version=bindparam("new"),
    )
)
_INSERT_EVENT = insert(game_events)


def game_version(conn: Connection, *, game_id: int, lock: bool = False) -> Record:  # or None
    """(version, status) of a game (None if it is gone); `lock` takes the row lock
    (PostgreSQL) until commit."""
    return conn.execute(_GAME_VERSION_LOCKED if lock else _GAME_VERSION, {"g": game_id}).first()


def game_snapshot(conn: Connection, *, game_id: int) -> Record:
    """(version, snapshot, snapshot_version) of a game: the stored snapshot is the state at
    `snapshot_version` (<= version); the log rows after it bring it to `version`."""
    return conn.execute(_GAME_SNAPSHOT, {"g": game_id}).one()


def event_by_command(
    conn: Connection, *, game_id: int, seat: int, command_id: str
) -> Record:  # or None
    return conn.execute(_EVENT_BY_COMMAND, {"g": game_id, "s": seat, "c": command_id}).first()


def append_event(
    conn: Connection,
    *,
    game_id: int,
    old_version: int,
    seat: int,
    command_id: str,
    command: dict[str, Any],
    events: list[dict[str, Any]],
    snapshot: dict[str, Any] | None,
    status: str,
) -> bool:
    """Log one accepted command and move the game to `old_version + 1` (and its snapshot,
    when given, to the new version).

    Compare-and-set on the version: False (and nothing to keep) if another writer
    moved the game first; the caller rolls back.
    """
    params: dict[str, Any] = {
        "g": game_id,
        "old": old_version,
        "new": old_version + 1,
        "st": status,
    }
    if snapshot is not None:
        params["snap"] = snapshot
    moved = conn.execute(_MOVE_GAME if snapshot is None else _MOVE_GAME_SNAPSHOT, params)
    if moved.rowcount != 1:
        return False
    conn.execute(
        _INSERT_EVENT,
        {
            "game_id": game_id,
            "version": old_version + 1,
            "seat": seat,
            "command_id": command_id,
            "command": command,
            "events": events,
        },
    )
    return True


class LogRow(Protocol):
    """What `append_events` writes of one accepted command (`app.store.writer.LogRecord`)."""

    @property
    def game_id(self) -> int: ...
    @property
    def old_version(self) -> int: ...
    @property
    def seat(self) -> int: ...
    @property
    def command_id(self) -> str: ...
    @property
    def command(self) -> dict[str, Any]: ...
    @property
    def events(self) -> list[dict[str, Any]]: ...
    @property
    def status(self) -> str: ...
    @property
    def snapshot(self) -> dict[str, Any] | None: ...


@dataclass(frozen=True, slots=True)
class _HotSql:
    """The group commit's statements as the driver takes them (`?` or `%s` markers)."""

    move: str
    move_snapshot: str
    insert: str
    stamp: Callable[[datetime], Any] | None  # created_at as the driver takes it
    pipeline: bool  # psycopg: statements sent together, one round trip
    # PostgreSQL: a whole group in one statement (arrays of its records' fields)
    group: str | None = None


def _hot_sql(dialect: Dialect) -> _HotSql:
    found = _HOT.get((dialect.name, dialect.driver))
    if found is not None:
        return found
    postgres = dialect.name == "postgresql"
    json = "?::json" if postgres else "?"
    now = "now()" if postgres else "CURRENT_TIMESTAMP"
    move = f"UPDATE games SET version = ?, status = ?, updated_at = {now}"
    where = " WHERE id = ? AND version = ?"
    sql = _HotSql(
        # The snapshot's version kept (a NULL of before revision 0002 made explicit).
        move=move + ", snapshot_version = COALESCE(snapshot_version, version)" + where,
        move_snapshot=move + f", snapshot = {json}, snapshot_version = ?" + where,
        insert="INSERT INTO game_events (game_id, version, seat, command_id, command, events,"
        f" created_at) VALUES (?, ?, ?, ?, {json}, {json}, ?)",
        stamp=game_events.c.created_at.type.dialect_impl(dialect).bind_processor(dialect),
        pipeline=postgres and dialect.driver == "psycopg",
    )
    if postgres:
        sql = dataclasses.replace(
            sql,
            move=sql.move.replace("?", "%s"),
            move_snapshot=sql.move_snapshot.replace("?", "%s"),
            insert=sql.insert.replace("?", "%s"),
            group=_GROUP_SQL if sql.pipeline else None,
        )
    _HOT[dialect.name, dialect.driver] = sql
    return sql


_HOT: dict[tuple[str, str], _HotSql] = {}  # by (database, driver)

# A group of records of distinct games in ONE statement (one round trip, one statement
# for psycopg to prepare once): each game's compare-and-set, then the log rows of the
# games it moved; it returns the ids of the games written. The arrays' order is the
# records' (sorted by game, as the writer sends them). The arrays go in psycopg's binary
# format (`%b`): in the text format every `"` and `\` of every JSON document (a snapshot
# has hundreds) is escaped by a Python callback of `re.sub`, 0.6 ms for one 6 KB
# snapshot, 15x the binary form's cost; 100 rooms' snapshots falling due together then
# held every command of the server for 50-100 ms (docs/performance-history.md, fifth round).
_GROUP_SQL = """\
WITH r AS (
    SELECT * FROM unnest(%b::int[], %b::int[], %b::text[], %b::json[], %b::int[],
                         %b::text[], %b::json[], %b::json[])
        AS r(game_id, old, status, snapshot, seat, command_id, command, events)
), moved AS (
    UPDATE games AS g
    SET version = r.old + 1, status = r.status, updated_at = now(),
        snapshot = CASE WHEN r.snapshot IS NULL THEN g.snapshot ELSE r.snapshot END,
        snapshot_version = CASE WHEN r.snapshot IS NULL
                                THEN COALESCE(g.snapshot_version, r.old) ELSE r.old + 1 END
    FROM r
    WHERE g.id = r.game_id AND g.version = r.old
    RETURNING g.id
)
INSERT INTO game_events (game_id, version, seat, command_id, command, events, created_at)
SELECT r.game_id, r.old + 1, r.seat, r.command_id, r.command, r.events, %s
FROM r JOIN moved ON moved.id = r.game_id
RETURNING game_id"""


def one_statement(dialect: Dialect, records: Sequence[LogRow]) -> bool:
    """Whether `append_events` writes these records in ONE statement (PostgreSQL, each
    record a distinct game): a statement that is atomic alone, so it needs no
    transaction around it."""
    return _hot_sql(dialect).group is not None and len({r.game_id for r in records}) == len(records)


def append_events(conn: Connection, records: Sequence[LogRow]) -> list[bool]:
    """Log accepted commands in the caller's transaction, each as `append_event` does
    (compare-and-set of its game's version, then its log row); for each record, whether
    it was written (False: its game was not at `old_version`, nothing of it written).

    The group commit's path: plain SQL on the driver's cursor (no statement compiled or
    parameters processed per call). On PostgreSQL (psycopg) a group of distinct games
    is one statement over arrays (`_GROUP_SQL`); a group holding a game twice (never
    from the rooms: one command of a room at a time) sends the version updates in one
    round trip (a psycopg pipeline) and the log rows in one `executemany`, as SQLite
    runs them one by one.

    :raises DBAPIError: as SQLAlchemy raises it (`IntegrityError` for a duplicate).
    """
    dialect = conn.dialect
    sql = _hot_sql(dialect)
    raw: Any = conn.connection.dbapi_connection
    at = utcnow()
    stamp = sql.stamp(at) if sql.stamp is not None else at
    statement: str = sql.move
    params: Any = ()
    try:
        if sql.group is not None and one_statement(dialect, records):
            statement = sql.group
            params = (
                [r.game_id for r in records],
                [r.old_version for r in records],
                [r.status for r in records],
                [None if r.snapshot is None else _json(r.snapshot) for r in records],
                [r.seat for r in records],
                [r.command_id for r in records],
                [_json(r.command) for r in records],
                [_json(r.events) for r in records],
                stamp,
            )
            cur = raw.cursor()
            try:
                cur.execute(statement, params)
                done = {row[0] for row in cur.fetchall()}
            finally:
                cur.close()
            return [r.game_id in done for r in records]
        moves: list[tuple[str, tuple[Any, ...]]] = []
        for r in records:
            new = r.old_version + 1
            if r.snapshot is None:
                moves.append((sql.move, (new, r.status, r.game_id, r.old_version)))
            else:
                snap = _json(r.snapshot)
                moves.append(
                    (sql.move_snapshot, (new, r.status, snap, new, r.game_id, r.old_version))
                )
        if sql.pipeline:
            cursors = [raw.cursor() for _ in moves]
            with raw.pipeline():
                for cur, (statement, params) in zip(cursors, moves, strict=True):
                    cur.execute(statement, params)
            written = [cur.rowcount == 1 for cur in cursors]
            for cur in cursors:
                cur.close()
        else:
            cur = raw.cursor()
            try:
                written = []
                for statement, params in moves:
                    cur.execute(statement, params)
                    written.append(cur.rowcount == 1)
            finally:
                cur.close()
        rows = [
            (
                r.game_id,
                r.old_version + 1,
                r.seat,
                r.command_id,
                _json(r.command),
                _json(r.events),
                stamp,
            )
            for r, ok in zip(records, written, strict=True)
            if ok
        ]
        if rows:
            statement, params = sql.insert, rows[0]
            cur = raw.cursor()
            try:
                cur.executemany(sql.insert, rows)
            finally:
                cur.close()
    except dialect.loaded_dbapi.Error as error:
        raise DBAPIError.instance(
            statement, params, error, dialect.loaded_dbapi.Error, dialect=dialect
        ) from error
    return written


def events_after(
    conn: Connection, *, game_id: int, after: int, limit: int | None = None
) -> list[Record]:
    query = (
        select(
            game_events.c.version,
            game_events.c.seat,
            game_events.c.command_id,
            game_events.c.command,
            game_events.c.events,
            game_events.c.created_at,
        )
        .where(game_events.c.game_id == game_id, game_events.c.version > after)
        .order_by(game_events.c.version)
    )
    if limit is not None:
        query = query.limit(limit)
    return list(conn.execute(query).all())


def last_move_at(conn: Connection, *, game_id: int) -> datetime | None:
    """When the game's last command was logged (None: none yet)."""
    query = (
        select(game_events.c.created_at)
        .where(game_events.c.game_id == game_id)
        .order_by(game_events.c.version.desc())
        .limit(1)
    )
    found: datetime | None = conn.execute(query).scalar()
    return found


def game_versions(conn: Connection, *, room_ids: list[int]) -> dict[int, int]:
    """The stored version of the game of each room that has one, by room id."""
    query = select(games.c.room_id, games.c.version).where(games.c.room_id.in_(room_ids))
    return {room_id: version for room_id, version in conn.execute(query).all()}


def bot_games(conn: Connection) -> list[tuple[str, int]]:
    """(room code, game version) of the games in play that seat at least one bot."""
    with_bots = select(seats.c.room_id).where(seats.c.is_bot.is_(True)).distinct().scalar_subquery()
    query = (
        select(rooms.c.code, games.c.version)
        .join(games, games.c.room_id == rooms.c.id)
        .where(rooms.c.status == "playing", rooms.c.id.in_(with_bots))
    )
    return [(code, version) for code, version in conn.execute(query).all()]


def playing_games_with_bots(conn: Connection) -> list[str]:
    """Codes of the rooms in play that seat at least one bot."""
    query = (
        select(rooms.c.code)
        .join(seats, seats.c.room_id == rooms.c.id)
        .where(rooms.c.status == "playing", seats.c.is_bot.is_(True))
        .distinct()
    )
    return [code for (code,) in conn.execute(query).all()]
