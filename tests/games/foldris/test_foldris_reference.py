"""Legal actions against an independent, slow reference: every mirror/trim/rotation/column combination is
dropped square by square from above the sheet, and the results are deduplicated by resting squares at the
cheapest cost. Sheets are random, with overhangs and a barrier."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from polytable.games.foldris import (
    SAMPLE_DECK_CUSTOM,
    Drop,
    FoldrisState,
    Sheet,
    barrier_drop,
    deck_of,
    heights,
    rest_row,
    table_of,
)
from polytable.geometry import Shape, is_connected, normalize, transform

from ._helpers import GAME, make_state

Cells = frozenset[tuple[int, int]]
CARDS = [("I", 1), ("O", 5), ("T", 2), ("S", 6), ("Z", 2), ("J", 5), ("L", 1), ("P", 3), ("V", 4), ("X1", 6)]


def _reference(occupied: set[tuple[int, int]], height: int, shape: Shape, budget: int, trim: int) -> dict[Cells, int]:
    best: dict[Cells, int] = {}
    n = len(shape)
    for m in (0, 1):
        base = transform(shape, 4) if m else normalize(shape)
        for t in range(n + 1):
            rest = [c for i, c in enumerate(base) if i != t - 1]
            if t and (n == 1 or not is_connected(rest)):
                continue
            cost = m + (trim if t else 0)
            if cost > budget:
                continue
            for r in range(4):
                shp = transform(normalize(rest), r)
                w = max(x for x, _ in shp) + 1
                h = max(y for _, y in shp) + 1
                for col in range(8 - w + 1):
                    y = height  # the block starts just above the sheet and falls a row at a time
                    while y > 0 and not ({(col + x, y - 1 + h - 1 - yy) for x, yy in shp} & occupied):
                        y -= 1
                    if y + h > height:
                        continue
                    key = frozenset((col + x, y + h - 1 - yy) for x, yy in shp)
                    best[key] = min(best.get(key, 99), cost)
    return best


def _resting(state: FoldrisState, action: Drop) -> Cells:
    table = table_of(state)
    v = table.variants[table.by_key[(action.mirror, action.trim, action.rot)]]
    s = state.sheets[0]
    bits = v.bits << (8 * rest_row(v, heights(s.ink | s.barrier), action.col) + action.col)
    return frozenset((i % 8, i // 8) for i in range(bits.bit_length()) if bits >> i & 1)


@settings(max_examples=60, deadline=None)
@given(
    st.integers(4, 12),
    st.lists(st.integers(0, 255), min_size=12, max_size=12),
    st.integers(0, 3),
    st.sampled_from([1, 3]),
    st.sampled_from(CARDS),
    st.integers(0, 7),
)
def test_legal_actions_match_the_reference(
    height: int, rows: list[int], bonus: int, players: int, card: tuple[str, int], lane: int
) -> None:
    ink = 0
    for r in range(height - 2):  # random rows, thinning upwards, with the top two rows free
        ink |= (rows[r] & rows[r - 1] if r >= height // 2 else rows[r]) << (8 * r)
    barrier = barrier_drop(ink, lane, height) if lane else 0
    options = {"deck": SAMPLE_DECK_CUSTOM} if card[0] in ("P", "V", "X1") else {}
    sheet = Sheet(ink, barrier, height, 12 - height, bonus)
    state = make_state([sheet] * players, card=card, options=options)
    occupied = {(c, r) for r in range(height) for c in range(8) if (ink | barrier) >> (8 * r + c) & 1}
    shape = deck_of(state.config).shape(card[0])
    expected = _reference(occupied, height, shape, bonus, 1 if players == 1 else 2)
    got: dict[Cells, int] = {}
    legal = GAME.legal_actions(state, 0)
    for a in legal:
        assert isinstance(a, Drop)
        cells = _resting(state, a)
        assert cells not in got, "two legal actions rest on the same squares"
        got[cells] = a.mirror + (0 if not a.trim else 1 if players == 1 else 2)
    assert got == expected
    assert legal.count() == len(expected)
