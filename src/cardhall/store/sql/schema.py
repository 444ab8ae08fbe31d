"""The store's schema as SQLAlchemy sees it: :data:`metadata`, the tables the Alembic migrations of
``cardhall/store/migrations`` must produce (a test compares them on both databases), and the column type
of times.

- **Columns.** Seeds are ``BIGINT`` (up to ``2**63 - 1``); a table's settings and seats are JSON columns
  (seats as a list of :class:`~cardhall.store.rows.SeatRow` dicts); times are stored in UTC and come back
  timezone-aware in UTC (a naive time given is taken as local time, as ``datetime.astimezone`` does);
  table statuses, rating pools and roles are checked by the database.
- **Indexes.** Actions by table come from their primary key ``(table_id, number)``; tables by
  ``(status, created_at)`` and by ``(node, status)`` (a process's open tables; the sweep's tables of
  no process or of lapsed ones: a table's ``node`` refers to ``nodes``), chat by ``(table_id, id)``,
  ratings by ``(game, pool)``.
- **Social tables** (migration ``0004_social``, nothing of ``players`` changes): a friendship is one
  row ``(low_id, high_id)`` with ``low_id < high_id`` (checked by the database), so two people are
  friends once whoever asked; a request is ``(sender, recipient)``. Invitations are stored as they are
  (not hashed, unlike players' tokens): an invitation opens one table only, every person seated there
  may copy the link again, and the server must give it back to them.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    DateTime,
    Dialect,
    Double,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    TypeDecorator,
    false,
)

from cardhall.store.rows import ABSENCES, RATING_POOLS, ROLES, TABLE_STATUSES
from cardhall.store.sql.dialect import DIALECTS

UNFINISHED = ("waiting", "playing")  # the statuses a restart brings back


class UtcDateTime(TypeDecorator[datetime]):
    """A timezone-aware time, stored in UTC (SQLite keeps it as text without an offset) and returned in
    UTC."""

    impl = DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if DIALECTS[dialect.name].naive_times else value

    def process_result_value(self, value: datetime | None, dialect: Dialect) -> datetime | None:
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


def _in(column: str, values: Sequence[str]) -> str:
    return f"{column} IN ({', '.join(repr(str(v)) for v in values)})"


metadata = MetaData(
    naming_convention={
        "ix": "ix_%(table_name)s_%(column_0_N_name)s",
        "uq": "uq_%(table_name)s_%(column_0_N_name)s",
        "ck": "ck_%(table_name)s_%(constraint_name)s",
        "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
        "pk": "pk_%(table_name)s",
    }
)

PLAYERS = Table(
    "players",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("name", Text, nullable=False),
    Column("token_hash", Text, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("name_key", Text),  # an account's: unique (names.name_key); null for a guest
    Column("password_hash", Text),  # argon2id, in its own encoding; null for a guest
    Index(None, "token_hash", unique=True),
    Index(None, "name_key", unique=True),
)

SESSIONS = Table(
    "sessions",
    metadata,
    Column("token_hash", Text, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("expires_at", UtcDateTime, nullable=False),
    Index(None, "player_id"),
)

TABLES = Table(
    "tables",
    metadata,
    Column("id", Text, primary_key=True),
    Column("game", Text, nullable=False),
    Column("rules_version", Text, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("settings", JSON, nullable=False),
    Column("seats", JSON, nullable=False),
    Column("status", Text, nullable=False),
    Column("owner_id", Integer, ForeignKey("players.id")),
    Column("rematch_of", Text, ForeignKey("tables.id")),
    Column("created_at", UtcDateTime, nullable=False),
    Column("finished_at", UtcDateTime),
    Column("problem", Text),
    Column("fence", BigInteger, nullable=False, server_default="1"),
    Column("node", Text, ForeignKey("nodes.name", ondelete="SET NULL")),  # (see _free)
    Column("play_now", Text),  # made by Play now: its pool's name (its bots' seats are offered)
    CheckConstraint(_in("status", TABLE_STATUSES), name="status"),
    Index(None, "status", "created_at"),
    Index(None, "node", "status"),  # (a renewal: a process's open tables)
)

# One lease per server process of a hall (cardhall.server.cluster.leases): a table whose ``node`` is
# a process with a lease running is that process's; renewing it is one row, whatever the tables.
NODES = Table(
    "nodes",
    metadata,
    Column("name", Text, primary_key=True),
    Column("lease_until", Double, nullable=False),
)

ACTIONS = Table(
    "actions",
    metadata,
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("number", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Integer, nullable=False),
    # Made by the stand-in of the person in ``seat`` (what a match played by a stand-in is counted from:
    # cardhall.server.ratings), kept with the action so a restart or another process counts it too.
    Column("stand_in", Boolean, nullable=False, server_default=false()),
    PrimaryKeyConstraint("table_id", "number"),
)

CHAT = Table(
    "chat",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id")),
    Column("name", Text, nullable=False),
    Column("text", Text, nullable=False),
    Column("at", UtcDateTime, nullable=False),
    Index(None, "table_id", "id"),
)

RESULTS = Table(
    "results",
    metadata,
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("player_id", Integer, ForeignKey("players.id")),
    Column("score", Integer, nullable=False),
    Column("win_share", Double, nullable=False),
    Column("absent", Text),  # his match played by a stand-in: why (rows.ABSENCES), else null
    PrimaryKeyConstraint("table_id", "seat"),
    Index(None, "player_id"),  # (a player's matches: his page, Play now's recent opponents)
    CheckConstraint(_in("absent", ABSENCES), name="absent"),
)

RATINGS = Table(
    "ratings",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("pool", Text, nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("games", Integer, nullable=False),
    PrimaryKeyConstraint("player_id", "game", "pool"),
    CheckConstraint(_in("pool", RATING_POOLS), name="pool"),
    Index(None, "game", "pool"),
)

REVIEWS = Table(
    "reviews",
    metadata,
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("seat", Integer, nullable=False),
    Column("budget", Integer, nullable=False),
    Column("seed", BigInteger, nullable=False),
    Column("review", JSON, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("table_id", "seat"),
)


def social_tables(metadata: MetaData, utc: type) -> dict[str, Table]:
    """The social tables on the store's ``metadata`` (``utc``: its time column type)."""

    def player(name: str, nullable: bool = False) -> Column[int]:
        return Column(name, Integer, ForeignKey("players.id"), nullable=nullable)

    return {
        "private": Table(
            "private_tables",
            metadata,
            Column("table_id", Text, ForeignKey("tables.id"), primary_key=True),
            Column("invitation", Text, nullable=False),
            Column("created_at", utc, nullable=False),
        ),
        "requests": Table(
            "friend_requests",
            metadata,
            player("sender_id"),
            player("recipient_id"),
            Column("created_at", utc, nullable=False),
            PrimaryKeyConstraint("sender_id", "recipient_id"),
            Index(None, "recipient_id"),
        ),
        "friends": Table(
            "friendships",
            metadata,
            player("low_id"),
            player("high_id"),
            Column("since", utc, nullable=False),
            PrimaryKeyConstraint("low_id", "high_id"),
            CheckConstraint("low_id < high_id", name="ordered"),
            Index(None, "high_id"),
        ),
        "blocks": Table(
            "blocks",
            metadata,
            player("blocker_id"),
            player("blocked_id"),
            Column("created_at", utc, nullable=False),
            PrimaryKeyConstraint("blocker_id", "blocked_id"),
            Index(None, "blocked_id"),
        ),
        "roles": Table(
            "roles",
            metadata,
            player("player_id"),
            Column("role", Text, nullable=False),
            Column("granted_at", utc, nullable=False),
            PrimaryKeyConstraint("player_id", "role"),
            CheckConstraint(f"role IN ({', '.join(repr(r) for r in ROLES)})", name="role"),
        ),
        "mutes": Table(
            "chat_mutes",
            metadata,
            player("player_id"),
            Column("until", utc, nullable=False),
            Column("reason", Text, nullable=False),
            player("by_id", nullable=True),
            PrimaryKeyConstraint("player_id"),
        ),
        "bans": Table(
            "bans",
            metadata,
            player("player_id"),
            Column("reason", Text, nullable=False),
            Column("at", utc, nullable=False),
            player("by_id", nullable=True),
            PrimaryKeyConstraint("player_id"),
        ),
        "reports": Table(
            "reports",
            metadata,
            Column("id", Integer, primary_key=True),
            player("reporter_id"),
            Column("line_id", Integer, ForeignKey("chat.id"), nullable=False),
            Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
            player("sender_id", nullable=True),
            Column("sender_name", Text, nullable=False),
            Column("text", Text, nullable=False),
            Column("reason", Text, nullable=False),
            Column("at", utc, nullable=False),
            Index(None, "at"),
        ),
    }


