"""Platform tables: rooms, seats, games, game_events, chat_messages.

Revision ID: 0001_platform_tables
Revises:
Create Date: 2026-11-29
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001_platform_tables"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None

BigId = sa.BigInteger().with_variant(sa.Integer(), "sqlite")


def _created_at() -> sa.Column:
    return sa.Column(
        "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
    )


def _updated_at() -> sa.Column:
    return sa.Column(
        "updated_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
    )


def upgrade() -> None:
    op.create_table(
        "rooms",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("code", sa.String(32), nullable=False),
        sa.Column("status", sa.String(16), server_default="lobby", nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("host_seat", sa.Integer(), nullable=True),
        _created_at(),
        _updated_at(),
        sa.CheckConstraint(
            "status IN ('lobby', 'playing', 'finished')", name=op.f("ck_rooms_status")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rooms")),
        sa.UniqueConstraint("code", name=op.f("uq_rooms_code")),
    )
    op.create_table(
        "seats",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("index", sa.Integer(), nullable=False),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("token_hash", sa.String(128), nullable=True),
        sa.Column("is_bot", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("is_host", sa.Boolean(), server_default=sa.false(), nullable=False),
        sa.Column("removed", sa.Boolean(), server_default=sa.false(), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_seats_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_seats")),
        sa.UniqueConstraint("room_id", "index", name=op.f("uq_seats_room_id_index")),
        sa.UniqueConstraint("token_hash", name=op.f("uq_seats_token_hash")),
    )
    op.create_table(
        "games",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("content_pack", sa.String(64), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("version", sa.Integer(), server_default="0", nullable=False),
        sa.Column("snapshot", sa.JSON(), nullable=True),
        sa.Column("status", sa.String(16), server_default="playing", nullable=False),
        _created_at(),
        _updated_at(),
        sa.CheckConstraint(
            "status IN ('playing', 'finished', 'abandoned')", name=op.f("ck_games_status")
        ),
        sa.ForeignKeyConstraint(
            ["room_id"], ["rooms.id"], name=op.f("fk_games_room_id_rooms"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_games")),
        sa.UniqueConstraint("room_id", name=op.f("uq_games_room_id")),
    )
    op.create_table(
        "game_events",
        sa.Column("id", BigId, nullable=False),
        sa.Column("game_id", sa.Integer(), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("command_id", sa.String(64), nullable=True),
        sa.Column("command", sa.JSON(), nullable=False),
        sa.Column("events", sa.JSON(), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_game_events_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_game_events")),
        sa.UniqueConstraint("game_id", "version", name=op.f("uq_game_events_game_id_version")),
        sa.UniqueConstraint(
            "game_id", "seat", "command_id", name=op.f("uq_game_events_game_id_seat_command_id")
        ),
    )
    op.create_table(
        "chat_messages",
        sa.Column("id", BigId, nullable=False),
        sa.Column("room_id", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        _created_at(),
        sa.ForeignKeyConstraint(
            ["room_id"],
            ["rooms.id"],
            name=op.f("fk_chat_messages_room_id_rooms"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat_messages")),
    )
    op.create_index("ix_chat_messages_room_id_id", "chat_messages", ["room_id", "id"])


def downgrade() -> None:
    op.drop_index("ix_chat_messages_room_id_id", table_name="chat_messages")
    op.drop_table("chat_messages")
    op.drop_table("game_events")
    op.drop_table("games")
    op.drop_table("seats")
    op.drop_table("rooms")
