"""Solo titles and the small decks used to exercise variants in tests and the conformance suite."""

from __future__ import annotations

__all__ = ["SAMPLE_DECK_CUSTOM", "SAMPLE_DECK_SHORT", "SOLO_TITLES", "solo_title"]

SOLO_TITLES: tuple[tuple[int, str], ...] = (
    (12, "Foldris world champion"),
    (11, "Foldris genius"),
    (10, "Foldris pro"),
    (8, "Foldris maniac"),
    (6, "Foldris enthusiast"),
    (3, "Foldris amateur"),
)
"""The rulebook's table: a title needs at least that many lines (the rows in between take the lower one)."""


def solo_title(lines: int) -> str:
    """The solo title for a number of lines; the empty string below 3 lines (the table has no title)."""
    for need, title in SOLO_TITLES:
        if lines >= need:
            return title
    return ""


SAMPLE_DECK_CUSTOM = """# a deck with duplicates, a pentomino, a tromino and a monomino
T 1
T 1
I 2
P 3 ##/##/#.
V 4 #./##
P 5
X1 6 #
S 7
Z 1
O 2
L 3
J 4
"""
"""A small custom deck in the deck-file format (``deck`` option): duplicates, and cards of 1, 3 and 5 squares,
for trying variants and for the conformance suite."""

SAMPLE_DECK_SHORT = "I 1\nO 2\nT 3\nS 4\nZ 5\n"
"""A five-card deck (one of each tetromino but L and J): a game that runs out of cards within a few rounds."""
