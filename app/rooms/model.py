"""The room model: what the platform keeps about a room and its game, in memory.

Plain values shared by every part of `app.rooms`; no behaviour beyond bookkeeping.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Game

RECENT_IDS = 32  # (seat, command id) of the last commands, per live game
CHAT_SEEN_MAX = 500

Viewer = int | None  # a seat index, or None for spectators
Messages = dict[Viewer, bytes]  # one serialised message per viewer


@dataclass(frozen=True, slots=True)
class SeatInfo:
    id: int  # the seat row's id: its identity, which never changes
    index: int  # its place at the table, which may change in the lobby
    name: str
    bot: bool  # played by a bot now (a bot's seat, or a person's while they are away)
    host: bool
    replaced: bool = False  # a person's seat a bot plays until they return


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sends a request: a seat of the room, or a spectator (seat None)."""

    code: str
    seat: SeatInfo | None


@dataclass(frozen=True, slots=True)
class CommandResult:
    version: int
    events: list[dict[str, Any]]  # filtered for the sender
    duplicate: bool = False
    finished: bool = False


@dataclass(slots=True)
class LiveGame:
    """The game in memory, trusted while `version` equals the stored one."""

    game_id: int
    version: int
    state: Any  # the game's own state object
    bot_seats: frozenset[int]
    views: dict[Viewer, bytes] = field(default_factory=dict)  # at `version`
    public: tuple[int, Any, list[int]] | None = None  # (version, public part, to_act)
    # The last commands' (seat, command id), oldest first: a hint that a command is a
    # retry (the log's unique index is the authority).
    recent: dict[tuple[int, str], None] = field(default_factory=dict)

    def remember(self, seat: int | None, command_id: str | None) -> None:
        if seat is None or command_id is None:
            return
        self.recent[(seat, command_id)] = None
        if len(self.recent) > RECENT_IDS:
            del self.recent[next(iter(self.recent))]

    def advance(self, version: int, seat: int | None, command_id: str | None) -> None:
        """The state has moved to `version` (its views are no longer current)."""
        self.version = version
        self.views = {}
        self.remember(seat, command_id)


@dataclass(slots=True)
class Room:
    """One room as this process knows it (cached; see `app.rooms.cache`)."""

    code: str
    room_id: int
    game: Game
    options: dict[str, Any] = field(default_factory=dict)  # as stored (normalised)
    timer: dict[str, Any] | None = None  # the turn timer's settings and clocks (None: off)
    rematch: str | None = None  # the room "Play again" opened after this one
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)  # one change at a time
    live: LiveGame | None = None
    seats: list[SeatInfo] = field(default_factory=list)
    bot_task: asyncio.Task[None] | None = None
    bot_wake: bool = False  # a new version since the bot task last looked
    # What this process's sockets of the room have been sent:
    pushed: int | None = None  # the game version (None: the lobby, or nothing yet)
    status: str | None = None  # the room status of the last "room" message
    chat_seen: dict[int, None] = field(default_factory=dict)  # chat ids, oldest first
    # Several processes only:
    remote_seats: set[int] = field(default_factory=set)  # seat indexes with sockets elsewhere
    todo: set[str] = field(default_factory=set)  # catch-up work asked for by notices
    worker: asyncio.Task[None] | None = None
    bot_idle: int | None = None  # a version at which no bot had to act
    used: float = field(default_factory=time.monotonic)  # last looked up (eviction)
    # Seats by token hash, once the game has started (seats no longer change then).
    auth: dict[str, SeatInfo] = field(default_factory=dict)

    def index_of(self) -> dict[int, int]:
        """Seat id -> its index now: how a socket (bound to a seat id) finds its view."""
        return {s.id: s.index for s in self.seats}

    def seat_by_id(self, seat_id: int) -> SeatInfo | None:
        return next((s for s in self.seats if s.id == seat_id), None)

    def saw_chat(self, ids: list[int]) -> None:
        for chat_id in ids:
            self.chat_seen[chat_id] = None
        while len(self.chat_seen) > CHAT_SEEN_MAX:
            del self.chat_seen[next(iter(self.chat_seen))]


def seat_info(row: Any) -> SeatInfo:
    """A seat row of the store as a `SeatInfo`."""
    bot = bool(row.is_bot)
    return SeatInfo(
        row.id, row.index, row.name, bot, bool(row.is_host), bot and row.token_hash is not None
    )
