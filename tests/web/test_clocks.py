"""Time controls: the clocks' arithmetic, a seat's AI move or forfeit on timeout, clocks kept across a restart."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from polytable.storage import open_storage
from polytable.web import RoomError, Settings, create_app
from polytable.web._clock import Clock, TimeControl

from .conftest import error, hello, make_room, state


def test_time_controls_are_checked() -> None:
    assert TimeControl.parse(None).kind == "none"
    assert TimeControl.parse({"kind": "realtime", "minutes": 5, "increment": 3}) == TimeControl("realtime", 5, 3)
    assert TimeControl.parse({"kind": "turn", "hours": 24, "on_timeout": "forfeit"}).on_timeout == "forfeit"
    for bad, reason in (
        ("fast", "bad_time_control"),
        ({"kind": "blitz"}, "bad_time_kind"),
        ({"kind": "realtime", "minutes": "5"}, "bad_time_amount"),
        ({"kind": "realtime", "minutes": 0}, "bad_time_range"),
        ({"kind": "turn", "hours": 1e9}, "bad_time_range"),
        ({"kind": "turn", "hours": float("nan")}, "bad_time_amount"),
        ({"kind": "turn", "hours": 1, "on_timeout": "pass"}, "bad_on_timeout"),
    ):
        with pytest.raises(RoomError) as exc:
            TimeControl.parse(bad)
        assert exc.value.reason == reason


def test_real_time_clocks_charge_the_running_seats_and_add_the_increment() -> None:
    clock = Clock.start(TimeControl("realtime", minutes=1, increment=5), 2, now=100.0)
    clock.turn(100.0, (), (0,))
    assert clock.left(0, 110.0) == 50.0 and clock.left(1, 110.0) == 60.0
    clock.turn(110.0, (0,), (1,))  # seat 0 moved after 10 s: 50 + 5 left, now seat 1 runs
    assert clock.remaining == [55.0, 60.0] and clock.running == (1,)
    assert clock.deadline() == 170.0 and clock.expired(169.0) == [] and clock.expired(170.0) == [1]
    clock.turn(120.0, (1,), (0, 1))  # seat 1 took 10 s and got 5: a simultaneous round, both run
    assert clock.remaining == [55.0, 55.0] and clock.expired(174.0) == [] and clock.expired(175.0) == [0, 1]
    again = Clock.from_json(clock.to_json())
    assert again is not None and again.view() == clock.view()


def test_turn_based_clocks_give_each_move_its_full_allowance() -> None:
    clock = Clock.start(TimeControl("turn", hours=2), 2, now=0.0)
    clock.turn(0.0, (), (0,))
    clock.turn(3600.0, (0,), (1,))
    assert clock.left(1, 3600.0) == 7200.0
    clock.turn(4000.0, (1,), (0,))
    assert clock.left(0, 4000.0) == 7200.0 and clock.deadline() == 4000.0 + 7200.0


def _rush(client: TestClient, code: str, seat: int, seconds: float) -> None:
    """Leave ``seat`` only ``seconds`` on its clock (in the app's own event loop) and re-arm the timer."""

    def shorten() -> None:
        room = client.app.state.hub.rooms[code]  # type: ignore[attr-defined]
        clock = room.timer.clock
        clock.remaining[seat] = seconds + (time.time() - clock.since)
        room.timer.arm()

    client.portal.call(shorten)  # type: ignore[union-attr]


def test_on_timeout_the_seats_ai_plays_its_move(client: TestClient) -> None:
    room = make_room(client, time_control={"kind": "realtime", "minutes": 10})
    assert room["room"]["time_control"]["kind"] == "realtime"
    code = room["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, room["tokens"]["0"])
        first = state(ws, lambda m: m["acting"] == [0, 1])
        assert first["clock"]["running"] == [0, 1] and first["clock"]["remaining"][1] <= 600
        _rush(client, code, 1, 0.2)
        after = state(ws, lambda m: m["version"] > first["version"])
        assert after["acting"] == [0]  # seat 1's AI chose for it; seat 0 still thinks
        assert after["clock"]["running"] == [0]


def test_on_timeout_a_seat_can_forfeit_and_the_room_stays_finished(client: TestClient) -> None:
    room = make_room(client, time_control={"kind": "turn", "hours": 1, "on_timeout": "forfeit"})
    code = room["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, room["tokens"]["0"], room["tokens"]["1"])
        first = state(ws, lambda m: m["acting"] == [0, 1])
        ws.send_json({"type": "act", "seat": 0, "version": first["version"], "action": "2"})
        state(ws, lambda m: m["acting"] == [1])
        _rush(client, code, 1, 0.2)
        over = state(ws, lambda m: m["over"])
        assert over["result"]["forfeited"] == [1] and over["result"]["winners"] == [0]
        assert over["acting"] == [] and over["clock"]["running"] == []
        ws.send_json({"type": "act", "seat": 1, "version": over["version"], "action": "1"})
        assert error(ws)["reason"] == "game_over"  # no more moves
    # Reloaded from the database (a finished room nobody watches is let go already).
    client.app.state.hub.rooms.pop(code, None)  # type: ignore[attr-defined]
    info = client.get(f"/api/rooms/{code}").json()
    assert info["over"]


def test_clocks_survive_a_restart(tmp_path: Path) -> None:
    db = f"sqlite:///{tmp_path / 'clocks.db'}"
    settings = Settings(ai_delay=0.0, rooms_per_minute=1000)
    with TestClient(create_app(db, settings)) as client:
        room: dict[str, Any] = make_room(client, time_control={"kind": "realtime", "minutes": 5, "increment": 2})
        code = room["code"]
        with client.websocket_connect(f"/ws/{code}") as ws:
            hello(ws, room["tokens"]["0"], room["tokens"]["1"])
            first = state(ws, lambda m: m["acting"] == [0, 1])
            ws.send_json({"type": "act", "seat": 0, "version": first["version"], "action": "2"})
            before = state(ws, lambda m: m["acting"] == [1])["clock"]
    store = open_storage(db)
    stored = json.loads(store.load_room(code).clock)  # type: ignore[union-attr,arg-type]
    store.close()
    assert stored["running"] == [1] and stored["remaining"] == before["remaining"]
    assert 300 < stored["remaining"][0] <= 302  # seat 0 moved quickly and got its 2 s increment
    with TestClient(create_app(db, settings)) as client, client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws, room["tokens"]["1"])
        after = state(ws)["clock"]
        assert after["remaining"] == before["remaining"] and after["since"] == before["since"]
        assert after["running"] == [1]
