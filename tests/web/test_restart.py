"""Durability: a real server process is killed with SIGKILL and restarted; every room resumes exactly."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

httpx = pytest.importorskip("httpx")
ws_client = pytest.importorskip("websockets.sync.client")

from ._proc import Server  # noqa: E402


@pytest.fixture
def servers() -> Iterator[list[Server]]:
    started: list[Server] = []
    yield started
    for s in started:
        if s.proc.poll() is None:
            s.kill()


def _recv_state(ws: Any, pred: Any = lambda m: True) -> dict[str, Any]:
    for _ in range(100):
        m = json.loads(ws.recv(timeout=10))
        if m["type"] == "state" and pred(m):
            return m  # type: ignore[no-any-return]
    raise AssertionError("no matching state")


def test_rooms_resume_exactly_after_sigkill(tmp_path: Path, servers: list[Server]) -> None:
    db = f"sqlite:///{tmp_path / 'rooms.db'}"
    first = Server(db, delay=1.5, log=tmp_path / "server.log")
    servers.append(first)
    people = httpx.post(
        first.base + "/api/rooms",
        json={"game": "toy", "players": 2, "seed": 99, "options": {"rounds": 4}, "seats": [{}, {}]},
    ).json()
    versus_ai = httpx.post(
        first.base + "/api/rooms",
        json={"game": "toy", "players": 2, "seed": 5, "seats": [{}, {"kind": "ai", "ai": "random"}]},
    ).json()
    tokens = list(people["tokens"].values())
    with ws_client.connect(f"ws://127.0.0.1:{first.port}/ws/{people['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        msg = _recv_state(ws)
        for action in ("1", "3", "2"):  # round 1 both seats, then seat 1 of round 2
            p = msg["acting"][0]
            ws.send(json.dumps({"type": "act", "seat": p, "version": msg["version"], "action": action}))
            msg = _recv_state(ws, lambda m, v=msg["version"]: m["version"] > v)
        before = msg
    with ws_client.connect(f"ws://127.0.0.1:{first.port}/ws/{versus_ai['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": [versus_ai["tokens"]["0"]]}))
        msg = _recv_state(ws, lambda m: 0 in m["acting"])
        ws.send(json.dumps({"type": "act", "seat": 0, "version": msg["version"], "action": "3"}))
        ai_before = _recv_state(ws, lambda m, v=msg["version"]: m["version"] > v)
    first.kill()  # no clean shutdown: the AI of the second room had not moved yet

    second = Server(db, delay=0.0, log=tmp_path / "server.log")
    servers.append(second)
    with ws_client.connect(f"ws://127.0.0.1:{second.port}/ws/{people['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": tokens}))
        after = _recv_state(ws)
        for key in ("version", "mine", "spectator", "acting", "history", "moves"):
            assert after[key] == before[key], key
        msg = after
        while not msg["over"]:
            p = msg["acting"][0]
            ws.send(json.dumps({"type": "act", "seat": p, "version": msg["version"], "action": "2"}))
            msg = _recv_state(ws, lambda m, v=msg["version"]: m["version"] > v)
    # The AI seat of the other room carries on by itself after the restart.
    with ws_client.connect(f"ws://127.0.0.1:{second.port}/ws/{versus_ai['code']}") as ws:
        ws.send(json.dumps({"type": "hello", "tokens": [versus_ai["tokens"]["0"]]}))
        resumed = _recv_state(ws, lambda m: m["version"] > ai_before["version"])
        assert resumed["mine"]["0"]["view"]["scores"] != [0, 0] or resumed["moves"] > ai_before["moves"]
    record = httpx.get(f"{second.base}/api/rooms/{people['code']}/record").json()
    from polytable.match import Match

    assert Match.replay(record).version == msg["moves"]
