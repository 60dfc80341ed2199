"""The lookahead's fast greedy replica and its horizon value for the lines goal (variant 1)."""

from __future__ import annotations

from games.formfinity._helpers import GAME, cells_mask, position
from polytable.ai import evaluator, make_bot
from polytable.ai.formfinity import WIN_TABLE, claimable_holes, fast_greedy_place, lines_win_value
from polytable.core import CHANCE, Rng
from polytable.games.formfinity import PLACE, Place, setup_for


def test_fast_greedy_picks_one_of_the_greedy_best_placements() -> None:
    greedy = make_bot("greedy", "formfinity")
    checked = agree = 0
    for seed in range(3):
        state = GAME.new_game({"variant": "1"}, seed=seed, players=2)
        setup = setup_for(state.config)
        rng = Rng(seed, 7)
        while not GAME.is_terminal(state):
            player = GAME.current_player(state)
            if player == CHANCE:
                state = GAME.apply(state, GAME.chance_outcome(state), CHANCE)
                continue
            if state.phase == PLACE:
                values = {
                    a: evaluator(GAME).action_value(GAME, state, a, player) for a in GAME.legal_actions(state, player)
                }
                top = max(values.values())
                pick = fast_greedy_place(setup, state, player, Rng(seed))
                assert pick is not None
                shape, bit, mask = pick
                y, x = divmod(bit, setup.S)
                assert mask == setup.place_mask(shape, x, y)
                checked += 1
                agree += values[Place(shape, x, y)] >= top - 1e-9
            state = GAME.apply(state, greedy.choose(GAME, state, player, rng), player)
    # The two documented shortcuts are rare: nearly every pick is one of the greedy's best.
    assert checked > 100 and agree >= 0.97 * checked


def test_fast_greedy_completes_a_line_and_avoids_leaving_one() -> None:
    state = position(drawn={0: "a2 b2 c2 d2", 1: "f2 g2 h2"}, card="#x1:-:f")
    setup = setup_for(state.config)
    pick = fast_greedy_place(setup, state, 0, Rng(1))
    assert pick is not None and pick[2] == cells_mask(state, "e2")
    # Six of eight on row 4 and the last element of the turn: a square on g4 or h4 would leave the
    # opponent a line to finish, which the greedy avoids.
    state = position(drawn={0: "a4 b4 c4 d4 e4 f4"}, card="#x1:-:f")
    pick = fast_greedy_place(setup, state, 0, Rng(1))
    assert pick is not None and pick[2] & cells_mask(state, "g4 h4") == 0


def test_win_value_follows_the_lines_and_stays_inside_the_result_scale() -> None:
    def value(mine: int, theirs: int) -> float:
        lines = tuple((0, 0, 15 * k) for k in range(mine)) + tuple((1, 0, 15 * (k + 5)) for k in range(theirs))
        state = position(drawn={0: "a1"}, lines=lines)
        return lines_win_value(GAME.setup(state), state, 0)

    values = {(m, o): value(m, o) for m in range(4) for o in range(4)}
    for m in range(4):
        for o in range(4):
            assert -10_000 < values[(m, o)] < 10_000
            if m < 3:
                assert values[(m + 1, o)] > values[(m, o)]
            if o < 3:
                assert values[(m, o + 1)] < values[(m, o)]
    assert all(row[k] < row[k - 1] for row in WIN_TABLE for k in range(1, 4))


def test_holes_count_only_lines_that_can_still_be_claimed() -> None:
    state = position(drawn={0: "a2 b2 c2 d2 e2 f2 g2"})
    assert claimable_holes(GAME.setup(state), state) == 1  # h2
    # The same row already holds a claimed horizontal line that overlaps the window: no hole (easy rules).
    setup = GAME.setup(state)
    claimed = position(drawn={0: "a2 b2 c2 d2 e2 f2 g2 h2 i2 j2 k2 l2 m2"}, lines=((0, 0, setup.S),))
    assert claimable_holes(setup, claimed) == 0
    higher = lines_win_value(setup, state, 0)
    assert higher > lines_win_value(setup, position(drawn={0: "a2 b2 c2 d2 e2 f2"}), 0)
