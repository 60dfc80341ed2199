"""Foldris values: the two kinds of action and the immutable state.

Sheet layout (one Python int per sheet, rows as bytes)::

    bit = row * 8 + column        row 0 is the bottom line, column 0 the left edge
    lane k (1-7) = columns k-1 and k (0-based), so lanes overlap

    row 2 | 16 17 18 19 20 21 22 23 |
    row 1 |  8  9 10 11 12 13 14 15 |
    row 0 |  0  1  2  3  4  5  6  7 |
            c1 c2 c3 c4 c5 c6 c7 c8      (columns as players see them)

A completed row is the byte ``0xFF``; folding removes that byte and shifts everything above down by 8 bits,
and the sheet's ``height`` (rows still visible) drops by one. Barrier squares live in their own int so they
can never complete a line and can be lifted off after a round.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

from polytable.core import Config

__all__ = ["Action", "Drop", "FoldrisState", "Reveal", "Sheet"]


class Drop(NamedTuple):
    """A player's choice for the round: the card's block, optional mirror and trim, a rotation, a column.

    ``trim`` is 0 for no trim, else the square deleted (1.. in reading order of the card's drawing after
    the mirror); ``rot`` is quarter turns clockwise (0-3); ``col`` is the block's leftmost column (0-based,
    shown 1-8).
    """

    name: str
    mirror: int
    trim: int
    rot: int
    col: int


class Reveal(NamedTuple):
    """A chance outcome: the card turned over (its block name and lane number 1-7)."""

    name: str
    lane: int


Action = Drop | Reveal


@dataclass(frozen=True, slots=True)
class Sheet:
    """One player's game sheet.

    ``out`` is 0 while the player is in the game, else the round in which they were eliminated.
    """

    ink: int
    barrier: int
    height: int
    lines: int
    bonus: int
    out: int = 0


@dataclass(frozen=True, slots=True)
class FoldrisState:
    """The whole game.

    * ``deck``: indices (into the config's card list) of the cards not yet revealed, sorted: the deck is a
      multiset whose order is never stored; each reveal draws uniformly from it with ``rng``.
    * ``start_lane``: 0 until the start card is revealed.
    * ``card``: index of this round's card while players choose, -1 between rounds.
    * ``pending``: each player's recorded choice for this round (None: not chosen yet).
    * ``over``: the game has ended (its result follows from the sheets).
    * ``starter``: the starting player (0-based), drawn from the seed at set-up (the rulebook: "Pick a
      starting player at random"); their lane is the start card's number, the next seat's one more.
    """

    config: Config
    sheets: tuple[Sheet, ...]
    deck: tuple[int, ...]
    start_lane: int
    round: int
    card: int
    pending: tuple[Drop | None, ...]
    rng: int
    over: bool = False
    starter: int = 0
