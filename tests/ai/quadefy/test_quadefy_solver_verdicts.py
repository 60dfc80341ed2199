"""The compiled solver's verdicts on fixed mid-game positions, recorded before its search was reworked.

Each position is a line of play (placement ids) from the empty cube under one flag set, with the verdict
for the player to move. The verdicts came from the search as it was (symmetry-canonical keys on every
node); the cases small enough were also confirmed by the pure-Python solver. A reworked search (cheaper
keys, other move orders) must give the same verdicts, and a winning move it returns must leave a lost
position. Skipped only under ``POLYTABLE_PURE=1``.
"""

from __future__ import annotations

import pytest

from polytable.ai.quadefy import load_native, solve_position
from polytable.core import pure_engine_forced
from polytable.games.quadefy import ALL_BLOCKS, PLACEMENTS

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

# (flags: 1 reachability, 2 stability; verdict for the player to move: 1 win, 0 loss; placement ids)
POSITIONS = [
    (1, 1, "2153 957 1134 204 42 2093"),
    (1, 0, "2153 957 1134 204 42 2093 1645"),
    (1, 1, "1963 1563 18 340 489"),
    (1, 0, "1963 1563 18 340 489 33"),
    (1, 1, "619 1164 1389 810 1880 119"),
    (1, 0, "619 1164 1389 810 1880 119 150"),
    (1, 1, "1690 956 1285 1758 334 417"),
    (1, 0, "1690 956 1285 1758 334 417 150"),
    (1, 1, "2039 1824 1606 147 1441 1394 959"),
    (1, 0, "2039 1824 1606 147 1441 1394 959 192"),
    (1, 1, "998 730 1241 1782 1794"),
    (1, 0, "998 730 1241 1782 1794 69"),
    (1, 0, "760 263 146 1269 1740 561"),
    (0, 1, "2153 957 1134 204 42 2093"),
    (0, 0, "2153 957 1134 204 42 2093 1645"),
    (0, 1, "878 713 228 1648 2129 295 1797"),
    (0, 0, "878 713 228 1648 2129 295 1797 1329"),
    (0, 1, "1963 1563 18 340 489"),
    (0, 0, "1963 1563 18 340 489 1946"),
    (0, 1, "619 1164 1389 810 1880 119"),
    (0, 0, "619 1164 1389 810 1880 119 150"),
    (0, 1, "1690 956 1285 1758 334 417"),
    (0, 0, "1690 956 1285 1758 334 417 150"),
    (0, 1, "2039 1824 1606 147 1441 1394 959"),
    (0, 0, "2039 1824 1606 147 1441 1394 959 192"),
    (0, 0, "828 1578 1478 914 1893 1334"),
    (0, 1, "614 495 264 1254 1522 1802"),
    (0, 0, "614 495 264 1254 1522 1802 1620"),
    (3, 1, "2153 957 206 39 1638 1790"),
    (3, 0, "2153 957 206 39 1638 1790 1383"),
    (3, 1, "742 303 1607 781 1424"),
    (3, 0, "742 303 1607 781 1424 1682"),
    (3, 1, "1214 931 93 1443 1411 1285"),
    (3, 0, "1214 931 93 1443 1411 1285 29"),
    (3, 1, "1525 35 372 1774 920"),
    (3, 0, "1525 35 372 1774 920 808"),
    (3, 0, "1140 1118 811 1746 1723 176"),
    (3, 1, "1690 956 1285 1439 509"),
    (3, 0, "1690 956 1285 1439 509 1532"),
    (3, 1, "1801 123 765 1465 85"),
    (3, 0, "1801 123 765 1465 85 2084"),
    (3, 1, "2096 1418 765 2013 247"),
    (3, 0, "2096 1418 765 2013 247 115"),
    (3, 0, "828 1578 1478 914 1812 1519"),
    (3, 1, "998 925 1667 232 413"),
    (3, 0, "998 925 1667 232 413 1522"),
    (3, 1, "760 210 1478 1685 1236"),
    (3, 0, "760 210 1478 1685 1236 138"),
    (3, 1, "492 336 1428 1643 1801"),
    (3, 0, "492 336 1428 1643 1801 776"),
    (2, 1, "2153 957 206 39 1638 1790"),
    (2, 0, "2153 957 206 39 1638 1790 79"),
    (2, 1, "742 303 1607 781 1424"),
    (2, 0, "742 303 1607 781 1424 1735"),
    (2, 1, "1214 931 93 1443 1411 1285"),
    (2, 0, "1214 931 93 1443 1411 1285 29"),
    (2, 1, "1525 35 372 1774 920"),
    (2, 0, "1525 35 372 1774 920 808"),
    (2, 0, "1140 1118 811 1746 1723 176"),
    (2, 1, "1690 956 1285 1439 509"),
    (2, 0, "1690 956 1285 1439 509 1801"),
    (2, 1, "1801 123 765 1465 85"),
    (2, 0, "1801 123 765 1465 85 1732"),
    (2, 1, "2096 1418 765 2013 247"),
    (2, 0, "2096 1418 765 2013 247 115"),
    (2, 0, "828 1578 1478 914 1812 1519"),
    (2, 1, "998 925 1667 232 413"),
    (2, 0, "998 925 1667 232 413 1522"),
    (2, 1, "760 210 1478 1685 1236"),
    (2, 0, "760 210 1478 1685 1236 138"),
    (2, 1, "492 336 1428 1643 1801"),
    (2, 0, "492 336 1428 1643 1801 776"),
]


def _position(text: str) -> tuple[int, int, int, int]:
    occ, hands = 0, [ALL_BLOCKS, ALL_BLOCKS]
    moves = [int(t) for t in text.split()]
    for i, pid in enumerate(moves):
        p = PLACEMENTS[pid]
        assert not occ & p.mask
        occ |= p.mask
        hands[i % 2] &= ~(1 << p.block)
    me = len(moves) % 2
    return occ, hands[me], hands[1 - me], len(moves)


def test_the_recorded_positions_cover_both_verdicts_and_every_flag_set() -> None:
    assert {f for f, _, _ in POSITIONS} == {0, 1, 2, 3}
    assert {v for _, v, _ in POSITIONS} == {0, 1}


@pytest.mark.parametrize("table", ["fresh", "shared"])
def test_verdicts_on_fixed_positions(table: str) -> None:
    native = load_native()
    with native.lock:
        size = native.tt_log2
        native.set_table_size(18)
        native.clear()
        for flags, verdict, text in POSITIONS:
            occ, me, opp, ply = _position(text)
            if table == "fresh":
                native.clear()
            got, best = native.solve(occ, me, opp, flags, ply)
            assert got == verdict, text
            if verdict:
                assert best is not None
                p = PLACEMENTS[best]
                assert p.block != -1 and me >> p.block & 1 and not occ & p.mask
                native.clear()
                assert native.solve(occ | p.mask, opp, me & ~(1 << p.block), flags, ply + 1)[0] == 0, text
            else:
                assert best is None
        native.set_table_size(size)
        native.clear()


def test_small_cases_agree_with_the_python_solver() -> None:
    native = load_native()
    checked = 0
    with native.lock:
        size = native.tt_log2
        native.set_table_size(16)
        for flags, verdict, text in POSITIONS:
            if len(text.split()) < 7:
                continue
            occ, me, opp, ply = _position(text)
            py = solve_position(occ, me, opp, flags, max_nodes=5_000)
            if not py.solved:
                continue
            native.clear()
            assert native.solve(occ, me, opp, flags, ply)[0] == int(py.win) == verdict, text
            checked += 1
        native.set_table_size(size)
        native.clear()
    assert checked >= 4
