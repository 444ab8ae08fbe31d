"""What a match played by a stand-in is counted from (issue 46): each action says whether the bot standing
in for the person in its seat made it (``actions.stand_in``, false for every action stored before: who
made them is not known, and they count as the person's), and a person's result says why his match
counts as a stand-in's (``results.absent``: ``left`` or ``away``; null for every result before). See
:mod:`cardhall.server.ratings`.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-09
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("actions") as batch:
        batch.add_column(sa.Column("stand_in", sa.Boolean(), nullable=False, server_default=sa.false()))
    with op.batch_alter_table("results") as batch:
        batch.add_column(sa.Column("absent", sa.Text(), nullable=True))
        batch.create_check_constraint(op.f("ck_results_absent"), sa.text("absent IN ('left', 'away')"))


def downgrade() -> None:
    with op.batch_alter_table("results") as batch:
        batch.drop_constraint(op.f("ck_results_absent"), type_="check")
        batch.drop_column("absent")
    with op.batch_alter_table("actions") as batch:
        batch.drop_column("stand_in")
