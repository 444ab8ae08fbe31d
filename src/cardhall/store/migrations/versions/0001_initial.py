"""The initial schema: players, tables, actions, chat, results and ratings.

Revision ID: 0001
Revises:
Create Date: 2026-11-30
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
        "players",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("token_hash", sa.Text(), nullable=False),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_players")),
    )
    op.create_index(op.f("ix_players_token_hash"), "players", ["token_hash"], unique=True)

    op.create_table(
        "tables",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("rules_version", sa.Text(), nullable=False),
        sa.Column("seed", sa.BigInteger(), nullable=False),
        sa.Column("settings", sa.JSON(), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("owner_id", sa.Integer(), nullable=True),
        sa.Column("rematch_of", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("finished_at", sa.DateTime(timezone=True), nullable=True),
        sa.CheckConstraint(
            "status IN ('waiting', 'playing', 'finished', 'abandoned')", name=op.f("ck_tables_status")
        ),
        sa.ForeignKeyConstraint(["owner_id"], ["players.id"], name=op.f("fk_tables_owner_id_players")),
        sa.ForeignKeyConstraint(["rematch_of"], ["tables.id"], name=op.f("fk_tables_rematch_of_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_tables")),
    )
    op.create_index(op.f("ix_tables_status_created_at"), "tables", ["status", "created_at"])

    op.create_table(
        "actions",
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("action", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_actions_table_id_tables")),
        sa.PrimaryKeyConstraint("table_id", "number", name=op.f("pk_actions")),
    )

    op.create_table(
        "chat",
        sa.Column("id", sa.Integer(), nullable=False),
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("at", sa.DateTime(timezone=True), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_chat_player_id_players")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_chat_table_id_tables")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_chat")),
    )
    op.create_index(op.f("ix_chat_table_id_id"), "chat", ["table_id", "id"])

    op.create_table(
        "results",
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=True),
        sa.Column("score", sa.Integer(), nullable=False),
        sa.Column("win_share", sa.Double(), nullable=False),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_results_player_id_players")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_results_table_id_tables")),
        sa.PrimaryKeyConstraint("table_id", "seat", name=op.f("pk_results")),
    )

    op.create_table(
        "ratings",
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("pool", sa.Text(), nullable=False),
        sa.Column("mu", sa.Double(), nullable=False),
        sa.Column("sigma", sa.Double(), nullable=False),
        sa.Column("games", sa.Integer(), nullable=False),
        sa.CheckConstraint("pool IN ('people', 'bots')", name=op.f("ck_ratings_pool")),
        sa.ForeignKeyConstraint(["player_id"], ["players.id"], name=op.f("fk_ratings_player_id_players")),
        sa.PrimaryKeyConstraint("player_id", "game", "pool", name=op.f("pk_ratings")),
    )
    op.create_index(op.f("ix_ratings_game_pool"), "ratings", ["game", "pool"])


def downgrade() -> None:
    for table in ("ratings", "results", "chat", "actions", "tables", "players"):
        op.drop_table(table)
