"""Undo on the web, server rooms and the offline table alike (the policy is ``Match.undo_span``): against an
AI the reply goes back with the move, the version still grows and survives a reload from the database; a
hot-seat's previous player keeps their undo until the next one acts; Forma's pick is binding."""

from __future__ import annotations

from starlette.testclient import TestClient

from polytable.match import Table

from .conftest import error, hello, make_room, state


def _first(msg: dict[str, object], seat: int) -> str:
    legal = msg["mine"][str(seat)]["legal"]  # type: ignore[index]
    return str(legal[0])


def test_against_an_ai_undo_takes_back_the_reply_too_and_versions_keep_growing(client: TestClient) -> None:
    room = make_room(client, game="quadefy", options={}, seats=[{"kind": "here"}, {"kind": "ai", "ai": "random"}])
    code, token = room["code"], room["tokens"]["0"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, token)
        msg = state(ws)
        v = msg["version"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": _first(msg, 0)})
        msg = state(ws, lambda m: m["moves"] == 2)  # the AI answered
        assert msg["mine"]["0"]["can_undo"] and msg["mine"]["0"]["to_act"]
        ws.send_json({"type": "undo", "seat": 0, "version": msg["version"]})
        back = state(ws, lambda m: m["moves"] == 0)
        assert back["version"] == v + 4  # two entries taken back: the version grows by two
        assert back["mine"]["0"]["to_act"] and not back["mine"]["0"]["can_undo"]
        ws.send_json({"type": "undo", "seat": 0, "version": back["version"]})
        assert error(ws)["reason"] == "engine.match.nothing_to_undo"
    hub = client.app.state.hub  # type: ignore[attr-defined]
    del hub.rooms[code]  # a restart: the room is rebuilt from the database, versions agree
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, token)
        assert state(ws)["version"] == v + 4


def test_hot_seat_the_previous_player_may_undo_until_the_next_one_acts(client: TestClient) -> None:
    room = make_room(client, game="quadefy", options={}, seats=[{"kind": "here"}, {"kind": "here"}])
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"], room["tokens"]["1"])
        msg = state(ws)
        ws.send_json({"type": "act", "seat": 0, "version": msg["version"], "action": _first(msg, 0)})
        msg = state(ws, lambda m: m["moves"] == 1)
        assert msg["mine"]["1"]["to_act"] and msg["mine"]["0"]["can_undo"]  # what the pass screen offers
        ws.send_json({"type": "act", "seat": 1, "version": msg["version"], "action": _first(msg, 1)})
        msg = state(ws, lambda m: m["moves"] == 2)
        assert not msg["mine"]["0"]["can_undo"] and msg["mine"]["1"]["can_undo"]


def test_forma_a_picked_piece_cannot_be_taken_back_on_the_server_or_offline(client: TestClient) -> None:
    options = {"placement": "random"}
    room = make_room(client, game="forma", players=2, options=options, seats=[{"kind": "here"}, {"kind": "here"}])
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"], room["tokens"]["1"])
        msg = state(ws)
        ws.send_json({"type": "act", "seat": 0, "version": msg["version"], "action": "pick L4"})
        msg = state(ws, lambda m: m["moves"] == 1)
        assert not msg["mine"]["0"]["can_undo"]
        ws.send_json({"type": "undo", "seat": 0, "version": msg["version"]})
        assert error(ws)["reason"] == "engine.forma.pick_binding"
    table = Table.new("forma", options, 2, 0)
    table.play(0, "pick L4", table.version)
    replies = table.handle({"type": "undo", "seat": 0, "version": table.version})
    assert replies[0]["reason"] == "engine.forma.pick_binding" and table.version == 1


def test_a_move_that_stands_says_why(client: TestClient) -> None:
    room = make_room(client, players=1, seats=[{"kind": "here"}], options={"rounds": 3})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        msg = state(ws)
        assert msg["mine"]["0"]["undo_why"] is None  # nothing played yet: nothing to explain
        ws.send_json({"type": "act", "seat": 0, "version": msg["version"], "action": "2"})
        msg = state(ws, lambda m: m["moves"] > 1)  # the pick, then the next roll
        why = msg["mine"]["0"]["undo_why"]
        assert not msg["mine"]["0"]["can_undo"] and why["reason"] == "engine.match.undo_after_chance"
        assert "revealed since" in why["message"]
