"""Forma's ``hard`` and ``medium`` (a two-ply lookahead over the greedy's candidates): legal, seeded,
bounded by their width rather than the clock in these tests, and sensible in constructed positions."""

from __future__ import annotations

from games.forma.forma_helpers import GAME, bits_of, new, put, with_stock
from polytable.ai import make_bot
from polytable.ai.forma import FormaConfig, FormaLookahead, best_bonus
from polytable.core import Rng
from polytable.games.forma import Fill, FormaState, Place


def _midgame(seed: int, moves: int) -> FormaState:
    # The house rules (a random set-up, no touch-move): every action is a placement the lookahead searches.
    state = GAME.new_game({"placement": "random", "touch_move": False}, seed=seed, players=2)
    rng = Rng(seed, 9)
    for _ in range(moves):
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
    return state


def _cells(state: object, action: Place) -> int:
    from polytable.games import forma as P

    tb = P.tables(state.size)  # type: ignore[attr-defined]
    g = P.ORIENT_GK[action.piece * 8 + action.orient]
    top = state.size - 1  # type: ignore[attr-defined]
    return int(tb.masks[g] << ((top - action.row) * tb.stride + action.col - P.ORIENT_REF[g]))


def test_levels_are_the_lookahead_with_their_budgets() -> None:
    hard, medium = make_bot("hard", "forma"), make_bot("medium", "forma")
    assert isinstance(hard, FormaLookahead) and isinstance(medium, FormaLookahead)
    assert hard.seconds == 2.0 and medium.seconds == 0.25 and medium.config.width < hard.config.width
    assert hard.bridges and hard.config.rollouts == 6 and not medium.bridges and not medium.config.rollouts
    assert make_bot("hard:seconds=0.5,width=3", "forma").config.width == 3  # type: ignore[attr-defined]


def test_moves_are_legal_and_replay_for_a_seed() -> None:
    bot = FormaLookahead(FormaConfig(seconds=60.0, width=3))
    for seed, moves in ((1, 6), (2, 30)):
        state = _midgame(seed, moves)
        player = GAME.current_player(state)
        first = bot.choose(GAME, state, player, Rng(5))
        assert first in GAME.legal_actions(state, player)
        assert bot.last_searched == 3  # the width, not the clock, bounded the search
        assert FormaLookahead(FormaConfig(seconds=60.0, width=3)).choose(GAME, state, player, Rng(5)) == first


def test_it_takes_the_tower_when_it_can() -> None:
    # The tower at j10 with three sides filled: the last side scores 50 for whoever fills it.
    state = put(new(players=2, setup="tower j10"), 1, "i10 k10 j11", turn=0)
    state = with_stock(state, 0, {"1": 1, "I5": 1})
    action = FormaLookahead(FormaConfig(seconds=60.0, width=4)).choose(GAME, state, 0, Rng(1))
    assert _cells(state, action) & bits_of(state, "j9")


def test_the_reply_sees_the_bonus_a_move_leaves() -> None:
    # The opponent holds single squares only. a1's left and bottom are the edge and b1 is filled: a square
    # on a2 encloses it (10 points); on the open board no single square closes anything.
    state = with_stock(put(new(players=2), 0, "b1", turn=1), 1, {"1": 2})
    assert best_bonus(state, 1, 4000) == 10
    assert best_bonus(with_stock(new(players=2), 1, {"1": 2}), 1, 4000) == 0
    # With a V tromino any board corner can be closed (its two sides at once).
    assert best_bonus(with_stock(new(players=2), 1, {"V3": 1}), 1, 4000) == 10
    # The lookahead prefers the enclosure itself to leaving it to the opponent.
    state = with_stock(put(new(players=2), 1, "b1", turn=0), 0, {"1": 2, "I5": 1})
    action = FormaLookahead(FormaConfig(seconds=60.0, width=6)).choose(GAME, state, 0, Rng(3))
    after = GAME.apply(state, action, 0)
    assert after.scores[0] >= 11  # the square on a2 (1) and the marker on a1 (10)


def test_the_default_rules_set_up_then_touch_move_are_played_legally() -> None:
    state = GAME.new_game(seed=4, players=2)  # the starting player sets up; touch-move is on
    bot = FormaLookahead(FormaConfig(seconds=60.0, width=2))
    assert bot.choose(GAME, state, 0, Rng(6)) == Fill()  # the set-up is left to chance
    assert make_bot("greedy", "forma").choose(GAME, state, 0, Rng(6)) == Fill()
    state = GAME.apply(state, Fill(), 0)
    while GAME.is_chance(state):
        state = GAME.apply_chance(state)
    assert state.obstacles.bit_count() == 10 and state.tower and not state.placing
    for _ in range(4):  # pick, place, pick, place
        player = GAME.current_player(state)
        action = bot.choose(GAME, state, player, Rng(6))
        assert action in GAME.legal_actions(state, player)
        state = GAME.apply(state, action, player)
    assert sum(state.scores) > 0


def test_hard_plays_out_its_candidates_under_touch_move() -> None:
    """The default rules have touch-move: a playout turn is then a pick and a placement (``hard``'s playouts
    once offered picks to the placement evaluation and crashed)."""
    state = GAME.new_game(seed=0, players=2)
    state = GAME.apply(state, Fill(), 0)
    while GAME.is_chance(state):
        state = GAME.apply_chance(state)
    bot = FormaLookahead(FormaConfig(seconds=60.0, width=3, bridges=True, rollouts=3, depth=3))
    for _ in range(4):  # pick, place, pick, place
        player = GAME.current_player(state)
        action = bot.choose(GAME, state, player, Rng(2))
        assert action in GAME.legal_actions(state, player)
        state = GAME.apply(state, action, player)
    assert sum(state.scores) > 0
