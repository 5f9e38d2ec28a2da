"""rooms.game: which game a room plays (a registry id). Rooms made before are Karanor.

Revision ID: 0003_room_game
Revises: 0002_snapshot_version
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003_room_game"
down_revision: str | None = "0002_snapshot_version"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column(
        "rooms",
        sa.Column("game", sa.String(length=32), nullable=False, server_default="karanor"),
    )


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("game")
