"""The kernel's bridge count against the pure-Python reference.

``_cforma_bridges.c`` ports ``_bridges.py``; both must give identical results (the same count and exactness)
on many seeded random colour sets of every density (dense ones reach the search caps, where only the same
search order gives the same answer). Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import random

import pytest

from polytable.core import get_game, pure_engine_forced
from polytable.games.forma import CompiledForma, count_bridges, kernel_of

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("forma", "compiled")


def _bridge_counts_match(seeds: int) -> None:
    kernel = kernel_of(GAME)
    assert isinstance(kernel, CompiledForma)
    capped = 0
    for seed in range(seeds):
        r = random.Random(seed)
        n = (19, 20, 8)[seed % 3]
        tb = kernel.tables(n)
        density = (0.5, 0.6, 0.7, 0.8, 0.9, 0.95)[seed % 6]
        cells = [(x, y) for y in range(n) for x in range(n) if r.random() < density]
        own = sum(1 << (y * tb.stride + x) for x, y in cells)
        pure = tuple(count_bridges(cells, n))
        assert kernel.ext.bridges(n, own) == pure, (seed, n, density)
        capped += not pure[3]
    assert seeds // 8 <= capped <= seeds * 7 // 8  # both the exact and the capped searches are compared


def test_bridge_count_matches_on_random_colour_sets() -> None:
    """Six rounds of every board size and density."""
    _bridge_counts_match(36)


def test_bridge_count_matches_on_many_random_colour_sets() -> None:
    """400 sets (slow: the pure count takes seconds on the dense ones)."""
    _bridge_counts_match(400)
