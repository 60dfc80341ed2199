"""Variant 2 (fill the area): choosing areas, placing inside, finishing, scoring, the end."""

from __future__ import annotations

import pytest

from polytable.core import IllegalActionError
from polytable.games.formfinity import CHOOSE, DRAW, OVER

from ._helpers import GAME, draw, position

# Area A: a1 b1 a2; area B: c1 c2 c3; area C: a3 b3; b2 is black.
AREAS = """\
A A B
A # B
C C B
"""
OPTS = {"variant": "2", "template": AREAS}


def test_the_player_about_to_move_chooses_the_area() -> None:
    state = GAME.new_game(OPTS, seed=1)
    assert state.phase == CHOOSE and GAME.current_player(state) == 0
    assert sorted(GAME.format_action(a, state) for a in GAME.legal_actions(state)) == ["area:A", "area:B", "area:C"]
    state = GAME.apply_text(state, "area:B")
    assert state.phase == DRAW and state.area == 1


def test_elements_stay_inside_the_area_and_arrows_do_not_apply() -> None:
    state = position(OPTS, card="##x1:T:r", area=0)
    placed = sorted(GAME.format_action(a, state) for a in GAME.legal_actions(state))
    assert placed == ["##@a1", "#/#@a1"]  # arrows ignored; never into B or C
    with pytest.raises(IllegalActionError, match="inside area A"):
        GAME.apply_text(state, "b1 c1")


def test_a_full_area_is_finished_scored_and_leftover_elements_are_unused() -> None:
    state = position(OPTS, drawn={1: "b1"}, card="##x2:-:r", area=0, turn=0)
    state = GAME.apply_text(state, "a1 a2")
    assert state.done_areas == 0b001 and state.area == -1
    assert state.points == (2, 1) and GAME.scores(state) == (2.0, 1.0)
    assert state.unused == 1  # the second domino had nowhere to go: its area was finished
    assert state.phase == CHOOSE and GAME.current_player(state) == 1
    assert sorted(GAME.format_action(a, state) for a in GAME.legal_actions(state)) == ["area:B", "area:C"]


def test_an_area_closes_when_every_player_in_turn_places_nothing() -> None:
    state = position(OPTS, drawn={0: "a3"}, area=2, turn=0, done_areas=0b011, points=(3, 3))
    state = draw(state, "##x1:-:r")  # player 1: no room for a domino in C
    assert state.phase == DRAW and state.turn == 1 and state.fails == 1 and state.area == 2
    state = draw(state, "###x1:-:r")  # player 2: nothing either: C is finished, and so is the game
    assert state.phase == OVER
    assert state.points == (4, 3) and GAME.winners(state) == (0,)


def test_a_placement_resets_the_count_of_players_who_could_not_place() -> None:
    state = position(OPTS, area=1, turn=0)
    state = draw(state, "####x1:-:r")  # B has 3 squares: nothing fits
    assert state.fails == 1
    state = draw(state, "#x1:-:f")
    state = GAME.apply_text(state, "c1")
    assert state.fails == 0 and state.area == 1


def test_the_last_area_is_chosen_automatically() -> None:
    state = position(OPTS, drawn={0: "a1 b1 a2"}, area=0, turn=1, done_areas=0b011)
    state = draw(state, "#x1:-:f")  # area A has no free square but is not finished: nothing fits
    state = draw(state, "#x1:-:f")
    assert state.area == 2 and state.phase == DRAW  # only C is left: no choice to make
    with pytest.raises(IllegalActionError):
        GAME.apply_text(state, "area:C")


def test_a_tie_on_points_is_a_shared_win() -> None:
    state = position(OPTS, drawn={0: "a3"}, area=2, turn=1, done_areas=0b011, points=(3, 4))
    state = draw(state, "##x1:-:f")
    state = draw(state, "##x1:-:f")
    assert state.phase == OVER and GAME.winners(state) == (0, 1)
