"""The companion follows its game: the variant's arrows and player counts, whose turn it is, the room's own
sheet, Foldris' lanes, and a printed QR deck whose cards are given (scanned, photographed or typed)."""

from __future__ import annotations

import io
import json
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("starlette")
from starlette.testclient import TestClient, WebSocketTestSession

from polytable.games.formfinity import Card, card_code, card_url, parse_card
from polytable.printables import printables

from .conftest import error, hello, state


def _room(client: TestClient, game: str = "formfinity", **body: Any) -> str:
    r = client.post("/api/rooms", json={"game": game, "mode": "companion", "seed": 5, **body})
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def _deal(ws: WebSocketTestSession, msg: dict[str, Any], card: str | None = None) -> dict[str, Any]:
    body: dict[str, Any] = {"type": "deal", "version": msg["version"]}
    if card is not None:
        body["card"] = card
    ws.send_json(body)
    return state(ws, lambda m, v=msg["version"]: m["version"] > v)


@pytest.mark.parametrize(("variant", "arrows"), [("1", True), ("2", False), ("3", True), ("4", False)])
def test_cards_show_arrows_only_where_the_variant_applies_them(client: TestClient, variant: str, arrows: bool) -> None:
    code = _room(client, players=2, options={"variant": variant})
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws)
        msg = state(ws)
        assert msg["companion"]["variant"]["arrows"] is arrows
        seen = ""
        for _ in range(12):
            msg = _deal(ws, msg)
            card = msg["companion"]["card"]
            assert card["arrows_apply"] is arrows
            seen += card["arrows"]
            if not arrows:
                assert card["arrows"] == ""
        if arrows:  # 12 generated cards without a single arrow would be a broken caption
            assert seen


def test_whose_turn_it_is_follows_the_cards_seat_by_seat(client: TestClient) -> None:
    code = _room(client, players=3)
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws)
        msg = state(ws)
        assert msg["companion"]["turn"] == 0 and msg["companion"]["card"] is None  # seat 1 draws first
        turns = []
        for _ in range(4):
            msg = _deal(ws, msg)
            turns.append(msg["companion"]["turn"])
        assert turns == [0, 1, 2, 0]


def test_the_home_form_learns_which_player_counts_each_variant_allows(client: TestClient) -> None:
    games = {g["id"]: g for g in client.get("/api/games").json()}
    counts = games["formfinity"]["player_counts"]
    assert counts["variant"]["3"] == [2] and counts["variant"]["4"] == [2]
    assert "1" not in counts["variant"]  # the game's own 2-4 stand
    r = client.post(
        "/api/rooms", json={"game": "formfinity", "mode": "companion", "players": 3, "options": {"variant": "3"}}
    )
    assert r.status_code == 400  # what the form no longer offers is still refused


@pytest.mark.parametrize("variant", ["2", "3"])
def test_the_print_link_gives_the_rooms_own_variant_and_template(client: TestClient, variant: str) -> None:
    code = _room(client, players=2, options={"variant": variant})
    r = client.get(f"/print/room/{code}.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")
    pypdfium2 = pytest.importorskip("pypdfium2")
    text = pypdfium2.PdfDocument(r.content)[0].get_textpage().get_text_range()
    name = {"2": "Variant 2: fill the area", "3": "Variant 3: black squares"}[variant]
    assert name in text and "Variant 1" not in text
    assert client.get("/print/room/NOPE1.pdf").status_code == 404


def test_foldris_companion_names_the_start_lanes_and_the_barrier_lane(client: TestClient) -> None:
    code = _room(client, "foldris", players=3)
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws)
        msg = _deal(ws, state(ws))
        first = msg["companion"]["card"]["lane"]
        lanes = msg["companion"]["start_lanes"]
        assert lanes[0] == first and lanes == [(first - 1 + p) % 7 + 1 for p in range(3)]
        assert msg["companion"]["turn"] is None  # everyone draws the same block
        msg = _deal(ws, msg)
        assert "start_lanes" in msg["companion"] and isinstance(msg["companion"]["card"]["lane"], int)
    r = client.get(f"/print/room/{code}.pdf")
    assert r.status_code == 200 and r.content.startswith(b"%PDF")


