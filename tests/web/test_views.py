"""State messages built once and shared: the text rendering only for connections that show it, one string
per kind of connection, and each seat still seeing only its own part."""

from __future__ import annotations

from starlette.testclient import TestClient

from .conftest import error, hello, make_room, state


def test_the_text_rendering_is_sent_only_to_connections_that_show_it(client: TestClient) -> None:
    room = make_room(client)
    code, t0 = room["code"], room["tokens"]["0"]
    with client.websocket_connect(f"/ws/{code}") as plain, client.websocket_connect(f"/ws/{code}") as board:
        hello(plain, t0)
        assert "render" in state(plain)["mine"]["0"]  # the default: the generic board shows the text
        board.send_json({"type": "hello", "tokens": [t0], "text": False})
        first = state(board, lambda m: "0" in m["mine"])
        assert "render" not in first["mine"]["0"] and first["mine"]["0"]["view"] is not None
        board.send_json({"type": "text", "on": True})  # a dedicated board's text view was opened
        assert state(board, lambda m: "render" in m["mine"]["0"])["mine"]["0"]["render"]
        board.send_json({"type": "text", "on": "yes"})
        assert error(board)["reason"] == "bad_text"
        board.send_json({"type": "text", "on": False})
        v = first["version"]
        board.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
        after = state(board, lambda m: m["version"] > v)
        assert "render" not in after["mine"]["0"] and after["mine"]["0"]["view"] is not None
        assert "render" in state(plain, lambda m: m["version"] > v)["mine"]["0"]
    with client.websocket_connect(f"/ws/{code}") as bad:
        bad.send_json({"type": "hello", "tokens": [t0], "text": 1})
        assert error(bad)["reason"] == "bad_text"


def test_connections_holding_the_same_seats_get_the_same_text_and_others_only_their_part(client: TestClient) -> None:
    room = make_room(client, seats=[{"kind": "here"}, {"kind": "invite"}])
    code, t0 = room["code"], room["tokens"]["0"]
    t1 = client.post(f"/api/rooms/{code}/join", json={"seat": 1, "name": "Bo"}).json()["token"]
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with (
        client.websocket_connect(f"/ws/{code}") as a,
        client.websocket_connect(f"/ws/{code}") as a2,
        client.websocket_connect(f"/ws/{code}") as b,
        client.websocket_connect(f"/ws/{code}") as watcher,
    ):
        hello(a, t0)
        hello(a2, t0)
        hello(b, t1)
        hello(watcher)
        v = state(watcher, lambda m: sum(s["connected"] for s in m["room"]["seats"]) == 2)["version"]
        a.send_json({"type": "act", "seat": 0, "version": v, "action": "2"})
        seen = [state(ws, lambda m: m["version"] > v) for ws in (a, a2, b, watcher)]
        assert seen[0] == seen[1]  # the same message (one string shared by both sockets)
        assert set(seen[0]["mine"]) == {"0"} and set(seen[2]["mine"]) == {"1"} and seen[3]["mine"] == {}
        assert seen[3]["spectator"]["view"] is not None and seen[0]["spectator"] is None
        assert seen[2]["mine"]["1"]["legal"] and not seen[0]["mine"]["0"]["legal"]  # seat 1 must answer now
        views = hub.rooms[code].views
        assert views.text(frozenset({0}), True) is views.text(frozenset({0}), True)  # built once per change
        # Seat 0's hidden choice did not change seat 1's situation: its legal actions listed at v are reused.
        assert hub.rooms[code].machine._legal[1][1] == v and seen[2]["mine"]["1"]["legal"] == ["1", "2", "3"]
        b.send_json({"type": "act", "seat": 1, "version": seen[2]["version"], "action": "3"})  # the round resolves
        state(b, lambda m: m["version"] > seen[2]["version"] and m["mine"]["1"]["to_act"])
        assert hub.rooms[code].machine._legal[1][1] > seen[2]["version"]  # a resolved round: listed again


def test_messages_encode_every_json_value_as_the_standard_library_reads_it() -> None:
    import json

    from polytable.web._views import dumps

    value = {"big": 2**70, 3: "three", "text": "é ✓", "list": [1.5, None, True], "nested": {"t": (1, 2)}}
    assert json.loads(dumps(value)) == json.loads(json.dumps(value))  # orjson, and json beyond 64-bit integers
    assert json.loads(dumps({1: 2})) == {"1": 2}


