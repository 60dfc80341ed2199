"""Simulation: the random-AI shortcut (Game.playout) and the worker processes change no game's result."""

from __future__ import annotations

from typing import Any

import pytest

from polytable.ai import make_bot
from polytable.core import all_games
from polytable.match import simulate
from polytable.match._simulate import _one_game

from . import toy  # noqa: F401 (registers the toy game, also in forked workers)


@pytest.mark.parametrize("game_id", sorted(g.spec.id for g in all_games()))
def test_playout_shortcut_equals_a_match_of_random_bots(game_id: str) -> None:
    """The same scores, winners and turns with and without the match (records force the match path)."""
    game = next(g for g in all_games() if g.spec.id == game_id)
    seats = ("random",) * game.spec.default_players
    options: dict[str, Any] = dict(game.spec.config(None, len(seats)))
    for seed in range(3):
        fast, _ = _one_game((game_id, seats, options, seed, False, make_bot))
        slow, record = _one_game((game_id, seats, options, seed, True, make_bot))
        assert fast == slow
        assert record is not None and record["seed"] == seed


def test_workers_give_the_same_per_game_results() -> None:
    one = simulate("forma", 4, 12, ["random"], seed=5, workers=1, make_player=make_bot)
    two = simulate("forma", 4, 12, ["random"], seed=5, workers=2, make_player=make_bot)
    assert one["per_game"] == two["per_game"]
    assert [g["seed"] for g in two["per_game"]] == list(range(5, 17))
    seen: list[int] = []
    mixed = simulate(
        "toy",
        2,
        9,
        ["greedy", "random"],
        seed=2,
        workers=2,
        on_game=lambda i, r, rec: seen.append(i),
        make_player=make_bot,
    )
    assert (
        mixed["per_game"]
        == simulate("toy", 2, 9, ["greedy", "random"], seed=2, workers=1, make_player=make_bot)["per_game"]
    )
    assert seen == list(range(9))


def test_records_come_back_from_the_workers() -> None:
    got: list[dict[str, Any] | None] = []
    simulate(
        "quadefy",
        2,
        2,
        ["random"],
        seed=1,
        workers=2,
        records=True,
        on_game=lambda i, r, rec: got.append(rec),
        make_player=make_bot,
    )
    assert len(got) == 2 and all(r is not None and r["game"] == "quadefy" for r in got)


def test_bad_worker_count_is_refused() -> None:
    with pytest.raises(ValueError, match="at least 1"):
        simulate("forma", 2, 2, ["random"], workers=0, make_player=make_bot)


def test_arena_over_workers_matches_one_process() -> None:
    from polytable.ai import arena

    one = arena("toy", ["random", "greedy"], 6, seed=3, workers=1)
    two = arena("toy", ["random", "greedy"], 6, seed=3, workers=2)
    assert one == two


def test_batched_random_games_equal_matches_of_random_bots() -> None:
    """Quadefy's ``random_games`` batches (over batch boundaries and workers) give every game's match result."""
    opts: dict[str, Any] = {"stability": True}
    one = simulate("quadefy", 2, 1003, ["random"], opts, seed=7, workers=1, make_player=make_bot)
    two = simulate("quadefy", 2, 1003, ["random"], opts, seed=7, workers=2, make_player=make_bot)
    assert one["per_game"] == two["per_game"] and len(one["per_game"]) == 1003
    options = dict(one["config"]["options"])
    for i in (0, 499, 500, 1002):  # records force a match of random bots
        slow, record = _one_game(("quadefy", ("random", "random"), options, 7 + i, True, make_bot))
        assert record is not None and one["per_game"][i] == slow
