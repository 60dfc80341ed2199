"""FORMFINITY's ``hard`` and ``medium`` (a one-turn lookahead with the expectation over the next cards):
legal, seeded, bounded by their sample counts in these tests, and sensible in constructed positions."""

from __future__ import annotations

import pytest

from games.formfinity._helpers import GAME, cells_mask, position, random_midgame
from polytable.ai import make_bot
from polytable.ai.formfinity import MAX_SCALE, FormfinityConfig, FormfinityLookahead, fits
from polytable.core import Rng
from polytable.games.formfinity import FormfinityState


def _midgame(options: dict[str, object], seed: int, moves: int) -> FormfinityState:
    return random_midgame(options, seed, moves)


def test_levels_are_the_lookahead_with_their_budgets() -> None:
    hard, medium = make_bot("hard", "formfinity"), make_bot("medium", "formfinity")
    assert isinstance(hard, FormfinityLookahead) and isinstance(medium, FormfinityLookahead)
    assert hard.seconds == 2.0 and medium.seconds == 0.25
    lines, areas = GAME.new_game({"variant": "1"}, seed=1), GAME.new_game({"variant": "2"}, seed=1)
    assert hard._plan(lines) == (48, 640, 4) and hard._plan(areas) == (12, 96, 8)  # per goal
    assert medium._plan(lines)[:2] == (6, 16)


def test_the_lines_goal_sees_a_win_with_the_later_elements_of_the_card() -> None:
    # Two flat dominoes to place and a12-d12 drawn: e12-f12 then g12-h12 completes the fourth line and wins.
    # The first domino leaves six of eight, which the greedy's one-ply value rates like 150 other
    # placements; the tie-break (building towards a line while elements follow) and the playouts find it.
    state = position(drawn={0: "a12 b12 c12 d12", 1: "a1 b1 c1"}, card="##x2:-:f", lines=((0, 0, 0),) * 3)
    bot = FormfinityLookahead(FormfinityConfig(seconds=60.0, samples=4, first=2, batch=2))
    action = bot.choose(GAME, state, 0, Rng(3))
    assert GAME.setup(state).place_mask(action.shape, action.x, action.y) in (
        cells_mask(state, "e12 f12"),
        cells_mask(state, "g12 h12"),
    )


@pytest.mark.parametrize("variant", ["1", "2", "3", "4"])
def test_moves_are_legal_and_replay_for_a_seed(variant: str) -> None:
    state = _midgame({"variant": variant}, 4, 3)
    if GAME.is_terminal(state):
        pytest.skip("the random opening ended the game")
    player = GAME.current_player(state)
    bot = FormfinityLookahead(FormfinityConfig(seconds=60.0, width=3, samples=4, batch=2))
    first = bot.choose(GAME, state, player, Rng(5))
    assert first in GAME.legal_actions(state, player)
    assert bot.last_playouts <= 3 * 4  # bounded by width x samples, not by the clock
    again = FormfinityLookahead(FormfinityConfig(seconds=60.0, width=3, samples=4, batch=2)).choose(
        GAME, state, player, Rng(5)
    )
    assert again == first


def test_it_completes_the_line() -> None:
    # a2-d2 and f2-h2 are drawn: a square on e2 completes a line of eight.
    state = position(drawn={0: "a2 b2 c2 d2", 1: "f2 g2 h2"}, card="#x1:-:f")
    action = FormfinityLookahead(FormfinityConfig(seconds=60.0, width=4, samples=4)).choose(GAME, state, 0, Rng(2))
    assert GAME.setup(state).place_mask(action.shape, action.x, action.y) == cells_mask(state, "e2")


def test_the_schedule_scales_with_what_fits_in_the_budget() -> None:
    # 48 candidates: 4 samples, then 8 a round while halving to 2, 640 at most: 1,760 playouts.
    assert fits(1.76, 1e-3, 48, 640, 4, 8) == 1
    assert fits(1.0, 1e-3, 48, 640, 4, 8) == 1
    assert fits(5 * 1.76 + 1e-6, 1e-3, 48, 640, 4, 8) == 5
    assert fits(1e6, 1e-3, 48, 640, 4, 8) == MAX_SCALE


class _Ticks:
    """A clock that advances ``step`` seconds a reading: a decision's pace without the machine's."""

    def __init__(self, step: float) -> None:
        self.t = 0.0
        self.step = step

    def __call__(self) -> float:
        self.t += self.step
        return self.t


def _decide(step: float, **kw: object) -> tuple[object, int]:
    state = _midgame({"variant": "1"}, 5, 16)
    bot = FormfinityLookahead(FormfinityConfig(seconds=0.1, **kw))  # type: ignore[arg-type]
    bot.clock = _Ticks(step)
    action = bot.choose(GAME, state, state.turn, Rng(3))
    return action, bot.last_playouts


def test_a_fast_pace_scales_the_samples_and_a_slow_one_changes_nothing() -> None:
    # Two clock readings a playout: 2e-5 s a playout, the schedule (at most 1,760) fits 0.1 s 2-3 times.
    _, capped = _decide(1e-5, scale=False)
    _, scaled = _decide(1e-5)
    assert capped <= 1_760 and scaled > 2 * capped
    # At 1e-4 s a reading it fits under twice: the same playouts and the same choice.
    assert _decide(1e-4) == _decide(1e-4, scale=False)
    # A sample count given is a cap (medium keeps its 16).
    assert _decide(1e-5, samples=16)[1] == _decide(1e-5, samples=16, scale=False)[1]
