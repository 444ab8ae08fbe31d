"""Play now's leavers (issue 49): who left a match, or whose seat a stand-in took when his connection
stayed away, during its first deal, and when (``early_leaves``, one row per person and table, read by
player and time). See :mod:`cardhall.server.playnow`.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-07
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "early_leaves",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_early_leaves_player_id_players")
        ),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_early_leaves_table_id_tables")),
        sa.PrimaryKeyConstraint("player_id", "table_id", name=op.f("pk_early_leaves")),
    )
    op.create_index(op.f("ix_early_leaves_player_id_at"), "early_leaves", ["player_id", "at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_early_leaves_player_id_at"), table_name="early_leaves")
    op.drop_table("early_leaves")
