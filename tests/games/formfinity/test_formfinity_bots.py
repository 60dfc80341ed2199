"""FORMFINITY's ``hard`` and ``medium`` (a one-turn lookahead with the expectation over the next cards):
legal, seeded, bounded by their sample counts in these tests, and sensible in constructed positions."""

from __future__ import annotations

import pytest

from polytable.ai import make_bot
from polytable.ai.bots_formfinity import FormfinityLookahead
from polytable.core import CHANCE, Rng

from ._helpers import GAME, cells_mask, position


def _midgame(options: dict[str, object], seed: int, moves: int) -> object:
    state = GAME.new_game(options, seed=seed, players=2)
    rng = Rng(seed, 9)
    done = 0
    while done < moves and not GAME.is_terminal(state):
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
            continue
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        done += 1
    while GAME.current_player(state) == CHANCE:
        state = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
    return state


def test_levels_are_the_lookahead_with_their_budgets() -> None:
    hard, medium = make_bot("hard", "formfinity"), make_bot("medium", "formfinity")
    assert isinstance(hard, FormfinityLookahead) and isinstance(medium, FormfinityLookahead)
    assert hard.seconds == 2.0 and medium.seconds == 0.25 and medium.samples < hard.samples


@pytest.mark.parametrize("variant", ["1", "2", "3", "4"])
def test_moves_are_legal_and_replay_for_a_seed(variant: str) -> None:
    state = _midgame({"variant": variant}, 4, 3)
    if GAME.is_terminal(state):
        pytest.skip("the random opening ended the game")
    player = GAME.current_player(state)
    bot = FormfinityLookahead(seconds=60.0, width=3, samples=4, batch=2)
    first = bot.choose(GAME, state, player, Rng(5))
    assert first in GAME.legal_actions(state, player)
    assert bot.last_playouts <= 3 * 4  # bounded by width x samples, not by the clock
    again = FormfinityLookahead(seconds=60.0, width=3, samples=4, batch=2).choose(GAME, state, player, Rng(5))
    assert again == first


def test_it_completes_the_line() -> None:
    # a2-d2 and f2-h2 are drawn: a square on e2 completes a line of eight.
    state = position(drawn={0: "a2 b2 c2 d2", 1: "f2 g2 h2"}, card="#x1:-:f")
    action = FormfinityLookahead(seconds=60.0, width=4, samples=4).choose(GAME, state, 0, Rng(2))
    assert GAME.setup(state).place_mask(action.shape, action.x, action.y) == cells_mask(state, "e2")
