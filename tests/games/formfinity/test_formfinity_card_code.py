"""FORMFINITY card codes (what a printed QR card carries): every card survives the round trip, in Python
and in the browser's reader, and anything that is not a card is refused with a reason."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from polytable.games.formfinity import NUM_CARDS, Card, card_code, card_url, parse_card, parse_card_code

STATIC = Path(__file__).resolve().parents[3] / "src" / "polytable" / "web" / "static"


def test_every_card_round_trips_through_its_code_and_its_url() -> None:
    codes = set()
    for i in range(NUM_CARDS):
        card = Card.from_id(i)
        code = card_code(card)
        assert 1 <= len(code) <= 7 and code.isalnum() and code == code.upper()
        assert parse_card_code(code) == card
        assert parse_card_code(card_url(card, "https://play.example/")) == card
        assert parse_card_code(code.lower()) == card
        codes.add(code)
    assert len(codes) == NUM_CARDS  # no two cards share a code


def test_a_code_carries_the_drawing_not_a_table_index() -> None:
    # Pinned: a printed card must keep meaning the same card whatever the engine's shape order becomes.
    assert card_code(parse_card("##/#.x2:TR:r")) == "IAV"
    assert card_url(parse_card("#x1:-:f"), "http://h:8000") == "http://h:8000/c/2DC"


@pytest.mark.parametrize(
    "text",
    ["", "hello!", "ZZZZZZZZZ", "0", "1", "S1", "http://h/c/", "http://h/c/??"],
)
def test_what_is_not_a_card_code_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match=r"card code|square|shape"):
        parse_card_code(text)


def test_codes_of_shapes_with_empty_rows_or_broken_drawings_are_refused() -> None:
    # w=2, rows "#." and ".#": two squares touching only at a corner.
    value = ((((1 << 4 | 0b1001) << 3 | 1) << 2 | 0) << 4 | 0) << 1
    digits = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"
    code = ""
    while value:
        value, d = divmod(value, 36)
        code = digits[d] + code
    with pytest.raises(ValueError, match="does not describe a card"):
        parse_card_code(code)


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed")
def test_the_browser_reader_reads_every_code_as_the_engine_does(tmp_path: Path) -> None:
    expected = {card_code(Card.from_id(i)): Card.from_id(i).notation() for i in range(NUM_CARDS)}
    script = tmp_path / "read.mjs"
    script.write_text(
        f"import {{ decodeCard }} from {json.dumps((STATIC / 'cardcode.js').as_uri())};\n"
        "import { readFileSync } from 'node:fs';\n"
        "const codes = JSON.parse(readFileSync(process.argv[2], 'utf8'));\n"
        "const out = {};\n"
        "for (const c of codes) { const card = decodeCard(c); out[c] = card ? card.text : null; }\n"
        "for (const bad of ['', '0', 'S1', 'ZZZZZZZZZ']) out[bad] = decodeCard(bad);\n"
        "console.log(JSON.stringify(out));\n"
    )
    (tmp_path / "codes.json").write_text(json.dumps(sorted(expected)))
    run = subprocess.run(
        ["node", str(script), str(tmp_path / "codes.json")], capture_output=True, text=True, timeout=60
    )
    assert run.returncode == 0, run.stderr
    got = json.loads(run.stdout)
    assert {c: got[c] for c in expected} == expected
    assert got[""] is None and got["0"] is None and got["S1"] is None and got["ZZZZZZZZZ"] is None
