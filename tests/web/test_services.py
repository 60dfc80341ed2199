"""PostgreSQL and Redis: the storage on a real PostgreSQL (migrations, races), and two server apps on one
database sharing rooms live through Redis pub/sub. Skipped where the services do not run (failed instead
with POLYTABLE_REQUIRE_SERVICES=1, as in CI)."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from contextlib import ExitStack
from dataclasses import replace
from typing import Any

import pytest
from sqlalchemy import create_engine, text
from starlette.testclient import TestClient

from polytable.storage import SeatRecord, StorageConflict, open_storage, redact_url
from polytable.storage._migrate import current_revision
from polytable.storage._schema import HEAD
from polytable.web import Settings, create_app
from polytable.web._pubsub import RedisBroadcaster

from .conftest import REDIS_URL, hello, make_room, state, until
from .test_storage import _room
from .test_storage_migrations import OLD_SCHEMA


def test_postgres_storage_round_trip_and_conflicts(pg_url: str) -> None:
    store = open_storage(pg_url)
    assert current_revision(store.engine) == HEAD
    store.create_room(_room())
    with pytest.raises(StorageConflict):
        store.create_room(_room())
    store.append_actions("ABCDE", 0, [(-1, "2"), (0, "1")], False)
    with pytest.raises(StorageConflict):
        store.append_actions("ABCDE", 1, [(1, "3")], False)
    results = store.batch(
        [("append_actions", ("ABCDE", 2, [(1, "3")], True)), ("append_actions", ("ABCDE", 0, [], False))]
    )
    assert results[0] is None
    with pytest.raises(StorageConflict):
        store.set_seat("ABCDE", 0, SeatRecord("Eve", "here", None, "e" * 64), expected_hash="")
    room = store.load_room("ABCDE")
    assert room is not None and room.actions == [(-1, "2"), (0, "1"), (1, "3")] and room.seed == 2**62 + 5
    store.ping()
    store.close()


def test_postgres_appends_and_reads_in_one_statement_refuse_a_gap_and_survive_a_lost_connection(
    pg_url: str,
) -> None:
    store = open_storage(pg_url)
    for code in ("AAAAA", "BBBBB", "CCCCC"):
        store.create_room(_room(code))
    store.append_actions("CCCCC", 0, [(0, "1")], False, '{"c": 0}')
    results = store.batch(
        [
            ("append_actions", ("AAAAA", 0, [(-1, "2"), (0, "1")], False)),
            ("append_actions", ("BBBBB", 0, [(0, "3")], True, '{"c": 1}')),
            ("append_actions", ("CCCCC", 2, [(1, "2")], False)),  # the log is 1 long: a gap is refused
        ]
    )
    assert results[:2] == [None, None] and isinstance(results[2], StorageConflict)
    a, b, c = (store.load_room(code) for code in ("AAAAA", "BBBBB", "CCCCC"))
    assert a is not None and a.actions == [(-1, "2"), (0, "1")] and not a.finished and a.clock is None
    assert b is not None and b.actions == [(0, "3")] and b.finished and b.clock == '{"c": 1}'
    assert c is not None and c.actions == [(0, "1")] and c.clock == '{"c": 0}'  # untouched, clock kept
    # The database ends the connection kept for appends (as a restart does): the next batch is not lost.
    kept = store._direct.conn if store._direct is not None else None
    assert kept is not None
    with store.engine.begin() as conn:
        ended = conn.execute(text("SELECT pg_terminate_backend(:pid)"), {"pid": kept.info.backend_pid}).scalar()
    assert ended
    time.sleep(0.2)
    assert store.batch(
        [("append_actions", ("AAAAA", 2, [(1, "4")], False)), ("append_actions", ("CCCCC", 1, [(1, "5")], False))]
    ) == [None, None]
    a = store.load_room("AAAAA")
    assert a is not None and a.actions == [(-1, "2"), (0, "1"), (1, "4")]
    assert store._direct is not None and store._direct.conn not in (None, kept)  # on a new connection
    # Read in one statement: the seats in order, the log from a position on, a hole found.
    assert a.seats == _room("AAAAA").seats and a.seed == 2**62 + 5 and a.options == {"rounds": 3}
    tail = store.load_room("AAAAA", since=1)
    assert tail is not None and tail.actions == [(0, "1"), (1, "4")] and tail.actions_from == 1
    with store.engine.begin() as conn:
        conn.execute(text("DELETE FROM pt_actions WHERE room = 'AAAAA' AND pos = 1"))
    damaged = store.load_room("AAAAA")
    assert damaged is not None and damaged.damage is not None and "position 1" in damaged.damage
    assert store.load_room("NOPE1") is None
    store.close()


def test_postgres_new_rooms_go_with_the_appends_in_one_statement(pg_url: str) -> None:
    store = open_storage(pg_url)
    store.create_room(_room("AAAAA"))
    dealt = replace(_room("BBBBB"), actions=[(-1, "4"), (-1, "2")], clock='{"c": 2}', created=12.5)
    slow = store._do

    def not_here(*args: Any, **kwargs: Any) -> Any:
        pytest.fail("the batch left the kept connection")

    store._do = not_here  # type: ignore[method-assign]
    results = store.batch(
        [
            ("create_room", (dealt,)),
            ("append_actions", ("AAAAA", 0, [(-1, "2"), (0, "1")], False)),
            ("create_room", (_room("CCCCC"),)),
        ]
    )
    assert results == [None, None, None]
    store._do = slow  # type: ignore[method-assign]
    b = store.load_room("BBBBB")
    assert b is not None and b.actions == [(-1, "4"), (-1, "2")] and b.clock == '{"c": 2}' and b.created == 12.5
    assert b.seats == dealt.seats and b.seed == dealt.seed and b.options == dealt.options and not b.finished
    store.append_actions("BBBBB", 2, [(0, "3")], False)  # the stored length is the opening log's
    with pytest.raises(StorageConflict):
        store.append_actions("BBBBB", 2, [(1, "3")], False)
    c = store.load_room("CCCCC")
    assert c is not None and c.actions == [] and c.seats == _room("CCCCC").seats
    # A code already taken fails the statement: that write alone is refused, the others are made.
    results = store.batch(
        [
            ("create_room", (_room("CCCCC"),)),
            ("create_room", (_room("DDDDD"),)),
            ("append_actions", ("AAAAA", 2, [(1, "5")], True)),
        ]
    )
    assert isinstance(results[0], StorageConflict) and results[1:] == [None, None]
    a, d = store.load_room("AAAAA"), store.load_room("DDDDD")
    assert a is not None and a.actions == [(-1, "2"), (0, "1"), (1, "5")] and a.finished
    assert d is not None and d.seats == _room("DDDDD").seats
    with pytest.raises(StorageConflict):  # alone, a taken code is a conflict, as on SQLAlchemy's path
        store.batch([("create_room", (_room("DDDDD"),))])
    store.close()


def test_postgres_one_statement_keeps_any_text_and_every_digit(pg_url: str) -> None:
    """The one-statement path sends its rows as JSON texts: every character an action, a seat name or a
    clock may hold comes back as it was, and a creation time keeps every digit."""
    store = open_storage(pg_url)
    odd = "a,b \"c\" \\d {e} [f] 'g' null é 🂡 \t"
    seats = (SeatRecord(odd, "here", None, "h" * 64), SeatRecord("Bot", "ai", "random"))
    made = replace(_room("EEEEE"), seats=seats, actions=[(-1, odd)], clock=odd, created=1733400000.123456789)
    store.create_room(_room("FFFFF"))
    both = [("create_room", (made,)), ("append_actions", ("FFFFF", 0, [(0, odd), (1, "")], True, odd))]
    assert store.batch(both) == [None, None]
    assert store.batch([("append_actions", ("EEEEE", 1, [(0, odd)], False))]) == [None]
    e, f = store.load_room("EEEEE"), store.load_room("FFFFF")
    assert e is not None and e.actions == [(-1, odd), (0, odd)] and e.clock == odd and e.seats == seats
    assert e.created == 1733400000.123456789 and e.seed == 2**62 + 5
    assert f is not None and f.actions == [(0, odd), (1, "")] and f.clock == odd and f.finished
    store.close()


def test_postgres_database_from_before_migrations_is_upgraded(pg_url: str) -> None:
    engine = create_engine(pg_url)
    with engine.begin() as conn:
        for statement in OLD_SCHEMA.split(";"):
            if statement.strip():
                conn.execute(text(statement))
    engine.dispose()
    store = open_storage(pg_url)
    assert current_revision(store.engine) == HEAD
    room = store.load_room("OLD22")
    assert room is not None and room.actions == [(-1, "2"), (0, "1")]
    store.close()


def _app(url: str, channel: str | None) -> TestClient:
    broadcaster = RedisBroadcaster(REDIS_URL, channel) if channel else None
    settings = Settings(ai_delay=0.0, rooms_per_minute=1000, standby_ai=0.5)
    return TestClient(create_app(url, settings, broadcaster=broadcaster))


@pytest.fixture
def two(pg_url: str, redis_channel: str) -> Iterator[tuple[TestClient, TestClient]]:
    with ExitStack() as stack:
        a = stack.enter_context(_app(pg_url, redis_channel))
        b = stack.enter_context(_app(pg_url, redis_channel))
        yield a, b


def test_a_move_through_one_process_reaches_the_clients_of_the_other(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    room = make_room(a)
    code, t0, t1 = room["code"], room["tokens"]["0"], room["tokens"]["1"]
    with a.websocket_connect(f"/ws/{code}") as wa, b.websocket_connect(f"/ws/{code}") as wb:
        hello(wa, t0)
        hello(wb, t1)
        v = state(wa)["version"]
        state(wb)
        for _ in range(3):  # whole rounds, each seat on its own process
            wa.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
            wb.send_json({"type": "act", "seat": 1, "version": v, "action": "2"})
            later = state(wb, lambda m, v=v: m["version"] >= v + 3 or m["over"])
            seen_a = state(wa, lambda m, later=later: m["version"] == later["version"])
            assert seen_a["mine"]["0"]["view"] is not None
            if later["over"]:
                break
            v = later["version"]
        assert later["over"]
        assert (
            b.get(f"/api/rooms/{code}/record").json()["actions"] == a.get(f"/api/rooms/{code}/record").json()["actions"]
        )


def test_a_seat_taken_through_one_process_is_taken_on_the_other(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    room = make_room(a, seats=[{"kind": "here"}, {"kind": "invite"}])
    code = room["code"]
    assert a.get(f"/api/rooms/{code}").json()["seats"][1]["open"]
    assert b.get(f"/api/rooms/{code}").json()["seats"][1]["open"]  # both processes hold the room now
    assert b.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Bea"}).status_code == 200
    for _ in range(100):
        seat = a.get(f"/api/rooms/{code}").json()["seats"][1]
        if not seat["open"]:
            break
        time.sleep(0.02)
    assert seat["name"] == "Bea" and not seat["open"]
    taken = a.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Eve"})
    assert taken.status_code == 409 and taken.json()["reason"] == "seat_taken"


def test_a_move_reaches_the_other_process_quickly(two: tuple[TestClient, TestClient]) -> None:
    a, b = two
    room = make_room(a, players=1, seats=[{"kind": "here"}], options={"rounds": 5})
    code, token = room["code"], room["tokens"]["0"]
    with a.websocket_connect(f"/ws/{code}") as wa, b.websocket_connect(f"/ws/{code}") as watcher:
        hello(wa, token)
        hello(watcher)
        v = state(wa)["version"]
        state(watcher, lambda m: m["version"] == v)
        start = time.monotonic()
        wa.send_json({"type": "act", "seat": 0, "version": v, "action": "3"})
        state(watcher, lambda m: m["version"] > v)
        assert time.monotonic() - start < 2.0  # a generous bound for a loaded test machine; see the benchmark


def test_the_process_that_loses_a_race_replays_a_move_that_is_still_legal(pg_url: str) -> None:
    # No pub/sub: process b does not hear of a's move, so its own write collides with a's at the same position.
    with _app(pg_url, None) as a, _app(pg_url, None) as b:
        room = make_room(a)
        code, t0, t1 = room["code"], room["tokens"]["0"], room["tokens"]["1"]
        with a.websocket_connect(f"/ws/{code}") as wa, b.websocket_connect(f"/ws/{code}") as wb:
            hello(wa, t0)
            hello(wb, t1)
            v = state(wa)["version"]
            state(wb)
            wa.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
            state(wa, lambda m: m["version"] == v + 1)
            wb.send_json({"type": "act", "seat": 1, "version": v, "action": "2"})  # b still thinks it is v
            after = state(wb, lambda m: m["version"] >= v + 2)
            assert after["mine"]["1"]["view"]["scores"] != [0, 0]  # both choices counted: b replayed its move
    db = open_storage(pg_url)
    stored = db.load_room(code)
    db.close()
    assert stored is not None
    assert [(p, act) for p, act in stored.actions if p >= 0][:2] == [(0, "1"), (1, "2")]  # both kept, in order


def test_a_move_that_lost_its_race_and_no_longer_fits_gets_a_translated_message(pg_url: str) -> None:
    with _app(pg_url, None) as a, _app(pg_url, None) as b:
        room = make_room(a, players=1, seats=[{"kind": "here"}], options={"rounds": 1})
        code, token = room["code"], room["tokens"]["0"]
        with a.websocket_connect(f"/ws/{code}") as wa, b.websocket_connect(f"/ws/{code}") as wb:
            hello(wa, token)
            hello(wb, token)
            v = state(wa)["version"]
            state(wb)
            wa.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
            assert state(wa, lambda m: m["version"] > v)["over"]
            wb.send_json({"type": "act", "seat": 0, "version": v, "action": "3"})
            seen: list[dict[str, Any]] = []
            err = until(wb, lambda m: seen.append(m) is None and m["type"] == "error")
            assert err["reason"] == "move_conflict" and err["code"] == "stale"
            assert seen[-2]["type"] == "state" and seen[-2]["over"]  # b reloaded and shows what a played


def test_redis_urls_are_logged_without_their_password() -> None:
    assert redact_url("redis://:hunter2@cache:6379/0") == "redis://:***@cache:6379/0"
    assert "pw" not in redact_url("redis://user:pw@cache:6379/1")
    assert redact_url("redis://cache:6379/0") == "redis://cache:6379/0"


def _count_loads(app: TestClient) -> list[int]:
    """Record the ``since`` of every room load the app's storage serves (the position its read starts at)."""
    storage = app.app.state.hub.storage  # type: ignore[attr-defined]
    calls: list[int] = []
    original = storage.load_room

    def load_room(code: str, since: int = 0) -> Any:
        calls.append(since)
        return original(code, since)

    storage.load_room = load_room
    return calls


