"""seats.left_version: a person who left a running game (issue 27).

- `left_version` (int, null: still there): the game version at which the seat's person
  resigned or left; a bot plays the seat to the end (the seat keeps its name, loses its
  token).

Revision ID: 0007_table_left
Revises: 0006_bots
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0007_table_left"
down_revision: str | None = "0006_bots"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("seats", sa.Column("left_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("left_version")
