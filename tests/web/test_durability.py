"""A room never diverges from its log: the log is contiguous by construction, a move is kept only once it
is durable, and a storage that fails (on purpose here) leaves every room as the database holds it."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("sqlalchemy")

from polytable.storage import RoomRecord, SeatRecord, StorageConflict, StorageError, open_storage


def _room(code: str) -> RoomRecord:
    return RoomRecord(code, "toy", "1", 2, {"rounds": 3}, 5, (SeatRecord("Ann", "here"), SeatRecord("Bo", "here")))


@pytest.fixture(params=["sqlite", "postgresql"])
def url(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'x.db'}"
    return str(request.getfixturevalue("pg_url"))


def test_the_database_refuses_a_gap_in_a_log_as_it_refuses_a_fork(url: str) -> None:
    store = open_storage(url)
    try:
        store.create_room(_room("AAAAA"))
        store.append_actions("AAAAA", 0, [(0, "1"), (1, "2")], False)
        with pytest.raises(StorageConflict):
            store.append_actions("AAAAA", 3, [(0, "1")], False)  # position 2 would be missing
        with pytest.raises(StorageConflict):
            store.append_actions("AAAAA", 1, [(0, "1")], False)  # position 1 is taken
        store.append_actions("AAAAA", 2, [(0, "3")], False)
        store.truncate_actions("AAAAA", 1)
        with pytest.raises(StorageConflict):
            store.append_actions("AAAAA", 3, [(0, "1")], False)  # after an undo the log ends at 1
        store.append_actions("AAAAA", 1, [(1, "1")], False)
        room = store.load_room("AAAAA")
        assert room is not None and room.actions == [(0, "1"), (1, "1")]
    finally:
        store.close()


def test_in_a_group_commit_only_the_append_that_would_gap_its_log_fails(url: str) -> None:
    store = open_storage(url)
    try:
        for code in ("AAAAA", "BBBBB", "CCCCC"):
            store.create_room(_room(code))
        results = store.batch(
            [
                ("append_actions", ("AAAAA", 0, [(0, "1")], False)),
                ("append_actions", ("BBBBB", 1, [(0, "1")], False, '{"c": 1}')),  # a gap at 0
                ("append_actions", ("CCCCC", 0, [(0, "2")], False, '{"c": 2}')),
            ]
        )
        assert results[0] is None and results[2] is None
        assert isinstance(results[1], StorageConflict)
        a, b, c = (store.load_room(code) for code in ("AAAAA", "BBBBB", "CCCCC"))
        assert a is not None and a.actions == [(0, "1")]
        assert b is not None and b.actions == [] and b.clock is None
        assert c is not None and c.actions == [(0, "2")] and c.clock == '{"c": 2}'
        assert store.batch([("append_actions", ("BBBBB", 0, [(0, "1")], False))]) == [None]
    finally:
        store.close()


# ---------------------------------------------------------------------- rooms on a storage that fails
class _Flaky:
    """A storage that fails on purpose: ``down`` (every read and write raises, a database that is gone) or
    ``lose_answer`` (the next write commits, then raises: the commit's answer was lost)."""

    def __init__(self, url: str) -> None:
        self.inner = open_storage(url)
        self.down = False
        self.lose_answer = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def batch(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
        if self.down:
            raise StorageError("database error: connection refused")
        out = self.inner.batch(ops)
        if self.lose_answer:
            self.lose_answer = False
            raise StorageError("database error: server closed the connection unexpectedly")
        return out

    def load_room(self, code: str, since: int = 0) -> RoomRecord | None:
        if self.down:
            raise StorageError("database error: connection refused")
        return self.inner.load_room(code, since)


def _app(storage: _Flaky) -> Any:
    from starlette.testclient import TestClient

    from polytable.web import Settings, create_app

    return TestClient(create_app(storage, Settings(ai_delay=0.0, rooms_per_minute=1000)))  # type: ignore[arg-type]


def test_a_move_whose_commit_and_reload_fail_waits_for_the_database_and_is_then_refused_not_kept(url: str) -> None:
    from .conftest import error, hello, make_room, state, until

    storage = _Flaky(url)
    with _app(storage) as client:
        room = make_room(client)
        code = room["code"]
        with client.websocket_connect(f"/ws/{code}") as ws, client.websocket_connect(f"/ws/{code}") as other:
            hello(ws, room["tokens"]["0"], room["tokens"]["1"])
            hello(other, room["tokens"]["0"], room["tokens"]["1"])
            first = state(ws)
            state(other)
            seat = first["acting"][0]
            storage.down = True
            ws.send_json({"type": "act", "seat": seat, "version": first["version"], "action": "1"})
            paused = state(other, lambda m: m["paused"])  # the players are told the table is paused
            assert paused["version"] == first["version"] and paused["moves"] == first["moves"]
            other.send_json({"type": "act", "seat": seat, "version": first["version"], "action": "2"})
            refused = error(other)
            assert refused["reason"] == "storage_paused" and refused["code"] == "storage"
            storage.down = False  # the database is back: the waiting move learns it was not made
            seen: dict[str, dict[str, Any]] = {}
            until(ws, lambda m: bool(seen.setdefault(_kind(m), m)) and {"error", "resumed"} <= set(seen))
            assert seen["error"]["reason"] == "move_unsaved"
            again = seen["resumed"]
            assert again["version"] == first["version"] and again["moves"] == first["moves"]
            ws.send_json({"type": "act", "seat": seat, "version": first["version"], "action": "1"})
            after = state(ws, lambda m: m["version"] > first["version"])
            assert after["moves"] > first["moves"]
            stored = storage.inner.load_room(code)
            assert stored is not None and len(stored.actions) == after["moves"]  # memory and log agree


def test_a_move_whose_commit_answer_was_lost_is_acknowledged_once_the_reload_shows_it(url: str) -> None:
    from .conftest import hello, make_room, state, until

    storage = _Flaky(url)
    with _app(storage) as client:
        room = make_room(client)
        code = room["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, room["tokens"]["0"], room["tokens"]["1"])
            first = state(ws)
            seat = first["acting"][0]
            storage.lose_answer = True
            ws.send_json({"type": "act", "seat": seat, "version": first["version"], "action": "1"})
            seen = until(
                ws, lambda m: m["type"] == "error" or (m["type"] == "state" and m["version"] > first["version"])
            )
            assert seen["type"] == "state" and seen["moves"] > first["moves"]  # acknowledged, not refused
            nxt = seen["acting"][0]
            ws.send_json({"type": "act", "seat": nxt, "version": seen["version"], "action": "1"})
            last = state(ws, lambda m: m["version"] > seen["version"])
            stored = storage.inner.load_room(code)
            assert stored is not None and len(stored.actions) == last["moves"]  # one copy of the move, no gap


def _kind(msg: dict[str, Any]) -> str:
    if msg["type"] == "state":
        return "resumed" if not msg["paused"] else "paused"
    return str(msg["type"])


def test_a_room_changed_elsewhere_while_it_is_being_loaded_is_read_again() -> None:
    """Another process's change announced while this one reads the room (from before that change) is not
    lost: the room is read again once loaded, so it does not stay at the older version."""
    import asyncio
    import threading

    from polytable.web import Hub, Settings

    class Slow(_Flaky):
        def __init__(self) -> None:
            super().__init__("sqlite://")
            self.hold = threading.Event()
            self.reading = threading.Event()

        def load_room(self, code: str, since: int = 0) -> RoomRecord | None:
            record = self.inner.load_room(code, since)
            if not self.hold.is_set():
                self.reading.set()
                self.hold.wait(5)
            return record

    from polytable.match import Match

    dealt = Match("toy", {"rounds": 3}, 2, 5)
    dealt.resolve_chance()
    storage = Slow()
    storage.inner.create_room(replace(_room("ABCDE"), actions=[(e.player, e.action) for e in dealt.log]))

    async def run() -> int:
        hub = Hub(storage, Settings(ai_delay=0.0))  # type: ignore[arg-type]
        loading = asyncio.ensure_future(hub.get("ABCDE"))
        while not storage.reading.is_set():
            await asyncio.sleep(0.01)
        storage.inner.append_actions("ABCDE", 1, [(0, "1")], False)  # another process moves meanwhile
        hub.remote_change("ABCDE", 2)
        storage.hold.set()
        room = await loading
        assert room is not None
        hub.close()
        return len(room.match.log)

    assert asyncio.run(run()) == 2


def test_a_connection_the_database_dropped_is_replaced_without_failing_the_write(pg_url: str) -> None:
    """After a database restart every pooled connection is dead; the first statement finds it, and the
    transaction (nothing of it committed) runs again on a new connection instead of failing."""
    import uuid

    from sqlalchemy import create_engine, text

    name = f"pt_drop_{uuid.uuid4().hex[:12]}"  # only this test's own connections are dropped
    store = open_storage(f"{pg_url}&application_name={name}")
    try:
        store.create_room(_room("AAAAA"))
        admin = create_engine(pg_url.split("?")[0])
        with admin.begin() as conn:  # what a restart does to this process's connections
            dropped = conn.execute(
                text("SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE application_name = :n"),
                {"n": name},
            ).scalar()
        admin.dispose()
        assert dropped
        assert store.batch([("append_actions", ("AAAAA", 0, [(0, "1")], False))]) == [None]
        record = store.load_room("AAAAA")
        assert record is not None and record.actions == [(0, "1")]
    finally:
        store.close()


def test_an_ai_seat_whose_move_was_not_saved_plays_again_once_the_database_takes_it(url: str) -> None:
    import time

    storage = _Flaky(url)
    storage.down = True
    with _app(storage) as client:
        storage.down = False
        seats = [{"kind": "ai", "ai": "random"}, {"kind": "ai", "ai": "random"}]
        body = {"game": "toy", "players": 2, "seed": 3, "options": {"rounds": 2}, "seats": seats}
        fails = {"left": 1}
        real = storage.inner.batch

        def once(ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
            if fails["left"] and any(op == "append_actions" for op, _ in ops):
                fails["left"] -= 1
                raise StorageError("database error: the disk is full")
            return real(ops)

        storage.inner.batch = once  # type: ignore[method-assign]
        r = client.post("/api/rooms", json=body)
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and not client.get(f"/api/rooms/{code}").json()["over"]:
            time.sleep(0.1)
        assert fails["left"] == 0  # the failure happened, and the AIs played the game to its end anyway
        assert client.get(f"/api/rooms/{code}").json()["over"]


def test_a_room_nobody_here_uses_is_let_go_when_another_process_changes_it(tmp_path: Path) -> None:
    """A room made through this process and played through another is not held here: the other process's
    change lets it go (it is read from the database when someone asks for it, with that change); a room
    still in use here is only marked to be reloaded."""
    import asyncio

    from polytable.web import Hub, Settings

    storage = open_storage(f"sqlite:///{tmp_path / 'x.db'}")

    async def run() -> None:
        hub = Hub(storage, Settings(ai_delay=0.0))
        room, _ = await hub.create({"game": "toy", "players": 2})
        start, seat = len(room.match.log), room.acting()[0]
        move = room.machine.legal_actions(seat)[0][0]
        storage.append_actions(room.code, start, [(seat, move)], False)  # the other process's move
        hub.remote_change(room.code, room.version + 1)
        assert room.code not in hub.rooms
        again = await hub.get(room.code)
        assert again is not None and again is not room
        assert [(e.player, e.action) for e in again.match.log][start] == (seat, move)
        async with again.lock:  # a change being made here: the room stays, marked to be read again
            hub.remote_change(again.code, again.version)
            assert hub.rooms.get(again.code) is again and again.behind
        hub.close()

    asyncio.run(run())


def test_a_restarted_process_announces_the_rooms_it_resumes(tmp_path: Path) -> None:
    """kill -9 between a commit and its publish: the move is in the database but no other process heard of
    it, and a room watched there would wait for a move already made. The restarted process announces every
    room it resumes as the database holds it, so the others catch up (seen as a stuck room by the chaos
    suite's kill -9 fault)."""
    import asyncio

    from polytable.web import Hub, Settings
    from polytable.web._bus import LocalBroadcaster

    class Recorder(LocalBroadcaster):
        def __init__(self) -> None:
            self.remote: list[tuple[str, int]] = []

        def changed(self, room: Any, remote: bool = True) -> None:
            super().changed(room, remote)
            if remote:
                self.remote.append((room.code, room.version))

    storage = open_storage(f"sqlite:///{tmp_path / 'x.db'}")

    async def run() -> None:
        first = Hub(storage, Settings(ai_delay=0.0))
        room, _ = await first.create({"game": "toy", "players": 2})
        start, seat = len(room.match.log), room.acting()[0]
        move = room.machine.legal_actions(seat)[0][0]
        storage.append_actions(room.code, start, [(seat, move)], False)  # committed, never published
        first.close()
        recorder = Recorder()
        restarted = Hub(open_storage(f"sqlite:///{tmp_path / 'x.db'}"), Settings(ai_delay=0.0), recorder)
        assert await restarted.resume_all() == 1
        resumed = restarted.rooms[room.code]
        assert [(e.player, e.action) for e in resumed.match.log][start] == (seat, move)
        assert (room.code, resumed.version) in recorder.remote and resumed.version > room.version
        restarted.close()

    asyncio.run(run())
