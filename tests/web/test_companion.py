"""Companion mode: every phone in the room sees the same card, dealt from the game's own generator."""

from __future__ import annotations

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient

from polytable.core import CHANCE, ConfigError, get_game

from .conftest import error, hello, state


def _game_or_skip(game_id: str) -> None:
    try:
        get_game(game_id)
    except ConfigError:
        pytest.skip(f"{game_id} is not installed yet")


@pytest.mark.parametrize("game_id", ["formfinity", "foldris"])
def test_all_phones_see_the_same_cards_in_the_games_own_order(client: TestClient, game_id: str) -> None:
    _game_or_skip(game_id)
    r = client.post("/api/rooms", json={"game": game_id, "mode": "companion", "seed": 3})
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    with client.websocket_connect(f"/ws/{code}") as a, client.websocket_connect(f"/ws/{code}") as b:
        hello(a)
        hello(b)
        msg = state(a)
        state(b)
        assert msg["companion"]["card"] is None and msg["companion"]["can_deal"]
        for _ in range(3):
            a.send_json({"type": "deal", "version": msg["version"]})
            msg = state(a, lambda m, v=msg["version"]: m["version"] > v)
            other = state(b, lambda m, v=msg["version"]: m["version"] == v)
            assert other["companion"] == msg["companion"]
        cards = [c["text"] for c in msg["companion"]["history"]]
        card = msg["companion"]["card"]
        assert card["shape"] and all(set(row) <= {"#", "."} for row in card["shape"])
        b.send_json({"type": "deal", "version": msg["version"] - 1})
        assert error(b)["code"] == "stale"
        a.send_json({"type": "undeal", "version": msg["version"]})
        msg = state(a, lambda m, v=msg["version"]: m["version"] > v)
        assert [c["text"] for c in msg["companion"]["history"]] == cards[:-1]
        a.send_json({"type": "act", "seat": 0, "version": msg["version"], "action": "x"})
        assert error(a)["code"] in ("forbidden", "bad")
    # The cards are the ones the game itself deals from that seed.
    game = get_game(game_id)
    s = game.new_game(seed=3)
    first = game.format_action(game.chance_outcome(s), s)
    assert game.current_player(s) == CHANCE and first == cards[0]
    # A companion room is rebuilt from its log like any other (checking each card against the seed).
    hub = client.app.state.hub  # type: ignore[attr-defined]
    del hub.rooms[code]
    assert client.get(f"/api/rooms/{code}").json()["version"] == msg["version"]


def test_foldris_deck_runs_out(client: TestClient) -> None:
    _game_or_skip("foldris")
    deck = "I 1\nO 2\nT 3\n"
    r = client.post("/api/rooms", json={"game": "foldris", "mode": "companion", "options": {"deck": deck}})
    assert r.status_code == 201, r.text
    with client.websocket_connect(f"/ws/{r.json()['code']}") as ws:
        hello(ws)
        msg = state(ws)
        while msg["companion"]["can_deal"]:
            ws.send_json({"type": "deal", "version": msg["version"]})
            msg = state(ws, lambda m, v=msg["version"]: m["version"] > v)
        assert len(msg["companion"]["history"]) == 3 and msg["companion"]["deck_left"] == 0
        ws.send_json({"type": "deal", "version": msg["version"]})
        assert "empty" in error(ws)["message"]


def test_a_round_is_one_card_for_each_player_when_they_take_turns_and_the_history_has_the_cards() -> None:
    from polytable.match import Table

    table = Table.companion("formfinity", {}, 3, 1)  # players take turns, seat 1 first
    rounds = []
    for i in range(7):
        table.deal(i)
        rounds.append(table.message()["companion"]["round"])
    assert rounds == [1, 1, 1, 2, 2, 2, 3]
    assert len(table.message()["companion"]["history"]) == 7  # every card revealed so far
    together = Table.companion("foldris", {}, 3, 1)  # everyone uses each card at once; the first sets up
    seen = []
    for i in range(4):
        together.deal(i)
        seen.append(together.message()["companion"]["round"])
    assert seen == [0, 1, 2, 3]


def test_a_server_companion_room_sends_the_cards_revealed(client: TestClient) -> None:
    r = client.post("/api/rooms", json={"game": "foldris", "mode": "companion", "players": 2, "seed": 4})
    code = r.json()["code"]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws)
        msg = state(ws)
        for _ in range(3):
            ws.send_json({"type": "deal", "version": msg["version"]})
            msg = state(ws, lambda m, v=msg["version"]: m["version"] > v)
    cards = msg["companion"]["history"]  # what the room page lists as the history, in words
    assert len(cards) == 3 and all(c["name"] and c["lane"] for c in cards)
    assert msg["companion"]["round"] == 2  # the start card, then rounds 1 and 2
