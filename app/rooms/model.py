"""The room model: what the platform keeps about a room and its game, in memory.

Plain values shared by every part of `app.rooms`; no behaviour beyond bookkeeping.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any

from app.games.base import Game
from app.rooms.takeback import Point

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
    level: str = "normal"  # the level its bot plays at (a person's seat: when a bot plays it)
    left: int | None = None  # the game version its person left at (a bot plays to the end)


@dataclass(frozen=True, slots=True)
class Caller:
    """Who sends a request: a seat of the room, or a spectator (seat None)."""

    code: str
    seat: SeatInfo | None
    # The seat token it came with (kept out of repr: never in a log): Play again gives
    # the seat's person a token derived from it, the same on each of their devices.
    token: str | None = field(default=None, repr=False, compare=False)


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
    # The views of the version before (its number, the views built then): what a patch
    # is made against (app/rooms/patches.py); dropped with `views` when the room idles.
    previous: tuple[int, dict[Viewer, bytes]] | None = None
    # (version, the game's public part, to_act, the public part's values serialised
    # once for every viewer: `app.rooms.views.spliced`)
    public: tuple[int, Any, list[int], dict[str, Any]] | None = None
    # The last commands' (seat, command id), oldest first: a hint that a command is a
    # retry (the log's unique index is the authority).
    recent: dict[tuple[int, str], None] = field(default_factory=dict)
    # The level of each bot seat that is not "normal" (easy, hard).
    bot_levels: dict[int, str] = field(default_factory=dict)

    # What a take-back returns to: the last commands of one seat that revealed nothing,
    # oldest first (app.rooms.takeback); any other command empties it.
    takebacks: list[Point] = field(default_factory=list)

    def can_undo(self, seat: int | None, options: dict[str, Any]) -> bool:
        """May `seat` take back now (the server would accept `POST .../undo`)?"""
        return (
            seat is not None
            and bool(self.takebacks)
            and self.takebacks[-1].seat == seat
            and bool(options.get("take_backs", True))
            and seat not in self.bot_seats
        )

    def remember(self, seat: int | None, command_id: str | None) -> None:
        if seat is None or command_id is None:
            return
        self.recent[(seat, command_id)] = None
        if len(self.recent) > RECENT_IDS:
            del self.recent[next(iter(self.recent))]

    def advance(self, version: int, seat: int | None, command_id: str | None) -> None:
        """The state has moved to `version` (its views are no longer current)."""
        self.previous = (self.version, self.views) if self.views else None
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
    # Sockets between their first read and their place in the hub: a notice that comes
    # meanwhile is kept (its work waits on the lock, then finds them), not dropped.
    connecting: int = 0
    bot_idle: int | None = None  # a version at which no bot had to act
    used: float = field(default_factory=time.monotonic)  # last looked up (eviction)
    # Seat id -> when its last socket here closed (epoch): was its person at the table
    # during a turn that timed out (the turn timer's stand-in)?
    left: dict[int, float] = field(default_factory=dict)
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


BOT_LEVELS = ("easy", "normal", "hard")
DEFAULT_LEVEL = "normal"


def seat_info(row: Any) -> SeatInfo:
    """A seat row of the store as a `SeatInfo` (a level not stored reads as normal)."""
    bot = bool(row.is_bot)
    level = getattr(row, "bot_level", None) or DEFAULT_LEVEL
    return SeatInfo(
        row.id,
        row.index,
        row.name,
        bot,
        bool(row.is_host),
        bot and row.token_hash is not None,
        level if level in BOT_LEVELS else DEFAULT_LEVEL,
        getattr(row, "left_version", None),
    )


def bot_levels(seats: list[SeatInfo]) -> dict[int, str]:
    """The bot seats that play at another level than normal: index -> level."""
    return {s.index: s.level for s in seats if s.bot and s.level != DEFAULT_LEVEL}
