"""Companion deals are committed before anyone is shown them, as moves are (commit-before-send)."""

from __future__ import annotations

import threading
from collections.abc import Sequence
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from polytable.storage import StorageError, open_storage
from polytable.web import Settings, create_app

from .conftest import error, hello, state


class _HeldStorage:
    """A storage whose log writes wait until the test releases them, then succeed or fail."""

    def __init__(self) -> None:
        self.inner = open_storage("sqlite://")
        self.hold = False
        self.fail = False
        self.entered = threading.Event()
        self.release = threading.Event()

    def __getattr__(self, name: str) -> Any:
        return getattr(self.inner, name)

    def batch(self, ops: Sequence[tuple[str, tuple[Any, ...]]]) -> list[StorageError | None]:
        if self.hold and any(op in ("append_actions", "truncate_actions") for op, _ in ops):
            self.entered.set()
            self.release.wait(10)
            if self.fail:
                raise StorageError("database error: connection lost")
        return self.inner.batch(ops)


def _room(client: TestClient) -> str:
    r = client.post("/api/rooms", json={"game": "formfinity", "mode": "companion", "seed": 3})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


@pytest.mark.parametrize("fails", [False, True])
def test_a_card_is_shown_to_nobody_before_it_is_on_disk(fails: bool) -> None:
    storage = _HeldStorage()
    app = create_app(storage, Settings(ai_delay=0.0, rooms_per_minute=1000))  # type: ignore[arg-type]
    with TestClient(app) as client:
        code = _room(client)
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws)
            first = state(ws)
            storage.hold, storage.fail = True, fails
            ws.send_json({"type": "deal", "version": first["version"]})
            assert storage.entered.wait(10)  # the card's commit is in flight
            with client.websocket_connect(f"/ws/{code}") as late:
                hello(late)
                seen = state(late)  # asked for during the commit: the room as it is on disk
                assert seen["version"] == first["version"] and seen["companion"]["card"] is None
                storage.release.set()
                if fails:
                    assert error(ws)["reason"] == "deal_unsaved"
                else:
                    after = state(late, lambda m: m["version"] > first["version"])
                    assert after["companion"]["card"] is not None
        stored = storage.inner.load_room(code)
        assert len(stored.actions) == (0 if fails else 1)


def test_a_failed_take_back_keeps_a_given_card() -> None:
    storage = _HeldStorage()
    app = create_app(storage, Settings(ai_delay=0.0, rooms_per_minute=1000))  # type: ignore[arg-type]
    with TestClient(app) as client:
        code = _room(client)
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws)
            msg = state(ws)
            ws.send_json({"type": "deal", "version": msg["version"], "card": "5"})
            msg = state(ws, lambda m, v=msg["version"]: m["version"] > v)
            given = msg["companion"]["history"]
            assert [c["given"] for c in given] == [True]
            storage.hold, storage.fail = True, True
            storage.release.set()
            ws.send_json({"type": "undeal", "version": msg["version"]})
            assert error(ws)["reason"] == "undeal_unsaved"
            with client.websocket_connect(f"/ws/{code}") as late:
                hello(late)
                again = state(late)
                assert again["companion"]["history"] == given and again["companion"]["physical"]
