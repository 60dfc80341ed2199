"""The Foldris expectimax bots (``hard``, ``medium``, ``expectimax``) and the fit-mask move generation."""

from __future__ import annotations

from dataclasses import replace

import pytest

from polytable.ai import make_bot
from polytable.ai.foldris import FoldrisExpectimaxBot
from polytable.core import CHANCE, ConfigError, Rng, get_game
from polytable.games.foldris import count_placements, heights, nth_placement, placements, rest_row, table_of

GAME = get_game("foldris")


def _play(bot_name: str, seed: int, players: int, rounds: int) -> None:
    bots = [make_bot(bot_name, "foldris") for _ in range(players)]
    rng = Rng(seed, 1)
    state = GAME.new_game(seed=seed, players=players)
    while not GAME.is_terminal(state) and state.round < rounds:
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply_chance(state)
            continue
        for p in GAME.acting_players(state):
            action = bots[p].choose(GAME, state, p, rng)
            assert action in set(GAME.legal_actions(state, p))
            state = GAME.apply(state, action, p)
            if GAME.current_player(state) == CHANCE or GAME.is_terminal(state):
                break


@pytest.mark.parametrize("name", ["hard", "medium", "expectimax"])
def test_registered_for_foldris(name: str) -> None:
    bot = make_bot(name, "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    assert bot.name == name


def test_hard_plays_legal_moves_solo_and_multiplayer() -> None:
    _play("hard", 1, 1, 6)
    _play("hard:mp_beam=2", 2, 3, 3)  # the deeper multiplayer search, narrowed to keep the test fast
    _play("medium", 3, 2, 4)


def test_the_deck_order_is_never_used() -> None:
    """The bot knows the remaining cards' make-up only: reseeding the hidden order changes nothing."""
    state = GAME.new_game(seed=5, players=1)
    bot = make_bot("hard:seconds=10", "foldris")
    for _ in range(4):
        state = GAME.apply_chance(state)
        if GAME.current_player(state) == CHANCE:
            state = GAME.apply_chance(state)
        chosen = bot.choose(GAME, state, 0, Rng(0))
        for other in (1, 2, 3):
            assert bot.choose(GAME, replace(state, rng=other), 0, Rng(0)) == chosen
        state = GAME.apply(state, chosen, 0)


def test_last_card_takes_the_most_lines() -> None:
    """On the last card only lines count (the search is exact there)."""
    bot = make_bot("hard:seconds=10", "foldris")
    greedy = make_bot("greedy", "foldris")
    tested = 0
    for seed in range(20):
        state = GAME.new_game({"height": 14}, seed=seed, players=1)
        rng = Rng(seed)
        while not GAME.is_terminal(state) and (state.deck or state.card < 0):
            if GAME.current_player(state) == CHANCE:
                state = GAME.apply_chance(state)
            else:
                state = GAME.apply(state, greedy.choose(GAME, state, 0, rng), 0)
        if GAME.is_terminal(state):
            continue
        best = max(GAME.apply(state, a, 0).sheets[0].lines for a in GAME.legal_actions(state, 0))
        assert GAME.apply(state, bot.choose(GAME, state, 0, rng), 0).sheets[0].lines == best
        tested += 1
        if tested == 3:
            break
    assert tested


def test_parameters_are_checked() -> None:
    bot = make_bot("hard:holes=-20,beam=4", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    assert bot.config.beam == 4 and bot.search.w["holes"] == -20.0
    with pytest.raises(ConfigError):
        make_bot("hard:nonsense=1", "foldris")
    with pytest.raises(ConfigError):
        make_bot("hard:beam=0", "foldris")


def test_fit_masks_match_the_drop_rule() -> None:
    """The mask generator lists exactly the (variant, column) pairs that rest inside the sheet, in order."""
    rng = Rng(9)
    for seed in range(12):
        for players, options in ((1, {}), (3, {}), (2, {"height": 6})):
            state = GAME.new_game(options, seed=seed, players=players)
            while not GAME.is_terminal(state):
                if GAME.current_player(state) == CHANCE:
                    state = GAME.apply_chance(state)
                    continue
                p = GAME.acting_players(state)[0]
                sheet, table = state.sheets[p], table_of(state)
                hts = heights(sheet.ink | sheet.barrier)
                brute = [
                    (i, c)
                    for i, v in enumerate(table.variants)
                    if v.cost <= sheet.bonus
                    for c in range(8 - v.width + 1)
                    if rest_row(v, hts, c) + v.height <= sheet.height
                ]
                assert list(placements(table, hts, sheet.height, sheet.bonus)) == brute
                assert count_placements(table, hts, sheet.height, sheet.bonus) == len(brute)
                for k in range(0, len(brute), 7):
                    assert nth_placement(table, hts, sheet.height, sheet.bonus, k) == brute[k]
                state = GAME.apply(state, GAME.legal_actions(state, p).sample(rng), p)
