"""Forma's rules kernel, the one seam between the pure-Python rules and the compiled ``_cforma``.

The game object picks its kernel once, when it is made (``get_game("forma", engine=...)``): a
:class:`FormaKernel` (the Python rules of :mod:`._rules` and :mod:`._setup`, the reference) or a
:class:`CompiledForma` (the same interface over the C extension built with the package). Rules code
never asks which engine runs; it calls the kernel it was given. The kernel covers move generation (count,
sample, the anchor tables), a placement's effect and score, whose turn is next, the set-up's draws and a
random playout to the end that includes the set-up and touch-move picks. Notation, views and checks stay in
Python; the AI's values (``polytable.ai.forma``) are not the kernel's: its compiled evaluation is its own
extension, which calls this one's rules through a capsule (``FormaAPI`` in ``_cforma.h``).
tests/games/forma/test_forma_native.py plays both kernels side by side; docs/engine.md describes the seam.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from types import ModuleType

from polytable.core import CHANCE, TERMINAL, Rng, StateLayout

from . import _pieces as P
from ._pieces import Tables
from ._rules import (
    ONE_OF,
    Effect,
    avail_orients,
    bridge_total,
    can_place,
    count_moves,
    piece_fits,
    place_effect,
    sample_move,
)
from ._setup import SetupAction, chance_outcome, drawn, setup_sample
from ._state import FormaState, Obstacle, Tower

Stocks = tuple[tuple[int, ...], ...]
"""Each player's piece counts (or orientations)."""

__all__ = ["BOARDS", "PLAYOUT", "CompiledForma", "FormaKernel"]

BOARD = 64
"""Bytes of a board in the compiled kernel (512 bits: the 20 x 20 board, stride 24, needs 480)."""
SEATS = 4
"""Players the buffer has room for (those past the game's are zeros)."""
NP = 21
"""Pieces in a stock."""

PLAYOUT = StateLayout(
    (
        *((name, "q", 1) for name in ("size", "players", "turn", "moves", "exact", "touch", "picked", "misses")),
        ("placing", "q", 1),
        ("shared", "q", 1),  # one generator for every player (rngs[0])
        ("max_actions", "q", 1),  # -1: to the end
        ("actions", "q", 1),  # out: the actions taken
        ("setup_rng", "Q", 1),  # FormaState.rng
        ("rngs", "Q", SEATS),
        *((name, f"{BOARD}s", 1) for name in ("obstacles", "tower", "filled", "closed", "watch", "last")),
        ("pieces", f"{BOARD}s", SEATS),
        ("markers", f"{BOARD}s", SEATS),
        ("stock", "24s", SEATS),  # the NP piece counts (each below 256), zero-padded
        ("scores", "q", SEATS),
        ("bridges", "q", SEATS),
    )
)
"""The compiled playout's state buffer (``_cforma.h``'s PlayoutBuf): a FormaState with its generators and
limit, written back with the end state. The one description of it: the C reports its members' offsets
(``_cforma.layout()``) and tests/kernel/test_layouts.py compares them with these."""

BOARDS = tuple(name for name, code, _ in PLAYOUT.fields if code == f"{BOARD}s")
"""The buffer's boards, in order: the playout takes and returns them as the state's ints (a board, or a
tuple of one per player) and converts them itself, as it does the stocks (tuples of counts); Python packs
and unpacks the other fields."""
_REST, _I = PLAYOUT.skipping((*BOARDS, "stock"))  # the other fields, and each one's first item in their tuple
_TURN, _MOVES, _EXACT, _PICKED, _MISSES, _PLACING = (
    _I[f] for f in ("turn", "moves", "exact", "picked", "misses", "placing")
)
_ACTIONS, _SETUP_RNG, _RNGS, _SCORES, _BRIDGES = (_I[f] for f in ("actions", "setup_rng", "rngs", "scores", "bridges"))


