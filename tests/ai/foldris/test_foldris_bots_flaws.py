"""The Foldris search's perfect-game terms: flaw detection, the first-flaw cost, multiplayer endgame values."""

from __future__ import annotations

from dataclasses import replace

import pytest

from polytable.ai import make_bot
from polytable.ai.foldris import DEAD, FoldrisExpectimaxBot, flawless
from polytable.core import CHANCE, ConfigError, Rng, get_game
from polytable.games.foldris import FoldrisState, table_of

GAME = get_game("foldris")


def _first_decision(seed: int, players: int = 1) -> FoldrisState:
    state = GAME.new_game(seed=seed, players=players)
    while GAME.current_player(state) == CHANCE:
        state = GAME.apply_chance(state)
    assert isinstance(state, FoldrisState)
    return state


def test_flawless_until_a_hole_or_a_trim() -> None:
    state = _first_decision(3)
    assert flawless(state, 0)
    sheet = state.sheets[0]
    # A square floating over an empty one: a hole.
    holed = replace(sheet, ink=sheet.ink | (1 << (8 * 3 + 7)))
    assert not flawless(replace(state, sheets=(holed,)), 0)
    # After one more round the sheet must hold 8 squares: 7 means a square was trimmed.
    empty = [c for c in range(8) if not (sheet.ink >> c) & 1]
    three = sum(1 << c for c in empty[:3])
    four = three | 1 << empty[3]
    assert not flawless(replace(state, round=2, sheets=(replace(sheet, ink=sheet.ink | three),)), 0)
    assert flawless(replace(state, round=2, sheets=(replace(sheet, ink=sheet.ink | four),)), 0)


def test_multiplayer_endgame_counts_elimination_as_a_loss() -> None:
    """In solo an elimination at the end only stops the lines; with opponents it loses the game."""
    solo = _first_decision(4, 1)
    duo = _first_decision(4, 2)
    bot = make_bot("hard", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    bot.choose(GAME, solo, 0, Rng(0))
    assert bot.search.end_dead == 0.0 and bot.search.tie == 0.0
    assert bot.search.flaw < 0
    bot.choose(GAME, duo, 0, Rng(0))
    assert bot.search.end_dead == DEAD and bot.search.tie > 0
    assert bot.search.flaw == 0.0
    assert table_of(duo) is not None


def test_perfect_is_a_parameter() -> None:
    bot = make_bot("hard:perfect=-40", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    assert bot.search.w["perfect"] == -40.0
    with pytest.raises(ConfigError):
        make_bot("hard:misfit=-40", "foldris")  # an experiment's weight, removed
    state = _first_decision(6)
    assert bot.choose(GAME, state, 0, Rng(0)) in set(GAME.legal_actions(state, 0))


def test_the_flaw_term_is_off_when_the_stack_nears_the_top() -> None:
    """Chasing a clean sheet up to the top ends in elimination: with fewer than ``flaw_gap`` free rows over
    the highest column the first-flaw cost is switched off even while the sheet is flawless."""
    state = _first_decision(3)
    sheet = state.sheets[0]
    bot = make_bot("hard", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot) and bot.config.flaw_gap == 5
    # Round 3: 12 squares drawn. A tower of 8 in an empty column plus the 2x2 start square is flawless...
    column = next(c for c in range(8) if not (sheet.ink >> c) & 1)
    tower = sum(1 << (8 * r + column) for r in range(8))
    high = replace(state, round=3, sheets=(replace(sheet, ink=sheet.ink | tower),))
    assert flawless(high, 0)
    bot.choose(GAME, high, 0, Rng(0))
    assert bot.search.flaw == 0.0
    # ...while the same 12 squares kept low (a full bottom row under the start square) leave the term on.
    row1 = [c for c in range(8) if not (sheet.ink >> (8 + c)) & 1][:2]
    low_ink = sheet.ink | 0xFF | sum(1 << (8 + c) for c in row1)
    low = replace(state, round=3, sheets=(replace(sheet, ink=low_ink),))
    assert flawless(low, 0)
    bot.choose(GAME, low, 0, Rng(0))
    assert bot.search.flaw == bot.search.w["perfect"] < 0


def test_multiplayer_weights_and_search_are_separate() -> None:
    """``mp_NAME`` sets a weight for games with opponents only; there the search is one own ply deeper."""
    bot = make_bot("hard:mp_bonus=30,holes=-9", "foldris")
    assert isinstance(bot, FoldrisExpectimaxBot)
    assert bot.solo_search.w["bonus"] != 30.0 and bot.multi_search.w["bonus"] == 30.0
    assert bot.solo_search.w["holes"] == bot.multi_search.w["holes"] == -9.0
    with pytest.raises(ConfigError):
        make_bot("hard:mp_nonsense=1", "foldris")
    duo = _first_decision(8, 2)
    bot.choose(GAME, duo, 0, Rng(0))
    assert bot.search is bot.multi_search and bot.config.mp_deep == 2
    default = make_bot("hard", "foldris")
    assert isinstance(default, FoldrisExpectimaxBot)
    # A game tied on lines goes to the player with more bonus points left: they are worth more with opponents.
    assert default.multi_search.w["bonus"] > default.solo_search.w["bonus"]
    medium = make_bot("medium", "foldris")
    assert isinstance(medium, FoldrisExpectimaxBot) and medium.config.mp_deep == 1
