"""Scenario tests for every rule of Qwirkle Cubes, and the messages of illegal plays."""

from __future__ import annotations

import json

import pytest

from games.qwirkle_cubes.qc_helpers import GAME, build, cubes, hand
from polytable.core import CHANCE, TERMINAL, IllegalActionError, Rng
from polytable.games.qwirkle_cubes import (
    DRAW,
    END,
    PASS,
    PLACE,
    REROLL,
    ROLL,
    SETUP_DRAW,
    Draw,
    Pass,
    Place,
    Reroll,
    Roll,
)


def place(state, text):
    return GAME.apply(state, GAME.parse_action(text, state))


def refused(state, text) -> str:
    with pytest.raises(IllegalActionError) as e:
        place(state, text)
    return str(e.value)


# ---------------------------------------------------------------- scoring


def test_cube_in_two_lines_scores_both() -> None:
    s = build("R●@0,0 R■@1,0 B◆@2,1", ("R◆ G● G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    # B◆ at 2,1 sits above 2,0: R◆ there makes the row R● R■ R◆ (3) and the column R◆ B◆ (2).
    after = place(s, "R◆@2,0")
    assert after.points == (5, 0)
    assert after.last == (0, 5, 0)


def test_qwirkle_scores_six_more() -> None:
    s = build("R●@0,0 R■@1,0 R◆@2,0 R♣@3,0 R✦@4,0", ("R✸ G● G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    after = place(s, "R✸@5,0")
    assert after.points == (12, 0)
    assert after.last == (0, 12, 1)


def test_extending_both_ends() -> None:
    s = build("R■@0,0 R◆@1,0", ("R● R♣ G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    after = place(s, "R●@-1,0 R♣@2,0")
    assert after.points == (4, 0)


def test_gap_filled_by_the_move() -> None:
    # Row 0 holds R● . Y● with a hole at 1,0; O● fills it: the row R● O● Y● (3) and column O■ O● (2).
    table = "R●@0,0 Y●@2,0 R■@0,1 O■@1,1 Y■@2,1"
    s = build(table, ("O● G● G■ G◆ G♣ G✦", "B● B■ B◆ B♣ B✦ B✸"))
    assert place(s, "O●@1,0").points == (5, 0)


def test_line_through_old_cubes_counts_them_once_and_perpendiculars_each() -> None:
    # Two new reds above R● and R■ make the row R◆ R♣ (2) and two columns of 2: 2 + 2 + 2.
    s = build("R●@0,0 R■@1,0", ("R◆ R♣ G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    assert place(s, "R◆@0,1 R♣@1,1").points == (6, 0)


def test_single_cube_scores_both_of_its_lines() -> None:
    s = build("R●@0,0 R■@1,0 B◆@2,1", ("R◆ G● G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    assert GAME.parse_action("R◆@2,0", s) == Place(cubes("R◆@2,0"))


# ---------------------------------------------------------------- illegal plays and their messages


@pytest.fixture
def row() -> object:
    return build("R●@0,0 R■@1,0", ("R● R◆ R♣ B◆ B✦ G✸", "O● O■ O◆ O♣ O✦ O✸"))


def test_duplicate_in_a_line(row: object) -> None:
    msg = refused(row, "R●@2,0")
    assert msg == "The row through your red circle would hold the red circle twice: a line never repeats a cube"


def test_two_rows(row: object) -> None:
    assert refused(row, "R◆@2,0 R♣@3,1") == "All cubes placed in one turn must lie in one row or one column"


def test_line_of_seven() -> None:
    s = build("R●@0,0 R■@1,0 R◆@2,0 R♣@3,0 R✦@4,0 R✸@5,0", ("R● G■ G◆ G♣ G✦ G✸", "O● O■ O◆ O♣ O✦ O✸"))
    assert refused(s, "R●@6,0") == "The row through your red circle would be 7 cubes long; a line holds at most 6"


def test_diagonal_only_touch(row: object) -> None:
    assert refused(row, "R◆@2,1") == (
        "Your cubes must touch a cube in the grid along a side (touching only at a corner does not count)"
    )


def test_gap_left_between_new_cubes(row: object) -> None:
    assert refused(row, "R◆@2,0 R♣@4,0") == (
        "A square between your cubes would stay empty: cubes placed in one turn form an unbroken line"
    )


def test_mixed_line(row: object) -> None:
    msg = refused(row, "B◆@2,0")
    assert msg.startswith("The row through your blue diamond would mix colours and shapes")


def test_cube_not_in_hand(row: object) -> None:
    assert refused(row, "P●@2,0") == "You have no purple circle in your hand"


def test_taken_cell(row: object) -> None:
    assert refused(row, "R◆@1,0") == "The red square already lies on a square you name"


def test_place_before_choosing_reroll() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆ G● G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"), phase=REROLL)
    assert "first choose which cubes to reroll" in refused(s, "R◆@2,0")


def test_pass_refused_when_a_cube_could_fit(row: object) -> None:
    with pytest.raises(IllegalActionError, match="you may pass only when"):
        GAME.apply(row, Pass())


def test_malformed_text_explains(row: object) -> None:
    with pytest.raises(IllegalActionError, match="colour letter, shape and @x,y"):
        GAME.parse_action("R◆ at 2,0", row)
    with pytest.raises(IllegalActionError, match="is not a cube"):
        GAME.parse_action("Z◆@2,0", row)
    with pytest.raises(IllegalActionError, match="reroll takes hand positions"):
        GAME.parse_action("reroll 9", row)


# ---------------------------------------------------------------- first turn


def test_first_turn_must_place_the_largest_line_from_0_0() -> None:
    s = build("", ("R● R■ R◆ G● B✦ P✸", "O● O■ O◆ O♣ O✦ O✸"))
    assert "as many cubes as you can in one line: 3, not 2" in refused(s, "R●@0,0 R■@1,0")
    assert "runs to the right from its first cube" in refused(s, "R●@0,1 R■@1,1 R◆@2,1")
    assert "runs to the right from its first cube" in refused(s, "R●@0,0 R■@0,1 R◆@0,2")
    legal = list(GAME.legal_actions(s))
    assert len(legal) == 6  # the 3! orders of R● R■ R◆ along row 0
    after = place(s, "R■@0,0 R●@1,0 R◆@2,0")
    assert after.points == (3, 0)


def test_first_turn_rerolls_all_while_no_line_of_two() -> None:
    s = build("", ("R● O■ Y◆ G♣ B✦ P✸", "O● O■ O◆ O♣ O✦ O✸"), phase=REROLL)
    after = GAME.apply(s, Reroll(0))
    assert after.phase == ROLL and GAME.current_player(after) == CHANCE
    assert after.rolling == 0b111111 and after.forced == 1
    # A roll that still gives no line of two: another forced reroll of all six.
    again = GAME.apply(after, Roll((0, 1, 2, 3, 4, 5)))
    assert again.phase == ROLL and again.forced == 2
    ok = GAME.apply(again, Roll((0, 0, 2, 3, 4, 5)))
    assert ok.phase == PLACE and ok.forced == 2


# ---------------------------------------------------------------- rerolls, forced rerolls, the pass


def test_reroll_rolls_only_the_chosen_cubes() -> None:
    s = build("R●@0,0 R■@1,0", ("B◆ B♣ G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"), phase=REROLL)
    s = GAME.apply(s, GAME.parse_action("reroll 1,4", s))
    assert s.phase == ROLL and s.rolling == 0b1001
    s = GAME.apply(s, Roll((0, 5)))
    assert s.phase == PLACE
    # The hand is shown sorted (colours R O Y G B P, then shapes): slots 1 and 4 were G■ and G✦.
    assert s.hands[0] == hand("G● G◆ G♣ G✸ B◆ B♣")


def test_identical_cubes_make_one_reroll_choice() -> None:
    s = build("R●@0,0 R■@1,0", ("B◆ B◆ G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"), phase=REROLL)
    # Sorted hand: G■ G◆ G♣ G✦ B◆ B◆; naming the second B◆ means the first.
    assert GAME.parse_action("reroll 6", s) == Reroll(0b010000)
    with pytest.raises(IllegalActionError, match="identical cubes"):
        GAME.apply(s, Reroll(0b100000))
    assert GAME.legal_actions(s).count() == 3 * 16
    assert GAME.parse_action("reroll all", s) == Reroll(0b111111)
    assert GAME.format_action(Reroll(0)) == "keep"
    assert GAME.parse_action("reroll none", s) == Reroll(0)


def test_cannot_place_forces_a_reroll_of_every_cube() -> None:
    # Next to R● R■ only reds, circles and squares fit; this hand has none of them.
    s = build("R●@0,0 R■@1,0", ("B◆ B♣ B✦ B✸ G◆ G♣", "O● O■ O◆ O♣ O✦ O✸"), phase=REROLL)
    after = GAME.apply(s, GAME.parse_action("keep", s))
    assert after.phase == ROLL and after.rolling == 0b111111 and after.forced == 1
    placed = GAME.apply(after, Roll((0, 2, 3, 4, 5, 2)))
    assert placed.phase == PLACE


SQUARE = " ".join(f"{'ROYGBP'[r]}{'●■◆♣✦✸'[c]}@{c},{r}" for r in range(6) for c in range(6))


def test_pass_when_no_roll_could_help_and_stalemate_end() -> None:
    # A 6 x 6 square of Qwirkles: every line is full, nothing can ever be placed.
    s = build(SQUARE, ("R● O■ Y◆", "G♣ B✦ P✸"), bag_empty=True, points=(40, 31))
    s = GAME._begin(s, 0)
    assert s.phase == PASS
    assert list(GAME.legal_actions(s)) == [Pass()]
    with pytest.raises(IllegalActionError, match="you must pass"):
        GAME.apply(s, Reroll(0))
    s = GAME.apply(s, Pass())
    assert s.phase == PASS and s.player == 1 and s.passes == 1
    s = GAME.apply(s, GAME.parse_action("pass", s))
    assert GAME.current_player(s) == TERMINAL
    assert s.finisher == -1 and s.points == (40, 31)  # no finishing bonus
    assert GAME.winners(s) == (0,)


def test_stalemate_with_cubes_in_the_bag_also_ends() -> None:
    s = build(SQUARE, ("R● O■ Y◆ G♣ B✦ P✸", "R■ O◆ Y♣ G✦ B✸ P●"))
    assert s.bag_size > 0
    s = GAME._begin(s, 0)
    s = GAME.apply(GAME.apply(s, Pass()), Pass())
    assert s.phase == END


def test_a_placement_resets_the_pass_count() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆ G■ G◆ G♣ G✦ G✸", "O● O■ O◆ O♣ O✦ O✸"))
    s = GAME.apply(s, Place(cubes("R◆@2,0")))
    assert s.passes == 0


# ---------------------------------------------------------------- drawing and the end


def test_draw_back_to_six_and_roll_only_the_new_cubes() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆ R♣ G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    s = place(s, "R◆@2,0 R♣@3,0")
    assert s.phase == DRAW and GAME.current_player(s) == CHANCE
    out = GAME.chance_outcome(s)
    assert isinstance(out, Draw) and len(out.colours) == 2
    bag_before = s.bag_size
    s = GAME.apply(s, Draw((4, 4)))
    assert s.bag_size == bag_before - 2
    assert s.rolling == 0b110000  # only the two new cubes roll
    s = GAME.apply(s, Roll((1, 3)))
    assert s.hands[0] == hand("B■ B♣ G■ G◆ G♣ G✦")
    assert s.player == 1 and s.phase == REROLL


def test_emptying_the_hand_with_the_bag_empty_ends_with_six_more() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆", "O● O■"), bag_empty=True, points=(10, 14))
    s = place(s, "R◆@2,0")
    assert s.phase == END and s.finisher == 0
    assert s.points == (10 + 3 + 6, 14)
    assert GAME.winners(s) == (0,)


def test_no_refill_once_the_bag_is_empty() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆ G■", "O● O■"), bag_empty=True)
    s = place(s, "R◆@2,0")
    assert s.phase == REROLL and s.player == 1 and s.hands[0] == hand("G■")


def test_ties_are_shared() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆", "O● O■"), bag_empty=True, points=(8, 17))
    s = place(s, "R◆@2,0")
    assert s.points == (17, 17)
    assert GAME.winners(s) == (0, 1)
    assert GAME.returns(s) == (0.0, 0.0)


# ---------------------------------------------------------------- set-up, notation, views


def test_setup_deals_six_to_each_player_then_player_one_rerolls() -> None:
    s = GAME.new_game(players=3, seed=4)
    assert s.phase == SETUP_DRAW
    while GAME.current_player(s) == CHANCE:
        s = GAME.apply_chance(s)
    assert [len(h) for h in s.hands] == [6, 6, 6]
    assert s.bag_size == 90 - 18
    assert s.phase == REROLL and s.player == 0


def test_notation_round_trips_and_ascii_fallback() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆ R♣ G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    a = GAME.parse_action("Rd@2,0 Rc@3,0", s)
    assert a == GAME.parse_action("R♣@3,0   R◆@2,0", s)
    assert GAME.format_action(a) == "R◆@2,0 R♣@3,0"
    for text in ["pass", "keep", "reroll 1,4", "rolls ● ✸", "draws R B B", "P✸@-3,7"]:
        b = GAME.parse_action(text)
        assert GAME.format_action(b) == text
        assert GAME.parse_action(GAME.format_action(b)) == b
    assert GAME.parse_action("rolls o *") == Roll((0, 5))


def test_ids_round_trip_for_lines_through_old_cubes() -> None:
    s = build("R●@0,0 R■@1,0", ("R◆ R♣ G■ G◆ G♣ G✦", "O● O■ O◆ O♣ O✦ O✸"))
    for a in GAME.legal_actions(s):
        assert GAME.action_from_id(GAME.action_id(a, s), s) == a
    with pytest.raises(IllegalActionError):
        GAME.action_from_id(-1, s)


def test_views_hide_the_bag_order_and_show_open_hands() -> None:
    s = GAME.new_game(players=2, seed=9)
    while GAME.current_player(s) == CHANCE:
        s = GAME.apply_chance(s)
    v = GAME.view(s, 1)
    text = json.dumps(v)
    assert "rng" not in text and str(s.rng) not in text
    assert len(v["hands"][0]) == 6 and v["bag_size"] == 78
    plain = GAME.render(s, 0)
    assert "\x1b[" not in plain and "1:" in plain
    assert "\x1b[" in GAME.render(s, 0, color=True)


def test_determinize_reseeds_only_the_generator() -> None:
    s = GAME.new_game(players=2, seed=9)
    d = GAME.determinize(s, 0, Rng(1))
    assert d.rng != s.rng
    assert GAME.state_to_dict(d) | {"rng": 0} == GAME.state_to_dict(s) | {"rng": 0}


def test_chance_outcome_probabilities_sum_to_one() -> None:
    s = GAME.new_game(players=2, seed=1)
    outs = GAME.chance_outcomes(s)
    assert abs(sum(p for _, p in outs) - 1.0) < 1e-9
    s = GAME.apply_chance(s)
    outs = GAME.chance_outcomes(s)
    assert len(outs) == 6**6 and abs(sum(p for _, p in outs) - 1.0) < 1e-9
