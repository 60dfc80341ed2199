"""Forma's state, actions, coordinates and board set-up.

Board layout (see :mod:`._pieces`): cell ``(x, y)`` with ``x`` the column from the left and ``y`` the row
from the *top* is bit ``y * stride + x``, ``stride = size + 4``. People see columns ``a``-``s`` (``a``-``t``
on 20 x 20) and rows numbered from 1 at the *bottom*, as in chess and in Blokus programs; actions store
that human form, so notation and action ids never depend on the board size.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NamedTuple

from polytable.core import Config, ConfigError, PolytableError, below
from polytable.geometry import bits

from ._pieces import select_bit, tables

__all__ = [
    "COLUMNS",
    "Fill",
    "FormaState",
    "Obstacle",
    "Pick",
    "Place",
    "Tower",
    "allowed_cells",
    "cell_name",
    "format_setup",
    "parse_cell",
    "parse_setup",
    "random_setup",
]

COLUMNS = "abcdefghijklmnopqrst"


class Place(NamedTuple):
    """Place a piece. ``orient`` is the symmetry 0-7 (quarter turns clockwise, +4 mirrored);
    ``col``/``row`` (0-based, row 0 at the bottom) is the reference cell: the leftmost covered cell of the
    piece's top row."""

    piece: int
    orient: int
    col: int
    row: int


class Pick(NamedTuple):
    """Touch-move (the rulebook's rule, on by default): pick up a piece, which must then be placed (or
    leaves the game)."""

    piece: int


@dataclass(frozen=True, slots=True)
class Obstacle:
    """Set-up (``placement=players``): put a grey obstacle on a cell; ``col``/``row`` as in :class:`Place`.
    The chance player uses it too, after a :class:`Fill`. (Dataclasses, not tuples, for the set-up actions:
    ``Obstacle(3, 4)`` and ``Tower(3, 4)`` must not compare equal.)"""

    col: int
    row: int


@dataclass(frozen=True, slots=True)
class Tower:
    """Set-up: put the white tower on a cell (by the starting player, or by chance after a fill)."""

    col: int
    row: int


@dataclass(frozen=True, slots=True)
class Fill:
    """Set-up: the starting player leaves the rest of the set-up to chance; the remaining tower and obstacles
    are then placed one by one at chance nodes, each uniform over the cells still allowed."""


Action = Place | Pick | Obstacle | Tower | Fill


class FormaState(NamedTuple):
    """A Forma position: an immutable value.

    **Why a NamedTuple and not a frozen dataclass** (the house style): a playout builds one state per move,
    and with 18 fields a frozen dataclass's ``__init__`` (one ``object.__setattr__`` per field) costs several
    times a NamedTuple's (docs/benchmarks/design-figures.md), a large share of the per-move budget. It is
    just as immutable, compares and hashes by value, and unchanged parts (tuples, ints) are shared.

    Bitboards are ints in the layout of :mod:`._pieces` (one per player for pieces
    and for markers); ``filled`` caches every non-empty cell (pieces, markers, obstacles, tower).

    ``closed`` holds the obstacles and the tower whose surroundings are complete (scored or not: once all
    four neighbours are filled, nothing can change), ``watch`` the empty-or-not neighbours of the others
    (a move that touches none of them cannot enclose an obstacle). ``turn`` is the player to act or
    ``TERMINAL``; in touch-move, ``picked`` is the piece in hand (-1: none) and ``misses`` how many picked
    pieces did not fit this turn. ``orients`` lists, per player, the orientations of the pieces still held
    (it changes only when a piece runs out, and saves the move generator a pass over the stock).

    Set-up by the players: ``placing`` counts the obstacles and the tower still to be placed before the
    first move (0: the game is on; ``tower`` is 0 until it is placed); ``turn`` is the starting player, or
    ``CHANCE`` once they chose a random fill, which draws from ``rng`` (a generator state; 0 when the set-up
    needs none).
    """

    config: Config
    size: int
    obstacles: int
    tower: int
    pieces: tuple[int, ...]
    markers: tuple[int, ...]
    filled: int
    stock: tuple[tuple[int, ...], ...]
    scores: tuple[int, ...]
    bridges: tuple[int, ...]
    closed: int
    watch: int
    turn: int
    picked: int
    misses: int
    moves: int
    last: int
    exact: bool
    orients: tuple[tuple[int, ...], ...]
    placing: int = 0
    rng: int = 0


