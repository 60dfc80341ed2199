"""Forma (Ravensburger 1973, H.J. Geesink): polyominoes on a 19 x 19 board with obstacles and a tower.

Rules as implemented (rulebook forma.nl.txt, CLARIFICATIONS "Forma"; docs/games/forma.md has the full text):

* Board 19 x 19 (option ``size`` 20). ``obstacles`` grey obstacles (0-25, default 10: the rulebook says
  "a chosen number" and gives no default; 10 keeps the board open while making them matter) and the
  white tower. Option ``placement``: ``players`` (default, as at a real table: "placed by the starting
  player", CLARIFICATIONS) - before the first move player 1 places them one by one (``obstacle k7``,
  ``tower j10``) or leaves the rest to chance (``fill``: chance nodes, see ``_setup``); ``random`` - all
  from the seed at creation, the tower first. An explicit ``setup`` string (``tower j10; obstacles c3 e5``)
  replaces both. Neither is ever on the border nor orthogonally adjacent to another. **Chosen**: a layout
  that walls in an empty cell by obstacles alone is refused (no move could ever enclose it).
* Each player: 22 pieces (the 21 free polyominoes of 1-5 cells plus a second single square), turned and
  flipped freely. Two players each hold both their colours as one colour: 44 pieces in one pool, turns
  alternating (**chosen**: any piece of the pool may be played on any turn). Three players: option.
* A move places a piece on free cells anywhere (no contact rule). Points: 1 per cell; 10 per empty cell
  whose four sides are now each a piece, a marker, an obstacle, the tower or the edge (a marker of the
  mover goes on it); 10 per grey obstacle whose four neighbours are now all filled, if every one of them is
  the mover's piece or marker (or the edge); 50 for the tower once its four neighbours are filled, any
  colours; 50 per bridge added to the mover's largest allowed set (see ``_bridges``). Markers count as
  their owner's colour; they go down before obstacles are checked, so a marker can complete an obstacle or
  the tower in the same move. Markers are unlimited.
* A player who cannot place any remaining piece is skipped (the pass is automatic; it is permanent, since
  the board only fills). Touch-move (option ``touch_move``, on by default as the rulebook says; off is a
  house rule where a move just places a piece): the player first picks a piece (``pick F5``); if it fits it
  must be placed; if not it leaves the game and the player picks once more (**chosen**: only if some
  remaining piece fits, since a pick that cannot fit changes nothing else); a second misfit also leaves
  and the turn passes. A pick is binding: undo never takes it back (taking back the placement after it
  leaves the piece in hand, to be placed elsewhere); the house rule has no picks, so its moves can be
  taken back freely.
* The game ends when nobody can place; highest score wins; ties are shared wins.

Notation: ``<piece> r<quarter turns>[f] @ <cell>`` such as ``F5 r3f @ k7``: the piece's name from
:func:`polytable.geometry.free_name`; the symmetry applied to its canonical form (``r0``-``r3`` quarter
turns clockwise, ``f`` = then mirrored left-right; symmetric pieces use the first equal symmetry); the
cell of the piece's top row that is furthest left. Columns ``a``-``s`` (``t``), rows 1 at the bottom.
Touch-move: ``pick F5``. Set-up: ``obstacle k7``, ``tower j10``, ``fill``.
"""

from polytable.core import register

# The public face: what the players (polytable.ai), printables, the CLI, bench and the web app use.
# Nothing outside this package imports its private modules (tests/kernel/test_architecture.py).
from ._bridges import BridgeCount, bridge_paths, count_bridges
from ._game import Forma, FormaAction, kernel_of
from ._kernel import CompiledForma, FormaKernel
from ._pieces import (
    NUM_ORIENTS,
    NUM_PIECES,
    ORIENT_CELLS,
    ORIENT_GK,
    ORIENT_K,
    ORIENT_PIECE,
    ORIENT_REF,
    PIECE_NAMES,
    PIECE_ORIENTS,
    PIECE_SHAPES,
    PIECE_SIZES,
    START_COUNTS,
    Tables,
    canonical_k,
    piece_index,
    tables,
)
from ._rules import bridge_total, enclosed, flood, neighbours, place_effect
from ._state import Fill, FormaState, Obstacle, Pick, Place, Tower, allowed_cells, format_setup, parse_setup

__all__ = [
    "GAME",
    "NUM_ORIENTS",
    "NUM_PIECES",
    "ORIENT_CELLS",
    "ORIENT_GK",
    "ORIENT_K",
    "ORIENT_PIECE",
    "ORIENT_REF",
    "PIECE_NAMES",
    "PIECE_ORIENTS",
    "PIECE_SHAPES",
    "PIECE_SIZES",
    "START_COUNTS",
    "BridgeCount",
    "CompiledForma",
    "Fill",
    "Forma",
    "FormaAction",
    "FormaKernel",
    "FormaState",
    "Obstacle",
    "Pick",
    "Place",
    "Tables",
    "Tower",
    "allowed_cells",
    "bridge_paths",
    "bridge_total",
    "canonical_k",
    "count_bridges",
    "enclosed",
    "flood",
    "format_setup",
    "kernel_of",
    "neighbours",
    "parse_setup",
    "piece_index",
    "place_effect",
    "tables",
]

GAME = Forma()
register(GAME)