def test_the_other_process_reads_only_new_entries_and_only_for_rooms_it_watches(
    two: tuple[TestClient, TestClient],
) -> None:
    a, b = two
    room = make_room(a, players=1, seats=[{"kind": "here"}], options={"rounds": 5})
    code, token = room["code"], room["tokens"]["0"]
    quiet = make_room(a, players=1, seats=[{"kind": "here"}], options={"rounds": 5})
    start = b.get(f"/api/rooms/{quiet['code']}").json()["version"]  # b holds it now; nobody watches it there
    with a.websocket_connect(f"/ws/{code}") as wa, b.websocket_connect(f"/ws/{code}") as watcher:
        hello(wa, token)
        hello(watcher)
        v = state(wa)["version"]
        state(watcher, lambda m: m["version"] == v)
        loads = _count_loads(b)
        before: list[int] = []
        for _ in range(3):
            before.append(v)
            wa.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})
            v = state(wa, lambda m, v=v: m["version"] > v)["version"]
            assert state(watcher, lambda m, v=v: m["version"] == v)["mine"] == {}
        with a.websocket_connect(f"/ws/{quiet['code']}") as wq:
            hello(wq, quiet["tokens"]["0"])
            qv = state(wq)["version"]
            assert qv == start
            wq.send_json({"type": "act", "seat": 0, "version": qv, "action": "1"})
            qv = state(wq, lambda m: m["version"] > qv)["version"]
    assert loads == [n - 1 for n in before]  # one read a change, from the last entry b had (to check it) on
    watched_loads = len(loads)
    time.sleep(0.3)  # the quiet room's change has reached b by now, and was not read there
    assert len(loads) == watched_loads
    assert b.get(f"/api/rooms/{quiet['code']}").json()["version"] == qv  # read when it is used again
    assert len(loads) == watched_loads + 1


