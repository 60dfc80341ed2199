"""A device's list of its rooms (whose turn, time left) and the rematch of a finished room."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from .conftest import hello, make_room, state


def _finish(client: TestClient, room: dict[str, Any]) -> dict[str, Any]:
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, *room["tokens"].values())
        msg = state(ws)
        while not msg["over"]:
            p = msg["acting"][0]
            ws.send_json({"type": "act", "seat": p, "version": msg["version"], "action": "2"})
            msg = state(ws, lambda m, v=msg["version"]: m["version"] > v)
        return msg


def test_my_rooms_says_whose_turn_and_time_left(client: TestClient) -> None:
    mine = make_room(client, time_control={"kind": "turn", "hours": 24})
    other = make_room(client, seats=[{"kind": "here"}, {"kind": "invite"}])
    r = client.post(
        "/api/my-rooms",
        json={"rooms": {mine["code"]: [mine["tokens"]["0"]], other["code"]: ["not-a-token"], "ZZZZZ": []}},
    )
    assert r.status_code == 200
    cards = {c["code"]: c for c in r.json()["rooms"]}
    assert cards[mine["code"]]["your_turn"] and cards[mine["code"]]["seats"] == [0]
    assert 86_000 < cards[mine["code"]]["left"]["0"] <= 86_400
    assert cards[other["code"]]["seats"] == [] and not cards[other["code"]]["your_turn"]
    assert cards[other["code"]]["left"] is None
    assert cards["ZZZZZ"] == {"code": "ZZZZZ", "missing": True}
    too_many = {"rooms": {f"A{i:04d}": [] for i in range(21)}}
    bad = client.post("/api/my-rooms", json=too_many)
    assert bad.status_code == 400 and bad.json()["reason"] == "my_rooms"


def test_a_finished_room_offers_one_rematch_with_the_same_seats(client: TestClient) -> None:
    room = make_room(client, players=2, seats=[{"kind": "here", "name": "Ann"}, {"kind": "ai", "ai": "random"}])
    code, token = room["code"], room["tokens"]["0"]
    early = client.post(f"/api/rooms/{code}/rematch", json={"tokens": [token]})
    assert early.status_code == 409 and early.json()["reason"] == "rematch_not_over"
    _finish(client, room)
    stranger = client.post(f"/api/rooms/{code}/rematch", json={"tokens": ["nope"]})
    assert stranger.status_code == 409 and stranger.json()["reason"] == "rematch_not_seated"
    first = client.post(f"/api/rooms/{code}/rematch", json={"tokens": [token]}).json()
    again = client.post(f"/api/rooms/{code}/rematch", json={"tokens": [token]}).json()
    assert first["code"] == again["code"] != code  # everybody who asks lands in the same new room
    assert client.get(f"/api/rooms/{code}").json()["rematch"] == first["code"]
    new = client.get(f"/api/rooms/{first['code']}").json()
    assert [s["name"] for s in new["seats"]] == ["Ann", "Random AI"] and not new["over"]
    assert new["options"] == client.get(f"/api/rooms/{code}").json()["options"]
    with client.websocket_connect(f"/ws/{first['code']}") as ws:
        assert hello(ws, token)["seats"] == [0]  # the old token holds the same seat in the rematch
    del client.app.state.hub.rooms[code]  # type: ignore[attr-defined]  # the pointer is in the database
    assert client.get(f"/api/rooms/{code}").json()["rematch"] == first["code"]
