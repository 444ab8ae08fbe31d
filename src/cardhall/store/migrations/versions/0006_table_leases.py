"""A table is owned by one server process at a time: ``node`` (the owner's name), ``lease_until``
(epoch seconds, by the database's clock: when the lease runs out unless renewed) and ``fence`` (raised
by one at every change of owner; every write of the table's actions, seats or end is conditional on
it, so a process that lost its lease can never write). See :mod:`cardhall.server.cluster.leases`.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.add_column(sa.Column("fence", sa.BigInteger(), nullable=False, server_default="1"))
        batch.add_column(sa.Column("node", sa.Text(), nullable=True))
        batch.add_column(sa.Column("lease_until", sa.Double(), nullable=True))
    op.create_index(op.f("ix_tables_status_lease_until"), "tables", ["status", "lease_until"])


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_status_lease_until"), table_name="tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("lease_until")
        batch.drop_column("node")
        batch.drop_column("fence")
