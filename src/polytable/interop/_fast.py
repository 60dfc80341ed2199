"""The observation planes and legal-action ids read straight from each game's state, for the environments'
hot path.

The encoders of :mod:`polytable.interop._planes` build planes from ``Game.view`` (JSON-like data: cell
names, texts), which keeps them honest about what a player may see but costs most of an environment step.
These read the same facts from the state's bitboards and tuples and write them into a preallocated
``(height, width, channels)`` buffer with the compiled writers of ``_cplanes.c`` (one C call per plane;
NumPy bit unpacking where the extension is not built); masks come from the placements' anchor sets (Forma,
FORMFINITY) or the compiled move list (Quadefy). The view-based encoders stay the reference:
``tests/interop/test_fast.py`` checks that both give identical observations and masks on random positions
of every game and configuration family, and ``POLYTABLE_PURE=1`` makes the environments use the reference.

Every codec sees only what the view shows a player: the games here with hidden information (Foldris'
pending choices, Qwirkle Cubes' bag order) keep that information out of these features as the view does.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import native_module

__all__ = ["Codec", "codec_for", "grid", "rect", "write_mask"]

Out = npt.NDArray[np.uint8]
Writer = Callable[[Any, int, Out], None]
"""(state, observer, buffer (height, width, channels)) -> None: writes the whole observation."""


class Codec:
    """A game configuration's fast observation writer and, where the kernel has one, legal-id lister."""

    def __init__(self, write: Writer, legal_ids: Callable[[Any, int], Any] | None = None) -> None:
        self.write = write
        self.legal_ids = legal_ids


_C = native_module("polytable.interop._cplanes")


