"""Platform tables. Alembic (migrations/) is the schema authority; these models mirror it.

Types are portable between SQLite and PostgreSQL: `JSON`, `BigInteger`, and
strings with CHECK constraints instead of database enums.
"""

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import (
    JSON,
    BigInteger,
    CheckConstraint,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Text,
    UniqueConstraint,
    false,
    func,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column, relationship

# Stable constraint names, so migrations (and SQLite batch mode) can refer to them.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

ROOM_STATUSES = ("lobby", "playing", "finished")
GAME_STATUSES = ("playing", "finished", "abandoned")

# SQLite only autoincrements an INTEGER PRIMARY KEY, not a BIGINT one.
BigId = BigInteger().with_variant(Integer(), "sqlite")


def utcnow() -> datetime:
    return datetime.now(UTC)


class Base(DeclarativeBase):
    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map = {dict[str, Any]: JSON, list[Any]: JSON}


def _created_at() -> Mapped[datetime]:
    return mapped_column(DateTime(timezone=True), default=utcnow, server_default=func.now())


def _updated_at() -> Mapped[datetime]:
    return mapped_column(
        DateTime(timezone=True), default=utcnow, onupdate=utcnow, server_default=func.now()
    )


class Room(Base):
    """A table friends gather at: a lobby first, then one game."""

    __tablename__ = "rooms"
    __table_args__ = (CheckConstraint(f"status IN {ROOM_STATUSES!r}", name="status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    code: Mapped[str] = mapped_column(String(32), unique=True)
    # The game's registry id (column "game"; `game` is the relationship to its game row).
    game_kind: Mapped[str] = mapped_column("game", String(32))
    status: Mapped[str] = mapped_column(String(16), default="lobby", server_default="lobby")
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    host_seat: Mapped[int | None] = mapped_column(Integer)
    timer: Mapped[dict[str, Any] | None] = mapped_column(JSON(none_as_null=True))  # null: off
    rematch: Mapped[str | None] = mapped_column(String(32))  # the room "Play again" opened
    created_at: Mapped[datetime] = _created_at()
    updated_at: Mapped[datetime] = _updated_at()

    seats: Mapped[list["Seat"]] = relationship(
        back_populates="room", order_by="Seat.index", cascade="all, delete-orphan"
    )
    game: Mapped["Game | None"] = relationship(back_populates="room", cascade="all, delete-orphan")


class Seat(Base):
    """A player's place in a room. Humans hold a secret token; only its hash is stored."""

    __tablename__ = "seats"
    __table_args__ = (UniqueConstraint("room_id", "index"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    index: Mapped[int] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(128), unique=True)
    is_bot: Mapped[bool] = mapped_column(default=False, server_default=false())
    is_host: Mapped[bool] = mapped_column(default=False, server_default=false())
    # A bot seat's level ("easy", "normal", "hard"); NULL reads as "normal".
    bot_level: Mapped[str | None] = mapped_column(String(16))
    removed: Mapped[bool] = mapped_column(default=False, server_default=false())
    created_at: Mapped[datetime] = _created_at()
    # The game version at which its person left a running game (a bot plays on); null: here.
    left_version: Mapped[int | None] = mapped_column(Integer, default=None)

    room: Mapped[Room] = relationship(back_populates="seats")


class Game(Base):
    """The game played in a room: its current snapshot and version (the optimistic lock)."""

    __tablename__ = "games"
    __table_args__ = (CheckConstraint(f"status IN {GAME_STATUSES!r}", name="status"),)

    id: Mapped[int] = mapped_column(primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"), unique=True)
    content_pack: Mapped[str] = mapped_column(String(64))
    options: Mapped[dict[str, Any]] = mapped_column(default=dict)
    seed: Mapped[int] = mapped_column(BigInteger)
    version: Mapped[int] = mapped_column(Integer, default=0, server_default="0")
    snapshot: Mapped[dict[str, Any] | None] = mapped_column(JSON)
    # The version `snapshot` is at (NULL: `version`); the log replays the rest.
    snapshot_version: Mapped[int | None] = mapped_column(Integer)
    status: Mapped[str] = mapped_column(String(16), default="playing", server_default="playing")
    created_at: Mapped[datetime] = _created_at()
    updated_at: Mapped[datetime] = _updated_at()

    room: Mapped[Room] = relationship(back_populates="game")


class GameEvent(Base):
    """One accepted command and the events it produced; append-only, one row per version."""

    __tablename__ = "game_events"
    __table_args__ = (
        UniqueConstraint("game_id", "version"),
        # A client retrying a command with the same id gets the stored outcome.
        UniqueConstraint("game_id", "seat", "command_id"),
    )

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    version: Mapped[int] = mapped_column(Integer)
    seat: Mapped[int | None] = mapped_column(Integer)
    command_id: Mapped[str | None] = mapped_column(String(64))
    command: Mapped[dict[str, Any]] = mapped_column(JSON)
    events: Mapped[list[Any]] = mapped_column(JSON, default=list)
    created_at: Mapped[datetime] = _created_at()


class ChatMessage(Base):
    """A line of room chat; `seat` is None for messages from the server itself."""

    __tablename__ = "chat_messages"
    __table_args__ = (Index("ix_chat_messages_room_id_id", "room_id", "id"),)

    id: Mapped[int] = mapped_column(BigId, primary_key=True)
    room_id: Mapped[int] = mapped_column(ForeignKey("rooms.id", ondelete="CASCADE"))
    seat: Mapped[int | None] = mapped_column(Integer)
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = _created_at()


class NoticeTarget(Base):
    """Where a seat's notices go outside the page (app/notices): one row per seat and
    device, a Web Push subscription or an Apprise URL. `target` is a secret (a push
    endpoint or a URL with its tokens): it is read only to send, never shown."""

    __tablename__ = "notice_targets"
    __table_args__ = (
        UniqueConstraint("seat_id", "digest"),
        CheckConstraint("kind IN ('web_push', 'url')", name="kind"),
    )

    id: Mapped[int] = mapped_column(primary_key=True)
    seat_id: Mapped[int] = mapped_column(ForeignKey("seats.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(16))
    digest: Mapped[str] = mapped_column(String(64))  # sha256 of `target`: the device's key
    target: Mapped[str] = mapped_column(Text)  # the endpoint or the Apprise URL
    keys: Mapped[dict[str, Any] | None] = mapped_column(JSON)  # Web Push: p256dh, auth
    lang: Mapped[str] = mapped_column(String(8), default="en", server_default="en")
    time_zone: Mapped[str] = mapped_column(String(64), default="UTC", server_default="UTC")
    origin: Mapped[str] = mapped_column(String(256))  # how the seat reached us: the links
    failure: Mapped[str | None] = mapped_column(String(64))  # the last failure's code
    created_at: Mapped[datetime] = _created_at()
