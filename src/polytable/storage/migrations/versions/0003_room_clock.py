"""Rooms keep their time control and clocks (JSON), so clocks survive a restart, and the code of their
rematch.

Revision ID: 0003
Revises: 0002
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pt_rooms", sa.Column("clock", sa.Text, nullable=True))
    op.add_column("pt_rooms", sa.Column("rematch", sa.String(16), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("pt_rooms") as batch:
        batch.drop_column("clock")
        batch.drop_column("rematch")
