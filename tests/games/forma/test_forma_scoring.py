"""Scenario tests for every scoring rule: cells, enclosed cells and markers, obstacles, the tower, bridges."""

from __future__ import annotations

from polytable.games.forma import count_bridges

from .forma_helpers import GAME, bit, names_of, new, put


def play(state, text, player):
    return GAME.apply_text(state._replace(turn=player), text)


def test_a_piece_scores_one_point_per_cell():
    s = play(new(), "X5 r0 @ e10", 0)
    assert s.scores == (5, 0, 0, 0)
    assert names_of(s, s.pieces[0]) == {"e10", "d9", "e9", "f9", "e8"}


def test_enclosing_an_empty_cell_scores_ten_and_places_a_marker():
    s = put(new(), 0, "d5 f5 e4")
    s = play(s, "1 r0 @ e6", 0)
    assert s.scores[0] == 1 + 10
    assert names_of(s, s.markers[0]) == {"e5"}


def test_enclosure_counts_any_colour_and_the_edge():
    # a1 is closed by the edge on two sides, by player 2's piece on b1 and by the mover's square on a2.
    s = put(new(), 1, "b1")
    s = play(s, "1 r0 @ a2", 0)
    assert s.scores == (11, 0, 0, 0)
    assert bit(s, "a1") & s.markers[0]


def test_obstacles_and_the_tower_close_cells_too():
    s = put(new(setup="tower p15; obstacles e10"), 2, "d11")
    s = play(s, "1 r0 @ e12", 0)  # e11: obstacle e10 below, d11 (player 3) left, e12 above, f11 open
    assert s.scores[0] == 1
    s = play(s, "1 r0 @ f11", 1)
    assert s.scores[1] == 11
    assert bit(s, "e11") & s.markers[1]


def test_two_cells_enclosed_at_once():
    s = put(new(), 1, "a2 c2 d1")
    s = play(s, "1 r0 @ b1", 0)  # a1: edge, edge, a2, b1 -> closed; c1: b1, d1, c2, edge -> closed
    assert names_of(s, s.markers[0]) == {"a1", "c1"}
    assert s.scores[0] == 1 + 20


def test_grey_obstacle_scores_when_only_the_movers_colour_borders_it():
    s = put(new(setup="tower p15; obstacles e10"), 0, "d10 f10 e9")
    s = play(s, "1 r0 @ e11", 0)
    assert s.scores[0] == 1 + 10
    assert bit(s, "e10") & s.closed


def test_grey_obstacle_bordered_by_another_colour_scores_nothing_ever():
    s = put(new(setup="tower p15; obstacles e10"), 0, "d10 f10")
    s = put(s, 1, "e9")
    s = play(s, "1 r0 @ e11", 0)
    assert s.scores[0] == 1
    assert bit(s, "e10") & s.closed  # decided: nothing can change it any more


def test_a_marker_counts_as_the_owners_colour_and_can_complete_an_obstacle():
    # e11 is closed by the move (e12), becomes player 1's marker, and that closes obstacle e10.
    s = put(new(setup="tower p15; obstacles e10"), 0, "d10 f10 e9 d11 f11")
    s = play(s, "1 r0 @ e12", 0)
    assert bit(s, "e11") & s.markers[0]
    assert s.scores[0] == 1 + 10 + 10


def test_an_opponents_marker_spoils_an_obstacle():
    s = put(new(setup="tower p15; obstacles e10"), 0, "d10 f10")
    s = put(s, 1, "", markers="e9")
    s = play(s, "1 r0 @ e11", 0)
    assert s.scores[0] == 1


def test_the_tower_scores_fifty_whatever_the_colours():
    s = put(new(setup="tower j10"), 0, "i10")
    s = put(s, 1, "k10")
    s = put(s, 2, "j9")
    s = play(s, "1 r0 @ j11", 3)
    assert s.scores[3] == 1 + 50
    assert bit(s, "j10") & s.closed


def test_the_tower_can_be_closed_by_a_marker():
    # j11 is enclosed by the move; its marker closes the tower at j10.
    s = put(new(setup="tower j10"), 0, "i10 k10 j9 i11 k11")
    s = play(s, "1 r0 @ j12", 1)
    assert bit(s, "j11") & s.markers[1]
    assert s.scores[1] == 1 + 10 + 50


def _column(col, rows):
    return " ".join(f"{col}{r}" for r in rows)


def test_a_bridge_scores_fifty_when_completed_and_only_once():
    s = put(new(), 0, _column("c", range(1, 19)))
    assert s.bridges[0] == 0
    s = play(s, "1 r0 @ c19", 0)
    assert s.bridges[0] == 1
    assert s.scores[0] == 1 + 50
    s = play(s, "1 r0 @ d19", 0)
    assert s.scores[0] == 1 + 50 + 1
    assert s.bridges[0] == 1


