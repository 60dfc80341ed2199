"""Slide-in placement (CLARIFICATIONS): golden resting positions from each edge, with obstacles,
outside squares, drawn squares, non-convex shapes and rotation."""

from __future__ import annotations

import pytest

from polytable.core import IllegalActionError

from ._helpers import GAME, mask_cells, position, setup_of

GRID = """\
. . . . . .
. # . . . .
. . . . # .
. . . . . .
. . . . . .
"""


def lines_variant(template: str, length: int = 3) -> dict[str, object]:
    """A custom variant (lines of ``length``) on ``template``, so small templates are valid."""
    return {"variant_file": f'template = """\n{template}"""\n[goal]\ntype = "lines"\nlength = {length}\n'}


def anchors(state) -> list[str]:  # type: ignore[no-untyped-def]
    return sorted(GAME.format_action(a, state).split("@")[1] for a in GAME.legal_actions(state))


@pytest.mark.parametrize(
    ("edge", "expected"),
    [
        ("T", ["a5", "b1", "c5", "d5", "e2", "f5"]),
        ("B", ["a1", "b3", "c1", "d1", "e4", "f1"]),
        ("L", ["a2", "d3", "f1", "f4", "f5"]),
        ("R", ["a1", "a4", "a5", "c2", "f3"]),
    ],
)
def test_monomino_rests_against_black_squares_and_edges(edge: str, expected: list[str]) -> None:
    state = position(lines_variant(GRID), card=f"#x1:{edge}:f")
    assert anchors(state) == expected


def test_a_lane_blocked_at_the_entry_is_illegal() -> None:
    grid = ". . # . .\n. . . . .\n. . . . .\n"
    state = position(lines_variant(grid), card="##x1:T:f")
    # Lanes b (b-c) and c (c-d) hit the black square c1 before the element is wholly on the template.
    assert anchors(state) == ["a3", "d3"]
    with pytest.raises(IllegalActionError, match="stops before it is wholly on the template"):
        GAME.parse_action("T:b", state)


def test_outside_squares_block_like_black_squares() -> None:
    grid = "- . . .\n. . . .\n. . . .\n"
    state = position(lines_variant(grid), card="#x1:T:f")
    assert anchors(state) == ["b3", "c3", "d3"]
    state = position(lines_variant(grid), card="#x1:L:f")
    assert anchors(state) == ["d2", "d3"]  # row 1 starts with an outside square: that lane is closed


def test_elements_rest_on_drawn_squares_and_on_each_other() -> None:
    state = position(lines_variant(GRID), card="##x2:T:f", drawn={1: "c5"})
    assert anchors(state) == ["a1", "b1", "c4", "d2", "e2"]
    state = GAME.apply_text(state, "T:c")
    assert mask_cells(state, state.owners[0]) == ["c4", "d4"]
    assert state.left == 1
    # The second element of the card rests on the first one.
    assert "c3" in anchors(state)


def test_non_convex_element_slides_around_an_obstacle() -> None:
    grid = ". . .\n. . .\n. . .\n. . .\n. # .\n"
    state = position(lines_variant(grid), card="###/#.#x1:T:f")
    assert anchors(state) == ["a4"]  # the obstacle b5 sits inside the upside-down U
    state = position(lines_variant(grid), card="#.#/###x1:T:f")
    assert anchors(state) == ["a3"]


def test_rotation_and_several_arrows_union_of_placements() -> None:
    state = position(lines_variant(GRID), card="##/#.x1:TL:r")
    acts = list(GAME.legal_actions(state))
    assert len(acts) == len(set(acts)) == GAME.legal_actions(state).count()
    fixed = position(lines_variant(GRID), card="##/#.x1:TL:f")
    top = position(lines_variant(GRID), card="##/#.x1:T:f")
    left = position(lines_variant(GRID), card="##/#.x1:L:f")
    assert set(GAME.legal_actions(fixed)) == set(GAME.legal_actions(top)) | set(GAME.legal_actions(left))
    assert set(GAME.legal_actions(fixed)) < set(GAME.legal_actions(state))


def test_edge_and_lane_input_resolves_to_the_resting_place() -> None:
    state = position(lines_variant(GRID), card="##/#.x1:TL:r")
    assert GAME.format_action(GAME.parse_action("T:a", state), state) == "##/#.@a1"
    assert GAME.format_action(GAME.parse_action("L:4/r1", state), state) == "##/.#@e4"
    with pytest.raises(IllegalActionError, match="cannot come to rest"):
        GAME.apply_text(state, "##/#.@a3")
    fixed = position(lines_variant(GRID), card="##/#.x1:T:f")
    with pytest.raises(IllegalActionError, match="cannot be rotated"):
        GAME.parse_action("T:a/r1", fixed)
    with pytest.raises(IllegalActionError, match="does not allow rotation"):
        GAME.apply_text(fixed, "##/.#@a1")


def test_no_arrow_means_anywhere() -> None:
    state = position(lines_variant(GRID), card="#x1:-:f")
    assert GAME.legal_actions(state).count() == 30 - 2
    setup = setup_of(state)
    assert setup.rules.arrows
