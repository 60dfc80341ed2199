"""Hints ("show me a good move"): the greedy player's move for the seat, from the server (on the AI pool) and
from the offline table alike, only where no other person plays at the table."""

from __future__ import annotations

from starlette.testclient import TestClient

from polytable.ai import make_bot
from polytable.match import Table

from .conftest import error, hello, make_room, state, until


def test_a_hint_is_a_legal_move_and_the_same_as_the_offline_tables(client: TestClient) -> None:
    body = {"game": "quadefy", "options": {}, "seed": 2}
    room = make_room(client, **body, seats=[{"kind": "here"}, {"kind": "ai", "ai": "easy"}])
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        msg = state(ws)
        ws.send_json({"type": "hint", "seat": 0, "ask": 7})
        got = until(ws, lambda m: m["type"] == "hint")
        assert got["ask"] == 7 and got["version"] == msg["version"]
        assert len(got["moves"]) == 1 and got["moves"][0] in msg["mine"]["0"]["legal"]
    table = Table.new("quadefy", {}, 2, 2, [{"name": "You"}, {"ai": "easy"}], make_bot)
    offline = table.handle({"type": "hint", "seat": 0, "ask": 1})
    assert offline == [{"type": "hint", "seat": 0, "ask": 1, "version": 0, "moves": got["moves"]}]
    assert table.hint(1) == []  # not that seat's turn
    assert table.handle({"type": "hint", "seat": 1})[0]["reason"] == "hint_seat"  # an AI's seat, as on a server


def test_a_touch_move_hint_says_where_the_picked_piece_goes() -> None:
    table = Table.new("forma", {"placement": "random"}, 2, 5, [{"name": "You"}, {"ai": "easy"}], make_bot)
    pick, place = table.hint(0)
    assert pick.startswith("pick ") and "@" in place and place.startswith(pick[5:] + " ")
    table.play(0, pick, table.version)
    assert place in table.machine.part(0)["legal"]


def test_no_hint_when_another_person_plays_at_the_table(client: TestClient) -> None:
    room = make_room(client, game="quadefy", options={}, seats=[{"kind": "here"}, {"kind": "invite"}])
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        state(ws)
        ws.send_json({"type": "hint", "seat": 0})
        assert error(ws)["reason"] == "hint_shared"
        ws.send_json({"type": "hint", "seat": 1})
        assert error(ws)["reason"] == "hint_seat"
