"""Foldris: every player drops the same block on their own sheet; completed lines fold away.

Rules as implemented (rulebook foldris.txt plus CLARIFICATIONS; see docs/games/foldris.md for more):

* Sheet 8 columns x ``height`` rows (option, default 12); lane k (1-7) is columns k and k+1.
* The starting player is drawn at random at set-up ("Pick a starting player at random"), from the seed's
  stream 1 so a seed's deck order does not depend on it (solo: player 1). A chance node reveals the start
  card; the starting player fills a 2x2 square at the bottom of the card's lane, the player to their left
  (the next seat) the next lane, and so on (lane ``start + (seat - starter) mod players``, 7 wraps to 1).
* Rounds: a chance node reveals a card, then all surviving players choose at once (``SIMULTANEOUS``);
  a pending choice is hidden from the others. Legal actions are the distinct resting positions; among
  the ways to reach one, the cheapest canonical (cost, mirror, trim, rotation) is the action.
* Mirror costs 1, trim 2 (1 in solo); each at most once a round, both may combine; a trim never splits
  the block and never removes a block's only square. Bonus storage starts at 2 and is unlimited.
* Completed lines (ink only; barrier squares never count) give one bonus point each and fold: the rows
  above move down rigidly and the sheet is one row shorter. Then last round's barriers are lifted; then
  barriers fall in the card's lane for every player who completed no line when someone else did (solo:
  always). A barrier that does not fit is simply not placed.
* A player who cannot draw the revealed block in any way they can afford is eliminated at the reveal.
  The last survivor wins; players eliminated in the same round, or the survivors when the deck runs out,
  are ranked by lines, then unused bonus points; a remaining tie is a shared win (chosen).
* Solo ends on elimination or an empty deck with the rulebook's title (below 3 lines: no title, and
  ``winners`` is empty; with a title the player is listed as the winner). ``returns`` = lines / height.
"""

from polytable.core import register

# The public face: what the players (polytable.ai), printables, the CLI, bench and the web app use.
# Nothing outside this package imports its private modules (tests/kernel/test_architecture.py).
from ._cards import DEFAULT_DECK, WIDTH, Variant, VariantTable, parse_deck
from ._decks import deck_of, table_of, tables_of, trim_cost
from ._game import FoldrisGame
from ._kernel import CompiledFoldris, FoldrisKernel, deck_rows, table_rows
from ._rules import (
    COLUMN,
    barrier_drop,
    complete_rows,
    count_placements,
    drops,
    fold,
    heights,
    nth_placement,
    placements,
    rest_row,
)
from ._state import Drop, FoldrisState, Reveal, Sheet
from ._titles import SAMPLE_DECK_CUSTOM, SAMPLE_DECK_SHORT, SOLO_TITLES, solo_title

__all__ = [
    "COLUMN",
    "DEFAULT_DECK",
    "GAME",
    "SAMPLE_DECK_CUSTOM",
    "SAMPLE_DECK_SHORT",
    "SOLO_TITLES",
    "WIDTH",
    "CompiledFoldris",
    "Drop",
    "FoldrisGame",
    "FoldrisKernel",
    "FoldrisState",
    "Reveal",
    "Sheet",
    "Variant",
    "VariantTable",
    "barrier_drop",
    "complete_rows",
    "count_placements",
    "deck_of",
    "deck_rows",
    "drops",
    "fold",
    "heights",
    "nth_placement",
    "parse_deck",
    "placements",
    "rest_row",
    "solo_title",
    "table_of",
    "table_rows",
    "tables_of",
    "trim_cost",
]

GAME = FoldrisGame()
register(GAME)
