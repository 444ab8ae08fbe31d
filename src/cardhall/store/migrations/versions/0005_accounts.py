"""Accounts, sessions and the history of ratings: a player may hold a unique name (its key) and an
argon2id password hash; a session is a token (its SHA-256 kept) of one player with an expiry; each
rated match writes the players' new ratings into the history.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("players") as batch:
        batch.add_column(sa.Column("name_key", sa.Text(), nullable=True))
        batch.add_column(sa.Column("password_hash", sa.Text(), nullable=True))
        batch.create_index(op.f("ix_players_name_key"), ["name_key"], unique=True)

    op.create_table(
        "sessions",
        sa.Column("token_hash", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("expires_at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_sessions_player_id_players")),
        sa.PrimaryKeyConstraint("token_hash", name=op.f("pk_sessions")),
    )
    op.create_index(op.f("ix_sessions_player_id"), "sessions", ["player_id"])

    op.create_table(
        "rating_history",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("pool", sa.Text(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_rating_history_player_id_players")
        ),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_rating_history_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_rating_history")),
    )
    op.create_index(op.f("ix_rating_history_player_id_id"), "rating_history", ["player_id", "id"])


def downgrade() -> None:
    op.drop_table("rating_history")
    op.drop_table("sessions")
    with op.batch_alter_table("players") as batch:
        batch.drop_index(op.f("ix_players_name_key"))
        batch.drop_column("password_hash")
        batch.drop_column("name_key")
