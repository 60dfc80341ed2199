"""The multiplayer endgame of ``hard``: lines are worth making only up to what can still change the result."""

from __future__ import annotations

from games.foldris._helpers import GAME, make_sheet, make_state
from polytable.ai import make_bot
from polytable.ai.foldris import NO_CAP, FoldrisExpectimaxBot, line_cap, reach
from polytable.core import Rng
from polytable.games.foldris import FoldrisState

# Player 1 (8 lines, 5 points) against an opponent on 6 lines with 0 points whose sheet can make two more
# lines at most (its lowest row has a hole under the square in column 2): being level at 8 lines wins on
# points, so no line is needed. The S in lane 7 either rests flat in columns 3-5 (rot 0) or upright (rot 1); with
# J7, S6 and I3 to come in an unknown order, the flat drop leads to 1.83 lines on average but one order in six
# eliminates the player on the last card, the upright one to 1 line and no elimination (an exhaustive
# expectimax over the 6 orders, worked out while writing this test).
MINE = """
.......#
.#..#.##
.#...##.
####.#..
"""
THEIRS = """
........
.#......
#.######
"""
CARD = ("S", 7)
LEFT = [("J", 7), ("S", 6), ("I", 3)]


def _state() -> FoldrisState:
    mine = make_sheet(MINE, height=4, bonus=5, lines=8)
    theirs = make_sheet(THEIRS, height=3, bonus=0, lines=6)
    return make_state([mine, theirs], card=CARD, deck_left=LEFT, round_=21)


def test_reach_counts_only_rows_without_holes() -> None:
    sheet = make_sheet(THEIRS, height=3, bonus=0, lines=6)
    # Row 1 has a hole (column 2 is covered), row 2 needs 7 squares, row 3 eight.
    assert reach(sheet.ink, sheet.height, 6) == 0
    assert reach(sheet.ink, sheet.height, 14) == 1
    assert reach(sheet.ink, sheet.height, 15) == 2
    assert reach(sheet.ink, sheet.height, 100) == 2
    open_sheet = make_sheet("##......\n######..", height=3)
    assert reach(open_sheet.ink, open_sheet.height, 2) == 1
    assert reach(open_sheet.ink, open_sheet.height, 8) == 2
    assert reach(open_sheet.ink, open_sheet.height, 16) == 3


def test_line_cap_follows_the_opponents_best_case() -> None:
    state = _state()
    assert line_cap(state, 0) == 0  # level at best, and more points
    poorer = make_state(
        [make_sheet(MINE, height=4, bonus=2, lines=8), make_sheet(THEIRS, height=3, bonus=0, lines=6)],
        card=CARD,
        deck_left=LEFT,
        round_=21,
    )
    assert line_cap(poorer, 0) == 1  # points could tie (0 + 2 lines' points): one more line is worth it
    behind = make_state(
        [make_sheet(MINE, height=4, bonus=5, lines=6), make_sheet(THEIRS, height=3, bonus=0, lines=6)],
        card=CARD,
        deck_left=LEFT,
        round_=21,
    )
    assert line_cap(behind, 0) == 2  # 8 lines at best for them, and more points


def test_no_risk_for_a_line_that_cannot_change_the_result() -> None:
    # mp_deep=3: the exact search reaches the end of the deck from here (3 cards left after the S). Without
    # the cap the flat drop (rot 0, 1.83 lines on average, one order in six eliminated) was preferred.
    state = _state()
    bot = make_bot("hard:mp_deep=3", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    safe = bot.choose(GAME, state, 0, Rng(0))
    assert (safe.rot, safe.col) == (1, 2)
    assert bot.search.cap == 0


def test_solo_counts_every_line() -> None:
    state = make_state([make_sheet(MINE, height=4, bonus=5, lines=8)], card=CARD, deck_left=LEFT[:2], round_=22)
    bot = make_bot("hard", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    bot.choose(GAME, state, 0, Rng(0))
    assert bot.search.cap == NO_CAP
