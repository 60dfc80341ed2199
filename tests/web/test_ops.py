"""Operations: liveness and readiness probes, Prometheus metrics, JSON log lines."""

from __future__ import annotations

import json
import logging

from starlette.testclient import TestClient

from polytable.web import Settings, create_app
from polytable.web._ops import JsonFormatter
from polytable.web._pubsub import RedisBroadcaster

from .conftest import hello, make_room, state


def test_health_readiness_and_metrics(client: TestClient) -> None:
    assert client.get("/healthz").json() == {"ok": True}
    ready = client.get("/readyz")
    assert ready.status_code == 200 and ready.json() == {"ok": True, "database": True, "pubsub": True}
    room = make_room(client, players=1, seats=[{"kind": "here"}], options={"rounds": 3})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        v = state(ws)["version"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})
        state(ws, lambda m: m["version"] > v)
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})  # stale now
        text = client.get("/metrics").text
    assert "polytable_rooms 1.0" in text
    assert "polytable_connections 1.0" in text
    assert "polytable_actions_total 1.0" in text
    assert "polytable_action_seconds_count 1.0" in text
    assert 'polytable_messages_total{outcome="stale",type="act"} 1.0' in text
    assert 'polytable_messages_total{outcome="ok",type="hello"} 1.0' in text


def test_every_game_and_its_ais_are_looked_up_before_the_first_request() -> None:
    from polytable.core import all_games
    from polytable.web._base import ai_names

    ai_names.cache_clear()
    with TestClient(create_app("sqlite://", Settings(ai_delay=0.0))):
        assert ai_names.cache_info().currsize == len(all_games())  # none left for the first room to pay


def test_not_ready_when_the_pubsub_server_is_unreachable() -> None:
    broadcaster = RedisBroadcaster("redis://127.0.0.1:1/0", "polytable-test:nowhere")
    with TestClient(create_app("sqlite://", Settings(ai_delay=0.0), broadcaster=broadcaster)) as client:
        ready = client.get("/readyz")
        assert ready.status_code == 503 and ready.json() == {"ok": False, "database": True, "pubsub": False}
        assert client.get("/healthz").status_code == 200


def test_json_log_lines() -> None:
    record = logging.LogRecord("polytable.web", logging.WARNING, __file__, 1, "room %s failed", ("ABCDE",), None)
    line = JsonFormatter().format(record)
    data = json.loads(line)
    assert data["level"] == "warning" and data["logger"] == "polytable.web" and data["message"] == "room ABCDE failed"
    assert "\n" not in line
