"""notice_targets: where a seat's notices go outside the page (issue 29).

One row per seat and device: a Web Push subscription (endpoint and keys) or an Apprise
URL, with the seat's language and time zone and the origin its links start from.
Deleted with the seat (and so with the room).

Revision ID: 0005_notice_targets
Revises: 0004_room_table
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0005_notice_targets"
down_revision: str | None = "0004_room_table"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "notice_targets",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("seat_id", sa.Integer(), nullable=False),
        sa.Column("kind", sa.String(length=16), nullable=False),
        sa.Column("digest", sa.String(length=64), nullable=False),
        sa.Column("target", sa.Text(), nullable=False),
        sa.Column("keys", sa.JSON(), nullable=True),
        sa.Column("lang", sa.String(length=8), server_default="en", nullable=False),
        sa.Column("time_zone", sa.String(length=64), server_default="UTC", nullable=False),
        sa.Column("origin", sa.String(length=256), nullable=False),
        sa.Column("failure", sa.String(length=64), nullable=True),
        sa.Column(
            "created_at", sa.DateTime(timezone=True), server_default=sa.func.now(), nullable=False
        ),
        sa.CheckConstraint("kind IN ('web_push', 'url')", name=op.f("ck_notice_targets_kind")),
        sa.ForeignKeyConstraint(
            ["seat_id"],
            ["seats.id"],
            name=op.f("fk_notice_targets_seat_id_seats"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_notice_targets")),
        sa.UniqueConstraint("seat_id", "digest", name=op.f("uq_notice_targets_seat_id_digest")),
    )
    op.create_index(op.f("ix_notice_targets_seat_id"), "notice_targets", ["seat_id"], unique=False)


def downgrade() -> None:
    op.drop_index(op.f("ix_notice_targets_seat_id"), table_name="notice_targets")
    op.drop_table("notice_targets")