def test_a_printed_deck_drives_the_room_in_any_order(client: TestClient) -> None:
    cards = [parse_card("##/#.x2:TR:r"), parse_card("#x1:-:f"), parse_card("###x3:TB:f")]
    code = _room(client, players=2)
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws)
        msg = state(ws)
        assert msg["companion"]["can_give"] and msg["companion"]["can_deal"]
        # By its printed number, its QR code's address, and its code alone: each is the drawn card.
        msg = _deal(ws, msg, str(cards[0].id))
        assert msg["companion"]["physical"] and not msg["companion"]["can_deal"]
        msg = _deal(ws, msg, card_url(cards[1], "http://192.168.1.5:8000"))
        msg = _deal(ws, msg, card_code(cards[2]))
        history = msg["companion"]["history"]
        assert [c["text"] for c in history] == [c.notation() for c in cards]
        assert all(c["given"] for c in history) and msg["companion"]["turn"] == 0
        assert history[1]["number"] == cards[1].id
        # The same card again is fine (a deck may hold copies); no seeded deal in a physical room.
        msg = _deal(ws, msg, str(cards[0].id))
        ws.send_json({"type": "deal", "version": msg["version"]})
        assert error(ws)["code"] == "illegal"
        # Not a card: a clear error, nothing changes.
        before = msg["version"]
        for bad in ("99999", "ZZZZZZZZZ", "http://x/c/0"):
            ws.send_json({"type": "deal", "version": before, "card": bad})
            err = error(ws)
            assert err["reason"] == "bad_card" and err["message"]
        ws.send_json({"type": "deal", "version": before, "card": 12})
        assert error(ws)["reason"] == "bad_card_text"
        ws.send_json({"type": "sync"})
        assert state(ws)["version"] == before
    # Rebuilt from its log: the given cards come back as given (they were never drawn from the seed).
    hub = client.app.state.hub  # type: ignore[attr-defined]
    del hub.rooms[code]
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws)
        again = state(ws)["companion"]
        assert [c["text"] for c in again["history"]] == [c.notation() for c in cards + cards[:1]]
        assert again["physical"]


def test_a_room_that_dealt_from_its_seed_refuses_a_scanned_card(client: TestClient) -> None:
    code = _room(client)
    with client.websocket_connect(f"/ws/{code}") as ws:
        hello(ws)
        msg = _deal(ws, state(ws))
        assert not msg["companion"]["can_give"]
        ws.send_json({"type": "deal", "version": msg["version"], "card": "1"})
        assert error(ws)["reason"] == "bad_card"
    foldris = _room(client, "foldris")
    with client.websocket_connect(f"/ws/{foldris}") as ws:
        hello(ws)
        msg = state(ws)
        assert not msg["companion"]["can_give"]
        ws.send_json({"type": "deal", "version": msg["version"], "card": "1"})
        assert error(ws)["reason"] == "bad_card"


def _face_png(card: Card, tmp: Path) -> bytes:
    """A picture of a printed card's face: a one-card QR deck's first page, rendered, cropped to the card."""
    pypdfium2 = pytest.importorskip("pypdfium2")
    path = tmp / "deck.pdf"
    deck = json.dumps({"cards": [card.notation()]})
    printables()["formfinity-cards"](str(path), "a4", {"count": "1", "qr": "1", "base_url": "http://t", "deck": deck})
    image = pypdfium2.PdfDocument(str(path))[0].render(scale=2).to_pil()
    w, h = image.size
    out = io.BytesIO()
    image.crop((0, 0, w // 2, h // 3)).save(out, format="PNG")
    return out.getvalue()


def test_the_server_reads_a_photo_of_a_printed_card(client: TestClient, tmp_path: Path) -> None:
    card = parse_card("#./##x2:B:r")
    r = client.post("/api/cards/read", content=_face_png(card, tmp_path), headers={"Content-Type": "image/png"})
    assert r.status_code == 200, r.text
    assert r.json()["code"] == card_code(card)
    bad = client.post("/api/cards/read", content=b"not a picture")
    assert bad.status_code == 400 and "not a picture" in bad.json()["error"]
    blank = io.BytesIO()
    from PIL import Image

    Image.new("L", (200, 200), 255).save(blank, format="PNG")
    none = client.post("/api/cards/read", content=blank.getvalue())
    assert none.status_code == 400 and "no card" in none.json()["error"]
