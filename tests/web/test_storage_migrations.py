"""Migrations and conflicts: a database made by an older polytable is upgraded with its rooms intact, and a
write that loses a race raises StorageConflict (what a second server process sees)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from polytable.storage import SeatRecord, StorageConflict, open_storage, redact_url
from polytable.storage._migrate import current_revision
from polytable.storage._schema import HEAD

from .test_storage import _room

OLD_SCHEMA = """
CREATE TABLE pt_rooms (code VARCHAR(16) NOT NULL, game VARCHAR(64) NOT NULL, rules_version VARCHAR(32) NOT NULL,
    players INTEGER NOT NULL, options TEXT NOT NULL, seed VARCHAR(40) NOT NULL, mode VARCHAR(16) NOT NULL,
    created FLOAT NOT NULL, finished BOOLEAN NOT NULL, undone INTEGER NOT NULL, PRIMARY KEY (code));
CREATE TABLE pt_seats (room VARCHAR(16) NOT NULL, seat INTEGER NOT NULL, name VARCHAR(64) NOT NULL,
    kind VARCHAR(16) NOT NULL, ai VARCHAR(64), token_hash VARCHAR(64) NOT NULL, PRIMARY KEY (room, seat),
    FOREIGN KEY(room) REFERENCES pt_rooms (code));
CREATE TABLE pt_actions (room VARCHAR(16) NOT NULL, pos INTEGER NOT NULL, player INTEGER NOT NULL,
    action TEXT NOT NULL, PRIMARY KEY (room, pos), FOREIGN KEY(room) REFERENCES pt_rooms (code));
INSERT INTO pt_rooms VALUES ('OLD22', 'toy', '1', 2, '{"rounds": 3}', '12345', 'play', 1700000000.0, FALSE, 0);
INSERT INTO pt_seats VALUES ('OLD22', 0, 'Ann', 'here', NULL, 'aaaa');
INSERT INTO pt_seats VALUES ('OLD22', 1, 'Bot', 'ai', 'random', '');
INSERT INTO pt_actions VALUES ('OLD22', 0, -1, '2');
INSERT INTO pt_actions VALUES ('OLD22', 1, 0, '1');
"""
"""The tables exactly as polytable made them before migrations existed (SQLAlchemy's create_all)."""


def test_a_database_from_before_migrations_is_upgraded_with_its_rooms(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    with sqlite3.connect(path) as conn:
        conn.executescript(OLD_SCHEMA)
    store = open_storage(f"sqlite:///{path}")
    assert current_revision(store.engine) == HEAD
    room = store.load_room("OLD22")
    assert room is not None and room.actions == [(-1, "2"), (0, "1")] and room.options == {"rounds": 3}
    store.append_actions("OLD22", 2, [(1, "3")], False)
    with sqlite3.connect(path) as conn:
        updated = conn.execute("SELECT created, updated FROM pt_rooms WHERE code = 'OLD22'").fetchone()
    assert updated[1] > updated[0] == 1700000000.0  # the new column was filled, then kept current
    store.close()
    again = open_storage(f"sqlite:///{path}")  # opening an up-to-date database changes nothing
    assert current_revision(again.engine) == HEAD
    loaded = again.load_room("OLD22")
    assert loaded is not None and len(loaded.actions) == 3
    again.close()


def test_a_new_database_starts_at_the_newest_revision(tmp_path: Path) -> None:
    store = open_storage(f"sqlite:///{tmp_path / 'new.db'}")
    assert current_revision(store.engine) == HEAD
    store.close()


def test_lost_races_raise_storage_conflict() -> None:
    store = open_storage("sqlite://")
    store.create_room(_room())
    store.append_actions("ABCDE", 0, [(-1, "2"), (0, "1")], False)
    with pytest.raises(StorageConflict):
        store.append_actions("ABCDE", 1, [(1, "3")], False)
    with pytest.raises(StorageConflict):
        store.truncate_actions("ABCDE", 1, expected=3)  # the log is 2 long, not 3: someone else changed it
    assert store.load_room("ABCDE").actions == [(-1, "2"), (0, "1")]  # type: ignore[union-attr]
    store.truncate_actions("ABCDE", 1, expected=2)
    taken = SeatRecord("Eve", "invite", None, "e" * 64)
    store.set_seat("ABCDE", 1, taken, expected_hash="")
    with pytest.raises(StorageConflict):
        store.set_seat("ABCDE", 1, SeatRecord("Mal", "invite", None, "m" * 64), expected_hash="")
    assert store.load_room("ABCDE").seats[1] == taken  # type: ignore[union-attr]
    store.close()


def test_a_database_url_is_shown_without_its_password() -> None:
    shown = redact_url("postgresql+psycopg://app:s3cret@db.example:5432/polytable")
    assert "s3cret" not in shown and "app:***@db.example" in shown
    assert "nope" not in redact_url("::nope::")
