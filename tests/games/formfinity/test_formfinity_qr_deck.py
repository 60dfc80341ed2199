"""The printed QRious deck: faces with a QR code and a number only, backs with the card behind its face
(long-edge duplex), and codes that a QR reader turns back into the very cards that were dealt."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from polytable.cli import app
from polytable.games.formfinity import Card, parse_card_code
from polytable.printables import printables

pdfium = pytest.importorskip("pypdfium2")
zxingcpp = pytest.importorskip("zxingcpp")

BASE = "http://192.168.1.5:8000"


def _codes(page: object) -> list[tuple[str, float, float]]:
    image = page.render(scale=1.5).to_pil()  # type: ignore[attr-defined]
    found = []
    for b in zxingcpp.read_barcodes(image):
        p = b.position
        found.append((b.text, (p.top_left.x + p.bottom_right.x) / 2, (p.top_left.y + p.bottom_right.y) / 2))
    return found


def test_the_qr_deck_has_faces_with_codes_and_backs_behind_them(tmp_path: Path) -> None:
    out = tmp_path / "deck.pdf"
    printables()["formfinity-cards"](str(out), "a4", {"count": "14", "seed": "3", "qr": "1", "base_url": BASE + "/"})
    pdf = pdfium.PdfDocument(str(out))
    assert len(pdf) == 4  # 12 + 2 cards: two sheets, each a faces page and a backs page
    faces = _codes(pdf[0]) + _codes(pdf[2])
    assert len(faces) == 14 and not _codes(pdf[1]) and not _codes(pdf[3])  # the backs carry no code
    assert all(text.startswith(BASE + "/c/") for text, _, _ in faces)
    # The same cards as the open deck of that seed, in the same order (faces read left to right, top down).
    open_deck = tmp_path / "open.pdf"
    printables()["formfinity-cards"](str(open_deck), "a4", {"count": "14", "seed": "3"})
    open_text = "".join(pdfium.PdfDocument(str(open_deck))[i].get_textpage().get_text_range() for i in range(2))
    ordered = sorted(_codes(pdf[0]), key=lambda f: (round(f[2] / 50), f[1])) + _codes(pdf[2])
    notations = [parse_card_code(text).notation() for text, _, _ in ordered]
    for n, notation in enumerate(notations, 1):
        assert f"#{n} {notation}" in open_text
    # A face shows the card's number; its back (mirrored on the long edge) shows the card and its number.
    face_text = pdf[0].get_textpage().get_text_range()
    back_text = pdf[1].get_textpage().get_text_range()
    first = parse_card_code(ordered[0][0])
    assert str(first.id) in face_text and first.notation() not in face_text
    assert first.notation() in back_text and f"No. {first.id}" in back_text


def test_the_cli_prints_a_qr_deck_and_refuses_what_does_not_fit(tmp_path: Path) -> None:
    runner = CliRunner()
    out = tmp_path / "qr.pdf"
    ok = runner.invoke(app, ["print", "formfinity-cards", "--qr", "--count", "3", "--base-url", BASE, "-o", str(out)])
    assert ok.exit_code == 0, ok.output
    texts = [t for t, _, _ in _codes(pdfium.PdfDocument(str(out))[0])]
    assert len(texts) == 3 and all(t.startswith(BASE + "/c/") for t in texts)
    for args, says in (
        (["formfinity", "--qr"], "formfinity-cards"),
        (["formfinity-cards", "--base-url", BASE], "goes with --qr"),
        (["formfinity-cards", "--qr", "--base-url", "ftp://x"], "address"),
    ):
        bad = runner.invoke(app, ["print", *args, "-o", str(tmp_path / "x.pdf")])
        assert bad.exit_code != 0 and says in bad.output, bad.output
        assert not (tmp_path / "x.pdf").exists()


def test_the_web_print_of_qr_cards_points_at_the_server_itself() -> None:
    pytest.importorskip("starlette")
    from starlette.testclient import TestClient

    from polytable.web import Settings, create_app

    with TestClient(create_app("sqlite://", Settings(rooms_per_minute=1000))) as client:
        r = client.get("/print/formfinity-cards.pdf?qr=1&count=2")
        assert r.status_code == 200
        texts = [t for t, _, _ in _codes(pdfium.PdfDocument(r.content)[0])]
        assert len(texts) == 2 and all(t.startswith("http://testserver/c/") for t in texts)


def test_the_terminal_deal_takes_printed_cards_and_hides_arrows_the_variant_ignores() -> None:
    runner = CliRunner()
    card = Card.from_id(351)  # #/#/#x2:TRBL:r
    typed = runner.invoke(
        app, ["deal", "formfinity", "--printed", "--option", "variant=2", "--ascii"], input="351\n\nZZZ\n1\nq\n"
    )
    assert typed.exit_code == 0, typed.output
    out = typed.output
    assert "Card 1  -  round 1, Player 1" in out and f"notation: {card.notation()}" in out
    assert "arrows do not apply" in out and "v" not in out.split("Card 1  -")[1].split("notation")[0]
    assert "follows a printed deck" in out and "not a card code" in out  # Enter deals nothing from the seed
    assert "Card 2  -  round 1, Player 2" in out and "notation: #x1:-:t" not in out and "Card 3" not in out
    arrows = runner.invoke(app, ["deal", "formfinity", "--ascii"], input=f"{card.id}\nq\n")
    assert "v" in arrows.output.split("Card 2")[1].split("notation")[0]  # variant 1 draws the arrows
