"""One damaged room is that room's problem only: start-up and the other rooms carry on, the room tells its
players it cannot be continued and why, the operator gets a log line and a metric, and ``polytable rooms
check`` / ``repair`` list such rooms and cut one back to its last consistent position."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

pytest.importorskip("starlette")
pytest.importorskip("sqlalchemy")

from sqlalchemy import text
from starlette.testclient import TestClient
from typer.testing import CliRunner

from polytable.cli import app as cli_app
from polytable.core import get_game
from polytable.match import Match
from polytable.storage import RoomRecord, SeatRecord, open_storage
from polytable.web import Settings, create_app

from .conftest import hello, state


def _played(code: str, moves: int) -> RoomRecord:
    """A toy room of two seats with ``moves`` log entries played by the first legal action each time."""
    game = get_game("toy")
    match = Match(game, {"rounds": 4}, 2, 11)
    match.resolve_chance()
    while len(match.log) < moves and not match.is_over():
        p = match.acting_players()[0]
        match.play(game.format_action(next(iter(game.legal_actions(match.state, p))), match.state), p)
        match.resolve_chance()
    seats = (SeatRecord("Ann", "here", None, "a" * 64), SeatRecord("Bo", "here", None, "b" * 64))
    return RoomRecord(
        code,
        "toy",
        game.spec.rules_version,
        2,
        {"rounds": 4},
        11,
        seats,
        actions=[(e.player, e.action) for e in match.log],
    )


def _database(tmp_path: Path) -> str:
    url = f"sqlite:///{tmp_path / 'rooms.db'}"
    store = open_storage(url)
    for code in ("GREAT", "HXPEB", "BADCC"):
        store.create_room(_played(code, 6))
    with store.engine.begin() as conn:  # what a crash of an earlier version could leave behind
        conn.execute(text("DELETE FROM pt_actions WHERE room = 'HXPEB' AND pos = 3"))
        conn.execute(text("UPDATE pt_actions SET action = 'nonsense' WHERE room = 'BADCC' AND pos = 4"))
    store.close()
    return url


def test_damaged_rooms_stop_only_themselves_and_say_why(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    url = _database(tmp_path)
    with caplog.at_level(logging.ERROR, logger="polytable.web"):
        app = create_app(url, Settings(ai_delay=0.0, rooms_per_minute=1000))
        with TestClient(app) as client:  # start-up resumes every room: the damaged ones do not stop it
            for code, moves in (("HXPEB", 3), ("BADCC", 4)):
                with client.websocket_connect(f"/ws/{code}") as ws:
                    hello(ws)
                    seen = state(ws)
                    assert seen["error_reason"] == "damaged" and seen["error_params"] == {"moves": moves}
                    assert seen["moves"] == moves  # held at its last consistent position
            metrics = client.get("/metrics").text
            assert "polytable_rooms_damaged 2.0" in metrics
            r = client.get("/api/rooms/GREAT")
            assert r.status_code == 200 and not r.json()["over"]
    assert "room HXPEB cannot be continued: the action log has a hole at position 3" in caplog.text
    assert "room BADCC cannot be continued: entry 4 does not apply" in caplog.text


def test_rooms_check_lists_damaged_rooms_and_repair_cuts_one_back(tmp_path: Path) -> None:
    url = _database(tmp_path)
    runner = CliRunner()
    out = runner.invoke(cli_app, ["rooms", "check", "--db", url])
    assert out.exit_code == 1, out.output
    assert "HXPEB (toy): 3 of 3 log entries replay; the action log has a hole at position 3" in out.output
    assert "BADCC (toy): 4 of 7 log entries replay; entry 4 does not apply" in out.output
    assert "GREAT" not in out.output and "3 rooms checked, 2 cannot be continued" in out.output
    fixed = runner.invoke(cli_app, ["rooms", "repair", "HXPEB", "--db", url])
    assert fixed.exit_code == 0 and "cut back to 3 log entries" in fixed.output
    assert runner.invoke(cli_app, ["rooms", "repair", "GREAT", "--db", url]).output.startswith("room GREAT is whole")
    assert runner.invoke(cli_app, ["rooms", "repair", "NOPE1", "--db", url]).exit_code == 2
    again = runner.invoke(cli_app, ["rooms", "check", "--db", url])
    assert "HXPEB" not in again.output and "1 cannot be continued" in again.output
    store = open_storage(url)
    record = store.load_room("HXPEB")
    assert record is not None and len(record.actions) == 3 and record.damage is None
    store.close()
    with TestClient(create_app(url, Settings(ai_delay=0.0))) as client, client.websocket_connect("/ws/HXPEB") as ws:
        hello(ws)
        seen = state(ws)
        assert seen["error"] is None and seen["moves"] == 4 and seen["acting"]  # it goes on (the deal at 3)
