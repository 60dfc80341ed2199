"""FORMFINITY QRious cards: a printed deck whose faces show only a QR code and the card's number.

The QR code holds the card's web address ``BASE/c/<code>`` (``polytable.games.formfinity.card_url``):
the code is the card's whole definition, so any phone camera opens the app on that card, and the
companion's "scan a card" takes it as the drawn card. The number under the code is the card's number in
the engine (``Card.id``), which the companion also takes when typed. Faces hide the card, as the
rulebook's cards do; the backs show it, for checking.

Duplex layout: the pages alternate faces and backs, 12 cards a sheet (3 x 4). A back page is the face
page mirrored left to right, so printed double-sided and flipped on the long edge each back lies behind
its own face; both sides have the same cut lines.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..games.formfinity import Card, card_url
from ._common import new_canvas

__all__ = ["DEFAULT_BASE_URL", "print_qr_deck", "qr_matrix"]

DEFAULT_BASE_URL = "http://localhost:8000"
"""Where the cards point when no base URL is given (``polytable serve``'s own address)."""

_COLS, _ROWS = 3, 4
_MARGIN = 30.0

DrawBack = Callable[[Any, Card, float, float, float, float, int | None], None]


def qr_matrix(text: str) -> list[list[bool]]:
    """The QR code of ``text`` as rows of dark (True) modules, without the quiet zone."""
    import qrcode  # type: ignore[import-untyped,unused-ignore]

    code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_M, border=0)
    code.add_data(text)
    code.make(fit=True)
    return [[bool(v) for v in row] for row in code.get_matrix()]


def print_qr_deck(
    out_path: str, paper: str, cards: Sequence[Card], base_url: str, seed: int, draw_back: DrawBack
) -> None:
    """Write ``cards`` as QR faces and open backs, a faces page then its backs page, 12 cards a sheet."""
    base = base_url.strip().rstrip("/")
    c, pw, ph = new_canvas(out_path, paper, "FORMFINITY QRious cards")
    cw = (pw - 2 * _MARGIN) / _COLS
    ch = (ph - 2 * _MARGIN - 20) / _ROWS
    per = _COLS * _ROWS
    sheets = [cards[i : i + per] for i in range(0, len(cards), per)]
    for n, sheet in enumerate(sheets, 1):
        for back in (False, True):
            c.setFont("Helvetica", 7)
            side = "backs (the cards, for checking)" if back else f"faces - the codes open {base}"
            c.drawString(_MARGIN, ph - _MARGIN + 6, f"FORMFINITY QRious cards - seed {seed} - sheet {n}: {side}")
            c.drawRightString(pw - _MARGIN, ph - _MARGIN + 6, "print double-sided, flip on the long edge")
            for k, card in enumerate(sheet):
                col, row = k % _COLS, k // _COLS
                if back:
                    col = _COLS - 1 - col
                x = _MARGIN + col * cw
                y = ph - _MARGIN - 16 - (row + 1) * ch
                _cut_box(c, x, y, cw, ch)
                if back:
                    draw_back(c, card, x + 6, y + 6, cw - 12, ch - 12, None)
                    c.setFont("Helvetica-Bold", 7)
                    c.drawRightString(x + cw - 14, y + ch - 18, f"No. {card.id}")
                else:
                    _face(c, card, base, x + 6, y + 6, cw - 12, ch - 12)
            c.showPage()
    c.save()


def _cut_box(c: Any, x: float, y: float, w: float, h: float) -> None:
    c.setLineWidth(0.3)
    c.setStrokeGray(0.7)
    c.setDash(2, 3)
    c.rect(x, y, w, h, stroke=1, fill=0)
    c.setDash()
    c.setStrokeGray(0.0)


def _face(c: Any, card: Card, base: str, x: float, y: float, w: float, h: float) -> None:
    """The face: a rounded card, the QR code of the card's address and its number, nothing else."""
    c.setLineWidth(1.2)
    c.roundRect(x, y, w, h, 10, stroke=1, fill=0)
    matrix = qr_matrix(card_url(card, base))
    size = min(w, h) * 0.72
    unit = size / len(matrix)
    ox = x + (w - size) / 2
    oy = y + h - (h - size) * 0.35 - size  # a little above the middle, the number below it
    c.setFillGray(0.0)
    for r, line in enumerate(matrix):
        col = 0
        while col < len(line):  # one rectangle per run of dark modules: no seams between them
            if not line[col]:
                col += 1
                continue
            end = col
            while end < len(line) and line[end]:
                end += 1
            c.rect(ox + col * unit, oy + size - (r + 1) * unit, (end - col) * unit, unit, stroke=0, fill=1)
            col = end
    c.setFont("Helvetica-Bold", min(w, h) * 0.13)
    c.drawCentredString(x + w / 2, y + (oy - y) / 2 - min(w, h) * 0.04, str(card.id))