def test_pubsub_messages_carry_many_changes_and_older_single_change_messages_are_understood() -> None:
    broadcaster = RedisBroadcaster(REDIS_URL, "unused")
    heard: list[tuple[str, int]] = []

    def on_remote(code: str, version: int) -> None:
        heard.append((code, version))

    def deliver(data: object) -> None:
        broadcaster._deliver({"type": "message", "data": data}, on_remote)

    deliver('{"o": "other", "r": [["AAAAA", 3], ["BBBBB", 7]]}')
    deliver('{"c": "CCCCC", "v": 2, "o": "other"}')  # a process of an earlier version
    deliver(f'{{"o": "{broadcaster.origin}", "r": [["DDDDD", 1]]}}')  # this process's own message
    own = json.dumps({"o": broadcaster.origin, "r": [["EEEEE", 1]]}, separators=(",", ":")).encode()
    deliver(own)  # as this process sends it and Redis hands it back: dropped before it is parsed
    deliver(b'{"o":"' + broadcaster.origin.encode() + b'0","r":[["FFFFF",4]]}')  # another origin it begins
    for bad in ("not json", "[1, 2]", '{"o": "x", "r": [["A"]]}', '{"o": "x"}'):
        deliver(bad)
    assert heard == [("AAAAA", 3), ("BBBBB", 7), ("CCCCC", 2), ("FFFFF", 4)]
