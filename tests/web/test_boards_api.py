"""The server side of the dedicated boards: piece tables, move previews, the Quadefy puzzle solver, the
FORMFINITY designer's validation and printing, and the translation files."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from polytable.core import ConfigError, get_game

from .conftest import error, hello, make_room, state, until

STATIC = Path(__file__).resolve().parents[2] / "src" / "polytable" / "web" / "static"


def _need(game_id: str) -> None:
    try:
        get_game(game_id)
    except ConfigError:
        pytest.skip(f"{game_id} is not installed yet")


def test_forma_piece_tables_agree_with_the_engine(client: TestClient) -> None:
    _need("forma")
    data = client.get("/api/boards/forma").json()
    assert len(data["pieces"]) == 21
    assert sum(len(p["orients"]) for p in data["pieces"]) == 91
    game = get_game("forma")
    state0 = game.new_game({"setup": "tower r17", "obstacles": 0, "touch_move": False}, 0, 2)
    for piece in data["pieces"]:
        assert len(piece["of_k"]) == 8
        for o in piece["orients"]:
            after = game.apply_text(state0, f"{piece['name']} {o['text']} @ f6")
            cells = sorted(game.view(after, 0)["players"][0]["pieces"])
            expect = sorted(f"{chr(ord('f') + dx)}{6 + dy}" for dx, dy in o["cells"])
            assert cells == expect, (piece["name"], o["text"])
    assert client.get("/api/boards/no-such-game").status_code == 404
    # What the board explains a previewed placement with, as the rulebook says (the engine measured).
    assert data["points"] == {"enclosure": 10, "bridge": 50}


def test_quadefy_tables_and_puzzle_answer(client: TestClient) -> None:
    _need("quadefy")
    data = client.get("/api/boards/quadefy").json()
    assert sum(len(b["orients"]) for b in data["blocks"]) == 86
    assert all(len(p["dark"]) == 32 for p in data["patterns"])
    r = client.get("/api/puzzle/quadefy", params={"pattern": "halves"}).json()
    assert r["solved"] and all(c is not None for c in r["cells"])
    dark = set(r["dark"])
    assert all((i in dark) == (c["owner"] == 0) for i, c in enumerate(r["cells"]))
    assert client.get("/api/puzzle/quadefy", params={"pattern": "XX"}).status_code == 400
    assert client.get("/api/puzzle/quadefy").status_code == 400


def test_preview_scores_a_move_without_making_it(client: TestClient) -> None:
    _need("forma")
    room = make_room(client, game="forma", seed=3, options={"obstacles": 0, "setup": "tower j10", "touch_move": False})
    with client.websocket_connect(f"/ws/{room['code']}") as ws:
        hello(ws, room["tokens"]["0"])
        st = state(ws)
        ws.send_json({"type": "preview", "seat": 0, "action": "L4 r0 @ c10", "ask": 7})
        p = until(ws, lambda m: m["type"] == "preview")
        assert p["ok"] and p["ask"] == 7 and p["delta"] == 4.0
        assert sorted(p["view"]["players"][0]["pieces"]) == ["c10", "c8", "c9", "d8"]
        assert p["version"] == st["version"]  # nothing was played
        ws.send_json({"type": "preview", "seat": 0, "action": "L4 r0 @ j10"})  # the tower is there
        bad = until(ws, lambda m: m["type"] == "preview")
        assert not bad["ok"] and bad["message"]
        ws.send_json({"type": "preview", "seat": 1, "action": "L4 r0 @ c10"})  # a seat we do not hold
        assert error(ws)["code"] == "forbidden"
        ws.send_json({"type": "preview", "seat": 0, "action": "", "ask": "x"})
        assert error(ws)["code"] == "bad"
        ws.send_json({"type": "sync"})
        assert state(ws)["version"] == st["version"]


VARIANT = '''name = "Tiny"
players = [2, 3]
template = """
. . . . . .
. # . . . .
. . . . . .
. . . . # .
"""
[goal]
type = "lines"
length = 4
target = 2
'''


def test_designer_validates_prints_and_plays(client: TestClient) -> None:
    _need("formfinity")
    ok = client.post("/api/formfinity/validate", json={"variant_file": VARIANT}).json()
    assert ok == {"ok": True, "name": "Tiny", "goal": "lines", "players": [2, 3], "width": 6, "height": 4}
    bad = client.post("/api/formfinity/validate", json={"variant_file": VARIANT.replace("length = 4", "length = 9")})
    assert not bad.json()["ok"] and "9" in bad.json()["message"]
    assert not client.post("/api/formfinity/validate", json={"variant_file": 5}).json()["ok"]
    pdf = client.post("/api/formfinity/print", json={"variant_file": VARIANT, "paper": "letter"})
    assert pdf.status_code == 200 and pdf.content.startswith(b"%PDF")
    assert client.post("/api/formfinity/print", json={"variant_file": "x"}).status_code == 400
    room = make_room(client, game="formfinity", seed=1, options={"variant": "custom", "variant_file": VARIANT})
    assert room["room"]["game"] == "formfinity"


def test_the_designer_takes_its_figures_from_the_rules(client: TestClient) -> None:
    """Every bound the designer page draws its fields from is the one the variant parser enforces: a file
    at each bound validates, one just past it is refused."""
    _need("formfinity")
    data = client.get("/api/formfinity/designer").json()
    side, players, length, target = data["side"], data["players"], data["length"], data["target"]
    assert side["min"] <= side["width"] <= side["max"] and side["min"] <= side["height"] <= side["max"]
    assert length["min"] <= length["start"] <= length["max"] and target["min"] <= target["start"] <= target["max"]
    assert data["goals"] == ["lines", "areas", "connection", "numbers"]
    assert 1 <= data["balance_games"]["start"] <= data["balance_games"]["max"]

    def valid(**parts: object) -> bool:
        head = f"players = {parts.get('players', 2)}\n"
        rows = parts.get("rows", 6)
        cols = parts.get("cols", 6)
        grid = "\n".join(" ".join("." * cols) for _ in range(rows))
        goal = f"length = {parts.get('length', 2)}\ntarget = {parts.get('target', 1)}\n"
        body = f'{head}template = """\n{grid}\n"""\n[goal]\ntype = "lines"\n{goal}'
        return bool(client.post("/api/formfinity/validate", json={"variant_file": body}).json()["ok"])

    assert valid() and valid(players=players["max"]) and valid(players=players["min"])
    assert not valid(players=players["max"] + 1) and not valid(players=players["min"] - 1)
    assert valid(length=length["min"]) and not valid(length=length["min"] - 1)
    assert not valid(length=length["max"] + 1, rows=side["max"], cols=side["max"])
    assert valid(length=length["max"], rows=1, cols=side["max"]) and not valid(rows=1, cols=side["max"] + 1)
    assert valid(target=target["min"]) and not valid(target=target["min"] - 1)
    assert not valid(target=target["max"] + 1)


def test_printables_never_read_a_path_named_in_a_request(client: TestClient) -> None:
    _need("formfinity")
    r = client.get("/print/formfinity.pdf", params={"variant": "/etc/passwd"})
    assert r.status_code == 400 and "root:" not in r.text
    assert client.get("/print/formfinity.pdf", params={"variant": "blank"}).status_code == 200


def test_every_translation_key_exists_in_english_and_dutch() -> None:
    en = json.loads((STATIC / "i18n" / "en.json").read_text(encoding="utf-8"))
    nl = json.loads((STATIC / "i18n" / "nl.json").read_text(encoding="utf-8"))
    assert set(en) == set(nl)
    used: set[str] = set()
    for js in STATIC.rglob("*.js"):
        used |= set(re.findall(r'\bt\("([\w.]+)"', js.read_text(encoding="utf-8")))
    missing = sorted(k for k in used if k not in en)
    assert not missing, missing
    for key, text in en.items():  # the same placeholders in both languages
        assert set(re.findall(r"\{(\w+)\}", text)) == set(re.findall(r"\{(\w+)\}", nl[key])), key
