"""Qwirkle Cubes (2-4 players): roll cubes and build lines of one colour or one shape.

Rules as implemented (rulebook qwirkle-cubes.nl.txt; open points in CLARIFICATIONS.md):

* 90 cubes, 15 in each of 6 colours (R O Y G B P); a roll shows one of 6 shapes (● ■ ◆ ♣ ✦ ✸) and
  never changes the colour. All cubes start in the bag; each player draws 6 and rolls them (chance).
  Hands are open.
* A turn is a fixed sequence: (1) reroll any subset of the hand, once, or keep (``reroll 1,4`` /
  ``keep``); (2) place one or more cubes in one row or column as one action; (3) score; (4) draw back to 6
  and roll only the new cubes. Draws and rolls are chance nodes drawn in constant time from the generator
  in the state and recorded in the log, so a game replays exactly.
* Placing: the new cubes lie in one row or column with no empty cell between them once placed; every line
  (2+ cubes in a row) is one colour with different shapes or one shape with different colours, at most 6
  long; at least one new cube touches a cube on the table along a side.
* Scoring: each line of 2+ cubes holding a new cube scores its length once (a cube in two lines counts in
  both); a line of 6 scores 6 more (a Qwirkle).
* First turn: the starting player places the largest possible line of their hand; while that is under 2
  the whole hand is rerolled (chance).
* A player who cannot place rerolls the whole hand until they can (each forced reroll is a chance node).
* End: when the bag is empty hands are no longer refilled; the first player to use all their cubes ends
  the game and scores 6 more. Highest score wins; ties are shared wins.

Choices where the rulebook and CLARIFICATIONS are silent (also in docs/games/qwirkle_cubes.md and tests):

* "Not all added cubes need to touch each other" (rulebook) is read with the one-line rule of
  CLARIFICATIONS: the new cubes may be separated by cubes already on the table, never by an empty cell.
* Coordinates are relative to the first cube at (0, 0), x to the right, y upwards; the first play always
  starts at 0,0 and runs to the right (any other first play is the same up to symmetry).
* The starting player's first turn also begins with the optional reroll, like every turn.
* The pass: at the start of a turn, if no face of any cube of the hand fits anywhere on the table (so no
  roll could ever help), the player's only action is ``pass``. When every player passes in a row the game
  ends with no finishing bonus. CLARIFICATIONS says "with the bag empty"; with cubes left in the bag
  nobody's hand can change either (hands are full), so the same end applies there too.
* Rerolling one of two identical cubes is one choice: the reroll names the leftmost of identical cubes
  (the parser normalises what a person types).
* The bag is a count of cubes per colour; a draw takes cubes uniformly from it. Only its order is hidden
  (the counts follow from the open hands and the table): views omit the generator, ``determinize`` reseeds it.
"""

from ...core import register

# The public face: what the players (polytable.ai), printables, the CLI, bench and the web app use.
# Nothing outside this package imports its private modules (tests/kernel/test_architecture.py).
from ._actions import Draw, Pass, Place, Reroll, Roll, format_action
from ._board import Board, Placement
from ._check import largest_line, placement_error
from ._game import QwirkleCubes, canonical_mask, hand_mask, kernel_of, reroll_masks
from ._kernel import PLAYOUT, CompiledQwirkle, QwirkleKernel, pack_state, unpack_state
from ._state import DRAW, END, PASS, PLACE, REROLL, ROLL, SETUP_DRAW, QState
from ._tiles import (
    COLOUR_LETTERS,
    COLOUR_NAMES,
    HAND_SIZE,
    LINE_MAX,
    SHAPE_ASCII,
    SHAPE_NAMES,
    STRIDE,
    addable,
    cell,
    cell_xy,
    face_text,
    line_ok,
    parse_face,
)

__all__ = [
    "COLOUR_LETTERS",
    "COLOUR_NAMES",
    "DRAW",
    "END",
    "GAME",
    "HAND_SIZE",
    "LINE_MAX",
    "PASS",
    "PLACE",
    "PLAYOUT",
    "REROLL",
    "ROLL",
    "SETUP_DRAW",
    "SHAPE_ASCII",
    "SHAPE_NAMES",
    "STRIDE",
    "Board",
    "CompiledQwirkle",
    "Draw",
    "Pass",
    "Place",
    "Placement",
    "QState",
    "QwirkleCubes",
    "QwirkleKernel",
    "Reroll",
    "Roll",
    "addable",
    "canonical_mask",
    "cell",
    "cell_xy",
    "face_text",
    "format_action",
    "hand_mask",
    "kernel_of",
    "largest_line",
    "line_ok",
    "pack_state",
    "parse_face",
    "placement_error",
    "reroll_masks",
    "unpack_state",
]

GAME = QwirkleCubes()
register(GAME)
