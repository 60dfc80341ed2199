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

import operator
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np
import numpy.typing as npt

from ..core import native_module

__all__ = ["Codec", "codec_for", "formfinity_template", "grid", "rect", "write_mask"]

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


def grid(out: Out, channel: int, value: int, stride: int, flip: bool = False, layers: int = 1) -> None:
    """Plane ``channel`` gets bit ``row * stride + column`` of ``value`` (rows from the bottom if ``flip``);
    with ``layers``, the next planes get the next ``height * stride`` bits each."""
    if _C is not None:
        _C.grid(out, channel, value, stride, flip, layers)
        return
    h, w, _ = out.shape
    stack = _bits(value, layers * h * stride).reshape(layers, h, stride)[:, :, :w].transpose(1, 2, 0)
    out[:, :, channel : channel + layers] = stack[::-1] if flip else stack


def grids(out: Out, channel: int, values: list[int], stride: int, flip: bool = False) -> None:
    """One plane per bitboard of ``values``, from plane ``channel`` on (as :func:`grid` each)."""
    if _C is not None:
        _C.grids(out, channel, values, stride, flip)
        return
    for k, value in enumerate(values):
        grid(out, channel + k, value, stride, flip)


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
    from ..games.quadefy import BLOCKS

    players = int(config.players)
    blocks = len(BLOCKS)
    kernel = game.kernel  # the game object's rules kernel lists legal placements as ids
    in_hand = [[hand >> b & 1 for b in range(blocks)] for hand in range(1 << blocks)]

    def write(s: Any, observer: int, out: Out) -> None:
        values: list[int] = []
        for k, seat in enumerate(_seats(observer, players)):
            grid(out, 4 * k, s.owned[seat], 4, False, 4)  # layer z is bits 16 z .. 16 z + 15, row by row
            values.extend(in_hand[s.remaining[seat]])
        _features(out, 4 * players, values)

    def legal_ids(s: Any, player: int) -> Any:
        if s.loser >= 0 or player != s.to_move:
            return None
        return list(kernel.legal(s.occupied, s.remaining[player], s.flags))

    return Codec(write, legal_ids)


# --------------------------------------------------------------------------------------------- Foldris
def _foldris(config: Any, game: Any) -> Codec:
    from ..games.foldris import Drop, tables_of

    players = int(config.players)
    height = int(config["height"])
    cards: dict[int, tuple[int, int, str]] = {}  # card index -> (shape bitboard, lane, name), from the view

    def card_of(s: Any) -> tuple[int, int, str]:
        """The revealed card's block as a bitboard of the plane (stride 8, drawn from the top row down), its
        lane and name: read once per card from the public view, which says what a player sees of it."""
        got = cards.get(s.card)
        if got is None:
            card = game.view(s, None)["card"]
            shape = 0
            for i, row in enumerate(card["shape"].split("/")):
                for c, ch in enumerate(row):
                    if ch == "#" and i < height and c < 8:
                        shape |= 1 << ((height - 1 - i) * 8 + c)
            got = cards[s.card] = (shape, card["lane"], card["name"])
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
            shape, lane, _ = card_of(s)
            grid(out, base, shape, 8)
            rect(out, base + 1, 0, height, lane - 1, lane + 1)
        else:
            rect(out, base, 0, 0, 0, 0)
            rect(out, base + 1, 0, 0, 0, 0)
        values.append(len(s.deck))
        _features(out, base + 2, values)

    kernel = game.kernel
    bases: dict[int, tuple[Any, list[int]]] = {}

    def legal_ids(s: Any, player: int) -> Any:
        """A drop's id is its variant's id at column 0 plus the column: one id per variant, cached."""
        if player not in game.acting_players(s):
            return None
        table = tables_of(s.config)[s.card]
        name = card_of(s)[2]
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
    from ..games import forma as p
    from ..games.forma import Fill, Obstacle, Pick, Tower, allowed_cells

    players = int(config.players)
    n = int(config["size"])
    st = p.tables(n).stride
    index = [p.PIECE_NAMES.index(name) for name in names]
    where = {piece: k for k, piece in enumerate(index)}
    in_stock = operator.itemgetter(*index) if len(index) > 1 else (lambda stock: (stock[index[0]],))

    def write(s: Any, observer: int, out: Out) -> None:
        boards = [s.tower, s.obstacles]
        values: list[int] = []
        for seat in _seats(observer, players):
            boards += (s.pieces[seat], s.markers[seat])
            values.append(s.scores[seat])
            values.extend(in_stock(s.stock[seat]))
        picked = [0] * len(index)
        if s.picked in where:
            picked[where[s.picked]] = 1
        values.extend(picked)
        grids(out, 0, boards, st, True)
        _features(out, 2 + 2 * players, values)

    top = n - 1
    width = (n * st + 7) // 8
    tb = game.kernel.tables(n)  # the game object's kernel: its anchor tables (compiled when built)
    ref = np.array(p.ORIENT_REF, np.int64)
    touch = bool(config["touch_move"])
    pick0 = game.action_id(Pick(0))  # picks are numbered by piece from here
    obstacle0, tower0, fill_id = (game.action_id(a) for a in (Obstacle(0, 0), Tower(0, 0), Fill()))

    def legal_ids(s: Any, player: int) -> Any:
        """The placements' ids (``orientation * 400 + row * 20 + column``) from the anchor sets of the
        free cells, all orientations at once; the pick's from the stock, the set-up's from the allowed cells."""
        if player != s.turn:
            return None
        if s.placing:  # the players' set-up: an obstacle or the tower on any allowed cell, or the fill
            cells = np.flatnonzero(_bits(allowed_cells(n, s.obstacles | s.tower), n * st))
            row, col = top - cells // st, cells % st
            ids = [np.array([fill_id])]
            if s.placing - (0 if s.tower else 1):  # obstacles still to place
                ids.append(obstacle0 + row * 20 + col)
            if not s.tower:
                ids.append(tower0 + row * 20 + col)
            return np.concatenate(ids)
        stock = s.stock[player]
        if touch and s.picked < 0:  # the pick: one id per piece in stock
            return [pick0 + piece for piece in range(p.NUM_PIECES) if stock[piece]]
        table = tb.table(tb.board & ~s.filled)
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
def formfinity_template(first_view: Mapping[str, Any], stride: int) -> tuple[Out, dict[str, int]]:
    """A FORMFINITY template's fixed planes (blocked, start, number, area id: ``(height, width, 4)``) and each
    area's squares (a bitboard of row stride ``stride``), from a view of the configuration."""
    labels = [[str(c) for c in row] for row in first_view["template"]]
    h, w = len(labels), int(first_view["width"])
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
    return static, area_bits