def cell_name(col: int, row: int) -> str:
    """``(0, 0)`` -> ``a1`` (column letter, row number from the bottom)."""
    return f"{COLUMNS[col]}{row + 1}"


_CELL = re.compile(r"^([a-tA-T])(\d{1,2})$")


def parse_cell(text: str, size: int) -> tuple[int, int]:
    """``k7`` -> (col, row) in human coordinates, or ValueError with a sentence."""
    m = _CELL.match(text.strip())
    if not m:
        raise PolytableError(
            f"{text.strip()!r} is not a cell: write a column letter and a row number, like k7",
            "forma.not_a_cell",
            {"text": f"{text.strip()!r}"},
        )
    col = COLUMNS.index(m.group(1).lower())
    row = int(m.group(2)) - 1
    if col >= size or not 0 <= row < size:
        raise PolytableError(
            f"cell {text.strip()} is off the {size}x{size} board (a1 to {cell_name(size - 1, size - 1)})",
            "forma.cell_off_board",
            {"text": text.strip(), "size": size, "cell_name": cell_name(size - 1, size - 1)},
        )
    return col, row


def _neighbours(x: int, y: int) -> list[tuple[int, int]]:
    return [(x + 1, y), (x - 1, y), (x, y + 1), (x, y - 1)]


def _check_layout(size: int, tower: tuple[int, int] | None, obstacles: list[tuple[int, int]]) -> None:
    """Obstacles and the tower: inside the border, not orthogonally adjacent, and no empty cell walled in
    by them alone (it could never be enclosed by a move)."""
    items = [*([tower] if tower else []), *obstacles]
    if len(set(items)) != len(items):
        raise ConfigError(
            "the set-up puts two obstacles (or an obstacle and the tower) on the same cell", "forma.setup_same_cell"
        )
    taken = set(items)
    for x, y in items:
        name = cell_name(x, size - 1 - y)
        if not (0 < x < size - 1 and 0 < y < size - 1):
            raise ConfigError(
                f"an obstacle or the tower is on the border at {name}; they must stay off the edge",
                "forma.setup_on_border",
                {"name": name},
            )
        for nb in _neighbours(x, y):
            if nb in taken:
                raise ConfigError(
                    f"the obstacle or tower at {name} touches another one; they may not be adjacent",
                    "forma.setup_touching",
                    {"name": name},
                )
    for x in range(size):
        for y in range(size):
            if (x, y) not in taken and all(nb in taken for nb in _neighbours(x, y)):
                raise ConfigError(
                    f"cell {cell_name(x, size - 1 - y)} is walled in by obstacles before play",
                    "forma.state_walled_in",
                    {"cell_name": cell_name(x, size - 1 - y)},
                )


def allowed_cells(size: int, taken: int) -> int:
    """The cells (a bitboard) where the next obstacle or the tower may go, given those already ``taken``:
    off the border, not on or next to a taken cell, and not the last open side of an empty cell the taken
    ones wall in on three sides. Never empty while at most 25 obstacles and the tower are placed: each
    placed one rules out at most 5 cells plus a share of the walled-in ones, far fewer than the 289
    interior cells."""
    tb = tables(size)
    st = tb.stride
    interior = tb.board & ~(tb.top | tb.bottom | tb.left | tb.right)
    le, ri, up, dn = taken << 1, taken >> 1, taken << st, taken >> st
    near = (le | ri | up | dn) & tb.board
    three = tb.board & ~taken & ((le & ri & (up | dn)) | (up & dn & (le | ri)))
    danger = ((three << 1) | (three >> 1) | (three << st) | (three >> st)) & tb.board
    return interior & ~taken & ~near & ~danger


