"""Foldris's compiled kernel, when it is built: ``_cfoldris`` (C, next to these rules) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``, and the kernel is
this game's rules in another language, so it lives beside the Python it mirrors; the lookup (and the
``POLYTABLE_PURE`` switch) is :func:`polytable.core.native_module`. The kernel covers legal drops (count,
list, sample with the same draws as ``FoldrisGame._sample``), a round's resolution (drops, folds, barriers)
and a random playout to the end (reveals included). Checks, notation, views and the AIs' evaluation stay in
Python; the pure rules remain the reference (tests/games/foldris/test_foldris_native.py, ``polytable fuzz``).
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from polytable.core import Rng, native_module

if TYPE_CHECKING:
    from ._cards import VariantTable
    from ._state import FoldrisState

__all__ = ["EXT", "native_playout", "pure_engine", "table_id"]

EXT: ModuleType | None = native_module("polytable.games.foldris._cfoldris")
"""The extension module, or None when the pure engine runs."""

_IDS: dict[int, tuple[VariantTable, int]] = {}
"""id(table) -> (the table, kept alive so its id is never reused; its number in the kernel)."""
_DECKS: dict[int, tuple[tuple[VariantTable, ...], tuple[list[int], list[int], list[int]]]] = {}


def table_id(table: VariantTable) -> int:
    """The kernel's number of a variant table, registered on first use (tables are memoised per shape)."""
    hit = _IDS.get(id(table))
    if hit is None:
        assert EXT is not None
        rows = [(v.cost, v.width, v.height, v.bits, [b for _, b in v.profile]) for v in table.variants]
        hit = _IDS[id(table)] = (table, EXT.register(rows))
    return hit[1]


def _deck_arrays(state: FoldrisState) -> tuple[list[int], list[int], list[int]]:
    """Per card of the config's deck: its table's number, a key equal for equal (name, lane) cards, the lane."""
    from ._game import deck_of, tables_of

    tabs = tables_of(state.config)
    hit = _DECKS.get(id(tabs))
    if hit is None:
        names = deck_of(state.config).names
        cards = deck_of(state.config).cards
        arrays = ([table_id(t) for t in tabs], [names.index(n) * 8 + lane for n, lane in cards], [c[1] for c in cards])
        hit = _DECKS[id(tabs)] = (tabs, arrays)
    return hit[1]


def native_playout(state: FoldrisState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[FoldrisState, int]:
    """``FoldrisGame.playout`` in C (the caller checks ``EXT``); the same states and draws as the pure loop."""
    from ._game import tables_of
    from ._state import FoldrisState, Sheet

    assert EXT is not None
    tids, keys, lanes = _deck_arrays(state)
    pending = [-1] * len(state.sheets)
    if state.card >= 0:
        table = tables_of(state.config)[state.card]
        for p, d in enumerate(state.pending):
            if d is not None:
                pending[p] = table.by_key[(d.mirror, d.trim, d.rot)] * 8 + d.col
    shared = len(rngs) == 1
    used = rngs[:1] if shared else rngs[: state.config.players]
    out = EXT.playout(
        tids, keys, lanes, state.deck, [(s.ink, s.barrier, s.height, s.lines, s.bonus, s.out) for s in state.sheets],
        pending, state.start_lane, state.round, state.card, state.rng, state.over, state.starter,
        state.config.players == 1, [r.state for r in used], shared, -1 if max_actions is None else max_actions,
    )  # fmt: skip
    sheets, deck, start_lane, rnd, card, rng, over, cleared, states, taken = out
    for r, st in zip(used, states, strict=True):
        r.state = st
    final = FoldrisState(
        state.config, tuple(Sheet(*s) for s in sheets), deck, start_lane, rnd, card,
        (None,) * len(sheets) if cleared else state.pending, rng, over, state.starter,
    )  # fmt: skip
    return final, taken


class pure_engine:
    """Inside the block, the pure-Python rules run even where the kernel is built, so differential tests
    and ``polytable fuzz`` can play both engines side by side in one process. Not thread-safe."""

    def __enter__(self) -> None:
        from . import _game

        self._modules = (vars(_game),)
        for d in self._modules:
            d["EXT"] = None

    def __exit__(self, *exc: object) -> None:
        for d in self._modules:
            d["EXT"] = EXT
