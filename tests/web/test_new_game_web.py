"""A game added as one package (the throwaway Nim of ``kernel.throwaway_game``) is offered and played in a
web room with the generic board, with no file of the web app edited."""

from __future__ import annotations

from starlette.testclient import TestClient

from kernel.throwaway_game import nim  # noqa: F401  (the fixture)

from .conftest import hello, make_room, state


def test_a_new_game_plays_in_a_web_room(nim: str, client: TestClient) -> None:  # noqa: F811
    games = client.get("/api/games").json()
    listed = games["games"] if isinstance(games, dict) else games
    assert "nim" in [g["id"] for g in listed]
    room = make_room(client, game=nim, players=2, seed=1, options={"stones": 4})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"], room["tokens"]["1"])
        s = state(ws)
        assert s["mine"]["0"]["view"] == {"left": 4} and s["mine"]["0"]["render"] == "4 stones left"
        ws.send_json({"type": "act", "seat": 0, "version": s["version"], "action": "3"})
        s = state(ws, lambda m: m["mine"]["1"]["view"]["left"] == 1)
        ws.send_json({"type": "act", "seat": 1, "version": s["version"], "action": "1"})
        s = state(ws, lambda m: m["over"])
        assert s["result"]["winners"] == [1]
