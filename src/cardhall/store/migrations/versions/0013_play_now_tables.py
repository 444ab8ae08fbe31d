"""Play now's tables (issue 49): a table made by Play now keeps its pool's name (``tables.play_now``),
so that after a restart, or on the process that takes it over, it still offers its bots' seats to the
people looking for its game; and ``results`` is read by player (a player's matches: his page, and the
recent opponents Play now reads at every seek, which read every result without it).

Revision ID: 0013
Revises: 0012
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("play_now", sa.Text(), nullable=True))
    op.create_index(op.f("ix_results_player_id"), "results", ["player_id"])


def downgrade() -> None:
    op.drop_index(op.f("ix_results_player_id"), table_name="results")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("play_now")
