"""FORMFINITY action notation: canonical forms plus friendlier inputs for people at the terminal.

Canonical (what ``format_action`` writes and match logs hold):

* a card (chance): ``##/#.x2:TR:r`` (see ``_cards``);
* an element: ``SHAPE@CELL``, the element's shape as drawn after any rotation and the top-left corner
  of its box, e.g. ``##/#.@c5``;
* a line claim: ``line:h:c5`` (direction ``h`` horizontal, ``v`` vertical, ``d`` diagonal down-right,
  ``a`` anti-diagonal down-left; the cell is the line's top end, or its left end when horizontal);
* an area choice: ``area:B``.

Also accepted when a card is being placed:

* ``T:c`` / ``B:c`` (enter from the top or bottom in the lane whose leftmost column is c), ``L:5`` /
  ``R:5`` (from the left or right, topmost row 5), each optionally followed by ``/r1``.. ``/r3``, the
  number of quarter turns clockwise (when the card allows rotation);
* ``c5`` or ``c5/r1``: the top-left corner of the element's box (placing anywhere);
* a list of squares ``c5 d5 c6`` (spaces or commas): exactly the squares to draw.
"""

from __future__ import annotations

import re

from polytable.core import IllegalActionError, word
from polytable.geometry import bits

from ._board import PROFILES, Setup, slide_anchors
from ._cards import ROTATIONS, SHAPE_INDEX, Card, parse_card, parse_shape, shape_text
from ._state import Action, ChooseArea, Claim, Place, cell_name, parse_cell

__all__ = ["DIRS", "format_action", "parse_action"]

DIRS = "hvda"
_EDGE = re.compile(r"([TRBLtrbl]):([a-z]{1,2}|\d{1,3})(?:/r([0-3]))?\Z")
_ANCHOR = re.compile(r"([a-z]{1,2}\d{1,3})(?:/r([0-3]))?\Z")


def format_action(action: Action, setup: Setup | None) -> str:
    if isinstance(action, Card):
        return action.notation()
    if isinstance(action, Place):
        return f"{shape_text(action.shape)}@{cell_name(action.x, action.y)}"
    if isinstance(action, Claim):
        return f"line:{DIRS[action.direction]}:{cell_name(action.x, action.y)}"
    if isinstance(action, ChooseArea):
        if setup is not None and 0 <= action.area < len(setup.area_names):
            return f"area:{setup.area_names[action.area]}"
        return f"area:{action.area + 1}"
    raise IllegalActionError(
        f"{action!r} is not a FORMFINITY action", "formfinity.not_an_action", {"action": f"{action!r}"}
    )


def _bad(text: str) -> IllegalActionError:
    return IllegalActionError(
        f"{text[:40]!r} is not a FORMFINITY action: place an element as SHAPE@SQUARE (##/#.@c5), by edge and "
        "lane (T:c, L:5, optionally /r1 to rotate), by its top-left square (c5) or as its squares (c5 d5 c6)",
        "formfinity.unreadable",
        {"text": f"{text[:40]!r}"},
    )


def parse_action(text: str, setup: Setup | None, card: Card | None, blocked: int) -> Action:
    """Read an action. ``card`` is the card being placed (if any); ``blocked`` the squares that stop a
    slide (drawn and black squares), used to resolve ``T:c``-style inputs to where the element rests."""
    raw = text.strip()
    if not raw or len(raw) > 200:
        raise _bad(raw)
    low = raw.lower()
    if low.startswith("area:") or low.startswith("area "):
        name = raw[5:].strip()
        if setup is not None and name in setup.area_names:
            return ChooseArea(setup.area_names.index(name))
        if name.isdigit() and 1 <= int(name) <= 1600:
            return ChooseArea(int(name) - 1)
        raise IllegalActionError(f"there is no area named {name!r}", "formfinity.no_such_area", {"name": f"{name!r}"})
    if low.startswith("line:"):
        parts = low.split(":")
        if len(parts) != 3 or parts[1] not in DIRS:
            raise IllegalActionError(
                f"{raw!r}: write a line claim as line:h:c5 (h, v, d or a, then its first square)",
                "formfinity.claim_format",
                {"raw": f"{raw!r}"},
            )
        x, y = _cell(parts[2])
        return Claim(DIRS.index(parts[1]), x, y)
    if "@" in raw:
        drawing, _, where = raw.rpartition("@")
        try:
            shape = parse_shape(drawing)
        except ValueError as e:
            raise IllegalActionError.relay(e) from None
        x, y = _cell(where)
        return Place(shape, x, y)
    if raw.count(":") == 2 and "x" in raw.split(":")[0]:
        try:
            return parse_card(raw)
        except ValueError as e:
            raise IllegalActionError.relay(e) from None
    m = _EDGE.match(raw)
    if m:
        return _by_edge(raw, m, setup, card, blocked)
    m = _ANCHOR.match(low)
    if m:
        if card is None:
            raise IllegalActionError(
                f"{raw!r} names a square, but no card is being placed now",
                "formfinity.square_no_card",
                {"raw": f"{raw!r}"},
            )
        x, y = _cell(m.group(1))
        shape = _rotated(card, int(m.group(2) or 0), setup)
        return Place(shape, x, y)
    tokens = [t for t in re.split(r"[\s,]+", low) if t]
    if len(tokens) > 1:
        cells = [_cell(t) for t in tokens]
        if len(set(cells)) != len(cells):
            raise IllegalActionError(f"{raw!r} names a square twice", "formfinity.square_twice", {"raw": f"{raw!r}"})
        mx, my = min(x for x, _ in cells), min(y for _, y in cells)
        key = tuple(sorted(((x - mx, y - my) for x, y in cells), key=lambda c: (c[1], c[0])))
        if key not in SHAPE_INDEX:
            raise IllegalActionError(
                f"the squares {raw!r} are not one element of 1 to 5 squares touching by edges",
                "formfinity.squares_not_element",
                {"raw": f"{raw!r}"},
            )
        return Place(SHAPE_INDEX[key], mx, my)
    raise _bad(raw)