class FormaKernel:
    """The pure-Python kernel: the reference every compiled answer must equal."""

    def tables(self, size: int) -> Tables:
        """The precomputed tables of a board size (their anchor function is this kernel's)."""
        return P.tables(size)

    # The rules of ._rules, the reference (the compiled kernel's methods below take the same arguments).
    bridge_total = staticmethod(bridge_total)
    place_effect = staticmethod(place_effect)
    can_place = staticmethod(can_place)
    piece_fits = staticmethod(piece_fits)
    """Whether some orientation of ``piece`` fits somewhere on ``free``."""
    count_moves = staticmethod(count_moves)
    sample_move = staticmethod(sample_move)

    def next_turn(
        self,
        tb: Tables,
        stocks: tuple[tuple[int, ...], ...],
        orients: tuple[tuple[int, ...], ...],
        free: int,
        player: int,
    ) -> int:
        """The next player (clockwise) who can place a piece; TERMINAL when nobody can.

        A player who cannot place now never can again (the board only fills), so skipping them is the pass
        the rules prescribe; the mover is asked last."""
        n = len(stocks)
        for i in range(1, n + 1):
            q = (player + i) % n
            if self.can_place(tb, stocks[q], orients[q], free):
                return q
        return TERMINAL

    setup_sample = staticmethod(setup_sample)
    chance_outcome = staticmethod(chance_outcome)

    def playout(self, state: FormaState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[FormaState, int] | None:
        """The whole random playout in one call, or None: the game then plays it step by step."""
        return None


class CompiledForma(FormaKernel):
    """The same kernel in C (``_cforma``): identical states, draws and values, faster."""

    _tables: dict[int, Tables] = {}  # noqa: RUF012 (one set per board size, shared: the extension holds one)

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext

    def tables(self, size: int) -> Tables:
        tb = self._tables.get(size)
        if tb is None:
            if size > 20:  # the kernel's fixed-size boards end here; the Python tables serve the rest
                return P.tables(size)
            tb = P.Tables(size, functools.partial(self.ext.anchors, size))
            offsets = [sorted(y * tb.stride + x for x, y in c) for c in P.ORIENT_CELLS]
            self.ext.init(size, tb.stride, offsets, P.ORIENT_PIECE, P.PIECE_SIZES)
            self._tables[size] = tb
        return tb

    def bridge_total(self, tb: Tables, own: int) -> tuple[int, bool]:
        total, _, _, exact = self.ext.bridges(tb.size, own)
        return total, exact

    def place_effect(self, tb: Tables, s: FormaState, player: int, mask: int, size: int) -> Effect:
        """Everything but the bridge count in one call; the bridges only when the bound allows a new one."""
        own0 = s.pieces[player] | s.markers[player]
        filled, enc, closed, points, own, bound = self.ext.effect(
            tb.size, s.filled, s.watch, s.obstacles, s.tower, s.closed, own0, mask, size
        )
        bridges = s.bridges[player]
        exact = True
        if bound > bridges:
            total, exact = self.bridge_total(tb, own)
            if total > bridges:
                points += 50 * (total - bridges)
                bridges = total
        return Effect(filled, enc, closed, points, bridges, exact, own)

    def can_place(self, tb: Tables, stock: tuple[int, ...], gs: tuple[int, ...], free: int) -> bool:
        if not free or not gs:
            return False
        return bool(self.ext.can_place(tb.size, stock, free))

    def piece_fits(self, tb: Tables, piece: int, free: int) -> bool:
        if piece == 0 or self._tables.get(tb.size) is not tb:  # the single square; or Python tables
            return piece_fits(tb, piece, free)
        return bool(self.ext.can_place(tb.size, ONE_OF[piece], free))  # stops at the first fit

    def count_moves(self, tb: Tables, stock: tuple[int, ...], free: int, only: int = -1) -> int:
        return int(self.ext.count(tb.size, stock, free, only))

    def sample_move(
        self, tb: Tables, stock: tuple[int, ...], gs: tuple[int, ...], free: int, rng: Rng, only: int = -1
    ) -> tuple[int, int]:
        g0, mask0, rng.state = self.ext.sample(tb.size, stock, free, rng.state, only)
        if g0 < 0:
            raise ValueError("no legal placement")
        return g0, mask0

    def next_turn(
        self,
        tb: Tables,
        stocks: tuple[tuple[int, ...], ...],
        orients: tuple[tuple[int, ...], ...],
        free: int,
        player: int,
    ) -> int:
        return int(self.ext.next_turn(tb.size, stocks, free, player))

    def setup_sample(self, state: FormaState, player: int, rng: Rng) -> SetupAction:
        self.tables(state.size)
        kind, bit, rng.state = self.ext.setup_sample(
            state.size, state.obstacles, state.tower, state.placing, rng.state, player == CHANCE
        )
        return drawn(state, kind, bit)

    def chance_outcome(self, state: FormaState) -> Obstacle | Tower:
        self.tables(state.size)
        kind, bit, _ = self.ext.setup_sample(state.size, state.obstacles, state.tower, state.placing, state.rng, True)
        return drawn(state, kind, bit)  # type: ignore[return-value]

    def playout(self, state: FormaState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[FormaState, int]:
        """The set-up, touch-move picks and placements to the end in C, through one state buffer (PLAYOUT)."""
        self.tables(state.size)
        s = state
        n = s.config.players
        shared = len(rngs) == 1
        used = rngs[:1] if shared else rngs[:n]
        buf = bytearray(
            _REST.pack(
                s.size, n, s.turn, s.moves, s.exact, bool(s.config["touch_move"]), s.picked, s.misses, s.placing,
                shared, -1 if max_actions is None else max_actions, 0, s.rng,
                *[r.state for r in used], *(0,) * (SEATS - len(used)),
                *s.scores, *(0,) * (SEATS - n), *s.bridges, *(0,) * (SEATS - n),
            )
        )  # fmt: skip
        obstacles, tower, filled, closed, watch, last, pieces, markers, stocks = self.ext.playout(
            buf, (s.obstacles, s.tower, s.filled, s.closed, s.watch, s.last, s.pieces, s.markers), s.stock
        )
        v = _REST.unpack(buf)
        for r, st in zip(used, v[_RNGS : _RNGS + len(used)], strict=True):
            r.state = st
        orients = tuple(o if t == t0 else avail_orients(t) for t, t0, o in zip(stocks, s.stock, s.orients, strict=True))
        final = FormaState(
            s.config, s.size, obstacles, tower, pieces, markers, filled, stocks, v[_SCORES : _SCORES + n],
            v[_BRIDGES : _BRIDGES + n], closed, watch, v[_TURN], v[_PICKED], v[_MISSES], v[_MOVES], last,
            bool(v[_EXACT]), orients, v[_PLACING], v[_SETUP_RNG],
        )  # fmt: skip
        return final, v[_ACTIONS]
