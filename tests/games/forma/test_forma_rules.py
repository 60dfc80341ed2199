"""Turns, passes, the end, touch-move, two and three players, errors, notation and ids, sampling."""

from __future__ import annotations

import pytest

from polytable.core import TERMINAL, IllegalActionError, Rng
from polytable.games import forma as P
from polytable.games.forma import Fill, Obstacle, Pick, Place, Tower

from .forma_helpers import GAME, bits_of, names_of, new, put, with_stock

ALL = "abcdefghijklmnopqrs"


def fill_except(state, free: str):
    """Fill every free cell but ``free`` (as earlier placements), colour ``(x + 2y) % players`` so that no
    two same-coloured cells touch (no bridges, no obstacle scores)."""
    keep = set(free.split())
    n = state.config.players
    for owner in range(n):
        names = [
            f"{c}{r}"
            for x, c in enumerate(ALL)
            for r in range(1, 20)
            if f"{c}{r}" not in keep and (x + 2 * r) % n == owner and not bits_of(state, f"{c}{r}") & state.filled
        ]
        state = put(state, owner, " ".join(names))
    return state


def test_piece_set_is_22_pieces_and_90_cells():
    assert len(P.PIECE_SHAPES) == 21
    assert sum(P.START_COUNTS) == 22
    assert sum(c * n for c, n in zip(P.START_COUNTS, P.PIECE_SIZES, strict=True)) == 90
    assert P.NUM_ORIENTS == 91  # every fixed polyomino of 1-5 cells
    assert P.PIECE_NAMES[:4] == ("1", "2", "I3", "V3")


def test_four_players_turns_go_round():
    s = GAME.new_game({"placement": "random", "touch_move": False}, seed=1)
    assert s.turn == 0
    rng = Rng(0)
    for expect in (1, 2, 3, 0, 1):
        s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
        assert s.turn == expect


def test_two_players_hold_both_colours_as_one_pool():
    s = new(players=2)
    assert s.stock[0][P.piece_index("1")] == 4 and s.stock[0][P.piece_index("X5")] == 2
    assert sum(s.stock[1]) == 44
    s = GAME.apply_text(s, "X5 r0 @ e10")
    assert s.turn == 1
    s = GAME.apply_text(s, "X5 r0 @ k10")
    s = GAME.apply_text(s, "X5 r0 @ e4")  # the second X5 of player 1's pool
    assert s.stock[0][P.piece_index("X5")] == 0


def test_three_players():
    s = GAME.new_game(seed=1, players=3)
    assert len(s.pieces) == 3 and sum(s.stock[2]) == 22


def test_a_player_who_cannot_place_is_skipped_and_the_game_ends_when_nobody_can():
    s = fill_except(new(), "a1 b1 s19 s18")
    for p in range(4):
        s = with_stock(s, p, {"I5": 1})
    s = with_stock(s, 0, {"2": 1})
    s = with_stock(s, 2, {"2": 1})
    s = s._replace(turn=0)
    s = GAME.apply_text(s, "2 r1 @ a1")  # a horizontal domino on a1-b1
    assert s.turn == 2  # player 2 holds only I5, which fits nowhere: skipped
    s = GAME.apply_text(s, "2 r0 @ s19")
    assert s.turn == TERMINAL
    assert GAME.is_terminal(s)
    with pytest.raises(IllegalActionError):
        GAME.legal_actions(s)


def test_ties_are_shared_wins():
    s = fill_except(new(), "a1 b1")
    s = with_stock(s, 0, {"2": 1})
    s = s._replace(turn=0, scores=(0, 2, 2, 1))
    s = GAME.apply_text(s, "2 r1 @ a1")
    assert s.turn == TERMINAL and s.scores == (2, 2, 2, 1)
    assert GAME.winners(s) == (0, 1, 2)
    assert GAME.returns(s) == pytest.approx((1 / 3, 1 / 3, 1 / 3, -1.0))


def test_touch_move_pick_then_place_the_picked_piece():
    s = new(touch_move=True)
    assert all(isinstance(a, Pick) for a in GAME.legal_actions(s))
    assert GAME.legal_actions(s).count() == 21
    with pytest.raises(IllegalActionError, match="pick"):
        GAME.apply_text(s, "X5 r0 @ e10")
    s = GAME.apply_text(s, "pick X5")
    assert s.turn == 0 and s.picked == P.piece_index("X5")
    assert {a.piece for a in GAME.legal_actions(s)} == {P.piece_index("X5")}
    with pytest.raises(IllegalActionError, match="you picked X5"):
        GAME.apply_text(s, "1 r0 @ a1")
    with pytest.raises(IllegalActionError, match="already hold"):
        GAME.apply_text(s, "pick I5")
    s = GAME.apply_text(s, "X5 r0 @ e10")
    assert s.turn == 1 and s.picked == -1 and s.scores[0] == 5


