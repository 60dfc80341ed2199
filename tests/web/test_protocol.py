"""The web layer's protocol edges: bounded JSON everywhere, the dispatch table, spectator caps and what
players see when the database fails (a translated reason, never the driver's text)."""

from __future__ import annotations

import logging
import threading
from collections.abc import Iterator, Sequence
from typing import Any

import pytest
from starlette.testclient import TestClient

from polytable.core import MAX_DEPTH, JsonLimitError, json_depth, loads_bounded
from polytable.storage import StorageError, open_storage
from polytable.web import Settings, create_app
from polytable.web._i18n import ERROR_REASONS, load
from polytable.web._ws import HANDLERS

from .conftest import error, hello, make_room, state


def _deep(n: int) -> str:
    return '{"game": ' + "[" * n + "]" * n + "}"


def test_json_depth_is_measured_without_recursion_and_ignores_brackets_in_strings() -> None:
    assert json_depth('{"a": [1, {"b": 2}]}') == 3
    assert json_depth('{"a": "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[["}') == 1
    assert json_depth("[" * 200_000 + "]" * 200_000) == 200_000
    with pytest.raises(JsonLimitError) as exc:
        loads_bounded("[" * 100_000 + "]" * 100_000)
    assert exc.value.reason == "too_deep" and exc.value.params == {"max": MAX_DEPTH}
    with pytest.raises(JsonLimitError) as exc:
        loads_bounded("{nope")
    assert exc.value.reason == "not_json"
    assert loads_bounded('{"x": "\\"[[[["}') == {"x": '"[[[['}


@pytest.mark.parametrize(
    "path", ["/api/rooms", "/api/formfinity/validate", "/api/formfinity/print", "/api/puzzle/quadefy/check"]
)
def test_a_deeply_nested_body_is_refused_with_a_reason_on_every_json_endpoint(client: TestClient, path: str) -> None:
    r = client.post(path, content=_deep(20_000), headers={"content-type": "application/json"})
    assert r.status_code == 400, r.text
    assert r.json()["reason"] == "too_deep"


def test_a_deeply_nested_body_to_join_is_refused(client: TestClient) -> None:
    room = make_room(client, seats=[{"kind": "here"}, {"kind": "invite"}])
    r = client.post(f"/api/rooms/{room['code']}/join", content=_deep(20_000))
    assert r.status_code == 400 and r.json()["reason"] == "too_deep"


def test_a_deeply_nested_socket_message_is_refused_and_the_connection_survives(client: TestClient) -> None:
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        ws.send_text("[" * 4000 + "]" * 4000)
        assert error(ws)["reason"] == "too_deep"
        ws.send_json({"type": "sync"})
        assert state(ws)["type"] == "state"


def test_every_message_type_has_a_handler_and_unknown_types_are_named() -> None:
    assert set(HANDLERS) == {"hello", "sync", "text", "act", "undo", "preview", "hint", "deal", "undeal"}


def test_the_new_reasons_are_translated() -> None:
    for reason in ("too_deep", "spectators_full", "move_conflict", "undo_conflict"):
        assert reason in ERROR_REASONS
        for lang in ("en", "nl"):
            assert f"error.{reason}" in load(lang)


@pytest.fixture
def small_client() -> Iterator[TestClient]:
    app = create_app("sqlite://", Settings(ai_delay=0.0, rooms_per_minute=1000, max_spectators=3))
    with TestClient(app) as c:
        yield c


def test_spectators_have_their_own_cap_and_never_take_a_seat(small_client: TestClient) -> None:
    client = small_client
    room = make_room(client)
    code = room["code"]
    watchers = [client.websocket_connect(f"/ws/{code}") for _ in range(3)]
    try:
        for ws in watchers:
            ws.__enter__()
            hello(ws)
        with client.websocket_connect(f"/ws/{code}") as extra:
            extra.send_json({"type": "hello", "tokens": []})
            refused = error(extra)
            assert refused["reason"] == "spectators_full" and refused["code"] == "full"
        with client.websocket_connect(f"/ws/{code}") as player:
            welcome = hello(player, room["tokens"]["0"], room["tokens"]["1"])
            assert welcome["seats"] == [0, 1]
            assert 0 in [int(p) for p in state(player)["mine"]]
    finally:
        for ws in watchers:
            ws.__exit__(None, None, None)


class _FailingStorage:
    """A storage whose appends fail with a driver-like message holding a secret."""

    def __init__(self) -> None:
        self.inner = open_storage("sqlite://")
        self.fail = False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def batch(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
        if self.fail:
            raise StorageError("database error: (psycopg.OperationalError) password=hunter2 connection lost")
        return self.inner.batch(ops)


def test_a_storage_failure_shows_players_a_reason_and_logs_the_detail(caplog: pytest.LogCaptureFixture) -> None:
    storage = _FailingStorage()
    app = create_app(storage, Settings(ai_delay=0.0, rooms_per_minute=1000))  # type: ignore[arg-type]
    with TestClient(app) as client:
        room = make_room(client)
        with client.websocket_connect(f"/ws/{room['code']}") as ws:
            hello(ws, room["tokens"]["0"], room["tokens"]["1"])
            first = state(ws)
            seat = first["acting"][0]
            move = first["mine"][str(seat)]["legal"][0]
            storage.fail = True
            with caplog.at_level(logging.ERROR, logger="polytable.web"):
                ws.send_json({"type": "act", "seat": seat, "version": first["version"], "action": move})
                err = error(ws)
            assert err["reason"] == "move_unsaved" and err["code"] == "storage"
            assert "hunter2" not in err["message"] and "psycopg" not in err["message"]
            assert "psycopg.OperationalError" in caplog.text  # the operator gets the detail
            r = client.post("/api/rooms", json={"game": "toy", "players": 2, "options": {"rounds": 2}})
            assert r.status_code == 503 and r.json()["reason"] == "room_unsaved"
            assert "hunter2" not in r.text


class _SlowFailingStorage(_FailingStorage):
    """Appends wait until the test releases them, then fail (a commit that hangs, then breaks)."""

    def __init__(self) -> None:
        super().__init__()
        self.entered = threading.Event()
        self.release = threading.Event()

    def batch(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
        if self.fail and any(op == "append_actions" for op, _ in ops):
            self.entered.set()
            self.release.wait(10)
            raise StorageError("database error: connection lost")
        return self.inner.batch(ops)


def test_a_connection_arriving_during_a_commit_never_sees_the_change_before_it_is_on_disk() -> None:
    storage = _SlowFailingStorage()
    app = create_app(storage, Settings(ai_delay=0.0, rooms_per_minute=1000))  # type: ignore[arg-type]
    with TestClient(app) as client:
        room = make_room(client)
        code = room["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, room["tokens"]["0"], room["tokens"]["1"])
            first = state(ws)
            seat = first["acting"][0]
            storage.fail = True
            ws.send_json({"type": "act", "seat": seat, "version": first["version"], "action": "1"})
            assert storage.entered.wait(10)  # the move is applied in memory, its commit hangs
            with client.websocket_connect(f"/ws/{code}") as late:
                hello(late)  # asks for the state while the commit is in flight
                storage.release.set()  # ... which then fails: the move never happened
                seen = state(late)
                assert seen["version"] == first["version"] and seen["moves"] == first["moves"]
            assert error(ws)["reason"] == "move_unsaved"
