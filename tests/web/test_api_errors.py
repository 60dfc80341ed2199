"""Every ``/api/...`` error names the real problem: an unknown address or method, a value of the wrong kind,
a clock, a step, a board, a picture, a puzzle, a printable; each is JSON with a reason the client shows in
English and Dutch (the room-creation counts, such as ``players: -2``, are checked with the rooms)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from polytable.core import get_game

from .conftest import make_room

I18N = Path(__file__).resolve().parents[2] / "src" / "polytable" / "web" / "static" / "i18n"
EN = json.loads((I18N / "en.json").read_text(encoding="utf-8"))
NL = json.loads((I18N / "nl.json").read_text(encoding="utf-8"))


def _need(*games: str) -> None:
    for g in games:
        try:
            get_game(g)
        except Exception:
            pytest.skip(f"{g} is not installed")


def _refused(r: Any, status: int, reason: str, *said: str) -> dict[str, Any]:
    """The response is a JSON error with this status and reason, its message says ``said``, and both
    languages have a text for it."""
    assert r.status_code == status, (r.status_code, r.text)
    body: dict[str, Any] = r.json()
    assert body["reason"] == reason, body
    for words in said:
        assert words in body["error"], body
    key = f"error.{reason}"
    assert key in EN and key in NL, key
    for name in body["params"]:  # the translations show every part the English names
        assert f"{{{name}}}" in EN[key] and f"{{{name}}}" in NL[key], (key, name)
    return body


def test_an_unknown_api_address_or_method_is_named(client: TestClient) -> None:
    _refused(client.get("/api/nothing/here"), 404, "no_api", "/api/nothing/here")
    _refused(client.post("/api/games"), 405, "bad_method", "/api/games takes GET, not POST")
    _refused(client.get("/api/rooms"), 405, "bad_method", "takes POST, not GET")
    assert client.get("/api/games").status_code == 200  # the real routes still answer


def test_room_requests_of_the_wrong_kind_say_which_part(client: TestClient) -> None:
    _refused(client.post("/api/rooms", json={"game": 5}), 400, "no_game", "a game id from /api/games")
    _refused(client.post("/api/rooms", json={"game": "toy", "seats": {}}), 400, "seats_list", "a list of 2 seat")
    tc = {"game": "toy", "players": 2}
    _refused(
        client.post("/api/rooms", json=tc | {"time_control": "fast"}), 400, "bad_time_control", "must be an object"
    )
    body = _refused(
        client.post("/api/rooms", json=tc | {"time_control": {"kind": "fischer"}}), 400, "bad_time_kind", "'fischer'"
    )
    assert body["params"] == {"kind": "fischer"}
    _refused(
        client.post("/api/rooms", json=tc | {"time_control": {"kind": "turn", "hours": 1, "on_timeout": "pass"}}),
        400,
        "bad_on_timeout",
        "not 'pass'",
    )
    _refused(
        client.post("/api/rooms", json=tc | {"time_control": {"kind": "realtime", "minutes": -5}}),
        400,
        "bad_time_range",
        "minutes must be from 0.1 to 600",
    )


def test_a_companion_room_says_it_has_no_clock_and_no_record(client: TestClient) -> None:
    _need("formfinity")
    clock = {"kind": "realtime", "minutes": 5}
    r = client.post("/api/rooms", json={"game": "formfinity", "mode": "companion", "time_control": clock})
    _refused(r, 400, "companion_clock", "no clocks")
    code = client.post("/api/rooms", json={"game": "formfinity", "mode": "companion"}).json()["code"]
    _refused(client.get(f"/api/rooms/{code}/record"), 409, "companion_record", "only deals cards")
    _refused(client.get(f"/api/rooms/{code}/step/0"), 409, "companion_record", "only deals cards")


def test_a_step_that_is_not_a_position_says_which_positions_exist(client: TestClient) -> None:
    room = make_room(client, seats=[{"kind": "ai"}, {"kind": "ai"}])
    code = room["code"]
    for _ in range(200):
        if client.get(f"/api/rooms/{code}").json()["over"]:
            break
    else:
        pytest.fail("the AI game did not finish")
    total = client.get(f"/api/rooms/{code}/record").json()["actions"]
    for bad in ("-1", "x", "99999"):
        body = _refused(client.get(f"/api/rooms/{code}/step/{bad}"), 400, "no_position", "positions 0 to")
        assert body["params"] == {"total": len(total)}
    assert client.get(f"/api/rooms/{code}/step/1").json()["position"] == 1


def test_boards_puzzles_and_pictures_name_the_problem(client: TestClient) -> None:
    _need("quadefy", "formfinity")
    body = _refused(client.get("/api/boards/chess"), 404, "unknown_game", "there is no game 'chess'")
    assert body["params"] == {"game": "chess"}
    _refused(client.get("/api/boards/foldris"), 404, "no_tables", "needs no tables")
    body = _refused(client.get("/api/puzzle/quadefy", params={"pattern": "spirals"}), 400, "no_pattern_name")
    assert "no pattern named 'spirals'" in body["error"] and "spiral" in body["params"]["patterns"]
    assert client.get("/api/puzzle/quadefy", params={"pattern": "halves"}).status_code == 200
    _refused(client.post("/api/puzzle/quadefy/check", json={}), 400, "no_pattern", "give a pattern")
    check = {"pattern": "halves", "blocks": "all"}
    _refused(client.post("/api/puzzle/quadefy/check", json=check), 400, "puzzle_blocks", "at most 16")
    check = {"pattern": "halves", "blocks": [{"colour": 3}]}
    _refused(client.post("/api/puzzle/quadefy/check", json=check), 400, "puzzle_block", "colour: 0 or 1")
    _refused(client.post("/api/cards/read", content=b"not an image"), 400, "engine.companion.not_picture", "JPEG")


def test_printables_name_the_variant_and_print_a_play_rooms_sheet(client: TestClient) -> None:
    _need("quadefy", "formfinity", "forma")
    assert client.get("/print/quadefy-puzzles.pdf", params={"variant": "halves"}).status_code == 200
    r = client.get("/print/quadefy-puzzles.pdf", params={"variant": "nope"})
    _refused(r, 400, "engine.print.unknown_pattern", "unknown pattern 'nope'; patterns: all, halves")
    r = client.get("/print/formfinity.pdf", params={"variant": "9"})
    _refused(r, 400, "engine.print.no_variant_here", "no variant '9' here: choose 1, 2, 3, 4 or blank")
    code = client.post("/api/rooms", json={"game": "forma", "players": 2}).json()["code"]
    r = client.get(f"/print/room/{code}.pdf")  # the board of the room's game, for any player count
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
