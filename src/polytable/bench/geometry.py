"""Geometry primitives: enumeration, orientation tables and bitboard operations per second."""

from __future__ import annotations

import time
from collections.abc import Callable

from ..geometry import Grid3, fixed_polyominoes, flood, free_polyominoes, orientations, polycubes

NAME = "geometry"


def _rate(fn: Callable[[], object], seconds: float) -> float:
    n = 0
    start = time.perf_counter()
    end = start + seconds
    while True:
        fn()
        n += 1
        now = time.perf_counter()
        if now >= end:
            return n / (now - start)


def run(quick: bool = False) -> dict[str, object]:
    secs = 0.05 if quick else 0.5
    stride = 21  # a 20x20 board with its guard column
    board = sum(((1 << 20) - 1) << (y * stride) for y in range(20))
    rng_free = board & ~sum(1 << (x * stride + x) for x in range(20))
    pent = free_polyominoes(5)
    oris = [o for p in pent for o in orientations(p)]
    start = time.perf_counter()
    fixed_polyominoes.cache_clear()
    free_polyominoes.cache_clear()
    n6 = len(free_polyominoes(6))
    enum_ms = (time.perf_counter() - start) * 1000

    g3 = Grid3(4, 4, 4)

    def flood3() -> int:
        return g3.flood(1, g3.full & ~g3.layer(1))

    def flood2() -> int:
        return flood(1 << 1, rng_free, stride)

    polycubes.cache_clear()
    start = time.perf_counter()
    n4 = len(polycubes(4))
    cube_ms = (time.perf_counter() - start) * 1000
    return {
        "enumerate free polyominoes up to 6 cells (ms)": round(enum_ms, 2),
        "free hexominoes": n6,
        "enumerate tetracubes (ms)": round(cube_ms, 2),
        "tetracubes": n4,
        "pentomino orientations": len(oris),
        "2D flood fills per second (20x20)": round(_rate(flood2, secs), 1),
        "3D flood fills per second (4x4x4)": round(_rate(flood3, secs), 1),
    }
