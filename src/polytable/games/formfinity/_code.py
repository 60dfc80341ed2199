"""FORMFINITY card codes: a card's whole definition in a few characters, for the QR code on a printed card.

Why a code of its own and not the card's dense id: the id numbers the 91 shapes in the order the engine
enumerates them, so reading it needs that table; the code carries the drawing itself, so a phone that
has only the cached app (no server) can show the card. A code is one base-36 number (digits and
upper-case letters, which QR codes store compactly), read from its lowest bit up:

* 1 bit: may rotate; 4 bits: the entry edges (bit k is T, R, B, L as in the notation);
* 2 bits: count - 1; 3 bits: the drawing's width - 1;
* the drawing's squares row by row (width bits a row, the top-left square lowest), under a leading 1
  bit that marks where the rows end (so the height needs no field).

``##/#.x2:TR:r`` is ``IAV``; no card needs more than 7 characters. The web page of a card is
``BASE/c/<code>`` (see :func:`card_url`); the client decodes the same format in ``static/cardcode.js``.
"""

from __future__ import annotations

from polytable.core import PolytableError

from ._cards import SHAPES, Card, parse_shape, shape_text

__all__ = ["card_code", "card_url", "parse_card_code"]

_DIGITS = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"


def card_code(card: Card) -> str:
    """The card's code (base 36, upper case, at most 7 characters)."""
    cells = set(SHAPES[card.shape])
    w = max(x for x, _ in cells) + 1
    h = max(y for _, y in cells) + 1
    value = 1
    for y in reversed(range(h)):
        for x in reversed(range(w)):
            value = value << 1 | ((x, y) in cells)
    value = (((value << 3 | (w - 1)) << 2 | (card.count - 1)) << 4 | card.edges) << 1 | int(card.rotate)
    out = ""
    while value:
        value, d = divmod(value, 36)
        out = _DIGITS[d] + out
    return out


def parse_card_code(text: str) -> Card:
    """The card a code stands for; also takes a whole card URL (``.../c/<code>``). ValueError when wrong."""
    raw = text.strip()
    if "/c/" in raw:
        raw = raw.rsplit("/c/", 1)[1]
    raw = raw.split("?", 1)[0].split("#", 1)[0].strip("/").upper()
    if not 1 <= len(raw) <= 8 or any(ch not in _DIGITS for ch in raw):
        shown = text[:40]
        raise PolytableError(
            f"{shown!r} is not a card code (letters and digits, as on a QR card)",
            "formfinity.code_chars",
            {"shown": f"{shown!r}"},
        )
    value = int(raw, 36)
    rotate = bool(value & 1)
    edges = value >> 1 & 15
    count = (value >> 5 & 3) + 1
    w = (value >> 7 & 7) + 1
    bits = value >> 10
    n = bits.bit_length() - 1
    if count > 3 or n < 1 or n % w or not 1 <= n // w <= 5 or w > 5:
        raise PolytableError(
            f"{raw!r} is not a card code (it does not describe a card)",
            "formfinity.code_no_card",
            {"raw": f"{raw!r}"},
        )
    rows = ["".join("#" if bits >> (y * w + x) & 1 else "." for x in range(w)) for y in range(n // w)]
    drawing = "/".join(rows)
    try:
        shape = parse_shape(drawing)
    except ValueError:  # squares that are not one piece, or too many: not a code any card has
        raise PolytableError(
            f"{raw!r} is not a card code (it does not describe a card)",
            "formfinity.code_no_card",
            {"raw": f"{raw!r}"},
        ) from None
    if drawing != shape_text(shape):
        raise PolytableError(
            f"{raw!r} is not a card code (its drawing has empty rows or columns)",
            "formfinity.code_empty_rows",
            {"raw": f"{raw!r}"},
        )
    return Card(shape, count, edges, rotate)


def card_url(card: Card, base: str) -> str:
    """The web address a printed card's QR code holds: ``BASE/c/<code>``."""
    return f"{base.rstrip('/')}/c/{card_code(card)}"
