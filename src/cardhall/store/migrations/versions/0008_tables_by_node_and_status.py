"""A process's open tables found by one index range: ``tables`` indexed by ``(node, status)`` instead of
``node`` alone. A renewal reads the unfinished tables of its process four times a second, and a finished
table keeps its ``node``: by ``node`` alone each renewal read every table the process had ever finished.
See :mod:`cardhall.server.cluster.leases`.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-05
"""

from __future__ import annotations

from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index(op.f("ix_tables_node"), table_name="tables")
    op.create_index(op.f("ix_tables_node_status"), "tables", ["node", "status"])


def downgrade() -> None:
    op.drop_index(op.f("ix_tables_node_status"), table_name="tables")
    op.create_index(op.f("ix_tables_node"), "tables", ["node"])
