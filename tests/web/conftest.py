"""Fixtures of the web tests: an app on an in-memory database with instant AI seats."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from starlette.testclient import TestClient, WebSocketTestSession

from polytable.web import Settings, create_app


@pytest.fixture
def client() -> Iterator[TestClient]:
    app = create_app("sqlite://", Settings(ai_delay=0.0, rooms_per_minute=1000))
    with TestClient(app) as c:
        yield c


def make_room(client: TestClient, **kwargs: Any) -> dict[str, Any]:
    body: dict[str, Any] = {"game": "toy", "players": 2, "seed": 7, "options": {"rounds": 2}}
    body.update(kwargs)
    r = client.post("/api/rooms", json=body)
    assert r.status_code == 201, r.text
    data: dict[str, Any] = r.json()
    return data


def until(ws: WebSocketTestSession, pred: Callable[[dict[str, Any]], bool], limit: int = 50) -> dict[str, Any]:
    """Read messages until one satisfies ``pred`` (errors included); fail after ``limit`` messages."""
    for _ in range(limit):
        msg: dict[str, Any] = ws.receive_json()
        if pred(msg):
            return msg
    raise AssertionError("the expected message never came")


def state(ws: WebSocketTestSession, pred: Callable[[dict[str, Any]], bool] = lambda m: True) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "state" and pred(m))


def error(ws: WebSocketTestSession) -> dict[str, Any]:
    return until(ws, lambda m: m["type"] == "error")


def hello(ws: WebSocketTestSession, *tokens: str) -> dict[str, Any]:
    ws.send_json({"type": "hello", "tokens": list(tokens)})
    welcome = until(ws, lambda m: m["type"] == "welcome")
    return welcome
