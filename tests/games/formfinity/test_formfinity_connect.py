"""Variant 3 (black squares) and variant 4 (connect the numbers)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from polytable.core import IllegalActionError
from polytable.games.formfinity import (
    DRAW,
    OVER,
    PLACE,
    can_connect,
    connects,
    constraints,
    placements,
    squares_needed,
)

from ._helpers import GAME, draw, position

V3 = {"variant": "3"}  # stars: f4 (player 2, upper) and f12 (player 1, lower)


def moves(state) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(GAME.format_action(a, state).split("@")[1] for a in GAME.legal_actions(state))


def test_v3_player_one_starts_at_the_lower_black_square() -> None:
    state = position(V3, card="#x1:-:f")
    assert moves(state) == ["e12", "f11", "f13", "g12"]
    state = position(V3, card="#x1:-:f", turn=1)
    assert moves(state) == ["e4", "f3", "f5", "g4"]


def test_v3_elements_touch_the_own_drawing_by_an_edge() -> None:
    state = position(V3, drawn={0: "f11 f10"}, card="#x1:-:f")
    with pytest.raises(IllegalActionError, match="touch your own drawing"):
        GAME.apply_text(state, "a1")
    with pytest.raises(IllegalActionError, match="touch your own drawing"):
        GAME.apply_text(state, "g9")  # only a corner of f10: no connection


def test_v3_never_touch_the_opponent_not_even_at_a_corner() -> None:
    state = position(V3, drawn={0: "f11 f10 e10", 1: "d8 d7 d6"}, card="#x1:-:f")
    with pytest.raises(IllegalActionError, match="even if only at a corner"):
        GAME.apply_text(state, "e9")  # edge of e10 (own), corner of d8 (opponent)
    with pytest.raises(IllegalActionError, match="touch Player 2's drawing"):
        GAME.apply_text(state, "d9")
    assert "e9" not in moves(state) and "f9" in moves(state)


def test_v3_arrows_apply() -> None:
    state = position(V3, drawn={0: "f13"}, card="#x1:B:f")
    assert moves(state) == ["f14"]  # slides up until it meets f13
    state = position(V3, drawn={0: "f13"}, card="#x1:T:f")
    assert moves(state) == []  # stops on f3, above the upper black square: not touching the own drawing


def test_v3_first_connection_wins() -> None:
    state = position(V3, drawn={0: "f11 f10 f9 f8 f7 f6"}, card="#x2:-:f")
    state = GAME.apply_text(state, "f5")
    assert state.phase == OVER and GAME.winners(state) == (0,)
    assert GAME.scores(state) == (1.0, 0.0)


def test_v3_no_element_may_take_the_opponents_last_way() -> None:
    # f11 is drawn: f13 (or e12, g12) would leave player 2 no square next to f12 that does not touch
    # player 1's drawing, so only f10, e11 and g11 stay legal for a single square.
    state = position(V3, drawn={0: "f11"}, card="#x1:-:f")
    assert moves(state) == ["e11", "f10", "g11"]
    with pytest.raises(IllegalActionError, match="leave Player 2 no way to their goal"):
        GAME.apply_text(state, "f13")
    state = position(V3, drawn={1: "f5"}, card="#x1:-:f", turn=1)
    with pytest.raises(IllegalActionError, match="leave Player 1 no way to their goal"):
        GAME.apply_text(state, "f3")


def test_v3_a_way_is_kept_even_when_it_is_long() -> None:
    # Player 1 may block the short way straight down, as long as a way round stays open.
    state = position(V3, drawn={0: "f11 f10 f9 e9 d9 c9", 1: "f5 f6 f7"}, card="###x1:-:f")
    state = GAME.apply_text(state, "g9 h9 i9")
    assert state.phase == DRAW
    setup = GAME.setup(state)
    assert can_connect(setup, state, 1) and squares_needed(setup, state, 1) > 5


T5 = ". . . . .\n. . * . .\n. . . . .\n. . . . .\n. . . . .\n. . * . .\n. . . . .\n"
I5 = '{"cards": ["#####x1:-:f"]}'


def test_v3_a_game_nobody_can_play_on_goes_to_the_player_needing_fewer_squares() -> None:
    # Only straight fives in the deck: each one either touches no own square or would take the
    # opponent's last way, so nobody can draw any more. Player 1 needs 2 squares (c4 c3), player 2 needs 9.
    state = position({"variant": "3", "template": T5, "deck": I5}, drawn={0: "c5", 1: "c1"})
    assert [squares_needed(GAME.setup(state), state, p) for p in (0, 1)] == [2, 9]
    state = draw(state, "#####x1:-:f")
    assert state.phase == OVER and GAME.winners(state) == (0,)
    assert GAME.scores(state) == (1.0, 0.0)


def test_v3_equally_close_players_share_the_win() -> None:
    state = position({"variant": "3", "template": T5, "deck": I5}, drawn={0: "c5 a7", 1: "c3 a1"})
    assert [squares_needed(GAME.setup(state), state, p) for p in (0, 1)] == [8, 8]
    state = draw(state, "#####x1:-:f")
    assert state.phase == OVER and GAME.winners(state) == (0, 1)
    assert GAME.returns(state) == (0.0, 0.0)


def test_v3_a_sealed_start_square_alone_does_not_end_the_game() -> None:
    state = position(V3, drawn={1: "f3 f5"}, card="#x1:-:f")
    state = GAME.apply_text(state, "f11")
    assert state.phase == DRAW


V4_SMALL = """\
1 . 2 .
. . . .
3 . . 4
"""


def test_v4_first_element_anywhere_but_on_other_numbers() -> None:
    state = position({"variant": "4"}, card="#x1:-:f")
    assert GAME.legal_actions(state).count() == 144 - 3 - 10  # 3 black squares, numbers 2-11
    with pytest.raises(IllegalActionError, match="number 1 is next"):
        GAME.apply_text(state, "i5")  # the 2


def test_v4_numbers_are_claimed_in_order_by_covering_them() -> None:
    state = position({"variant": "4", "template": V4_SMALL}, card="##x2:-:r")
    state = GAME.apply_text(state, "a1 b1")
    assert state.numbers == (0,)
    with pytest.raises(IllegalActionError, match="number 2 is next"):
        GAME.apply_text(state, "a2 a3")  # the 3 before the 2
    state = GAME.apply_text(state, "c1 d1")  # touches b1 and covers the 2: two numbers in one turn
    assert state.numbers == (0, 0) and state.phase == DRAW


def test_v4_one_element_never_covers_two_numbers() -> None:
    state = position({"variant": "4", "template": "1 2 . .\n. . . .\n"}, card="##x1:-:f")
    with pytest.raises(IllegalActionError, match="out of turn"):
        GAME.apply_text(state, "a1 b1")


def test_v4_elements_connect_to_any_drawn_element() -> None:
    state = position({"variant": "4", "template": V4_SMALL}, drawn={1: "b2"}, card="#x1:-:f")
    assert moves(state) == ["a2", "b1", "b3", "c2"]
    with pytest.raises(IllegalActionError, match="touch a drawn element"):
        GAME.apply_text(state, "d2")


def test_v4_game_ends_when_all_numbers_are_claimed_most_wins() -> None:
    state = position(
        {"variant": "4", "template": V4_SMALL}, drawn={0: "a1 b1 c1", 1: "a2 a3"}, card="#x1:-:f", numbers=(0, 0, 1)
    )
    state = GAME.apply_text(state, "b3")
    assert state.phase == PLACE or state.phase == DRAW
    state = position(
        {"variant": "4", "template": V4_SMALL},
        drawn={0: "a1 b1 c1", 1: "a2 a3 b3 c3"},
        card="#x1:-:f",
        numbers=(0, 0, 1),
        turn=1,
    )
    state = GAME.apply_text(state, "d3")
    assert state.phase == OVER and state.numbers == (0, 0, 1, 1)
    assert GAME.winners(state) == (0, 1) and GAME.scores(state) == (2.0, 2.0)


def test_v4_game_ends_when_the_next_number_cannot_be_reached() -> None:
    state = position({"variant": "4", "template": "1 . # 2\n. . # .\n"}, card="#x1:-:f")
    state = GAME.apply_text(state, "a1")
    assert state.phase == OVER and GAME.winners(state) == (0,)


def test_v4_forced_card_draw_through_chance() -> None:
    state = position({"variant": "4", "template": V4_SMALL})
    state = draw(state, "#x1:TRBL:f")
    assert state.phase == PLACE and GAME.legal_actions(state).count() == 12 - 3


def test_v3_the_way_filter_agrees_with_a_flood_for_every_placement() -> None:
    # keeps_a_way only floods for placements near one shortest way; check it against the plain rule
    # (a flood after every placement) along seeded random games.
    from polytable.core import CHANCE, Rng
    from polytable.games.formfinity import Card, element_anchors

    checked = 0
    for seed in range(4):
        state = GAME.new_game(V3, seed=seed)
        rng = Rng(seed)
        while not GAME.is_terminal(state) and checked < 400:
            if GAME.current_player(state) == CHANCE:
                state = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
                continue
            setup, p = GAME.setup(state), state.turn
            card = Card.from_id(state.card)
            blocked, allowed, touch = constraints(setup, state, p)
            had_way = can_connect(setup, state, 1 - p)
            expected = []
            for shape, anchors in element_anchors(
                setup, setup.rotation(card), setup.edges(card), blocked, allowed, touch
            ):
                ok, rest = 0, anchors
                while rest:
                    low = rest & -rest
                    rest ^= low
                    owners = list(state.owners)
                    owners[p] |= setup.shape_masks[shape] << (low.bit_length() - 1)
                    if (
                        not had_way
                        or connects(setup, owners[p], p)
                        or can_connect(setup, replace(state, owners=tuple(owners)), 1 - p)
                    ):
                        ok |= low
                if ok:
                    expected.append((shape, ok))
            assert placements(setup, state, p) == expected
            checked += 1
            state = GAME.apply(state, GAME.legal_actions(state).sample(rng), p)
    assert checked > 100


def test_v3_a_connecting_element_wins_even_if_it_takes_the_opponents_last_way() -> None:
    # c2 c3 d3 d4 d5 joins d6 to d2 and, touching e2 and d1 at corners, leaves player 2 no square
    # beside d2 to start from: the way rule does not apply to the move that wins.
    t7 = "\n".join(" ".join("*" if (x, y) in ((3, 1), (3, 5)) else "." for x in range(7)) for y in range(7))
    state = position({"variant": "3", "template": t7}, card="#./##/.#/.#x1:-:r")
    state = GAME.apply_text(state, "c2 c3 d3 d4 d5")
    assert state.phase == OVER and GAME.winners(state) == (0,)
    assert not can_connect(GAME.setup(state), state, 1)