def test_a_new_room_is_stored_already_dealt_in_one_write(client: TestClient) -> None:
    hub = client.app.state.hub  # type: ignore[attr-defined]
    writes: list[str] = []
    batch = hub.storage.batch

    def counting(ops: list[tuple[str, tuple[object, ...]]]) -> list[object]:
        writes.extend(op for op, _ in ops)
        return batch(ops)  # type: ignore[no-any-return]

    hub.storage.batch = counting
    try:
        room = make_room(client, game="foldris", options={})
    finally:
        hub.storage.batch = batch
    assert writes == ["create_room"]
    stored = hub.storage.load_room(room["code"])
    held = hub.rooms[room["code"]]
    assert stored.actions and stored.actions == [(e.player, e.action) for e in held.match.log]  # the first card
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, *room["tokens"].values())
        first = state(ws)
        assert first["version"] == len(stored.actions) and first["acting"] == [0, 1]


def test_the_live_history_kept_between_changes_is_the_one_found_from_the_whole_log() -> None:
    """The last 30 shown entries are brought up to date from the entries added since the last change; after
    an undo, a rewind or a rebuilt log they are found again: always what a scan of the whole log gives."""
    from types import SimpleNamespace

    from polytable.core import CHANCE, Rng
    from polytable.match import LogEntry, RoomMachine

    class _Match(SimpleNamespace):  # its log, each entry told in words (here: the entry's own text)
        def narration(self, i: int) -> dict[str, object]:
            return {"said": self.log[i].action}

        def is_over(self) -> bool:
            return False

    def scan(room: RoomMachine) -> list[dict[str, object]]:
        shown = [
            {"n": i + 1, "player": e.player, "action": e.action, "said": {"said": e.action}}
            for i, e in enumerate(room.match.log)
            if not room.simultaneous[i] and not (e.player == CHANCE and room.match.game.spec.hidden_information)
        ]
        return shown[-30:]

    rng = Rng(7)
    for hidden in (False, True):
        game = SimpleNamespace(spec=SimpleNamespace(hidden_information=hidden))
        room = RoomMachine.__new__(RoomMachine)  # only what the history reads of a room's machine
        room.match, room.simultaneous, room.undone, room.forfeits, room._shown = (
            _Match(log=[], game=game),
            [],
            0,
            tuple,
            None,
        )  # type: ignore[assignment]
        for step in range(400):
            roll = rng.below(10)
            log = room.match.log
            if roll == 0 and log:  # an undo
                log.pop()
                room.simultaneous.pop()
                room.undone += 1
            elif roll == 1 and log:  # a rewind after a failed commit
                del log[rng.below(len(log)) :]
                del room.simultaneous[len(log) :]
            elif roll == 2 and step % 50 == 0:  # a rebuilt match: a new log with the same entries
                room.match = _Match(log=[LogEntry(e.player, e.action) for e in log], game=game)  # type: ignore[assignment]
            else:
                for _ in range(1 + rng.below(3)):
                    log.append(LogEntry(rng.below(3) - 1, f"a{step}"))
                    room.simultaneous.append(rng.below(3) == 0)
            assert room.history() == scan(room)


def test_a_finished_room_nobody_watches_is_let_go_and_read_again_the_same(client: TestClient) -> None:
    """When the last connection of a finished game closes, the hub lets the room go (nothing keeps its
    history in memory); asked for again, it is read from the database and says the same."""
    import gc
    import weakref

    room = make_room(client, options={"rounds": 1})
    code, tokens = room["code"], list(room["tokens"].values())
    hub = client.app.state.hub  # type: ignore[attr-defined]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, *tokens)
        v = state(ws)["version"]
        ws.send_json({"type": "act", "seat": 0, "version": v, "action": "1"})
        v = state(ws, lambda m: m["version"] > v)["version"]
        with client.websocket_connect(f"/ws/{code}") as watcher:
            hello(watcher)
            ws.send_json({"type": "act", "seat": 1, "version": v, "action": "2"})
            over = state(ws, lambda m: m["over"])
            state(watcher, lambda m: m["over"])
        assert code in hub.rooms  # still watched by the player
        held = weakref.ref(hub.rooms[code])
    for _ in range(50):
        if code not in hub.rooms:
            break
        client.get("/healthz")  # let the server finish closing the socket
    assert code not in hub.rooms
    gc.collect()
    assert held() is None  # nothing keeps it (or its history) alive
    with client.websocket_connect(f"/ws/{code}") as again:
        hello(again, *tokens)
        back = state(again)
    for key in ("version", "over", "result", "history", "mine", "acting"):
        assert back[key] == over[key]
