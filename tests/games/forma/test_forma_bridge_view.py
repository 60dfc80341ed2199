"""The bridge geometry in Forma's view: the cells of each counted bridge, so the board can draw them."""

from __future__ import annotations

import json
from itertools import pairwise

from hypothesis import given, settings
from hypothesis import strategies as st

from polytable.games.forma import bridge_paths, count_bridges

from .forma_helpers import GAME, new, put


def play(state, text, player):
    return GAME.apply_text(state._replace(turn=player), text)


def _column(col, rows):
    return " ".join(f"{col}{r}" for r in rows)


def _check(cells, n):
    """The paths are as many as counted, lie in the colour, join their borders step by step and obey the
    sharing rules (same direction: disjoint; crossing: at most one shared cell)."""
    ns, ew = bridge_paths(cells, n)
    count = count_bridges(cells, n)
    assert (len(ns) + len(ew), len(ns), len(ew)) == tuple(count[:3])
    for paths, axis in ((ns, 1), (ew, 0)):
        for p in paths:
            assert set(p) <= cells
            assert p[0][axis] == 0 and p[-1][axis] == n - 1
            assert all(abs(a[0] - b[0]) + abs(a[1] - b[1]) == 1 for a, b in pairwise(p))
            assert len(set(p)) == len(p)
        for i, p in enumerate(paths):
            for q in paths[i + 1 :]:
                assert not set(p) & set(q)
    for p in ns:
        for q in ew:
            assert len(set(p) & set(q)) <= 1


def test_paths_on_hand_made_shapes():
    def grid(rows):
        return {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "#"}

    plus = ["...#...", "...#...", "...#...", "#######", "...#...", "...#...", "...#..."]
    thick = ["..##...", "..##...", "..##...", "#######", "..##...", "..##...", "..##..."]
    for rows in (plus, thick, ["#######"] * 7):
        _check(grid(rows), 7)
    ns, ew = bridge_paths(grid(plus), 7)
    assert ns == [[(3, y) for y in range(7)]] and ew == [[(x, 3) for x in range(7)]]


@settings(max_examples=60, deadline=None)
@given(st.sets(st.tuples(st.integers(0, 5), st.integers(0, 5)), min_size=6, max_size=30))
def test_paths_agree_with_the_count(cells):
    _check(cells, 6)


def test_the_view_lists_each_scored_bridge_by_cell():
    row = " ".join(f"{c}10" for c in "abcdefghijklmnopqrs")
    s = put(new(setup="tower p15"), 0, row + " " + _column("j", [*range(1, 10), *range(11, 19)]))
    view = GAME.view(s, None)
    assert view["players"][0]["bridge_paths"] == [[f"{c}10" for c in "abcdefghijklmnopqrs"]]
    assert view["players"][1]["bridge_paths"] == []
    s = play(s, "1 r0 @ j19", 0)
    view = GAME.view(s, 1)
    paths = view["players"][0]["bridge_paths"]
    assert len(paths) == view["players"][0]["bridges"] == 2
    assert [f"j{r}" for r in range(19, 0, -1)] in paths  # north-south first, from the top border
    json.dumps(view)
    paths[0].append("x")  # a caller changing its view does not change the next one
    assert "x" not in GAME.view(s, 1)["players"][0]["bridge_paths"][0]
