"""rooms.timer and rooms.rematch: the table around the game.

- `timer` (JSON, null: off): the turn timer's settings and each waiting seat's clock.
- `rematch` (a room code, null): the room "Play again" opened after this one.

Revision ID: 0004_room_table
Revises: 0003_room_game
Create Date: 2026-11-30
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0004_room_table"
down_revision: str | None = "0003_room_game"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("rooms", sa.Column("timer", sa.JSON(), nullable=True))
    op.add_column("rooms", sa.Column("rematch", sa.String(length=32), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("rooms") as batch:
        batch.drop_column("rematch")
        batch.drop_column("timer")
