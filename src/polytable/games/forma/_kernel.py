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

from polytable.core import CHANCE, TERMINAL, Rng

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

__all__ = ["CompiledForma", "FormaKernel"]


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
        """The set-up, touch-move picks and placements to the end in C."""
        self.tables(state.size)
        shared = len(rngs) == 1
        used = rngs[:1] if shared else rngs[: state.config.players]
        out = self.ext.playout(
            state.size, state.obstacles, state.tower, state.pieces, state.markers, state.filled, state.stock,
            state.scores, state.bridges, state.closed, state.watch, state.turn, state.moves, state.last, state.exact,
            [r.state for r in used], shared, -1 if max_actions is None else max_actions,
            bool(state.config["touch_move"]), state.picked,
            state.misses, state.placing, state.rng,
        )  # fmt: skip
        pieces, markers, filled, stocks, scores, bridges, closed, watch, turn, moves, last, exact, states, taken = out[
            :14
        ]
        obstacles, tower, picked, misses, placing, rng = out[14:]
        for r, st in zip(used, states, strict=True):
            r.state = st
        orients = tuple(
            o if s == s0 else avail_orients(s) for s, s0, o in zip(stocks, state.stock, state.orients, strict=True)
        )
        final = FormaState(
            state.config, state.size, obstacles, tower, pieces, markers, filled, stocks, scores, bridges, closed, watch,
            turn, picked, misses, moves, last, exact, orients, placing, rng,
        )  # fmt: skip
        return final, taken
