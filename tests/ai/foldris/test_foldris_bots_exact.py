"""The solo exact endgame of ``hard``: the last-card and two-card line counts, the exact window, the checks."""

from __future__ import annotations

import itertools

from games.foldris._helpers import GAME, solo_positions
from polytable.ai import make_bot
from polytable.ai.foldris import FoldrisExpectimaxBot, last_lines, pair_lines
from polytable.core import CHANCE, Rng
from polytable.games.foldris import (
    WIDTH,
    FoldrisState,
    VariantTable,
    barrier_drop,
    complete_rows,
    deck_of,
    heights,
    placements,
    rest_row,
    tables_of,
)


def _brute_drops(table: VariantTable, ink: int, barrier: int, height: int, budget: int) -> list[tuple[int, int, int]]:
    """Every legal drop by the rules' own generator: (ink before folding, lines, cost)."""
    hts = heights(ink | barrier)
    out = []
    for i, col in placements(table, hts, height, budget):
        v = table.variants[i]
        y = rest_row(v, hts, col)
        new = ink | (v.bits << (WIDTH * y + col))
        out.append((new, len(complete_rows(new, y, y + v.height)), v.cost))
    return out


def _fold_all(ink: int) -> int:
    r = 0
    while r < 64 and ink >> (WIDTH * r):
        if (ink >> (WIDTH * r)) & 0xFF == 0xFF:
            ink = (ink & ((1 << (WIDTH * r)) - 1)) | ((ink >> (WIDTH * (r + 1))) << (WIDTH * r))
        else:
            r += 1
    return ink


def _late_positions(count: int) -> list[FoldrisState]:
    """Solo positions with at most 5 cards left, from greedy games (short sheets: where the exact search runs)."""
    return solo_positions("greedy", itertools.count(0), lambda s: len(s.deck) <= 5, count=count)


def test_last_and_pair_lines_match_a_brute_force() -> None:
    """The pruned counts equal a plain search over the rules' legal drops, for the last card and the last two."""
    checked = positive = 0
    for state in _late_positions(40):
        sheet = state.sheets[0]
        tables = tables_of(state.config)
        cards = deck_of(state.config).cards
        first = tables[state.card]
        lane = cards[state.card][1]
        for nxt in sorted(set(state.deck))[:2]:
            last = tables[nxt]
            want_last = max(
                (n for _, n, _ in _brute_drops(last, sheet.ink, sheet.barrier, sheet.height, sheet.bonus)), default=0
            )
            assert last_lines(last, sheet.ink, sheet.barrier, sheet.height, sheet.bonus, 4) == want_last
            best = 0
            for new, n, cost in _brute_drops(first, sheet.ink, sheet.barrier, sheet.height, sheet.bonus):
                folded = _fold_all(new)
                h = sheet.height - n
                bar = barrier_drop(folded, lane, h)
                after = _brute_drops(last, folded, bar, h, sheet.bonus + n - cost)
                best = max(best, n + max((m for _, m, _ in after), default=0))
            got = pair_lines(first, lane, last, sheet.ink, sheet.barrier, sheet.height, sheet.bonus, 4, {})
            assert got == best
            checked += 1
            positive += best > 0
    assert checked >= 40 and positive >= 10


def test_the_exact_window_is_three_cards_in_solo() -> None:
    bot = make_bot("hard", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    assert bot.config.exact == 3 and bot.config.xtop == 2
    medium = make_bot("medium", "foldris")
    assert isinstance(medium, FoldrisExpectimaxBot) and medium.config.exact == 2 and medium.config.xtop == 0


def test_the_solo_exact_search_takes_the_most_lines_it_can_see() -> None:
    """With two cards left and one of them revealed, the exact search plays a drop that makes the most lines
    the last card can still reach whatever it is (checked against the pair count for every drop)."""
    bot = make_bot("hard:seconds=10,beam=200", "foldris")
    tested = 0
    for state in _late_positions(60):
        if len(state.deck) != 1:
            continue
        sheet = state.sheets[0]
        tables = tables_of(state.config)
        lane = deck_of(state.config).cards[state.card][1]
        want = pair_lines(
            tables[state.card], lane, tables[state.deck[0]], sheet.ink, sheet.barrier, sheet.height, sheet.bonus, 4, {}
        )
        drop = bot.choose(GAME, state, 0, Rng(0))
        after = GAME.apply(state, drop, 0)
        while GAME.current_player(after) == CHANCE:
            after = GAME.apply_chance(after)
        final = after
        if not GAME.is_terminal(after):
            s = after.sheets[0]
            final_lines = s.lines + last_lines(tables[after.card], s.ink, s.barrier, s.height, s.bonus, 4)
        else:
            final_lines = final.sheets[0].lines
        assert final_lines == sheet.lines + want
        tested += 1
    assert tested >= 5