def _cell(text: str) -> tuple[int, int]:
    try:
        x, y = parse_cell(text)
    except ValueError as e:
        raise IllegalActionError.relay(e) from None
    if not (0 <= x < 40 and 0 <= y < 40):
        raise IllegalActionError(f"{text!r} is outside any template", "formfinity.off_template", {"text": f"{text!r}"})
    return x, y


def _rotated(card: Card, turns: int, setup: Setup | None) -> int:
    if turns and setup is not None and not setup.rules.rotation_allowed(card.rotate):
        raise IllegalActionError("this card's element cannot be rotated", "formfinity.no_rotation")
    from polytable.geometry import transform

    from ._cards import SHAPES

    shape = SHAPE_INDEX[transform(SHAPES[card.shape], turns)]
    assert shape in ROTATIONS[card.shape]
    return shape


def _by_edge(raw: str, m: re.Match[str], setup: Setup | None, card: Card | None, blocked: int) -> Place:
    if setup is None or card is None:
        raise IllegalActionError(
            f"{raw!r} enters an element from an edge, but no card is being placed now",
            "formfinity.edge_no_card",
            {"raw": f"{raw!r}"},
        )
    edge = "TRBL".index(m.group(1).upper())
    lane_text = m.group(2)
    shape = _rotated(card, int(m.group(3) or 0), setup)
    w, h = PROFILES[shape][0], PROFILES[shape][1]
    if edge in (0, 2):
        if lane_text.isdigit():
            raise IllegalActionError(
                f"{raw!r}: from the top or bottom the lane is a column letter, like T:c",
                "formfinity.lane_column",
                {"raw": f"{raw!r}"},
            )
        lane = parse_cell(lane_text + "1")[0]
        if not 0 <= lane <= setup.W - w:
            raise IllegalActionError(
                f"{raw!r}: the element does not fit in lane {lane_text}",
                "formfinity.lane_no_fit",
                {"raw": f"{raw!r}", "lane_text": lane_text},
            )
    else:
        if not lane_text.isdigit():
            raise IllegalActionError(
                f"{raw!r}: from the left or right the lane is a row number, like L:5",
                "formfinity.lane_row",
                {"raw": f"{raw!r}"},
            )
        lane = int(lane_text) - 1
        if not 0 <= lane <= setup.H - h:
            raise IllegalActionError(
                f"{raw!r}: the element does not fit in lane {lane_text}",
                "formfinity.lane_no_fit",
                {"raw": f"{raw!r}", "lane_text": lane_text},
            )
    rest = slide_anchors(setup, shape, 1 << edge, blocked, None)
    S = setup.S
    for b in _bits(rest):
        y, x = divmod(b, S)
        if (edge in (0, 2) and x == lane) or (edge in (1, 3) and y == lane):
            return Place(shape, x, y)
    side = ("top", "right", "bottom", "left")[edge]
    raise IllegalActionError(
        f"{raw!r}: sliding in from the {side} in that lane, the element stops before it is wholly on the template",
        "formfinity.lane_stops_short",
        {"raw": f"{raw!r}", "side": word(side)},
    )


def _bits(b: int) -> list[int]:
    return list(bits(b))
