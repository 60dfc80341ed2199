"""One room protocol: the same message sequence sent to a server room (over its WebSocket) and to the offline
table gets the same replies, message for message, field for field.

Both wrap :class:`polytable.match.RoomMachine`; only what names the place differs (the room's code, the
offline table's ``local`` flag) and the server's clock fields (``now``). The sequence plays moves, sends a
stale and an illegal move, undoes, previews, asks for hints and steps through simultaneous rounds, chance
and histories longer than the live history's limit.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from starlette.testclient import TestClient, WebSocketTestSession

from polytable.ai import make_bot
from polytable.core import Rng
from polytable.match import HISTORY_LIMIT, Table
from polytable.web import Settings, create_app

from .conftest import hello, make_room, until

SEATS = [{"name": "Ann"}, {"name": "Bob"}]


@pytest.fixture
def client() -> Iterator[TestClient]:
    """A server that lets one connection send as many messages as the sequence has."""
    app = create_app("sqlite://", Settings(ai_delay=0.0, rooms_per_minute=1000, rate=1e6, burst=1_000_000))
    with TestClient(app) as c:
        yield c


def _same(message: dict[str, Any]) -> dict[str, Any]:
    """The message without what names the place it came from."""
    out = {k: v for k, v in message.items() if k not in ("code", "now")}
    if isinstance(out.get("room"), dict):
        out["room"] = {k: v for k, v in out["room"].items() if k not in ("code", "local")}
    return out


def _both(ws: WebSocketTestSession, table: Table, msg: dict[str, Any]) -> list[dict[str, Any]]:
    """Send ``msg`` to both; the offline table's replies, after checking the server's are the same."""
    ws.send_json(msg)
    offline = table.handle(msg)
    server = [ws.receive_json() for _ in offline]
    assert [_same(m) for m in server] == [_same(m) for m in offline], msg
    return offline


def _script(rng: Rng, step: int, msg: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages of one step on the state ``msg``: a move of a seat that acts, now and then preceded by
    a preview, a hint, a stale or an illegal move, and followed by an undo."""
    seat = msg["acting"][0]
    part = msg["mine"][str(seat)]
    move = part["legal"][rng.below(len(part["legal"]))]
    version = msg["version"]
    out: list[dict[str, Any]] = []
    if step % 5 == 1:
        out.append({"type": "preview", "seat": seat, "action": move, "ask": step})
    if step % 7 == 2:
        out.append({"type": "hint", "seat": seat, "ask": step})
    if step % 6 == 3:
        out.append({"type": "act", "seat": seat, "version": version + 9, "action": move})  # stale
        out.append({"type": "act", "seat": seat, "version": version, "action": "no such move"})
    out.append({"type": "act", "seat": seat, "version": version, "action": move})
    return out


@pytest.mark.parametrize(
    ("game", "options", "steps"), [("toy", {"rounds": 14}, 30), ("quadefy", {}, 20), ("formfinity", {}, 45)]
)
def test_a_server_room_and_the_offline_table_answer_every_message_alike(
    client: TestClient, game: str, options: dict[str, Any], steps: int
) -> None:
    room = make_room(client, game=game, options=options, seed=11, seats=SEATS)
    table = Table.new(game, options, 2, 11, SEATS, make_bot)
    rng = Rng(5)
    longest = 0
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        assert _same(hello(ws, *room["tokens"].values())) == _same(table.welcome())
        msg = ws.receive_json()
        assert _same(msg) == _same(table.message())
        for step in range(steps):
            if msg["over"]:
                break
            for out in _script(rng, step, msg):
                replies = _both(ws, table, out)
            msg = replies[-1]
            assert msg["type"] == "state"
            if step % 4 == 0 and any(p["can_undo"] for p in msg["mine"].values()):
                seat = next(int(p) for p, part in msg["mine"].items() if part["can_undo"])
                msg = _both(ws, table, {"type": "undo", "seat": seat, "version": msg["version"]})[-1]
            longest = max(longest, len(msg["history"]))
        _both(ws, table, {"type": "undo", "seat": 0, "version": msg["version"] + 1})  # a stale undo
        _both(ws, table, {"type": "sync"})
        _both(ws, table, {"type": "act", "seat": 7, "version": msg["version"], "action": "1"})  # no such seat
    if game == "formfinity":  # a long game with no hidden information: the newest entries are shown
        assert longest == HISTORY_LIMIT


def test_a_server_companion_room_and_the_offline_one_deal_alike(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"game": "foldris", "mode": "companion", "players": 2, "seed": 4})
    assert r.status_code == 201, r.text
    room = r.json()
    table = Table.companion("foldris", {}, 2, 4)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        assert _same(hello(ws, *room["tokens"].values())) == _same(table.welcome())
        msg = ws.receive_json()
        assert _same(msg) == _same(table.message())
        for _ in range(3):
            msg = _both(ws, table, {"type": "deal", "version": msg["version"]})[-1]
        msg = _both(ws, table, {"type": "undeal", "version": msg["version"]})[-1]
        _both(ws, table, {"type": "deal", "version": msg["version"] - 1})  # stale
        _both(ws, table, {"type": "act", "seat": 0, "version": msg["version"], "action": "x"})  # cards only
        assert len(table.message()["companion"]["history"]) == 2


@pytest.mark.parametrize("game", ["quadefy", "toy"])
def test_an_ai_seat_plays_the_same_moves_on_the_server_and_on_the_offline_table(client: TestClient, game: str) -> None:
    """The AI seats draw from the same generators, so the same person's moves get the same replies: the
    whole log at the end (public then) is the same, as is the last state message."""
    options = {"rounds": 6} if game == "toy" else {}
    room = make_room(
        client, game=game, options=options, seed=3, seats=[{"name": "Ann"}, {"kind": "ai", "ai": "random"}]
    )
    table = Table.new(game, options, 2, 3, [{"name": "Ann"}, {"ai": "random"}], make_bot)
    rng = Rng(9)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        for _ in range(200):
            while table.ai_step():
                pass
            mine = table.message()
            msg = until(ws, lambda m, v=mine["version"]: m["type"] == "state" and m["version"] == v)
            assert _same(msg) == _same(mine)
            if mine["over"]:
                break
            legal = mine["mine"]["0"]["legal"]
            act = {"type": "act", "seat": 0, "version": mine["version"], "action": legal[rng.below(len(legal))]}
            ws.send_json(act)  # the server's AI answers at once: its states may be joined into one
            assert table.handle(act)[-1]["type"] == "state"
        assert mine["over"] and len(mine["history"]) == mine["moves"] > 4
