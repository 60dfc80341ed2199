"""FORMFINITY ``hard``'s ``deep`` option: the last few candidates are searched one draw deeper.

Why these checks: the deeper phase must stay within the bot's sample bounds (so a test or a slow machine
never waits on the clock), replay for a seed, still find an immediate line, and change nothing when off."""

from __future__ import annotations

import pytest

from polytable.ai.bots_formfinity import FormfinityLookahead
from polytable.core import CHANCE, ConfigError, Rng
from polytable.games.formfinity import FormfinityState

from ._helpers import GAME, random_midgame


def _midgame(seed: int, moves: int) -> FormfinityState:
    return random_midgame({"variant": "1"}, seed, moves)


def test_deep_finalists_are_bounded_and_replay() -> None:
    state = _midgame(7, 6)
    player = GAME.current_player(state)
    bot = FormfinityLookahead(seconds=60.0, width=6, samples=16, first=4, batch=4, deep=2)
    first = bot.choose(GAME, state, player, Rng(11))
    assert first in GAME.legal_actions(state, player)
    # Shallow halving 6 -> 3 -> 2 (4 + 4 samples), then 16 deeper samples for each of the 2 finalists.
    assert bot.last_playouts == 6 * 4 + 3 * 4 + 2 * 16
    again = FormfinityLookahead(seconds=60.0, width=6, samples=16, first=4, batch=4, deep=2)
    assert again.choose(GAME, state, player, Rng(11)) == first


def test_deep_off_is_the_plain_halving() -> None:
    state = _midgame(7, 6)
    player = GAME.current_player(state)
    bot = FormfinityLookahead(seconds=60.0, width=6, samples=16, first=4, batch=4)
    bot.choose(GAME, state, player, Rng(11))
    assert bot.last_playouts == 6 * 4 + 3 * 4 + 2 * (16 - 8)  # 6 and 3 candidates, then 2 until 16 each


def test_deep_rejects_a_negative_count() -> None:
    with pytest.raises(ConfigError):
        FormfinityLookahead(deep=-1)


def test_finalists_from_the_start_decide_on_their_deeper_samples() -> None:
    # Three candidates and deep=3: no shallow round at all, so the few deeper samples are all there is.
    state = _midgame(7, 6)
    player = GAME.current_player(state)
    bot = FormfinityLookahead(seconds=60.0, width=3, samples=4, deep=3)
    assert bot.choose(GAME, state, player, Rng(2)) in GAME.legal_actions(state, player)
    assert bot.last_playouts == 3 * 4


def test_other_goals_ignore_deep() -> None:
    # Measured on the lines goal only; the other goals' playouts are the slower generic greedy.
    state: FormfinityState = GAME.new_game({"variant": "4"}, seed=3, players=2)
    while GAME.current_player(state) == CHANCE:
        state = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
    player = GAME.current_player(state)
    counts = []
    for deep in (0, 2):
        bot = FormfinityLookahead(seconds=60.0, width=4, samples=8, batch=4, deep=deep)
        bot.choose(GAME, state, player, Rng(4))
        counts.append(bot.last_playouts)
    assert counts[0] == counts[1]
