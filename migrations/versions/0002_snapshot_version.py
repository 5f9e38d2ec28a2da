"""games.snapshot_version: the version the stored snapshot is at.

The snapshot is no longer rewritten on every command but every few versions and at
the end of the game; the log rows after `snapshot_version` are replayed on load.
NULL (rows written before this revision): the snapshot is at `version`.

Revision ID: 0002_snapshot_version
Revises: 0001_platform_tables
Create Date: 2026-12-02
"""

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002_snapshot_version"
down_revision: str | None = "0001_platform_tables"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("games", sa.Column("snapshot_version", sa.Integer(), nullable=True))


def downgrade() -> None:
    # The older code reads `snapshot` as the state at `version`: this downgrade is only
    # safe for games whose snapshot is current (finished games, or a fresh database).
    with op.batch_alter_table("games") as batch:
        batch.drop_column("snapshot_version")
