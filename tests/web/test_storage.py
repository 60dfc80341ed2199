"""The SQL storage: rooms, seats and append-only logs that cannot fork."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("sqlalchemy")

from polytable.storage import RoomRecord, SeatRecord, StorageError, open_storage


def _room(code: str = "ABCDE") -> RoomRecord:
    seats = (SeatRecord("Ann", "here", None, "h" * 64), SeatRecord("Bot", "ai", "random"))
    return RoomRecord(code, "toy", "1", 2, {"rounds": 3}, 2**62 + 5, seats)


def test_round_trip_append_truncate_and_no_fork(tmp_path: Path) -> None:
    store = open_storage(f"sqlite:///{tmp_path / 'x.db'}")
    store.create_room(_room())
    with pytest.raises(StorageError):
        store.create_room(_room())
    store.append_actions("ABCDE", 0, [(-1, "2"), (0, "1")], False)
    with pytest.raises(StorageError):
        store.append_actions("ABCDE", 1, [(1, "3")], False)  # position 1 is taken: a log never forks
    store.append_actions("ABCDE", 2, [(1, "3")], True)
    assert store.list_rooms(unfinished_only=True) == []
    store.truncate_actions("ABCDE", 2)
    store.set_seat("ABCDE", 1, SeatRecord("Eve", "invite", None, "t" * 64))
    with pytest.raises(StorageError):
        store.set_seat("ABCDE", 7, SeatRecord("Eve", "invite"))
    store.close()
    again = open_storage(f"sqlite:///{tmp_path / 'x.db'}")  # what a restarted server sees
    room = again.load_room("ABCDE")
    assert room is not None
    assert room.actions == [(-1, "2"), (0, "1")] and room.undone == 1 and not room.finished
    assert room.seed == 2**62 + 5 and room.options == {"rounds": 3}
    assert room.seats[1] == SeatRecord("Eve", "invite", None, "t" * 64)
    assert again.load_room("NOPE1") is None and not again.room_exists("NOPE1")
    assert again.list_rooms() == ["ABCDE"]


def test_a_bad_url_is_a_storage_error() -> None:
    with pytest.raises(StorageError):
        open_storage("nosuchdb://x")


def test_a_batch_of_appends_for_many_rooms_and_a_partial_read(tmp_path: Path) -> None:
    store = open_storage(f"sqlite:///{tmp_path / 'x.db'}")
    for code in ("AAAAA", "BBBBB", "CCCCC"):
        store.create_room(_room(code))
    store.append_actions("CCCCC", 0, [(0, "1")], False)
    results = store.batch(
        [
            ("append_actions", ("AAAAA", 0, [(-1, "2"), (0, "1")], False)),
            ("append_actions", ("BBBBB", 0, [(0, "3")], True, '{"clock": 1}')),
            ("append_actions", ("CCCCC", 0, [(1, "2")], False)),  # position 0 is taken: only this one fails
            ("set_rematch", ("BBBBB", "DDDDD")),
        ]
    )
    assert results[0] is None and results[1] is None and results[3] is None
    assert isinstance(results[2], StorageError)
    a, b, c = (store.load_room(code) for code in ("AAAAA", "BBBBB", "CCCCC"))
    assert a is not None and a.actions == [(-1, "2"), (0, "1")] and not a.finished and a.clock is None
    assert b is not None and b.actions == [(0, "3")] and b.finished and b.clock == '{"clock": 1}'
    assert b.rematch == "DDDDD"
    assert c is not None and c.actions == [(0, "1")]
    tail = store.load_room("AAAAA", since=1)  # a reload reads only the entries it lacks
    assert tail is not None and tail.actions == [(0, "1")] and tail.actions_from == 1
    store.close()
