"""Forma's evaluation (what :class:`FormaEvaluator` answers: ``action_value`` and ``score_lead``), beside the
players that use it.

``action_value`` scores one placement as the points it earns now plus a positional evaluation, all on
bitboards without building the next state:

* *gifts*: every empty cell left with three closed sides can be enclosed by the next player for 10
  points, so each costs :data:`W_GIFT`;
* *enclosure potential*: cells with two closed sides next to the player's own cells are future markers;
* *bridge progress*: the span (rows or columns) of the player's group that the piece joins, squared, so a
  group that nears the other side pulls harder; and *blocking*: touching an opponent group with a long
  span is worth a share of that opponent's progress;
* *space for big pieces*: the anchors left for the player's remaining pentominoes and tetrominoes (a
  placement that chops the open area into slivers loses them), and the size of the piece itself (placing
  big pieces early keeps the small ones for closing cells late).
"""

from __future__ import annotations

from dataclasses import dataclass
from types import ModuleType

from ...core import native_module
from ...games import forma as P
from ...games.forma import CompiledForma, FormaKernel, FormaState, Pick, Place, flood
from ...geometry import lowest

__all__ = [
    "ENGINE_WEIGHTS",
    "W_GIFT",
    "Weights",
    "action_value",
    "compiled_eval",
    "extent",
    "place_value",
    "py_place_value",
    "score_lead",
]

W_GIFT = 6.0
W_POCKET = 1.5
W_BRIDGE = 45.0
W_BLOCK = 15.0
W_SPACE = 8.0
W_SIZE = 0.8


@dataclass(frozen=True)
class Weights:
    """The evaluation's weights. The defaults are the greedy's; stronger players may pass weights tuned by
    self-play, so the features stay single-sourced here."""

    gift: float = W_GIFT
    pocket: float = W_POCKET
    bridge: float = W_BRIDGE
    block: float = W_BLOCK
    space: float = W_SPACE
    size: float = W_SIZE


ENGINE_WEIGHTS = Weights()


def compiled_eval(kernel: FormaKernel) -> ModuleType | None:
    """The compiled evaluation (``_cforma_eval``) when the game object runs the compiled kernel, whose
    tables and rules it calls; else None, and the Python below answers (the same values)."""
    return native_module("polytable.ai.forma._cforma_eval") if isinstance(kernel, CompiledForma) else None


def extent(tb: P.Tables, comp: int) -> tuple[int, int, int, int]:
    """First and last row, first and last column of a non-empty cell set (rows folded onto one)."""
    st = tb.stride
    r0 = lowest(comp) // st
    r1 = (comp.bit_length() - 1) // st
    c = comp
    c |= c >> (16 * st)
    c |= c >> (8 * st)
    c |= c >> (4 * st)
    c |= c >> (2 * st)
    c |= c >> st
    c &= tb.row_mask
    return r0, r1, lowest(c), c.bit_length() - 1


def _span(tb: P.Tables, comp: int) -> int:
    """Rows or columns covered by a group, whichever is more."""
    if not comp:
        return 0
    r0, r1, c0, c1 = extent(tb, comp)
    return max(r1 - r0, c1 - c0) + 1


def _sides(tb: P.Tables, filled: int) -> tuple[int, int, int, int]:
    st = tb.stride
    return (
        (filled << 1) | tb.left,
        (filled >> 1) | tb.right,
        (filled << st) | tb.top,
        (filled >> st) | tb.bottom,
    )


def action_value(kernel: FormaKernel, state: FormaState, action: Place | Pick, player: int) -> float:
    """The greedy's value of an action: a pick is worth its piece's size if it fits somewhere."""
    if isinstance(action, Pick):
        tb = kernel.tables(state.size)
        free = tb.board & ~state.filled
        fits = any(tb.table(free)[g] for g in P.PIECE_ORIENTS[action.piece])
        return float(P.PIECE_SIZES[action.piece]) if fits else -50.0
    return place_value(kernel, state, action, player, ENGINE_WEIGHTS)


def place_value(kernel: FormaKernel, state: FormaState, action: Place, player: int, w: Weights) -> float:
    """One placement's one-ply value (points now plus position) under weights ``w``, on the game object's
    kernel: in C (``_cforma_eval``) beside the compiled kernel, else :func:`py_place_value`."""
    ext = compiled_eval(kernel)
    if ext is None:
        return py_place_value(kernel, state, action, player, w)
    n = state.size
    tb = kernel.tables(n)  # builds the size's tables in the rules' extension, which the evaluation reads
    p, k, col, row = action
    g = P.ORIENT_GK[p * 8 + k]
    mask = tb.masks[g] << ((n - 1 - row) * tb.stride + col - P.ORIENT_REF[g])
    s = state
    return float(
        ext.value(
            n, s.filled, s.watch, s.obstacles, s.tower, s.closed, s.pieces, s.markers, player, s.bridges[player],
            mask, p, s.stock[player], (w.gift, w.pocket, w.bridge, w.block, w.space, w.size),
        )
    )  # fmt: skip


def py_place_value(kernel: FormaKernel, state: FormaState, action: Place, player: int, w: Weights) -> float:
    """:func:`place_value` in Python: the reference the C must equal (the same double)."""
    n = state.size
    tb = kernel.tables(n)
    stock = state.stock[player]
    p, k, col, row = action
    g = P.ORIENT_GK[p * 8 + k]
    mask = tb.masks[g] << ((n - 1 - row) * tb.stride + col - P.ORIENT_REF[g])
    eff = kernel.place_effect(tb, state, player, mask, P.PIECE_SIZES[p])
    filled = eff.filled
    empty = tb.board & ~filled
    le, ri, up, dn = _sides(tb, filled)
    three = empty & ((le & ri & (up | dn)) | (up & dn & (le | ri)))
    two = empty & ~three & ((le & (ri | up | dn)) | (ri & (up | dn)) | (up & dn))
    own = eff.own
    st = tb.stride
    near_own = ((own << 1) | (own >> 1) | (own << st) | (own >> st)) & two
    value = eff.points - w.gift * three.bit_count() + w.pocket * near_own.bit_count()
    span = _span(tb, flood(tb, mask | eff.enc, own))
    value += w.bridge * (span / n) ** 2
    touch = ((mask << 1) | (mask >> 1) | (mask << st) | (mask >> st)) & tb.board
    for q in range(len(state.pieces)):
        if q != player:
            theirs = state.pieces[q] | state.markers[q]
            if touch & theirs:
                value += w.block * (_span(tb, flood(tb, touch & theirs, theirs)) / n) ** 2
    table = tb.table(empty)
    before = tb.table(tb.board & ~state.filled)
    room_after = room_before = 0
    for q in range(9, P.NUM_PIECES) if stock[0] or stock[1] else range(5, P.NUM_PIECES):
        if stock[q] - (q == p) > 0:
            for h in P.PIECE_ORIENTS[q]:
                room_after += table[h].bit_count()
                room_before += before[h].bit_count()
    if room_before:
        value += w.space * room_after / room_before
    value += w.size * P.PIECE_SIZES[p]
    return value


def score_lead(state: FormaState, player: int) -> float:
    """Score lead over the best opponent (the end is handled by the game: 1000 x returns)."""
    others = [s for i, s in enumerate(state.scores) if i != player]
    return float(state.scores[player] - (max(others) if others else 0))
