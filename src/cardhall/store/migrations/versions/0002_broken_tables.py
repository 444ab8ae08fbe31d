"""A table that cannot be brought back after a restart is kept as ``broken``, with the reason in
``problem`` (the operator reads it; the other tables are served).

Revision ID: 0002
Revises: 0001
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

BEFORE = "status IN ('waiting', 'playing', 'finished', 'abandoned')"
AFTER = "status IN ('waiting', 'playing', 'finished', 'abandoned', 'broken')"


def upgrade() -> None:
    # SQLite changes a CHECK constraint by copying the table (batch mode; the store turns foreign keys
    # off around migrations, as SQLite's documented table-rebuild procedure asks).
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("problem", sa.Text(), nullable=True))
        batch.drop_constraint(op.f("ck_tables_status"), type_="check")
        batch.create_check_constraint(op.f("ck_tables_status"), sa.text(AFTER))


def downgrade() -> None:
    op.execute("UPDATE tables SET status = 'abandoned' WHERE status = 'broken'")
    with op.batch_alter_table("tables") as batch:
        batch.drop_constraint(op.f("ck_tables_status"), type_="check")
        batch.create_check_constraint(op.f("ck_tables_status"), sa.text(BEFORE))
        batch.drop_column("problem")
