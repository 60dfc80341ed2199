"""The first schema: rooms, seats and the action log (what every database made before migrations has).

Revision ID: 0001
Revises:
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "pt_rooms",
        sa.Column("code", sa.String(16), primary_key=True),
        sa.Column("game", sa.String(64), nullable=False),
        sa.Column("rules_version", sa.String(32), nullable=False),
        sa.Column("players", sa.Integer, nullable=False),
        sa.Column("options", sa.Text, nullable=False),
        sa.Column("seed", sa.String(40), nullable=False),
        sa.Column("mode", sa.String(16), nullable=False),
        sa.Column("created", sa.Float, nullable=False),
        sa.Column("finished", sa.Boolean, nullable=False, default=False),
        sa.Column("undone", sa.Integer, nullable=False, default=0),
    )
    op.create_table(
        "pt_seats",
        sa.Column("room", sa.String(16), sa.ForeignKey("pt_rooms.code"), primary_key=True),
        sa.Column("seat", sa.Integer, primary_key=True),
        sa.Column("name", sa.String(64), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("ai", sa.String(64), nullable=True),
        sa.Column("token_hash", sa.String(64), nullable=False),
    )
    op.create_table(
        "pt_actions",
        sa.Column("room", sa.String(16), sa.ForeignKey("pt_rooms.code"), primary_key=True),
        sa.Column("pos", sa.Integer, primary_key=True),
        sa.Column("player", sa.Integer, nullable=False),
        sa.Column("action", sa.Text, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("pt_actions")
    op.drop_table("pt_seats")
    op.drop_table("pt_rooms")
