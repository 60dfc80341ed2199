"""Quadefy: two players place their eight tetracubes in a 4x4x4 cube; the player who cannot place loses.

Rules as implemented (rulebook ``quadefy.txt`` and the Quadefy section of CLARIFICATIONS.md; the choices
where both are silent are marked *chosen* and are tested in ``tests/games/quadefy``):

* Each player has the 8 tetracubes (I, O, T, L, S, B branch/tripod, SL left screw, SR right screw); each
  may be used once, in any of its distinct rotations (86 orientations in all). Mirror images are not
  rotations: SL and SR are different blocks.
* Player 1 (dark) moves first (*chosen*: the rulebook says "decide who starts"; swap seats to change it).
  The first block goes anywhere it fits; then players alternate.
* A placement is legal when all four cubes are inside the 4x4x4 space, on empty cells, *supported* (at
  least one cube on the floor or directly on top of a placed cube) and *reachable*: the block, in its
  final orientation and without rotating on the way (*chosen*), can be moved in from wholly outside the
  cube by straight unit moves without passing through placed blocks or through the floor. Outside the
  cube nothing blocks it (the table around the field is open, so sliding in at floor level is allowed).
* Option ``reachability=false`` drops the reachability test. Option ``stability=true`` also requires the
  horizontal projection of the block's centre of mass to lie *strictly* inside the convex hull of the
  squares on which its cubes rest (*chosen*: a knife-edge balance topples; placed blocks never move).
* A player who cannot place any remaining block on their turn loses; there are no draws. If all 16
  blocks are placed (the cube is full), Player 1 is to move with nothing in hand and loses (*chosen*:
  the literal rule; it needs a perfect packing and does not occur in practice).
* Scores are the blocks each player has placed (information only; the result is win/loss).

The bonus puzzle (:mod:`._puzzle`: the pattern, its check and the search for a packing) lives here too: it
is the puzzle's own rules, a pure function of bit sets. The exact solvers of the game, endgame and whole
game, are the AI's (``polytable.ai.quadefy``).
"""

from polytable.core import register

# The public face: what the players (polytable.ai), printables, the CLI, bench and the web app use.
# Nothing outside this package imports its private modules (tests/kernel/test_architecture.py).
from ._game import Quadefy, kernel_of
from ._kernel import CompiledQuadefy, QuadefyKernel
from ._moves import REACH, STABLE, any_legal, clear_cache, hand_counts, legal_count, legal_sets, sample_placement
from ._moves import placement_ids as moves_of
from ._native import export_tables as native_tables
from ._puzzle import (
    PATTERN_NOTES,
    PATTERNS,
    PuzzleResult,
    SearchStats,
    parse_pattern,
    pattern_text,
    solve_pattern,
    tile_region,
    verify_solution,
)
from ._state import ACTION_IDS, ACTIONS, Placement, QuadefyState, format_placement
from ._symmetry import REFLECTS, SYMMETRIES, canonical_key, pack_key, swap_screws, transform_cells, transform_placement
from ._tables import ALL_BLOCKS, BLOCK_INDEX, BLOCKS, FULL, GRID, ORIENTS, PLACE_AT, PLACEMENTS

__all__ = [
    "ACTIONS",
    "ACTION_IDS",
    "ALL_BLOCKS",
    "BLOCKS",
    "BLOCK_INDEX",
    "FULL",
    "GAME",
    "GRID",
    "ORIENTS",
    "PATTERNS",
    "PATTERN_NOTES",
    "PLACEMENTS",
    "PLACE_AT",
    "REACH",
    "REFLECTS",
    "STABLE",
    "SYMMETRIES",
    "CompiledQuadefy",
    "Placement",
    "PuzzleResult",
    "Quadefy",
    "QuadefyKernel",
    "QuadefyState",
    "SearchStats",
    "any_legal",
    "canonical_key",
    "clear_cache",
    "format_placement",
    "hand_counts",
    "kernel_of",
    "legal_count",
    "legal_sets",
    "moves_of",
    "native_tables",
    "pack_key",
    "parse_pattern",
    "pattern_text",
    "sample_placement",
    "solve_pattern",
    "swap_screws",
    "tile_region",
    "transform_cells",
    "transform_placement",
    "verify_solution",
]

GAME = register(Quadefy())
