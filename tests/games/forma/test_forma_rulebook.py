"""Forma rulebook sentences that no other test pinned down (see docs/rules/forma.md)."""

from __future__ import annotations

from .forma_helpers import GAME, new, put


def test_a_piece_goes_on_free_cells_anywhere_without_touching_anything() -> None:
    """ "In zijn beurt kiest de speler een eigen legvorm naar keuze en plaatst deze op vrije velden op het
    spelbord": no contact rule, so pieces far from everything are legal on every turn."""
    s = new(touch_move=False)  # the placing flow; touch-move adds a pick before it
    s = GAME.apply_text(s, "X5 r0 @ e10")  # the first piece, in open space
    s = GAME.apply_text(s, "I5 r0 @ c8")  # the second, touching nothing
    s = GAME.apply_text(s, "1 r0 @ j15")
    assert s.turn == 3 and s.scores[:3] == (5, 5, 1)


def test_the_player_chooses_any_of_their_own_pieces() -> None:
    """ "... kiest de speler een eigen legvorm naar keuze": every remaining piece of the mover is offered, and
    another player's pieces are not the mover's to play."""
    s = put(new(touch_move=False), 1, "a19")
    pieces = {a.piece for a in GAME.legal_actions(s)}
    assert len(pieces) == 21  # 22 pieces, the two single squares the same shape
    before = s.stock
    s = GAME.apply_text(s, "F5 r0 @ k7")
    assert s.stock[1] == before[1] and sum(s.stock[0]) == sum(before[0]) - 1
