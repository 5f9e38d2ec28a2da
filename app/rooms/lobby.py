"""The lobby: rooms made, seats taken and freed, bots seated, options set, the game
dealt. Every change is one write transaction on a room still in its lobby, under the
room's lock, then pushed to the room's sockets and noticed to the other processes."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Mapping
from typing import Any, TypeVar

from pydantic import ValidationError
from sqlalchemy import Connection
from sqlalchemy.exc import IntegrityError

from app.games import registry
from app.games.base import Game
from app.rooms import errors, tokens, views
from app.rooms.cache import RoomCache
from app.rooms.context import Platform
from app.rooms.fanout import Fanout
from app.rooms.model import (
    BOT_LEVELS,
    Caller,
    LiveGame,
    Room,
    SeatInfo,
    bot_levels,
    seat_info,
)
from app.store import repo
from app.store.db import write_transaction

T = TypeVar("T")


def game_named(game_id: str | None) -> Game:
    """The hosted game `game_id` (None: the default game). :raises PlatformError: 400."""
    game = registry.get(game_id or registry.DEFAULT_GAME)
    if game is None:
        raise errors.unknown_game(str(game_id))
    return game


TAKE_BACKS = "take_backs"  # the platform's own room option: may seats take back (default on)


def game_options(options: Mapping[str, Any]) -> dict[str, Any]:
    """The room's options without the platform's own (what the game is dealt with)."""
    return {k: v for k, v in options.items() if k != TAKE_BACKS}


def checked_options(
    game: Game, given: Mapping[str, Any] | None, current: Mapping[str, Any] | None = None
) -> dict[str, Any]:
    """`given` options over `current` ones, checked by the game: 422 `bad_request` for
    an unknown option or a value of the wrong shape, 400 `bad_options` for values the
    rules refuse together. The platform's `take_backs` (a bool, default true) is kept
    beside the game's."""
    take_backs = (current or {}).get(TAKE_BACKS, True)
    if given and TAKE_BACKS in given:
        take_backs = given[TAKE_BACKS]
        if not isinstance(take_backs, bool):
            raise errors.PlatformError(
                422, "bad_request", "options.take_backs: Input should be a valid boolean"
            )
    given = game_options(given or {})
    current = game_options(current or {})
    return {**_game_checked(game, given, current), TAKE_BACKS: take_backs}


def _game_checked(
    game: Game, given: Mapping[str, Any], current: Mapping[str, Any]
) -> dict[str, Any]:
    try:
        game.options_model.model_validate(dict(given or {}))
    except ValidationError as error:
        first = error.errors()[0]
        where = ".".join(str(x) for x in first.get("loc", ())) or "options"
        raise errors.PlatformError(
            422, "bad_request", f"options.{where}: {first.get('msg', 'invalid')}"
        ) from None
    with errors.translated():
        return game.normalise_options({**(current or {}), **(given or {})})


def check_level(level: str | None) -> str:
    """A bot level as given (None: normal). :raises PlatformError: 400 `bad_level`."""
    if level is None:
        return "normal"
    if level not in BOT_LEVELS:
        raise errors.PlatformError(
            400, "bad_level", f"no bot level {level!r} (known: {', '.join(BOT_LEVELS)})"
        )
    return level


def name_key(name: str) -> str:
    """How seat names are compared: compatibility-normalised (NFKC), case-folded, with
    invisible (Cf) characters and spacing ignored ("Host", "host\u200b", "Ｈｏｓｔ" are one)."""
    text = unicodedata.normalize("NFKC", name)
    text = "".join(ch for ch in text if unicodedata.category(ch) != "Cf")
    return " ".join(text.casefold().split())


def _names_taken(conn: Connection, row: Any) -> set[str]:
    return {name_key(s.name) for s in repo.seats_of(conn, room_id=row.id)}


def _require_free_name(conn: Connection, row: Any, name: str) -> None:
    """:raises PlatformError: 409 `name_taken` if another seat's name is the same."""
    if name_key(name) in _names_taken(conn, row):
        raise errors.PlatformError(409, "name_taken", f"a seat is already called {name!r}")


def _lobby_room(conn: Connection, code: str) -> Any:
    row = repo.room_by_code(conn, code=code)
    if row is None:
        raise errors.unknown_room(code)
    if row.status != "lobby":
        raise errors.PlatformError(409, "room_started", "the game has already started")
    return row


