"""Durable storage of rooms and their action logs (the web server's only persistent state).

Why an action log and not states: a game replays exactly from (game, rules version, config, seed, actions),
so the log is the smallest complete record, is append-only (cheap to commit before anyone is told), and a
room is rebuilt after any crash with :meth:`polytable.match.Match.replay`. The storage protocol is small so
other backends (PostgreSQL through the same SQLAlchemy code, or anything else) slot in.
"""

from ._protocol import RoomRecord, SeatRecord, Storage, StorageConflict, StorageError
from ._sql import SqlStorage, open_storage, redact_url

__all__ = [
    "RoomRecord",
    "SeatRecord",
    "SqlStorage",
    "Storage",
    "StorageConflict",
    "StorageError",
    "open_storage",
    "redact_url",
]
