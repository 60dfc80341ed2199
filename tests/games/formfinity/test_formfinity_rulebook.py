"""FORMFINITY rulebook sentences that no other test pinned down (see docs/rules/formfinity.md)."""

from __future__ import annotations

import pytest

from polytable.core import CHANCE, ConfigError, Rng
from polytable.games.formfinity import DRAW

from ._helpers import GAME, mask_cells, position

SMALL = "1 . . .\n. . . .\n. . . 2\n"  # variant 4 without black squares, numbers only in two corners


def _placements(state) -> set[str]:  # type: ignore[no-untyped-def]
    return {GAME.format_action(a, state) for a in GAME.legal_actions(state)}


@pytest.mark.parametrize(("variant", "low", "high"), [("1", 2, 4), ("2", 2, 4), ("3", 2, 2), ("4", 2, 2)])
def test_each_variant_has_its_player_count(variant: str, low: int, high: int) -> None:
    """ "In this variant, 2 to 4 players use one shared template" (1, 2); "two players" (3, 4)."""
    for n in range(low, high + 1):
        state = GAME.new_game({"variant": variant}, seed=1, players=n)
        assert len(state.owners) == n  # one shared template, one colour (owner mask) per player
    for n in (low - 1, high + 1):
        if 2 <= n <= 4:
            with pytest.raises(ConfigError):
                GAME.new_game({"variant": variant}, seed=1, players=n)


def test_players_take_turns_and_the_next_player_draws() -> None:
    """ "Players take turns. On each turn, the player draws a card ... Once the move is complete, the next
    player takes a turn.\""""
    state = GAME.new_game({"variant": "1"}, seed=3, players=3)
    rng = Rng(4)
    drawers: list[int] = []
    while len(drawers) < 7 and not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            assert state.phase == DRAW
            drawers.append(state.turn)
            state = GAME.apply_chance(state)
        else:
            state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
    assert drawers == [0, 1, 2, 0, 1, 2, 0]


def test_the_cards_rules_apply_to_every_element_it_gives() -> None:
    """ "The ×1, ×2, or ×3 symbol shows how many elements are gained. The same rules shown on the card apply to
    all of them": the second element of a x2 card has exactly the placements of a x1 card with the same shape,
    arrows and rotation on the same template."""
    first = GAME.apply_text(position({"variant": "1"}, card="##/#.x2:TR:f"), "T:c")
    single = position({"variant": "1"}, drawn={0: " ".join(mask_cells(first, first.owners[0]))}, card="##/#.x1:TR:f")
    assert first.left == 1 and len(mask_cells(first, first.owners[0])) == 3
    assert _placements(first) == _placements(single) != set()


@pytest.mark.parametrize("variant", ["2", "4"])
def test_arrows_do_not_apply_but_the_card_still_decides_rotation(variant: str) -> None:
    """Variants 2 and 4: "The directions shown by arrows on the cards do not apply." ... "Whether the element
    can be rotated is still determined by the card.\""""
    options = {"variant": "2"} if variant == "2" else {"variant": "4", "template": SMALL}
    fixed = _placements(position(options, card="###x1:B:f", area=0) if variant == "2" else
                        position(options, card="###x1:B:f"))  # fmt: skip
    turning = _placements(position(options, card="###x1:B:r", area=0) if variant == "2" else
                          position(options, card="###x1:B:r"))  # fmt: skip
    assert fixed and all(p.startswith("###@") for p in fixed)  # as drawn: across only
    assert any(p.startswith("#/#/#@") for p in turning) and fixed < turning  # the rotation symbol turns it
    assert len({p.split("@")[1][1:] for p in fixed}) > 1  # not only at the bottom edge: no sliding in
