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


@pytest.mark.parametrize("game_id", ["forma", "quadefy", "toy"])
def test_cli_json_is_the_same_for_one_two_and_three_workers(game_id: str) -> None:
    """``simulate --json`` prints the same per-game results and summary whatever the worker count."""
    import json

    from typer.testing import CliRunner

    from polytable.cli import app

    outs = []
    for w in (1, 2, 3):
        r = CliRunner().invoke(
            app, ["simulate", game_id, "--games", "7", "--seed", "11", "--json", "--workers", str(w)]
        )
        assert r.exit_code == 0, r.output
        out = json.loads(r.stdout)
        del out["summary"]["games_per_second"]
        outs.append(out)
    assert outs[0] == outs[1] == outs[2]
    assert [g["seed"] for g in outs[0]["per_game"]] == list(range(11, 18))


def test_summary_without_per_game_results_is_the_same() -> None:
    """Workers that send back only sums (no per-game results asked for) give the summary bit for bit,
    also for games with shared wins (toy draws) and over batches of uneven size."""
    full = simulate("toy", 3, 41, ["random"], seed=4, workers=1, make_player=make_bot)
    assert any(len(g["winners"]) > 1 for g in full["per_game"])
    for w in (1, 2, 3):
        done: list[int] = []
        bare = simulate(
            "toy", 3, 41, ["random"], seed=4, workers=w, make_player=make_bot, per_game=False, on_progress=done.append
        )
        assert "per_game" not in bare and sum(done) == 41
        del bare["summary"]["games_per_second"]
        expect = dict(full["summary"])
        del expect["games_per_second"]
        assert bare["summary"] == expect
    wins = [0.0] * 3
    for g in full["per_game"]:
        for p in g["winners"]:
            wins[p] += 1 / len(g["winners"])
    assert full["summary"]["win_rate_by_seat"] == pytest.approx([x / 41 for x in wins])
    assert full["summary"]["mean_turns"] == sum(g["turns"] for g in full["per_game"]) / 41