def _bits(value: int, count: int) -> npt.NDArray[np.uint8]:
    """The low ``count`` bits of an int, least significant first, as 0/1 bytes."""
    value &= (1 << count) - 1
    raw = np.frombuffer(value.to_bytes((count + 7) // 8 or 1, "little"), np.uint8)
    return np.unpackbits(raw, bitorder="little")[:count]


def grid(out: Out, channel: int, value: int, stride: int, flip: bool = False) -> None:
    """Plane ``channel`` gets bit ``row * stride + column`` of ``value`` (rows from the bottom if ``flip``)."""
    if _C is not None:
        _C.grid(out, channel, value, stride, flip)
        return
    h, w, _ = out.shape
    plane = _bits(value, h * stride).reshape(h, stride)[:, :w]
    out[:, :, channel] = plane[::-1] if flip else plane


def rect(out: Out, channel: int, r0: int, r1: int, c0: int, c1: int) -> None:
    """Plane ``channel`` is 1 in rows ``r0:r1`` and columns ``c0:c1``, 0 elsewhere."""
    if _C is not None:
        _C.rect(out, channel, r0, r1, c0, c1)
        return
    out[:, :, channel] = 0
    out[max(r0, 0) : max(r1, 0), max(c0, 0) : max(c1, 0), channel] = 1


def _features(out: Out, first: int, values: list[int]) -> None:
    """Write the features row by row into the channels from ``first`` on (saturated to 0..255)."""
    if _C is not None:
        _C.features(out, first, values)
        return
    h, w, c = out.shape
    k = c - first
    flat = np.zeros(k * h * w, np.int64)
    flat[: len(values)] = values
    out[:, :, first:] = np.clip(flat, 0, 255).reshape(k, h, w).transpose(1, 2, 0)


def write_mask(out: npt.NDArray[np.int8], ids: Any) -> None:
    """The mask is 1 at each id (a list, or a NumPy array of ids) and 0 elsewhere."""
    if _C is not None and isinstance(ids, list):
        _C.mask(out, ids)
        return
    out[:] = 0
    out[ids] = 1


def _seats(observer: int, players: int) -> list[int]:
    return [(observer + k) % players for k in range(players)]


# --------------------------------------------------------------------------------------------- Quadefy
def _quadefy(config: Any, game: Any) -> Codec:
    from ..games.quadefy._tables import BLOCKS

    players = int(config.players)
    blocks = len(BLOCKS)
    kernel = game.kernel  # the game object's rules kernel lists legal placements as ids

    def write(s: Any, observer: int, out: Out) -> None:
        values: list[int] = []
        for k, seat in enumerate(_seats(observer, players)):
            owned = s.owned[seat]
            for z in range(4):  # layer z is bits 16 z .. 16 z + 15, row by row
                grid(out, 4 * k + z, owned >> 16 * z, 4)
            values.extend(s.remaining[seat] >> b & 1 for b in range(blocks))
        _features(out, 4 * players, values)

    def legal_ids(s: Any, player: int) -> Any:
        if s.loser >= 0 or player != s.to_move:
            return None
        return list(kernel.legal(s.occupied, s.remaining[player], s.flags))

    return Codec(write, legal_ids)


# --------------------------------------------------------------------------------------------- Foldris
def _foldris(config: Any, game: Any) -> Codec:
    from ..games.foldris._decks import deck_of
    from ..games.foldris._serial import _cards

    players = int(config.players)
    height = int(config["height"])
    cards = _cards(deck_of(config))  # type: ignore[arg-type]
    card_shapes: dict[int, int] = {}

    def shape_of(index: int) -> int:
        """The card's block as a bitboard of the plane (stride 8), drawn from the top row down."""
        got = card_shapes.get(index)
        if got is None:
            got = 0
            for i, row in enumerate(cards[index][2].split("/")):
                for c, ch in enumerate(row):
                    if ch == "#" and i < height and c < 8:
                        got |= 1 << ((height - 1 - i) * 8 + c)
            card_shapes[index] = got
        return got

    def write(s: Any, observer: int, out: Out) -> None:
        values: list[int] = []
        for k, seat in enumerate(_seats(observer, players)):
            sheet = s.sheets[seat]
            rows = min(sheet.height, height)
            mask = (1 << (8 * rows)) - 1
            grid(out, 3 * k, sheet.ink & mask, 8)
            grid(out, 3 * k + 1, sheet.barrier & mask, 8)
            rect(out, 3 * k + 2, 0, rows, 0, 8)
            values += [sheet.lines, sheet.bonus, 1 if sheet.out else 0, 0 if s.pending[seat] is None else 1]
        base = 3 * players
        if s.card >= 0:
            lane = cards[s.card][1]
            grid(out, base, shape_of(s.card), 8)
            rect(out, base + 1, 0, height, lane - 1, lane + 1)
        else:
            rect(out, base, 0, 0, 0, 0)
            rect(out, base + 1, 0, 0, 0, 0)
        values.append(len(s.deck))
        _features(out, base + 2, values)

    from ..games.foldris._decks import table_of
    from ..games.foldris._state import Drop

    kernel = game.kernel
    bases: dict[int, tuple[Any, list[int]]] = {}

    def legal_ids(s: Any, player: int) -> Any:
        """A drop's id is its variant's id at column 0 plus the column: one id per variant, cached."""
        if player not in game.acting_players(s):
            return None
        table = table_of(s)
        name = cards[s.card][0]
        got = bases.get(id(table))
        if got is None or got[0] is not table:
            got = bases[id(table)] = (
                table,
                [game.action_id(Drop(name, v.mirror, v.trim, v.rot, 0), s) for v in table.variants],
            )
        base = got[1]
        return [base[i] + col for i, col in kernel.legal(table, s.sheets[player])]

    return Codec(write, legal_ids)


# --------------------------------------------------------------------------------------------- Forma
def _forma(config: Any, names: tuple[str, ...], game: Any) -> Codec:
    from ..games.forma import _pieces as p

    players = int(config.players)
    n = int(config["size"])
    st = p.tables(n).stride
    index = [p.PIECE_NAMES.index(name) for name in names]

    def write(s: Any, observer: int, out: Out) -> None:
        grid(out, 0, s.tower, st, True)
        grid(out, 1, s.obstacles, st, True)
        values: list[int] = []
        for k, seat in enumerate(_seats(observer, players)):
            grid(out, 2 + 2 * k, s.pieces[seat], st, True)
            grid(out, 3 + 2 * k, s.markers[seat], st, True)
            stock = s.stock[seat]
            values.append(s.scores[seat])
            values.extend(stock[i] for i in index)
        values.extend(1 if s.picked == i else 0 for i in index)
        _features(out, 2 + 2 * players, values)

    top = n - 1
    width = (n * st + 7) // 8
    tb = game.kernel.tables(n)  # the game object's kernel: its anchor tables (compiled when built)
    ref = np.array(p.ORIENT_REF, np.int64)
    touch = bool(config["touch_move"])

    def legal_ids(s: Any, player: int) -> Any:
        """The placements' ids (``orientation * 400 + row * 20 + column``) from the anchor sets of the
        free cells, all orientations at once; None in the set-up and the pick (the generic path)."""
        if player != s.turn or s.placing or (touch and s.picked < 0):
            return None
        table = tb.table(tb.board & ~s.filled)
        stock = s.stock[player]
        pieces = range(p.NUM_PIECES) if s.picked < 0 else (s.picked,)
        gs = [g for piece in pieces if stock[piece] for g in p.PIECE_ORIENTS[piece] if table[g]]
        if not gs:
            return []
        raw = b"".join(table[g].to_bytes(width, "little") for g in gs)
        grid = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little").reshape(len(gs), width * 8)
        which, pos = np.nonzero(grid)
        y, x = np.divmod(pos, st)
        g = np.array(gs, np.int64)[which]
        return g * 400 + (top - y) * 20 + x + ref[g]

    return Codec(write, legal_ids)


# --------------------------------------------------------------------------------------------- FORMFINITY
def _formfinity(config: Any, first_view: Mapping[str, Any], rules: Any) -> Codec:
    from ..games.formfinity._board import setup_for
    from ..games.formfinity._cards import Card
    from ..games.formfinity._flow import placements as window_placements
    from ..games.formfinity._flow import window
    from ._planes import formfinity_card

    players = int(config.players)
    setup = setup_for(config)  # type: ignore[arg-type]
    w, h, stride = setup.W, setup.H, setup.S
    labels = [[str(c) for c in row] for row in first_view["template"]]
    areas = sorted({lab for row in labels for lab in row if lab.isalpha() and lab.isupper()})
    static = np.zeros((h, w, 4), np.uint8)
    area_bits = dict.fromkeys(areas, 0)
    for y in range(h):
        for x in range(w):
            lab = labels[y][x]
            if lab in ("#", " ", ""):
                static[y, x, 0] = 1
            elif lab == "*":
                static[y, x, 1] = 1
            elif lab.isdigit():
                static[y, x, 2] = int(lab)
            if lab in areas:
                static[y, x, 3] = areas.index(lab) + 1
                area_bits[lab] |= 1 << (y * stride + x)
    names = setup.area_names
    area_of = [area_bits.get(names[i], 0) for i in range(len(setup.areas))]

    card_values: dict[int, list[int]] = {}

    def write(s: Any, observer: int, out: Out) -> None:
        out[:, :, :4] = static
        finished = 0
        for i, bits in enumerate(area_of):
            if s.done_areas >> i & 1:
                finished |= bits
        grid(out, 4, area_of[s.area] if s.area >= 0 else 0, stride)
        grid(out, 5, finished, stride)
        grid(out, 6, s.last, stride)
        values: list[int] = []
        scores = rules.scores(s)
        for k, seat in enumerate(_seats(observer, players)):
            grid(out, 7 + 2 * k, s.owners[seat], stride)
            lines = 0
            for o, d, b in s.lines:
                if o == seat:
                    lines |= window(setup, d, b)
            grid(out, 8 + 2 * k, lines, stride)
            values.append(round(scores[seat]))
        card = card_values.get(s.card)
        if card is None:
            card = card_values[s.card] = formfinity_card(Card.from_id(s.card).notation() if s.card >= 0 else "")
        values.extend(card)
        values.append(s.left)
        values.extend(1 if s.phase == i else 0 for i in range(4))
        _features(out, 7 + 2 * players, values)

    from ..games.formfinity import _game as rules_module
    from ..games.formfinity._state import PLACE

    side, place0 = rules_module.SIDE, rules_module._PLACE0
    width = (h * stride + 7) // 8

    def legal_ids(s: Any, player: int) -> Any:
        """A placement turn's ids (``first + (shape * 40 + y) * 40 + x``) from the anchor sets, all shapes at
        once; None in the other phases (the generic path: a few actions)."""
        if s.phase != PLACE or player != rules.current_player(s):
            return None
        found = [(shape, anchors) for shape, anchors in window_placements(setup, s, player) if anchors]
        if not found:
            return []
        raw = b"".join(anchors.to_bytes(width, "little") for _, anchors in found)
        grid = np.unpackbits(np.frombuffer(raw, np.uint8), bitorder="little").reshape(len(found), width * 8)
        which, pos = np.nonzero(grid)
        y, x = np.divmod(pos, stride)
        shape = np.array([sh for sh, _ in found], np.int64)[which]
        return place0 + (shape * side + y) * side + x

    return Codec(write, legal_ids)


# --------------------------------------------------------------------------------------------- Qwirkle Cubes
def _qwirkle(config: Any) -> Codec:
    from ..games.qwirkle_cubes._state import PHASES
    from ..games.qwirkle_cubes._tiles import cell_xy
    from ._planes import QWIRKLE_WINDOW

    players = int(config.players)
    n = QWIRKLE_WINDOW
    phases = [PHASES.index(name) for name in ("reroll", "place", "pass")]

    def write(s: Any, observer: int, out: Out) -> None:
        out[:, :, :12] = 0
        if s.placed:
            xy = np.array([cell_xy(c) for _, c in s.placed])
            faces = np.array([t for t, _ in s.placed])
            cx = (int(xy[:, 0].min()) + int(xy[:, 0].max())) // 2
            cy = (int(xy[:, 1].min()) + int(xy[:, 1].max())) // 2
            r = xy[:, 1] - cy + n // 2
            c = xy[:, 0] - cx + n // 2
            inside = (r >= 0) & (r < n) & (c >= 0) & (c < n)
            r, c, faces = r[inside], c[inside], faces[inside]
            out[r, c, faces // 6] = 1
            out[r, c, 6 + faces % 6] = 1
        values: list[int] = []
        for seat in _seats(observer, players):
            counts = np.zeros((6, 7), np.int64)
            pending = s.rolling if seat == s.player else 0
            for i, t in enumerate(s.hands[seat]):
                counts[t // 6, 6 if pending >> i & 1 else t % 6] += 1
            values.extend(counts.ravel().tolist())
            values.append(s.points[seat])
        values.extend(s.bag)
        values.extend(1 if s.phase == i else 0 for i in phases)
        _features(out, 12, values)

    return Codec(write)


def codec_for(game: Any, config: Any, first_view: Mapping[str, Any]) -> Codec | None:
    """The fast codec of a game object's configuration, or None (the reference encoder then serves alone)."""
    game_id = game.spec.id
    if game_id == "quadefy":
        return _quadefy(config, game)
    if game_id == "foldris":
        return _foldris(config, game)
    if game_id == "forma":
        return _forma(config, tuple(first_view["players"][0]["stock"]), game)
    if game_id == "formfinity":
        return _formfinity(config, first_view, game)
    if game_id == "qwirkle-cubes":
        return _qwirkle(config)
    return None