def test_a_marker_can_complete_a_bridge():
    s = put(new(), 0, _column("c", [*range(1, 18), 19]))
    s = put(s, 1, "b18")
    s = play(s, "1 r0 @ d18", 0)  # closes c18: the marker joins the column
    assert bit(s, "c18") & s.markers[0]
    assert s.bridges[0] == 1
    assert s.scores[0] == 1 + 10 + 50


def test_two_parallel_bridges_that_touch_count_twice():
    s = put(new(), 0, _column("c", range(1, 20)) + " " + _column("d", range(1, 19)))
    assert s.bridges[0] == 1
    s = play(s, "1 r0 @ d19", 0)
    assert s.bridges[0] == 2
    assert s.scores[0] == 1 + 50


def test_a_crossing_sharing_one_cell_counts_both_bridges():
    row = " ".join(f"{c}10" for c in "abcdefghijklmnopqrs")
    s = put(new(setup="tower p15"), 0, row + " " + _column("j", [*range(1, 10), *range(11, 19)]))
    assert s.bridges[0] == 1
    s = play(s, "1 r0 @ j19", 0)
    assert s.bridges[0] == 2
    assert s.scores[0] == 1 + 50


def test_a_crossing_that_must_share_two_cells_counts_once():
    # North-south: column j from the top to row 10, across to k10, column k to the bottom. Every
    # north-south path uses j10 and k10, both on the east-west row 10, so only one of the two counts.
    row = " ".join(f"{c}10" for c in "abcdefghijklmnopqrs")
    cells = row + " " + _column("j", range(11, 20)) + " " + _column("k", range(2, 10))
    s = put(new(setup="tower p15"), 0, cells)
    assert s.bridges[0] == 1
    s = play(s, "1 r0 @ k1", 0)
    assert s.bridges[0] == 1
    assert s.scores[0] == 1


def test_a_detour_that_avoids_the_second_shared_cell_makes_both_count():
    row = " ".join(f"{c}10" for c in "abcdefghijklmnopqrs")
    cells = row + " " + _column("j", range(12, 20)) + " " + _column("k", range(2, 10))
    s = put(new(setup="tower p15"), 0, cells + " j11")
    assert s.bridges[0] == 1
    s = play(s, "1 r0 @ k11", 0)  # j11-k11-k10-k9: crosses row 10 only at k10
    assert s.bridges[0] == 1  # not yet: k1 is missing
    s = play(s, "1 r0 @ k1", 0)
    assert s.bridges[0] == 2
    assert s.scores[0] == 1 + 1 + 50


def _grid(rows):
    return {(x, y) for y, r in enumerate(rows) for x, ch in enumerate(r) if ch == "#"}


def test_bridge_counter_on_small_boards():
    plus = ["...#...", "...#...", "...#...", "#######", "...#...", "...#...", "...#..."]
    assert count_bridges(_grid(plus), 7)[:3] == (2, 1, 1)
    two_cell = ["...#...", "...#...", "...#...", "#######", "....#..", "....#..", "....#.."]
    assert count_bridges(_grid(two_cell), 7)[:3] == (1, 1, 0)
    thick = ["..##...", "..##...", "..##...", "#######", "..##...", "..##...", "..##..."]
    assert count_bridges(_grid(thick), 7)[:3] == (3, 2, 1)
    full = ["#######"] * 7
    assert count_bridges(_grid(full), 7) == (14, 7, 7, True)
    ring = ["#######", "#.....#", "#.....#", "#.....#", "#.....#", "#.....#", "#######"]
    # Two columns and two rows, each column meeting each row in exactly one corner cell.
    assert count_bridges(_grid(ring), 7)[:3] == (4, 2, 2)
    assert count_bridges(set(), 7) == (0, 0, 0, True)


def test_bridge_needs_orthogonal_connection():
    diag = [".#.....", "#......", ".#.....", "#......", ".#.....", "#......", ".#....."]
    assert count_bridges(_grid(diag), 7)[0] == 0


def test_markers_are_unlimited():
    # 40 markers already down (the box has 35 per player); enclosing one more still scores and marks.
    many = " ".join(f"{c}{r}" for c in "abcdefghij" for r in (15, 16, 17, 18))
    s = put(new(), 0, "d5 f5 e4", markers=many)
    assert s.markers[0].bit_count() == 40
    s = play(s, "1 r0 @ e6", 0)
    assert s.scores[0] == 11 and s.markers[0].bit_count() == 41