class Lobby:
    def __init__(self, platform: Platform, cache: RoomCache, fanout: Fanout) -> None:
        self.p = platform
        self.cache = cache
        self.fanout = fanout

    async def create(
        self,
        name: str,
        game_id: str | None,
        options: Mapping[str, Any] | None,
        token: str | None = None,
    ) -> tuple[str, str]:
        """A new room with its creator as host on seat 0 (with `token`, default a new
        one); returns (code, token)."""
        game = game_named(game_id)
        opts = checked_options(game, options)
        token = token or tokens.new_seat_token()

        def tx() -> str:
            code = tokens.new_room_code()
            with write_transaction(self.p.db) as conn:
                room_id = repo.insert_room(conn, code=code, game=game.id, options=opts)
                repo.insert_seat(
                    conn,
                    room_id=room_id,
                    index=0,
                    name=name,
                    token_hash=tokens.hash_token(token),
                    is_host=True,
                )
            return code

        return await self.p.write(tx), token

    async def _change(
        self,
        room: Room,
        fn: Callable[[Connection, Any], T],
        notice: Callable[[T], dict[str, Any]] | None = None,
    ) -> T:
        """Run `fn(conn, room row)` in a write transaction on a room still in its lobby,
        then push the lobby to the room's sockets and tell the other processes (with
        what `notice` adds); under the room lock. One retry on a unique-index race
        (another process took the same seat index)."""
        async with room.lock:

            def tx() -> tuple[T, list[SeatInfo]]:
                for attempt in range(2):
                    try:
                        with write_transaction(self.p.db) as conn:
                            out = fn(conn, _lobby_room(conn, room.code))
                            seats = repo.seats_of(conn, room_id=room.room_id)
                            return out, [seat_info(s) for s in seats]
                    except IntegrityError:
                        if attempt:
                            raise
                raise AssertionError("unreachable")

            out, room.seats = await self.p.write(tx)
            room.auth.clear()
            extra = notice(out) if notice is not None else {}
            await self.fanout.push_lobby(room)
        self.p.publish(room.code, {"t": "lobby", **extra})
        return out

    @staticmethod
    def _free_index(conn: Connection, room: Room, row: Any) -> int:
        taken = len(repo.seats_of(conn, room_id=row.id))
        limit = room.game.seat_limit(row.options)
        if taken >= limit:
            raise errors.PlatformError(409, "room_full", f"all {limit} seats are taken")
        return taken

    async def join(self, room: Room, name: str, token: str | None = None) -> tuple[int, str]:
        """Take the next free seat (with `token`, default a new one); returns (index, token).

        :raises PlatformError: 409 `room_full`, `room_started` or `name_taken`.
        """
        token = token or tokens.new_seat_token()

        def add(conn: Connection, row: Any) -> int:
            index = self._free_index(conn, room, row)
            _require_free_name(conn, row, name)
            repo.insert_seat(
                conn,
                room_id=row.id,
                index=index,
                name=name,
                token_hash=tokens.hash_token(token),
            )
            return index

        return await self._change(room, add), token

    async def add_bot(
        self, room: Room, caller: Caller, name: str | None, level: str | None = None
    ) -> int:
        errors.require_host(caller)
        level = check_level(level)

        def add(conn: Connection, row: Any) -> int:
            index = self._free_index(conn, room, row)
            if name:
                _require_free_name(conn, row, name)
                bot_name = name
            else:  # "Bot N", the first N from the seat's number not taken by a person
                taken, number = _names_taken(conn, row), index + 1
                while name_key(f"Bot {number}") in taken:
                    number += 1
                bot_name = f"Bot {number}"
            repo.insert_seat(
                conn,
                room_id=row.id,
                index=index,
                name=bot_name,
                token_hash=None,
                is_bot=True,
                bot_level=level,
            )
            return index

        return await self._change(room, add)

    async def set_bot_level(self, room: Room, caller: Caller, index: int, level: str) -> None:
        """The host sets the level of the bot on seat `index`, in the lobby.

        :raises PlatformError: 400 `bad_level`, 404 `unknown_seat`, 409 `not_a_bot`.
        """
        errors.require_host(caller)
        level = check_level(level)

        def change(conn: Connection, row: Any) -> None:
            seat = next((s for s in repo.seats_of(conn, room_id=row.id) if s.index == index), None)
            if seat is None:
                raise errors.PlatformError(404, "unknown_seat", f"there is no seat {index}")
            if not seat.is_bot:
                raise errors.PlatformError(409, "not_a_bot", f"seat {index} is a person's")
            repo.set_seat_level(conn, room_id=row.id, index=index, level=level)

        await self._change(room, change)

    async def remove_seat(self, room: Room, caller: Caller, index: int) -> None:
        """The host frees seat `index` before the start; later seats move down one. The
        removed seat's sockets close, everywhere; the others keep their seat (by id)
        and find its new place at their next message.

        :raises PlatformError: 404 `unknown_seat`, 409 `cannot_remove_host`.
        """
        errors.require_host(caller)

        def remove(conn: Connection, row: Any) -> int:
            seats = {s.index: s for s in repo.seats_of(conn, room_id=row.id)}
            if index not in seats:
                raise errors.PlatformError(404, "unknown_seat", f"there is no seat {index}")
            if seats[index].is_host:
                raise errors.PlatformError(409, "cannot_remove_host", "the host's seat stays")
            repo.remove_seat(conn, room_id=row.id, index=index)
            removed: int = seats[index].id
            return removed

        def notice(removed: int) -> dict[str, Any]:
            self.p.hub.close_seat(room.code, removed)
            return {"removed": removed}

        await self._change(room, remove, notice)

    async def set_options(self, room: Room, caller: Caller, options: Mapping[str, Any]) -> None:
        errors.require_host(caller)
        game = room.game

        def change(conn: Connection, row: Any) -> None:
            opts = checked_options(game, options, row.options)
            seated = len(repo.seats_of(conn, room_id=row.id))
            if game.seat_limit(opts) < seated:
                raise errors.PlatformError(
                    400, "bad_options", f"{seated} seated: the options allow fewer seats"
                )
            repo.set_room_options(conn, room_id=row.id, options=opts)

        await self._change(room, change)

    async def start(
        self, room: Room, caller: Caller, options: Mapping[str, Any] | None
    ) -> LiveGame:
        """Deal the game: lobby -> playing, version 0; its first view to every socket.

        :raises PlatformError: 409 `room_started`, `not_enough_players`; 400 `bad_options`.
        """
        errors.require_host(caller)
        game = room.game
        async with room.lock:

            def tx() -> LiveGame:
                with write_transaction(self.p.db) as conn:
                    row = _lobby_room(conn, room.code)
                    opts = checked_options(game, options, row.options)
                    seats = [seat_info(s) for s in repo.seats_of(conn, room_id=row.id)]
                    if len(seats) < game.min_players:
                        raise errors.PlatformError(
                            409,
                            "not_enough_players",
                            f"{game.title} needs at least {game.min_players} seats",
                        )
                    if game.seat_limit(opts) < len(seats):
                        raise errors.PlatformError(
                            400, "bad_options", f"{len(seats)} seated: the options allow fewer"
                        )
                    seed = self.p.settings.game_seed
                    if seed is None:
                        seed = secrets.randbits(63)
                    with errors.translated():
                        state = game.new_game(game_options(opts), seed, [s.name for s in seats])
                    game_id = repo.insert_game(
                        conn,
                        room_id=row.id,
                        content_pack=game.content_pack,
                        options=game_options(opts),
                        seed=seed,
                        snapshot=game.to_dict(state),
                    )
                    repo.set_room_options(conn, room_id=row.id, options=opts)
                    if not repo.set_room_status(
                        conn, room_id=row.id, status="playing", expect="lobby"
                    ):
                        raise errors.PlatformError(
                            409, "room_started", "the game has already started"
                        )
                room.seats, room.options = seats, opts
                bots = frozenset(s.index for s in seats if s.bot)
                return LiveGame(game_id, 0, state, bots, bot_levels=bot_levels(seats))

            live = room.live = await self.p.write(tx)
            room.auth.clear()
            self.fanout.version(room, live, [])
        self.p.publish(room.code, {"t": "v", "v": 0})
        return live

    def info_now(self, room: Room, status: str, version: int | None) -> dict[str, Any]:
        return views.room_info(room, status, room.options, version, self.fanout.connected(room))
