"""Tournaments (issue 50): events (with their director's lease), sign-ups, the events' tables and the
operator's schedules. Only new tables: nothing earlier changes.

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
        "events",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("status", sa.Text(), nullable=False),
        sa.Column("starts_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("ends_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("rounds", sa.Integer(), nullable=True),
        sa.Column("created_by", sa.Integer(), nullable=True),
        sa.Column("token", sa.Text(), nullable=True),
        sa.Column("schedule", sa.Text(), nullable=True),
        sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("director", sa.Text(), nullable=True),
        sa.Column("director_until", sa.Double(), nullable=True),
        sa.CheckConstraint("kind IN ('arena', 'duplicate')", name=op.f("ck_events_kind")),
        sa.CheckConstraint(
            "status IN ('upcoming', 'running', 'finished', 'cancelled')", name=op.f("ck_events_status")
        ),
        sa.ForeignKeyConstraint(["created_by"], ["players.id"], name=op.f("fk_events_created_by_players")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_events")),
    )
    op.create_index(op.f("ix_events_status_starts_at"), "events", ["status", "starts_at"])
    op.create_table(
        "event_signups",
        sa.Column("event_id", sa.Text(), nullable=False),
        sa.Column("player_id", sa.Integer(), nullable=False),
        sa.Column("joined_at", sa.DateTime(timezone=True), nullable=False),
        sa.Column("left_at", sa.DateTime(timezone=True), nullable=True),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_event_signups_event_id_events")),
        sa.ForeignKeyConstraint(
            ["player_id"], ["players.id"], name=op.f("fk_event_signups_player_id_players")
        ),
        sa.PrimaryKeyConstraint("event_id", "player_id", name=op.f("pk_event_signups")),
    )
    op.create_index(op.f("ix_event_signups_player_id"), "event_signups", ["player_id"])
    op.create_table(
        "event_tables",
        sa.Column("event_id", sa.Text(), nullable=False),
        sa.Column("table_id", sa.Text(), nullable=False),
        sa.Column("round", sa.Integer(), nullable=False),
        sa.Column("table_index", sa.Integer(), nullable=False),
        sa.Column("rotation", sa.Integer(), nullable=False),
        sa.ForeignKeyConstraint(["event_id"], ["events.id"], name=op.f("fk_event_tables_event_id_events")),
        sa.ForeignKeyConstraint(["table_id"], ["tables.id"], name=op.f("fk_event_tables_table_id_tables")),
        sa.PrimaryKeyConstraint("event_id", "table_id", name=op.f("pk_event_tables")),
    )
    op.create_index(op.f("ix_event_tables_table_id"), "event_tables", ["table_id"], unique=True)
    op.create_table(
        "event_schedules",
        sa.Column("id", sa.Text(), nullable=False),
        sa.Column("kind", sa.Text(), nullable=False),
        sa.Column("game", sa.Text(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("rrule", sa.Text(), nullable=False),
        sa.Column("lead", sa.Integer(), nullable=False),
        sa.Column("dtstart", sa.DateTime(timezone=True), nullable=False),
        sa.Column("next_at", sa.DateTime(timezone=True), nullable=True),
        sa.Column("cancelled", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_event_schedules")),
    )


def downgrade() -> None:
    op.drop_table("event_schedules")
    op.drop_index(op.f("ix_event_tables_table_id"), table_name="event_tables")
    op.drop_table("event_tables")
    op.drop_index(op.f("ix_event_signups_player_id"), table_name="event_signups")
    op.drop_table("event_signups")
    op.drop_index(op.f("ix_events_status_starts_at"), table_name="events")
    op.drop_table("events")
