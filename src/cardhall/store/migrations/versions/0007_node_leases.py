"""One lease per server process, not one per table: ``nodes`` (a process's name, ``lease_until`` in
epoch seconds by the database's clock); a table whose ``node`` holds a running lease is that
process's. The tables' own ``lease_until`` goes: renewing it wrote and locked every table row of a
process twice a second. The fence stays on each table. See :mod:`cardhall.server.cluster.leases`.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-03
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "nodes",
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("lease_until", sa.Double(), nullable=False),
        sa.PrimaryKeyConstraint("name", name=op.f("pk_nodes")),
    )
    op.drop_index(op.f("ix_tables_status_lease_until"), table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_until")
    op.create_index(op.f("ix_tables_node"), "tables", ["node"])


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_node"), table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("lease_until", sa.Double(), nullable=True))
    op.create_index(op.f("ix_tables_status_lease_until"), "tables", ["status", "lease_until"])
    op.drop_table("nodes")
