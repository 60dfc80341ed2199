"""The offline table (polytable.match.Table) speaks the room protocol as a server room does: the same
messages with the same fields, refusals that change nothing, undo, AI seats, hints and records."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient

from polytable.ai import make_bot
from polytable.core import get_game
from polytable.match import Match, Table, game_catalogue

from .conftest import hello, make_room, state


def test_the_state_message_has_every_field_a_server_room_sends(client: TestClient) -> None:
    room = make_room(client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, *room["tokens"].values())
        server = state(ws)
    table = Table.new("toy", {"rounds": 2}, 2, 7, [{"name": "Ann"}, {"name": "Bob"}], make_bot)
    mine = table.message()
    assert set(server) <= set(mine)
    assert set(server["room"]) <= set(mine["room"])
    part_keys = set(next(iter(server["mine"].values())))
    assert all(part_keys <= set(p) for p in mine["mine"].values())


@pytest.mark.parametrize("gid", [g["id"] for g in game_catalogue()])
def test_a_refused_move_changes_nothing_and_undo_takes_back_ones_own(gid: str) -> None:
    spec = get_game(gid).spec
    table = Table.new(gid, {}, spec.min_players, 3, None, make_bot)
    seat = table.acting()[0]
    before = table.message()
    replies = table.handle({"type": "act", "seat": seat, "version": table.version, "action": "no such move"})
    assert replies[0]["type"] == "error" and replies[0]["message"]
    assert replies[0]["reason"].startswith("engine.") and isinstance(replies[0]["params"], dict)  # as a server room
    assert table.message() == before
    stale = table.handle({"type": "act", "seat": seat, "version": table.version + 5, "action": "x"})
    assert stale[0]["type"] == "error"
    move = table.hint(seat)[0]
    out = table.handle({"type": "act", "seat": seat, "version": table.version, "action": move})
    assert out[-1]["type"] == "state" and out[-1]["version"] > before["version"]
    if table.match.can_undo(seat):
        back = table.handle({"type": "undo", "seat": seat, "version": table.version})
        # The board is back where it was, under a new version (a version names one state for ever).
        assert back[-1]["version"] > out[-1]["version"] and back[-1]["mine"] == before["mine"]
    preview = table.handle({"type": "preview", "seat": seat, "action": move, "ask": 3})
    assert preview[0]["type"] == "preview" and preview[0]["ask"] == 3


def test_ai_seats_play_to_the_end_and_the_record_replays() -> None:
    table = Table.new("qwirkle-cubes", {}, 2, 4, [{"ai": "random"}, {"ai": "easy"}], make_bot)
    assert table.welcome()["seats"] == []
    assert table.message()["spectator"] is not None
    while table.ai_step():
        pass
    assert table.match.is_over()
    assert Match.replay(table.record()).is_over()
    again = Table.resume(table.record(), [{"ai": "random"}, {"ai": "easy"}], make_bot)
    assert again.message()["version"] == table.message()["version"]


def test_a_seat_played_by_an_ai_cannot_be_moved_by_hand() -> None:
    table = Table.new("quadefy", {}, 2, 1, [{"ai": "random"}, {"name": "Ann"}], make_bot)
    move = next(iter(table.match.game.legal_actions(table.match.state, 0)))
    text = table.match.game.format_action(move, table.match.state)
    replies = table.handle({"type": "act", "seat": 0, "version": 0, "action": text})
    assert replies[0]["type"] == "error" and "you do not hold seat 1" in replies[0]["message"]
    assert (replies[0]["reason"], replies[0]["params"]) == ("not_your_seat", {"seat": 1})


def test_a_companion_table_deals_takes_back_and_resumes_as_a_server_room_does() -> None:
    table = Table.companion("foldris", {}, 3, 5)
    first = table.message()
    assert first["room"]["mode"] == "companion" and first["mine"] == {} and "companion" in first
    replies = table.handle({"type": "deal", "version": 0})
    assert replies[-1]["version"] == 1 and replies[-1]["companion"]["start_lanes"]
    table.handle({"type": "deal", "version": 1})
    stale = table.handle({"type": "deal", "version": 0})
    assert stale[0]["type"] == "error"
    table.handle({"type": "undeal", "version": 2})
    assert len(table.dealer.dealt) == 1  # type: ignore[union-attr]
    assert table.handle({"type": "act", "seat": 0, "version": 1, "action": "x"})[0]["type"] == "error"
    again = Table.resume(table.record())
    assert again.message()["companion"] == table.message()["companion"]
    printed = Table.companion("formfinity", {}, 2, 1)
    printed.handle({"type": "deal", "version": 0, "card": "33"})  # a printed QR card's number
    assert printed.dealer is not None and printed.dealer.physical
