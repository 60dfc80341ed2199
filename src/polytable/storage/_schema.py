"""The tables, as the newest migration leaves them (the migrations in ``migrations/`` make them so).

Three tables: ``pt_rooms`` (one row per room: game, config, seed), ``pt_seats`` and ``pt_actions`` (the
log, one row per action, primary key ``(room, pos)`` so a log can never fork). A room's ``length`` is
the position its next append must use, checked and moved in the append's own transaction, so a log never
has a gap either: that check is what keeps two server processes from both extending one room's log.
"""

from __future__ import annotations

from sqlalchemy import Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text

__all__ = ["HEAD", "VERSION_TABLE", "actions", "metadata", "rooms", "seats"]

HEAD = "0004"
"""The newest migration (``migrations/versions``); a database at an older one is upgraded on opening."""
VERSION_TABLE = "pt_schema_version"
"""Alembic's bookkeeping table, named for this project so a shared database holds no clash."""

metadata = MetaData()
rooms = Table(
    "pt_rooms",
    metadata,
    Column("code", String(16), primary_key=True),
    Column("game", String(64), nullable=False),
    Column("rules_version", String(32), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),
    Column("seed", String(40), nullable=False),  # text: seeds are Python ints of any size
    Column("mode", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("finished", Boolean, nullable=False, default=False),
    Column("undone", Integer, nullable=False, default=0),  # actions ever taken back: keeps versions unique
    Column("updated", Float, nullable=True),  # when the room last changed (0002)
    Column("clock", Text, nullable=True),  # the time control and clocks as JSON, None without one (0003)
    Column("rematch", String(16), nullable=True),  # the code of the room that replays this one (0003)
    Column("length", Integer, nullable=False, default=0),  # entries in the log: the next append's position (0004)
)
seats = Table(
    "pt_seats",
    metadata,
    Column("room", String(16), ForeignKey("pt_rooms.code"), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("name", String(64), nullable=False),
    Column("kind", String(16), nullable=False),
    Column("ai", String(64), nullable=True),
    Column("token_hash", String(64), nullable=False),
)
actions = Table(
    "pt_actions",
    metadata,
    Column("room", String(16), ForeignKey("pt_rooms.code"), primary_key=True),
    Column("pos", Integer, primary_key=True),
    Column("player", Integer, nullable=False),
    Column("action", Text, nullable=False),
)
