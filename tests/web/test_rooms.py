"""Rooms over HTTP and WebSockets, in process: life cycle, versions, tokens, bad input, privacy, undo."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from polytable.match import Match

from .conftest import error, hello, make_room, state, until


def test_games_list_has_specs_and_ais_but_not_the_test_game(client: TestClient) -> None:
    games = client.get("/api/games").json()
    ids = [g["id"] for g in games]
    assert "toy" not in ids
    for g in games:
        assert {"options", "players", "ai", "companion"} <= set(g)
        assert "random" in g["ai"]


def test_home_room_page_manifest_and_static_files(client: TestClient) -> None:
    for path in ("/", "/r/ABCDE"):
        r = client.get(path)
        assert r.status_code == 200 and "app.js" in r.text
        assert "default-src 'self'" in r.headers["content-security-policy"]
    sw = client.get("/sw.js")
    assert sw.status_code == 200 and "caches" in sw.text and sw.headers["content-type"].startswith("text/javascript")
    manifest = client.get("/manifest.webmanifest")
    assert manifest.json()["display"] == "standalone"
    for f in ("app.js", "room.js", "dom.js", "companion.js", "boards/generic.js", "style.css", "icon.svg"):
        assert client.get(f"/static/{f}").status_code == 200, f


def test_room_life_cycle_two_people_on_one_device(client: TestClient) -> None:
    room = make_room(client, seats=[{"kind": "here", "name": "Ann"}, {"kind": "here", "name": "Bob"}])
    code, tokens = room["code"], room["tokens"]
    assert len(code) == 5 and set(tokens) == {"0", "1"}
    info = client.get(f"/api/rooms/{code.lower()}").json()
    assert [s["name"] for s in info["seats"]] == ["Ann", "Bob"]
    assert info["link"].endswith(f"/r/{code}")
    assert client.get(f"/api/rooms/{code}/qr.svg").text.lstrip().startswith("<?xml")
    with client.websocket_connect(f"/ws/{code}") as ws:
        assert hello(ws, tokens["0"], tokens["1"])["seats"] == [0, 1]
        msg = state(ws)
        while not msg["over"]:
            for p in msg["acting"]:
                part = msg["mine"][str(p)]
                assert part["to_act"] and part["legal"] == ["1", "2", "3"]
                ws.send_json({"type": "act", "seat": p, "version": msg["version"], "action": "3"})
                msg = state(ws, lambda m, v=msg["version"]: m["version"] > v)
        assert msg["result"]["terminal"] is True
        assert len(msg["history"]) == msg["moves"]  # the whole log is public at the end
    # Finished games stay available: step through them and download a record that replays exactly.
    first = client.get(f"/api/rooms/{code}/step/0").json()
    assert first["position"] == 0 and first["action"] is None
    last = client.get(f"/api/rooms/{code}/step/{first['total']}").json()
    assert last["result"]["terminal"] is True
    assert client.get(f"/api/rooms/{code}/step/999").status_code == 400
    record = client.get(f"/api/rooms/{code}/record").json()
    assert Match.replay(record).is_over()


def test_unknown_room(client: TestClient) -> None:
    assert client.get("/api/rooms/ZZZZZ").status_code == 404
    assert client.get("/api/rooms/<script>").status_code == 404
    with client.websocket_connect("/ws/ZZZZZ") as ws:
        assert ws.receive_json()["code"] == "missing"


def test_bad_room_requests_are_refused_with_sentences(client: TestClient) -> None:
    cases = [
        ({"game": "nope"}, "unknown game"),
        ({"game": "toy", "players": 9}, "players"),
        ({"game": "toy", "players": 2, "seats": [{"kind": "here"}]}, "exactly 2 seats"),
        ({"game": "toy", "players": 2, "seats": [{"kind": "boss"}, {}]}, "kind"),
        ({"game": "toy", "players": 2, "seats": [{"kind": "ai", "ai": "deep-blue"}, {}]}, "no AI named"),
        ({"game": "toy", "players": 2, "seats": [{"name": "x" * 40}, {}]}, "too long"),
        ({"game": "toy", "options": {"rounds": 99}}, "at most 20"),
        ({"game": "toy", "options": {"colour": 1}}, "no option"),
        ({"game": "toy", "seed": -1}, "seed"),
        ({"game": "toy", "mode": "companion"}, "no companion mode"),
    ]
    for body, words in cases:
        r = client.post("/api/rooms", json=body)
        assert r.status_code == 400, body
        assert words in r.json()["error"], (body, r.json())
    assert client.post("/api/rooms", content=b"not json").status_code == 400
    assert client.post("/api/rooms", content=b"[1]").status_code == 400
    big = json.dumps({"game": "toy", "pad": "x" * 70_000})
    assert client.post("/api/rooms", content=big.encode()).status_code == 413


def test_names_are_cleaned_but_never_interpreted(client: TestClient) -> None:
    room = make_room(client, seats=[{"name": "<b>Ann</b>\u202e\x00  x"}, {"name": "  "}])
    names = [s["name"] for s in room["room"]["seats"]]
    assert names == ["<b>Ann</b> x", "Player 2"]  # control characters gone; markup is the client's to escape


def test_stale_version_is_refused_and_the_client_resynchronises(client: TestClient) -> None:
    room = make_room(client, players=1, seats=[{"kind": "here"}], options={"rounds": 3})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        msg = state(ws)
        v = msg["version"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
        state(ws, lambda m: m["version"] > v)
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})
        err = error(ws)
        assert err["code"] == "stale" and "version" in err["message"]
        fresh = state(ws)
        assert fresh["version"] > v
        ws.send_json({"type": "act", "seat": 0, "version": v + 99, "action": "2"})
        assert error(ws)["code"] == "stale"


def test_in_a_simultaneous_round_other_hidden_choices_do_not_make_an_action_stale(client: TestClient) -> None:
    room = make_room(client)
    t0, t1 = room["tokens"]["0"], room["tokens"]["1"]
    with client.websocket_connect(f"/ws/{room['code']}") as a, client.websocket_connect(f"/ws/{room['code']}") as b:
        hello(a, t0)
        hello(b, t1)
        v = state(a)["version"]
        state(b)
        a.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
        state(a, lambda m: m["version"] == v + 1)
        b.send_json({"type": "act", "seat": 1, "version": v, "action": "2"})  # made before seat 1 saw v + 1
        after = state(b, lambda m: m["version"] >= v + 2)
        assert after["mine"]["1"]["view"]["scores"] != [0, 0]
        # But once the round resolved and a die was rolled, the old version is stale.
        a.send_json({"type": "act", "seat": 0, "version": v + 1, "action": "1"})
        assert error(a)["code"] == "stale"


def test_wrong_token_and_acting_for_another_seat_are_refused(client: TestClient) -> None:
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        welcome = hello(ws, "not-a-token", room["tokens"]["0"])
        assert welcome["seats"] == [0]
        assert error(ws)["code"] == "forbidden"
        v = state(ws)["version"]
        ws.send_json({"type": "act", "seat": 1, "version": v, "action": "1"})
        err = error(ws)
        assert err["code"] == "forbidden" and "seat 2" in err["message"]
    other = make_room(client)
    with client.websocket_connect(f"/ws/{other['code']}") as ws:
        assert hello(ws, room["tokens"]["1"])["seats"] == []  # a token of another room holds nothing here


def test_spectators_are_read_only(client: TestClient) -> None:
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws)
        msg = state(ws)
        assert msg["mine"] == {} and "view" in msg["spectator"]
        ws.send_json({"type": "act", "seat": 0, "version": msg["version"], "action": "1"})
        assert error(ws)["code"] == "forbidden"


def test_bad_messages_get_errors_and_the_connection_survives(client: TestClient) -> None:
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        ws.send_json({"type": "act", "seat": 0, "version": 0, "action": "1"})
        assert "hello" in error(ws)["message"]
        hello(ws, room["tokens"]["0"])
        v = state(ws)["version"]
        bad = [
            "not json",
            "[1, 2]",
            json.dumps({"no": "type"}),
            json.dumps({"type": "dance"}),
            json.dumps({"type": "act", "seat": "0", "version": v, "action": "1"}),
            json.dumps({"type": "act", "seat": 0, "action": "1"}),
            json.dumps({"type": "act", "seat": 0, "version": True, "action": "1"}),
            json.dumps({"type": "act", "seat": 0, "version": v, "action": 5}),
            json.dumps({"type": "act", "seat": 0, "version": v, "action": "x" * 2000}),
            json.dumps({"type": "act", "seat": 0, "version": v, "action": "x" * 9000}),
            json.dumps({"type": "hello", "tokens": []}),
            json.dumps({"type": "deal", "version": v}),
        ]
        for text in bad:
            ws.send_text(text)
            assert error(ws)["code"] in ("bad", "illegal"), text
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "7"})
        err = error(ws)
        assert err["code"] == "illegal" and "type 1, 2 or 3" in err["message"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})
        assert state(ws, lambda m: m["version"] > v)["version"] == v + 1


def test_a_flood_is_throttled(client: TestClient) -> None:
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws)
        for _ in range(60):
            ws.send_json({"type": "sync"})
        msg = until(ws, lambda m: m["type"] == "error", limit=200)
        assert msg["code"] == "throttled"


def test_views_never_show_another_seats_pending_choice_or_the_generator(client: TestClient) -> None:
    room = make_room(client, seed=12345)
    t0, t1 = room["tokens"]["0"], room["tokens"]["1"]
    with client.websocket_connect(f"/ws/{room['code']}") as a, client.websocket_connect(f"/ws/{room['code']}") as b:
        hello(a, t0)
        hello(b, t1)
        v = state(a)["version"]
        state(b)
        a.send_json({"type": "act", "seat": 0, "version": v, "action": "3"})
        mine = state(a, lambda m: m["version"] == v + 1)
        seen = b.receive_text()
        while '"type":"state"' not in seen or f'"version":{v + 1}' not in seen:
            seen = b.receive_text()
        with client.websocket_connect(f"/ws/{room['code']}") as watcher:
            hello(watcher)
            watched = watcher.receive_text()
    assert mine["mine"]["0"]["view"]["my_pick"] == 3
    other = json.loads(seen)
    assert other["mine"]["1"]["view"]["my_pick"] == 0
    assert other["spectator"] is None  # a player gets only their own view
    assert json.loads(watched)["spectator"]["view"]["my_pick"] is None
    assert 'my_pick":3' not in watched
    assert other["history"] == []  # simultaneous choices stay out of the live history
    assert 'my_pick":3' not in seen
    # The generator state is a large int in the full state; no message carries it.
    from polytable.core import get_game

    game = get_game("toy")
    rng = game.new_game({"rounds": 2}, seed=12345).rng
    assert str(rng) not in seen


def test_undo_own_last_action_only(client: TestClient) -> None:
    room = make_room(client, players=1, seats=[{"kind": "here"}], options={"rounds": 3})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        msg = state(ws)
        assert not msg["mine"]["0"]["can_undo"]
        ws.send_json({"type": "undo", "seat": 0, "version": msg["version"]})
        assert "no move to take back" in error(ws)["message"]  # nothing but the opening roll yet
        # One-player toy: a pick resolves the round and rolls again, so undo is refused across the roll.
        ws.send_json({"type": "act", "seat": 0, "version": msg["version"], "action": "2"})
        msg = state(ws, lambda m, v=msg["version"]: m["version"] > v)
        assert not msg["mine"]["0"]["can_undo"]
    room = make_room(client)
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"], room["tokens"]["1"])
        msg = state(ws)
        v = msg["version"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})
        msg = state(ws, lambda m: m["version"] == v + 1)
        assert msg["mine"]["0"]["can_undo"] and not msg["mine"]["1"]["can_undo"]
        ws.send_json({"type": "undo", "seat": 1, "version": v + 1})
        assert "has no move to take back" in error(ws)["message"]
        ws.send_json({"type": "undo", "seat": 0, "version": v + 1})
        msg = state(ws, lambda m: m["version"] == v + 2)  # versions keep growing across an undo
        assert msg["moves"] == v and msg["mine"]["0"]["to_act"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})  # the pre-undo version is stale
        assert error(ws)["code"] == "stale"


def test_invited_seats_are_taken_once_and_reconnect_returns_to_the_seat(client: TestClient) -> None:
    room = make_room(client, seats=[{"kind": "here", "name": "Host"}, {"kind": "invite"}])
    code = room["code"]
    assert room["room"]["seats"][1]["open"] is True
    assert set(room["tokens"]) == {"0"}
    r = client.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Guest"})
    token = r.json()["token"]
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Thief"}).status_code == 409
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 0}).status_code == 409
    assert client.post(f"/api/rooms/{code}/join", json={"seat": 5}).status_code == 400
    assert client.post(f"/api/rooms/{code}/join", json={"seat": "1"}).status_code == 400
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, token)
        msg = state(ws)
        assert msg["room"]["seats"][1]["name"] == "Guest" and msg["room"]["seats"][1]["connected"]
        ws.send_json({"type": "act", "seat": 1, "version": msg["version"], "action": "2"})
        picked = state(ws, lambda m: m["mine"]["1"]["view"]["my_pick"] == 2)
    with client.websocket_connect(f"/ws/{code}") as ws:  # a reload: same token, same seat, current state
        hello(ws, token)
        again = state(ws)
        assert again["version"] == picked["version"] and again["mine"]["1"]["view"]["my_pick"] == 2


def test_ai_seats_play_a_whole_game_on_their_own(client: TestClient) -> None:
    room = make_room(client, seats=[{"kind": "ai", "ai": "random"}, {"kind": "ai", "ai": "greedy"}])
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws)
        msg = state(ws, lambda m: m["over"])
    assert msg["result"]["terminal"]
    assert client.get(f"/api/rooms/{room['code']}/record").status_code == 200


def test_ai_answers_a_person(client: TestClient) -> None:
    room = make_room(client, seats=[{"kind": "here"}, {"kind": "ai", "ai": "random"}], options={"rounds": 2})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        msg = state(ws, lambda m: 0 in m["acting"])
        while not msg["over"]:
            ws.send_json({"type": "act", "seat": 0, "version": msg["version"], "action": "2"})
            msg = state(ws, lambda m, v=msg["version"]: m["version"] > v and (m["over"] or 0 in m["acting"]))
        assert msg["result"]["terminal"]


def test_printables_are_served_as_pdf(client: TestClient) -> None:
    from polytable.printables import printables

    assert client.get("/print/no-such-thing.pdf").status_code == 404
    assert client.get("/print/foldris.pdf?paper=a5").status_code in (400, 404)
    if "foldris" not in printables():
        return
    r = client.get("/print/foldris.pdf?players=2")
    assert r.status_code == 200 and r.headers["content-type"] == "application/pdf"
    assert r.content.startswith(b"%PDF")


def test_after_a_reload_from_the_database_versions_from_before_an_undo_stay_stale(client: TestClient) -> None:
    room = make_room(client)
    code, t0, t1 = room["code"], room["tokens"]["0"], room["tokens"]["1"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, t0, t1)
        v = state(ws)["version"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})
        state(ws, lambda m: m["version"] == v + 1)
        ws.send_json({"type": "undo", "seat": 0, "version": v + 1})
        state(ws, lambda m: m["version"] == v + 2)
    hub = client.app.state.hub  # type: ignore[attr-defined]
    del hub.rooms[code]  # what a restart does: the room is rebuilt from the database
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, t0, t1)
        assert state(ws)["version"] == v + 2
        ws.send_json({"type": "act", "seat": 1, "version": v + 1, "action": "1"})
        assert error(ws)["code"] == "stale"
        ws.send_json({"type": "act", "seat": 1, "version": v + 2, "action": "1"})
        assert state(ws, lambda m: m["version"] == v + 3)["mine"]["1"]["view"]["my_pick"] == 1
