"""Playing with people one knows (issue 25, part B): private tables and their invitations, friend
requests and friendships, blocks, roles (moderators), chat mutes and bans given by a moderator, and
reports of chat lines. Only new tables: nothing of ``players`` or of the earlier tables changes.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

from typing import Any

import sqlalchemy as sa
from alembic import op

revision = "0004"
# Part A of issue 25 adds 0003 beside this one; the merge points this at "0003".
down_revision = "0003"
branch_labels = None
depends_on = None


def _player(column: str, table: str, nullable: bool = False) -> list[Any]:
    return [
        sa.Column(column, sa.Integer(), nullable=nullable),
        sa.ForeignKeyConstraint([column], ["players.id"], name=op.f(f"fk_{table}_{column}_players")),
    ]


def upgrade() -> None:
    op.create_table(
        "private_tables",
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("invitation", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_private_tables_table_id_tables")),
        sa.PrimaryKeyConstraint("table_id", name=op.f("pk_private_tables")),
    )
    op.create_table(
        "friend_requests",
        *_player("sender_id", "friend_requests"),
        *_player("recipient_id", "friend_requests"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("sender_id", "recipient_id", name=op.f("pk_friend_requests")),
    )
    op.create_index(op.f("ix_friend_requests_recipient_id"), "friend_requests", ["recipient_id"])
    op.create_table(
        "friendships",
        *_player("low_id", "friendships"),
        *_player("high_id", "friendships"),
        sa.Column("since", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("low_id < high_id", name=op.f("ck_friendships_ordered")),
        sa.PrimaryKeyConstraint("low_id", "high_id", name=op.f("pk_friendships")),
    )
    op.create_index(op.f("ix_friendships_high_id"), "friendships", ["high_id"])
    op.create_table(
        "blocks",
        *_player("blocker_id", "blocks"),
        *_player("blocked_id", "blocks"),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("blocker_id", "blocked_id", name=op.f("pk_blocks")),
    )
    op.create_index(op.f("ix_blocks_blocked_id"), "blocks", ["blocked_id"])
    op.create_table(
        "roles",
        *_player("player_id", "roles"),
        sa.Column("role", sa.Text(), nullable=False),
        sa.Column("granted_at", sa.DateTime(timezone=True), nullable=False),
        sa.CheckConstraint("role IN ('moderator')", name=op.f("ck_roles_role")),
        sa.PrimaryKeyConstraint("player_id", "role", name=op.f("pk_roles")),
    )
    op.create_table(
        "chat_mutes",
        *_player("player_id", "chat_mutes"),
        sa.Column("until", sa.DateTime(timezone=True), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        *_player("by_id", "chat_mutes", nullable=True),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_chat_mutes")),
    )
    op.create_table(
        "bans",
        *_player("player_id", "bans"),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        *_player("by_id", "bans", nullable=True),
        sa.PrimaryKeyConstraint("player_id", name=op.f("pk_bans")),
    )
    op.create_table(
        "reports",
        sa.Column("id", sa.Integer(), nullable=False),
        *_player("reporter_id", "reports"),
        sa.Column("line_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Text(), nullable=False),
        *_player("sender_id", "reports", nullable=True),
        sa.Column("sender_name", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("reason", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["line_id"], ["chat.id"], name=op.f("fk_reports_line_id_chat")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_reports_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_reports")),
    )
    op.create_index(op.f("ix_reports_at"), "reports", ["at"])


def downgrade() -> None:
    op.drop_index(op.f("ix_reports_at"), table_name="reports")
    op.drop_table("reports")
    op.drop_table("bans")
    op.drop_table("chat_mutes")
    op.drop_table("roles")
    op.drop_index(op.f("ix_blocks_blocked_id"), table_name="blocks")
    op.drop_table("blocks")
    op.drop_index(op.f("ix_friendships_high_id"), table_name="friendships")
    op.drop_table("friendships")
    op.drop_index(op.f("ix_friend_requests_recipient_id"), table_name="friend_requests")
    op.drop_table("friend_requests")
    op.drop_table("private_tables")