def test_touch_move_a_piece_that_does_not_fit_leaves_the_game_and_one_more_pick_follows():
    s = fill_except(new(touch_move=True), "a1 b1 c1")
    s = s._replace(turn=0)
    s = GAME.apply_text(s, "pick X5")
    assert s.turn == 0 and s.misses == 1 and s.stock[0][P.piece_index("X5")] == 0
    s = GAME.apply_text(s, "pick I5")  # the second misfit also leaves, and the turn passes
    assert s.stock[0][P.piece_index("I5")] == 0
    assert s.turn == 1 and s.misses == 0


def test_touch_move_no_second_pick_when_nothing_else_fits():
    s = fill_except(new(touch_move=True), "a1 b1")
    s = with_stock(s, 0, {"X5": 1, "I5": 1})
    s = s._replace(turn=0)
    s = GAME.apply_text(s, "pick X5")
    assert s.turn == 1


def test_touch_move_option_required_for_picks():
    with pytest.raises(IllegalActionError, match="touch-move"):
        GAME.apply_text(new(), "pick X5")


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("X5 r0 @ a1", "stick out"),
        ("I5 r1 @ p1", "stick out"),
        ("Q5 r0 @ e10", "no piece called"),
        ("X5 r0 @ z9", "not a cell"),
        ("X5 r0 @ e25", "off the 19x19 board"),
        ("X5 r0 e10", "cannot read"),
    ],
)
def test_illegal_moves_are_explained(text, message):
    with pytest.raises(IllegalActionError, match=message):
        GAME.apply_text(new(), text)


def test_covering_a_taken_cell_names_it():
    s = put(new(setup="tower p15; obstacles e9"), 1, "f9")
    with pytest.raises(IllegalActionError, match=r"would cover e9, f9, which are not free"):
        GAME.apply_text(s, "X5 r0 @ e10")
    with pytest.raises(IllegalActionError, match="p15"):
        GAME.apply_text(s, "1 r0 @ p15")


def test_a_used_up_piece_cannot_be_placed_again():
    s = GAME.apply_text(new(), "X5 r0 @ e10")
    s = s._replace(turn=0)
    with pytest.raises(IllegalActionError, match="no X5 left"):
        GAME.apply_text(s, "X5 r0 @ k10")


def test_notation_is_canonical_and_case_insensitive():
    s = new()
    a = GAME.parse_action("f5 R3F @ K7", s)
    assert GAME.format_action(a, s) == "F5 r3f @ k7"
    # X5 looks the same in every orientation: all spellings give one action.
    assert GAME.parse_action("X5 r2f @ e10", s) == GAME.parse_action("X5 @ e10", s) == Place(20, 0, 4, 9)
    assert GAME.format_action(Place(20, 0, 4, 9)) == "X5 r0 @ e10"
    assert GAME.format_action(Pick(20)) == "pick X5"
    assert GAME.parse_action("PICK x5") == Pick(20)


def test_reference_cell_is_the_leftmost_cell_of_the_top_row():
    s = GAME.apply_text(new(), "F5 r0 @ k7")
    assert names_of(s, s.last) == {"k7", "k6", "l6", "m6", "l5"}  # canonical F: #.. / ### / .#.
    assert "k7" in names_of(s, s.last)


def test_action_ids_round_trip_and_are_dense():
    s = new(touch_move=True)
    total = 91 * 400 + 21 + 400 + 400 + 1  # placements, picks, obstacles, towers, the fill
    assert GAME.num_distinct_actions(s.config) == total
    setup = [Obstacle(1, 1), Obstacle(19, 19), Tower(1, 1), Tower(9, 9), Fill()]
    for a in [Pick(0), Pick(20), Place(0, 0, 0, 0), Place(20, 0, 18, 18), Place(12, 5, 3, 4), *setup]:
        want = Place(a[0], P.canonical_k(a[0], a[1]), a[2], a[3]) if isinstance(a, Place) else a
        assert GAME.action_from_id(GAME.action_id(a, s), s) == want
    assert len({GAME.action_id(a, s) for a in setup}) == len(setup)  # Obstacle(1, 1) is not Tower(1, 1)
    assert GAME.action_id(Fill(), s) == total - 1
    with pytest.raises(IllegalActionError):
        GAME.action_from_id(total, s)


