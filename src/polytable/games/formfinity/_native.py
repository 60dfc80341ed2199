"""FORMFINITY's compiled kernel, when it is built: ``_cformfinity`` (C, next to these rules) or None.

Why here, inside the game's package: rules code imports only ``core`` and ``geometry``, and the kernel
is this game's rules in another language, so it lives beside the Python it mirrors; the lookup (and the
``POLYTABLE_PURE`` switch) is :func:`polytable.core.native_module`. The kernel covers the hot path the
profile shows: where an element may go (``_board.element_anchors``: every orientation, anywhere or slid
in from the card's edges, as bitboards), the flood of a region (``Setup.flood``, which the connection
and numbers goals ask for at every step) and the connection goal's "no element may take the opponent's
last way" filter (``_flow.keeps_a_way``, a flood per risky anchor), and the whole random playout
(:func:`native_playout`: ``_flow``'s turns, card draws, lines, areas, numbers and ends in C, with the
draws of ``FormfinityGame._sample``). Stepwise play (legal actions, checks, apply), notation and views
stay in Python; the pure-Python rules remain the reference (tests/games/formfinity/test_formfinity_native.py
and ``polytable fuzz formfinity`` play both side by side).
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from types import ModuleType
from typing import TYPE_CHECKING

from polytable.core import Rng, native_module

from ._cards import ROTATIONS, SHAPES
from ._state import FormfinityState, evolve

if TYPE_CHECKING:
    from ._board import Setup

__all__ = ["EXT", "native_playout", "pure_engine"]

EXT: ModuleType | None = native_module("polytable.games.formfinity._cformfinity")
"""The extension module (its shapes set), or None when the pure engine runs."""

if EXT is not None:
    EXT.init(SHAPES, ROTATIONS)

_GOALS = ("lines", "areas", "connection", "numbers")
_ROTATION = ("card", "always", "never")
_PACKS: weakref.WeakKeyDictionary[Setup, tuple[object, ...]] = weakref.WeakKeyDictionary()
_FIELDS = (
    "rng", "deck", "owners", "turn", "phase", "card", "left", "placed", "lines", "area", "done_areas", "fails",
    "points", "numbers", "winners", "cards_drawn", "last", "unused",
)  # fmt: skip


def _pack(setup: Setup) -> tuple[object, ...]:
    """The setup as the kernel reads it (built once per setup; the kernel rereads it only when it changes)."""
    pack = _PACKS.get(setup)
    if pack is None:
        r, gen = setup.rules, setup.generator
        pack = (
            setup.W, setup.H, _GOALS.index(r.goal), setup.players, setup.full, setup.playable, setup.wall,
            setup.stars, setup.areas, setup.numbers, setup.numbers_all, r.corner_touch, r.connect, r.length,
            r.target, r.difficulty == "hard", r.directions, r.arrows, _ROTATION.index(r.rotation),
            None if gen is None else (gen.sizes, gen.counts, gen.arrows, gen.rotation),
            setup.deck, setup.deck_shuffle, setup.possible,
        )  # fmt: skip
        _PACKS[setup] = pack
    return pack


def native_playout(
    setup: Setup, state: FormfinityState, rngs: Sequence[Rng], max_actions: int | None
) -> tuple[FormfinityState, int] | None:
    """``FormfinityGame.playout`` in C (the caller checks ``EXT``): the same draws and the same final
    state; None where the kernel declines (tables it does not hold), and then nothing has changed."""
    assert EXT is not None
    used = rngs[:1] if len(rngs) == 1 else rngs[: setup.players]
    fields = tuple(getattr(state, f) for f in _FIELDS)
    out = EXT.playout(_pack(setup), fields, [r.state for r in used], -1 if max_actions is None else max_actions)
    if out is None:
        return None
    values, states, taken = out
    for r, st in zip(used, states, strict=True):
        r.state = st
    return evolve(state, **dict(zip(_FIELDS, values, strict=True))), taken


class pure_engine:
    """Inside the block, the pure-Python rules run even where the kernel is built, so differential tests
    and ``polytable fuzz`` can play both engines side by side in one process (the placement memo is
    emptied on the way in and out, so neither engine reads the other's answers). Not thread-safe."""

    def __enter__(self) -> None:
        from . import _board, _flow, _game, _greedy

        self._modules = (vars(_board), vars(_flow), vars(_game), vars(_greedy))
        for d in self._modules:
            d["EXT"] = None
        _flow.clear_caches()

    def __exit__(self, *exc: object) -> None:
        from . import _flow

        for d in self._modules:
            d["EXT"] = EXT
        _flow.clear_caches()
