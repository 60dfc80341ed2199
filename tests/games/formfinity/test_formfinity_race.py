"""Variants 3 and 4 end with a winner: small seeded samples of whole games (the full figures, over
hundreds of games, are in docs/games/formfinity.md with the commands that produce them)."""

from __future__ import annotations

import pytest

from polytable.ai import make_bot
from polytable.core import get_game
from polytable.games.formfinity import TEMPLATES, parse_template
from polytable.match import play_game

from ._helpers import GAME, position

SEEDS = range(8)


def _winners(variant: str, seats: list[str], seed: int) -> tuple[int, ...]:
    players = [make_bot(name, "formfinity") for name in seats]
    match = play_game(get_game("formfinity"), players, {"variant": variant}, seed)
    assert GAME.is_terminal(match.state)
    return tuple(GAME.winners(match.state))


@pytest.mark.parametrize("variant", ["3", "4"])
def test_greedy_games_have_one_winner_and_both_seats_win(variant: str) -> None:
    results = [_winners(variant, ["greedy", "greedy"], seed) for seed in SEEDS]
    assert all(len(w) == 1 for w in results), results
    assert {w[0] for w in results} == {0, 1}, results


@pytest.mark.parametrize("variant", ["3", "4"])
def test_greedy_beats_random(variant: str) -> None:
    won = 0
    for seed in SEEDS:
        seats = ["greedy", "random"] if seed % 2 == 0 else ["random", "greedy"]
        won += sum(1 for p in _winners(variant, seats, seed) if seats[p] == "greedy")
    assert won >= 6, won


def test_variant_4_has_an_odd_count_of_numbers_so_a_finished_game_cannot_tie() -> None:
    numbers = parse_template(TEMPLATES["4"]).numbers
    assert len(numbers) == 11 and len(numbers) % 2 == 1
    # Ten numbers shared 5-5: whoever covers the 11 (on e12) wins 6-5.
    state = position({"variant": "4"}, drawn={0: "e11"}, card="#x1:-:f", numbers=(0, 1) * 5)
    state = GAME.apply_text(state, "e12")
    assert GAME.is_terminal(state) and state.numbers[-1] == 0
    assert GAME.winners(state) == (0,) and GAME.scores(state) == (6.0, 5.0)


def test_variant_3_template_has_room_round_both_black_squares() -> None:
    t = parse_template(TEMPLATES["3"])
    stars = t.cells("star")
    assert len(stars) == 2
    for x, y in stars:  # every square within two of a black square is free: there is always a way in
        around = [(x + dx, y + dy) for dx in range(-2, 3) for dy in range(-2, 3) if (dx, dy) != (0, 0)]
        assert all(t.kind(cx, cy) == "free" for cx, cy in around)
