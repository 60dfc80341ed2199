"""Bring a database's tables to the newest schema with Alembic, whatever version made them.

A database made before migrations existed has the first schema's tables and no version table: it is
stamped as revision 0001 and upgraded from there, so an old ``polytable.db`` keeps its rooms. On
PostgreSQL an advisory lock makes several server processes starting at once migrate one after another.
"""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy import inspect, text
from sqlalchemy.engine import Connection, Engine

from ._schema import VERSION_TABLE

__all__ = ["current_revision", "upgrade"]

MIGRATIONS = Path(__file__).parent / "migrations"
_LOCK_KEY = 0x706F6C79  # any fixed number: "poly"


def _config(conn: Connection) -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    cfg.attributes["connection"] = conn
    return cfg


def upgrade(engine: Engine, revision: str = "head") -> None:
    """Migrate the tables to ``revision`` (the newest by default) in one transaction where the database
    allows it."""
    with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": _LOCK_KEY})
        names = set(inspect(conn).get_table_names())
        cfg = _config(conn)
        if "pt_rooms" in names and VERSION_TABLE not in names:
            command.stamp(cfg, "0001")  # made by a version before migrations: it has the first schema
        command.upgrade(cfg, revision)


def current_revision(engine: Engine) -> str | None:
    """The revision the database is at (None before any migration)."""
    with engine.connect() as conn:
        if VERSION_TABLE not in inspect(conn).get_table_names():
            return None
        row = conn.execute(text(f"SELECT version_num FROM {VERSION_TABLE}")).first()
        return None if row is None else str(row[0])