# Private tables, friends, blocks, roles, sanctions and reports (cardhall.store.social).
SOCIAL = social_tables(metadata, UtcDateTime)

# People who left a match (or whose seat a stand-in took when their connection stayed away) during its
# first deal: what Play now counts as a leaver's (cardhall.server.playnow), by player and time.
EARLY_LEAVES = Table(
    "early_leaves",
    metadata,
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("at", UtcDateTime, nullable=False),
    PrimaryKeyConstraint("player_id", "table_id"),
    Index(None, "player_id", "at"),
)

RATING_HISTORY = Table(
    "rating_history",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("game", Text, nullable=False),
    Column("pool", Text, nullable=False),
    Column("mu", Double, nullable=False),
    Column("sigma", Double, nullable=False),
    Column("at", UtcDateTime, nullable=False),
    Index(None, "player_id", "id"),
)

# Tournaments (cardhall.store.events, migration 0012): the event's row (its director's lease in two
# columns), sign-ups, the event's tables, the operator's schedules. Results are the tables' own.
EVENTS = Table(
    "events",
    metadata,
    Column("id", Text, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("game", Text, nullable=False),
    Column("options", JSON, nullable=False),
    Column("status", Text, nullable=False),
    Column("starts_at", UtcDateTime, nullable=False),
    Column("ends_at", UtcDateTime),
    Column("rounds", Integer),
    Column("created_by", Integer, ForeignKey("players.id")),
    Column("token", Text),
    Column("schedule", Text),
    Column("created_at", UtcDateTime, nullable=False),
    Column("director", Text),
    Column("director_until", Double),
    CheckConstraint(_in("kind", ("arena", "duplicate")), name="kind"),
    CheckConstraint(_in("status", ("upcoming", "running", "finished", "cancelled")), name="status"),
    Index(None, "status", "starts_at"),
)

EVENT_SIGNUPS = Table(
    "event_signups",
    metadata,
    Column("event_id", Text, ForeignKey("events.id"), nullable=False),
    Column("player_id", Integer, ForeignKey("players.id"), nullable=False),
    Column("joined_at", UtcDateTime, nullable=False),
    Column("left_at", UtcDateTime),
    PrimaryKeyConstraint("event_id", "player_id"),
    Index(None, "player_id"),
)

EVENT_TABLES = Table(
    "event_tables",
    metadata,
    Column("event_id", Text, ForeignKey("events.id"), nullable=False),
    Column("table_id", Text, ForeignKey("tables.id"), nullable=False),
    Column("round", Integer, nullable=False),
    Column("table_index", Integer, nullable=False),
    Column("rotation", Integer, nullable=False),
    PrimaryKeyConstraint("event_id", "table_id"),
    Index(None, "table_id", unique=True),
)

EVENT_SCHEDULES = Table(
    "event_schedules",
    metadata,
    Column("id", Text, primary_key=True),
    Column("kind", Text, nullable=False),
    Column("game", Text, nullable=False),
    Column("options", JSON, nullable=False),
    Column("rrule", Text, nullable=False),
    Column("lead", Integer, nullable=False),
    Column("dtstart", UtcDateTime, nullable=False),
    Column("next_at", UtcDateTime),
    Column("cancelled", Boolean, nullable=False),
)