def _formfinity(config: Any, first_view: Mapping[str, Any], rules: Any) -> Codec:
    from ..games.formfinity import PLACE, Card, Place, setup_for, window
    from ..games.formfinity import placements as window_placements
    from ._planes import formfinity_card

    players = int(config.players)
    setup = setup_for(config)  # type: ignore[arg-type]
    h, stride = setup.H, setup.S
    static, area_bits = formfinity_template(first_view, stride)
    names = setup.area_names
    area_of = [area_bits.get(names[i], 0) for i in range(len(setup.areas))]

    card_values: dict[int, list[int]] = {}

    def write(s: Any, observer: int, out: Out) -> None:
        out[:, :, :4] = static
        finished = 0
        for i, bits in enumerate(area_of):
            if s.done_areas >> i & 1:
                finished |= bits
        boards = [area_of[s.area] if s.area >= 0 else 0, finished, s.last]
        values: list[int] = []
        scores = rules.scores(s)
        for seat in _seats(observer, players):
            lines = 0
            for o, d, b in s.lines:
                if o == seat:
                    lines |= window(setup, d, b)
            boards += (s.owners[seat], lines)
            values.append(round(scores[seat]))
        card = card_values.get(s.card)
        if card is None:
            card = card_values[s.card] = formfinity_card(Card.from_id(s.card).notation() if s.card >= 0 else "")
        values.extend(card)
        values.append(s.left)
        values.extend(1 if s.phase == i else 0 for i in range(4))
        grids(out, 4, boards, stride)
        _features(out, 7 + 2 * players, values)

    place0 = rules.action_id(Place(0, 0, 0))  # a placement's id: place0 + shape, row and column steps
    row_step = rules.action_id(Place(0, 0, 1)) - place0
    shape_step = rules.action_id(Place(1, 0, 0)) - place0
    width = (h * stride + 7) // 8

    def legal_ids(s: Any, player: int) -> Any:
        """A placement turn's ids (linear in shape, row and column) from the anchor sets, all shapes at
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
        return place0 + shape * shape_step + y * row_step + x

    return Codec(write, legal_ids)


# --------------------------------------------------------------------------------------------- Qwirkle Cubes
def _qwirkle(config: Any) -> Codec:
    from ..games.qwirkle_cubes import PASS, PLACE, REROLL, cell_xy
    from ._planes import QWIRKLE_WINDOW

    players = int(config.players)
    n = QWIRKLE_WINDOW
    phases = [REROLL, PLACE, PASS]

    cells: dict[int, tuple[int, int]] = {}  # cell -> (x, y), filled as cubes appear

    def write(s: Any, observer: int, out: Out) -> None:
        out[:, :, :12] = 0
        if s.placed:
            xy = []
            for _, cell in s.placed:
                got = cells.get(cell)
                if got is None:
                    got = cells[cell] = cell_xy(cell)
                xy.append(got)
            xs = [x for x, _ in xy]
            ys = [y for _, y in xy]
            cx, cy = (min(xs) + max(xs)) // 2 - n // 2, (min(ys) + max(ys)) // 2 - n // 2
            if not out.flags.c_contiguous:
                raise ValueError("the observation buffer must be C-contiguous")
            flat = out.reshape(-1)  # a view of the buffer
            channels = out.shape[2]
            on: list[int] = []
            for (x, y), (face, _) in zip(xy, s.placed, strict=True):
                r, c = y - cy, x - cx
                if 0 <= r < n and 0 <= c < n:
                    at = (r * n + c) * channels
                    on += (at + face // 6, at + 6 + face % 6)
            flat[on] = 1
        values: list[int] = []
        for seat in _seats(observer, players):
            counts = [0] * 42
            pending = s.rolling if seat == s.player else 0
            for i, face in enumerate(s.hands[seat]):
                counts[face // 6 * 7 + (6 if pending >> i & 1 else face % 6)] += 1
            values += counts
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