def test_sampling_is_uniform_in_both_samplers():
    # Rejection phase: an open board where the player holds only X5 (one orientation).
    s = with_stock(new(), 0, {"X5": 1})
    legal = list(GAME.legal_actions(s))
    rng = Rng(9)
    hits = dict.fromkeys(legal, 0)
    draws = 40 * len(legal)
    for _ in range(draws):
        hits[GAME.legal_actions(s).sample(rng)] += 1
    expect = draws / len(legal)
    chi2 = sum((h - expect) ** 2 / expect for h in hits.values())
    assert chi2 < len(legal) + 5 * (2 * len(legal)) ** 0.5
    # Counting phase: a crowded board.
    s = fill_except(new(), "a1 b1 c1 a2 b2 e5 e6 f5 k10 k11 k12")
    s = s._replace(turn=0)
    legal = list(GAME.legal_actions(s))
    hits = dict.fromkeys(legal, 0)
    draws = 200 * len(legal)
    for _ in range(draws):
        hits[GAME.legal_actions(s).sample(rng)] += 1
    expect = draws / len(legal)
    chi2 = sum((h - expect) ** 2 / expect for h in hits.values())
    assert chi2 < len(legal) + 5 * (2 * len(legal)) ** 0.5


def test_count_matches_a_brute_force_enumeration():
    rng = Rng(4)
    s = GAME.new_game({"obstacles": 25, "placement": "random", "touch_move": False}, seed=4)
    for _ in range(25):
        s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
    brute = 0
    n = s.size
    for p in range(P.NUM_PIECES):
        if not s.stock[s.turn][p]:
            continue
        for g in P.PIECE_ORIENTS[p]:
            for y in range(n):
                for x in range(n):
                    cells = [(x + dx, y + dy) for dx, dy in P.ORIENT_CELLS[g]]
                    if all(0 <= cx < n and 0 <= cy < n for cx, cy in cells):
                        names = " ".join(f"{ALL[cx]}{n - cy}" for cx, cy in cells)
                        if not bits_of(s, names) & s.filled:
                            brute += 1
    assert GAME.legal_actions(s).count() == brute == len(list(GAME.legal_actions(s)))


def test_long_piece_names_are_accepted():
    s = new()
    assert GAME.parse_action("P5-F r3f @ k7", s) == GAME.parse_action("F5 r3f @ k7", s)
    assert GAME.parse_action("P4-T r1 @ a4", s) == GAME.parse_action("T4 r1 @ a4", s)
    assert GAME.parse_action("P1 @ a1", s) == GAME.parse_action("1 r0 @ a1", s)
    assert GAME.parse_action("pick P5-X", s) == Pick(20)
    with pytest.raises(IllegalActionError, match="no piece called"):
        GAME.parse_action("P5-Q @ a1", s)


HOUSE = {"placement": "random", "touch_move": False}


@pytest.mark.parametrize(("options", "players", "seed"), [(HOUSE, 4, 21), ({}, 3, 22), ({}, 4, 24), (HOUSE, 2, 23)])
def test_invariants_hold_through_random_games(options, players, seed):
    from polytable.games.forma import enclosed

    s = GAME.new_game(options, seed=seed, players=players)
    tb = P.tables(s.size)
    rng = Rng(seed)
    while not GAME.is_terminal(s):
        s = GAME.apply(s, GAME.legal_actions(s).sample(rng))
        union = s.obstacles | s.tower
        for i in range(players):
            assert not union & (s.pieces[i] | s.markers[i]), "cells overlap"
            union |= s.pieces[i] | s.markers[i]
        assert union == s.filled
        assert not enclosed(tb, s.filled, tb.board & ~s.filled), "an enclosed empty cell has no marker"
        for i in range(players):
            used = sum(
                (c0 - c) * P.PIECE_SIZES[p]
                for p, (c0, c) in enumerate(
                    zip(GAME.new_game(options, seed=seed, players=players).stock[i], s.stock[i], strict=True)
                )
            )
            assert s.scores[i] >= s.pieces[i].bit_count() + 10 * s.markers[i].bit_count()
            if options.get("touch_move") is False:
                assert used == s.pieces[i].bit_count()
    # At the end nobody can place anything.
    for i in range(players):
        assert not GAME._any(s._replace(turn=i, picked=-1), i) or options.get("touch_move", True)
