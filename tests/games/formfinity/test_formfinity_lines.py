"""Variant 1 (squares in a line): claiming lines, longer runs, EASY and HARD, the target, the end."""

from __future__ import annotations

import pytest

from polytable.core import TERMINAL, IllegalActionError
from polytable.games.formfinity import CLAIM, DRAW, OVER

from ._helpers import GAME, draw, position

ROW2 = "a2 b2 c2 d2 f2 g2 h2 i2"


def claims(state) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(GAME.format_action(a, state) for a in GAME.legal_actions(state))


@pytest.mark.parametrize("difficulty", ["easy", "hard"])
def test_a_run_of_nine_lets_the_mover_choose_which_eight(difficulty: str) -> None:
    # Squares of both colours count; the mover completes a run of 9 and picks the line.
    state = position({"difficulty": difficulty}, drawn={0: "a2 b2 c2 d2", 1: "f2 g2 h2 i2"}, card="#x1:-:f")
    state = GAME.apply_text(state, "e2")
    assert state.phase == CLAIM and GAME.current_player(state) == 0
    assert claims(state) == ["line:h:a2", "line:h:b2"]
    state = GAME.apply_text(state, "line:h:b2")
    assert state.lines == ((0, 0, state.lines[0][2]),)
    assert GAME.scores(state) == (1.0, 0.0)
    assert state.phase == DRAW and state.turn == 1  # the card had one element: the turn is over


def test_a_run_of_sixteen_claims_two_lines_at_once() -> None:
    state = position(
        {"template": "blank", "variant_file": ""},
        drawn={0: "a3 b3 c3 d3 e3 f3 g3", 1: "i3 j3 k3 l3 m3 n3"},
        card="#x1:-:f",
    )
    state = GAME.apply_text(state, "h3")  # a run of 14: a single line (windows overlap)
    assert state.phase == CLAIM
    assert len(claims(state)) == 7


def test_easy_lets_lines_cross_hard_does_not() -> None:
    drawn = {0: "a4 b4 c4 d4 e4 f4 g4 h4", 1: "c1 c2 c3 c5 c6 c7 c8"}
    lines = ((0, 0, 3 * 15 + 0),)  # the horizontal line a4-h4 is already claimed (stride 15)
    easy = position({"difficulty": "easy", "template": "blank"}, drawn=drawn, card="#x1:-:f", turn=1, lines=lines)
    hard = position({"difficulty": "hard", "template": "blank"}, drawn=drawn, card="#x1:-:f", turn=1, lines=lines)
    # The column c1-c8 runs through c4, a square of the claimed horizontal line.
    easy = GAME.apply_text(easy, "n14")
    hard = GAME.apply_text(hard, "n14")
    assert sum(1 for o, _, _ in easy.lines if o == 1) == 1  # EASY: the vertical shares c4 with the claimed line
    assert sum(1 for o, _, _ in hard.lines if o == 1) == 0  # HARD: no square in two lines


def test_hard_makes_the_mover_choose_between_crossing_lines() -> None:
    drawn = {0: "a5 b5 c5 d5 f5 g5 h5", 1: "e1 e2 e3 e4 e6 e7 e8"}
    easy = GAME.apply_text(position({"difficulty": "easy"}, drawn=drawn, card="#x1:-:f"), "e5")
    assert easy.phase == DRAW and len(easy.lines) == 2  # both claimed at once
    hard = GAME.apply_text(position({"difficulty": "hard"}, drawn=drawn, card="#x1:-:f"), "e5")
    assert hard.phase == CLAIM
    assert claims(hard) == ["line:h:a5", "line:v:e1"]
    hard = GAME.apply_text(hard, "line:v:e1")
    assert len(hard.lines) == 1 and hard.phase == DRAW
    with pytest.raises(IllegalActionError):
        GAME.apply_text(GAME.apply_text(position({"difficulty": "hard"}, drawn=drawn, card="#x1:-:f"), "e5"), "e5")


def test_diagonal_lines_count() -> None:
    drawn = {0: "a1 b2 c3 d4 e5 f6 h8"}
    state = GAME.apply_text(position({"template": "blank"}, drawn=drawn, card="#x1:-:f"), "g7")
    assert [d for _, d, _ in state.lines] == [2]
    drawn = {1: "n1 m2 l3 k4 j5 i6 g8"}
    state = GAME.apply_text(position({"template": "blank"}, drawn=drawn, card="#x1:-:f"), "h7")
    assert [d for _, d, _ in state.lines] == [3]


TARGET_ONE = """
template = "1"
[goal]
type = "lines"
target = 1
"""


def test_first_to_the_target_wins_at_once() -> None:
    state = position(
        {"variant": "custom", "variant_file": TARGET_ONE}, drawn={1: "a2 b2 c2 d2 e2 f2 g2"}, card="#x2:-:f"
    )
    state = GAME.apply_text(state, "h2")
    assert state.phase == OVER and GAME.current_player(state) == TERMINAL
    assert GAME.winners(state) == (0,)
    assert GAME.returns(state) == (1.0, -1.0)


def test_a_full_template_ends_the_game_and_ties_are_shared() -> None:
    grid = " ".join(["."] * 8) + "\n"
    opts = {"variant_file": f'template = """\n{grid}"""\n[goal]\ntype = "lines"\nlength = 8\n'}
    state = position(opts, drawn={0: "a1 b1 c1", 1: "e1 f1 g1 h1"}, card="##x1:-:f")
    assert GAME.legal_actions(state).count() == 0
    # The only free square is d1: a domino cannot go anywhere, so the turn passes with nothing placed,
    # but a monomino could still be drawn: the game goes on.
    state = position(opts, drawn={0: "a1 b1 c1", 1: "e1 f1 g1 h1"})
    state = draw(state, "##x1:-:f")
    assert state.phase == DRAW and state.turn == 1 and state.unused == 1
    # With the last square drawn the line is claimed... and with a generator that deals only dominoes
    # nothing can ever be placed on a template with one free square: the game ends, shared.
    dominoes = {**opts, "size_weights": "0,1,0,0,0"}
    state = position(dominoes, drawn={0: "a1 b1 c1", 1: "e1 f1 g1 h1"})
    state = draw(state, "##x1:-:f")
    assert state.phase == OVER and GAME.winners(state) == (0, 1)


def test_unplaceable_elements_are_unused_and_the_turn_passes() -> None:
    grid = " ".join(["."] * 8) + "\n"
    opts = {"variant_file": f'template = """\n{grid}"""\n[goal]\ntype = "lines"\nlength = 8\n'}
    state = position(opts, drawn={1: "a1 b1 c1 d1 e1 f1"})
    state = draw(state, "#x3:-:f")
    assert state.left == 3
    state = GAME.apply_text(state, "g1")
    state = GAME.apply_text(state, "h1")  # completes the line for player 1
    assert state.lines and state.lines[0][0] == 0
    assert state.phase != CLAIM and state.unused == 1 and state.turn == 1
