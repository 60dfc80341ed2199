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


# ---------------------------------------------------------------------- PostgreSQL and Redis
PG_BASE = "postgresql+psycopg://postgres@127.0.0.1:5432/test"
REDIS_URL = "redis://127.0.0.1:6379/0"


def need_service(name: str, port: int) -> None:
    """Skip (or, with POLYTABLE_REQUIRE_SERVICES=1 as in CI, fail) when nothing listens at 127.0.0.1:port."""
    import os
    import socket

    try:
        with socket.create_connection(("127.0.0.1", port), timeout=1.0):
            return
    except OSError:
        pass
    message = f"{name} is not listening at 127.0.0.1:{port}"
    if os.environ.get("POLYTABLE_REQUIRE_SERVICES") == "1":
        pytest.fail(message + " (POLYTABLE_REQUIRE_SERVICES=1 requires it)")
    pytest.skip(message)


@pytest.fixture
def pg_url() -> Iterator[str]:
    """A PostgreSQL URL on a schema of this test's own (parallel workers never share tables)."""
    need_service("PostgreSQL", 5432)
    import uuid

    from sqlalchemy import create_engine, text

    schema = f"pt_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(PG_BASE)
    with admin.begin() as conn:
        conn.execute(text(f"CREATE SCHEMA {schema}"))
    try:
        yield f"{PG_BASE}?options=-csearch_path%3D{schema}"
    finally:
        with admin.begin() as conn:
            conn.execute(text(f"DROP SCHEMA {schema} CASCADE"))
        admin.dispose()


@pytest.fixture
def redis_channel() -> str:
    """A Redis pub/sub channel of this test's own (channels are shared by every database number)."""
    need_service("Redis", 6379)
    import uuid

    return f"polytable-test:{uuid.uuid4().hex[:12]}"
