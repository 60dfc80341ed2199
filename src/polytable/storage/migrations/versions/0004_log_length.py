"""Rooms keep the length of their action log: an append is accepted only at that position, so the log is
contiguous by construction (the database refuses a gap as it refuses a duplicate).

Existing rooms get one past their last stored position (a log with a hole keeps it; ``polytable rooms
check`` finds it and ``polytable rooms repair`` cuts it back).

Revision ID: 0004
Revises: 0003
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("pt_rooms", sa.Column("length", sa.Integer, nullable=False, server_default="0"))
    op.execute(
        "UPDATE pt_rooms SET length = "
        "(SELECT COALESCE(MAX(pos) + 1, 0) FROM pt_actions WHERE pt_actions.room = pt_rooms.code)"
    )


def downgrade() -> None:
    with op.batch_alter_table("pt_rooms") as batch:
        batch.drop_column("length")
