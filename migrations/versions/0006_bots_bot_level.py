"""seats.bot_level: the level a bot seat plays at (issue 30).

NULL reads as "normal" (today's greedy bot), so every room stored before keeps playing
as it did.

Revision ID: 0006_bots
Revises: 0005_notice_targets
Create Date: 2026-12-03
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0006_bots"
down_revision: str | None = "0005_notice_targets"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.add_column(sa.Column("bot_level", sa.String(length=16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("seats") as batch:
        batch.drop_column("bot_level")
