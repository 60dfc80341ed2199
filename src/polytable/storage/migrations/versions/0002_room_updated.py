"""Rooms remember when they last changed (for a device's list of its games, newest first).

Revision ID: 0002
Revises: 0001
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pt_rooms", sa.Column("updated", sa.Float, nullable=True))
    op.execute("UPDATE pt_rooms SET updated = created")


def downgrade() -> None:
    with op.batch_alter_table("pt_rooms") as batch:
        batch.drop_column("updated")