def random_setup(size: int, count: int, seed_state: int) -> tuple[tuple[int, int], list[tuple[int, int]]]:
    """Tower first, then ``count`` grey obstacles, each uniform over the cells still allowed (interior,
    not next to a placed one, not the last open side of a cell the others wall in), in reading order.
    Cells are ``(x, y)`` with ``y`` from the top. Word-parallel on bitboards: set-up is part of every
    simulated game, so it must cost microseconds."""
    tb = tables(size)
    st = tb.stride
    g = seed_state
    taken = 0
    picks: list[tuple[int, int]] = []
    for _ in range(count + 1):
        allowed = allowed_cells(size, taken)
        if not allowed:  # cannot happen for 25 obstacles on 17 x 17 interior cells; kept as a guard
            raise ConfigError(
                f"no room for {count} obstacles on a {size}x{size} board",
                "forma.no_room_for_obstacles",
                {"count": count, "size": size},
            )
        i, g = below(g, allowed.bit_count())
        bit = select_bit(allowed, i)
        taken |= 1 << bit
        y, x = divmod(bit, st)
        picks.append((x, y))
    return picks[0], picks[1:]


def parse_setup(text: str, size: int, partial: bool = False) -> tuple[tuple[int, int] | None, list[tuple[int, int]]]:
    """Read ``tower j10; obstacles c3 e5 g7`` (either order, commas allowed) into ``(x, y)`` cells.
    ``partial``: a set-up still being placed, where the tower may be missing (None)."""
    tower: tuple[int, int] | None = None
    obstacles: list[tuple[int, int]] = []
    for part in re.split(r"[;\n]", text):
        words = part.replace(",", " ").split()
        if not words:
            continue
        key, cells = words[0].lower(), words[1:]
        try:
            parsed = [parse_cell(c, size) for c in cells]
        except ValueError as e:
            raise ConfigError(f"set-up: {e}", "forma.setup_text", {"why": e}) from None
        xy = [(c, size - 1 - r) for c, r in parsed]
        if key == "tower":
            if len(xy) != 1 or tower is not None:
                raise ConfigError(
                    "set-up: name exactly one cell for the tower, like 'tower j10'", "forma.setup_one_tower"
                )
            tower = xy[0]
        elif key in ("obstacles", "obstacle"):
            obstacles.extend(xy)
        else:
            raise ConfigError(
                f"set-up: expected 'tower <cell>' or 'obstacles <cells>', not {part.strip()!r}",
                "forma.setup_format",
                {"part": f"{part.strip()!r}"},
            )
    if tower is None and not partial:
        raise ConfigError(
            "set-up: the tower's cell is missing (write 'tower j10; obstacles c3 e5')", "forma.setup_no_tower"
        )
    if len(obstacles) > 25:
        raise ConfigError(
            f"set-up: at most 25 grey obstacles, not {len(obstacles)}",
            "forma.setup_too_many",
            {"obstacles": len(obstacles)},
        )
    _check_layout(size, tower, obstacles)
    return tower, obstacles


def format_setup(state: FormaState) -> str:
    """The set-up string of a state's board (``parse_setup`` reads it back; during the players' set-up it
    may lack the tower, or be empty)."""
    tb = tables(state.size)
    n = state.size

    def names(b: int) -> list[str]:
        out = []
        for i in bits(b):
            y, x = divmod(i, tb.stride)
            out.append(cell_name(x, n - 1 - y))
        return out

    parts = [f"tower {names(state.tower)[0]}"] if state.tower else []
    obs = names(state.obstacles)
    if obs:
        parts.append("obstacles " + " ".join(obs))
    return "; ".join(parts)
