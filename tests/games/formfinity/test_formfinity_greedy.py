"""The lines goal's fast greedy (``greedy_place``, ``greedy_run``): the compiled kernel against the
pure-Python reference over random positions, and the run's contract (horizon, step limit, hand-back)."""

from __future__ import annotations

import pytest

from polytable.ai.formfinity import claimable_holes, greedy_place, greedy_run
from polytable.core import Game, Rng, get_game, pure_engine_forced
from polytable.games.formfinity import DRAW, GAME, OVER, PLACE, FormfinityState, setup_for, setup_of

from ._helpers import random_midgame, random_position

LINES: list[tuple[dict[str, object], int]] = [
    ({"variant": "1"}, 2),
    ({"variant": "1", "difficulty": "hard"}, 2),
    *[(o, p) for o, p in GAME.sample_configs() if o.get("variant") == "1" and p > 2],
]


def _position(options: dict[str, object], players: int, seed: int, moves: int) -> FormfinityState:
    return random_position(options, players, seed, moves, stream=11)


def _run(
    game: Game[FormfinityState, object], state: FormfinityState, me: int, seed: int, left_me: bool, steps: int
) -> tuple[object, ...]:
    rng = Rng(seed, 5)
    st, left, rest, done, holes = greedy_run(setup_of(game, state), state, me, rng, left_me, steps)
    return (st.__dict__, rng.state, left, rest, done, holes)


@pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")
def test_compiled_runs_equal_the_pure_ones() -> None:
    checked = handed_back = over = 0
    for k, (options, players) in enumerate(LINES):
        for seed in range(60):
            state = _position(options, players, 100 * k + seed, moves=(seed * 7) % 70)
            if state.phase == OVER:
                continue
            pick = Rng(seed, 3)
            me = pick.below(players)
            left_me = pick.below(2) == 1
            steps = 200 if seed % 3 else 1 + pick.below(6)
            compiled = _run(get_game("formfinity", "compiled"), state, me, seed, left_me, steps)
            pure = _run(get_game("formfinity", "pure"), state, me, seed, left_me, steps)
            assert compiled == pure, (options, players, seed)
            checked += 1
            handed_back += not compiled[4]
            over += compiled[0]["phase"] == OVER  # type: ignore[index]
    assert checked >= 150 and over >= 1 and handed_back >= 1


@pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")
def test_compiled_runs_equal_the_pure_ones_through_whole_games() -> None:
    # Played on from each hand-back (a claim choice) as the lookahead does, to the end of the game.
    for seed in range(6):
        state = random_midgame({"variant": "1"}, seed, moves=seed * 5)
        runs = []
        for engine in ("compiled", "pure"):
            game = get_game("formfinity", engine)
            rng, st, left, steps, out = Rng(seed), state, True, 10_000, []
            while st.phase != OVER and steps > 0:
                st, left, steps, done, holes = greedy_run(setup_of(game, st), st, 2, rng, left, steps)
                out.append((st.__dict__, rng.state, steps, done, holes))
                if not done:
                    cp = game.current_player(st)
                    st = game.apply(st, game.legal_actions(st).sample(rng), cp)
            runs.append((out, st.__dict__))
        assert runs[0] == runs[1]
        assert runs[0][1]["phase"] == OVER


def test_a_run_stops_at_my_next_draw() -> None:
    state = random_midgame({"variant": "1"}, 3, moves=10)
    assert state.phase == PLACE
    me = state.turn
    st, left, rest, done, holes = greedy_run(setup_for(state.config), state, me, Rng(1), False, 200)
    assert done and left and 0 < rest < 200
    assert holes == (0 if st.phase == OVER else claimable_holes(setup_for(st.config), st))
    assert st.phase == OVER or (st.phase == DRAW and st.turn == me)
    # One step: one placement, and the step limit ends the run.
    st, left, rest, done, _ = greedy_run(setup_for(state.config), state, me, Rng(1), False, 1)
    assert rest == 0 and done and st.owners[me] != state.owners[me]


def test_the_run_plays_the_greedy_place() -> None:
    state = random_midgame({"variant": "1"}, 4, moves=6)
    setup = setup_for(state.config)
    assert state.phase == PLACE
    pick = greedy_place(setup, state, state.turn, Rng(9))
    assert pick is not None
    st, _, _, _, _ = greedy_run(setup, state, state.turn, Rng(9), False, 1)
    assert st.owners[state.turn] == state.owners[state.turn] | pick[2]


@pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")
def test_the_ai_extension_runs_beside_the_compiled_kernel_only() -> None:
    # The run is the AI's own extension (it includes the game's kernel); the pure kernel is never handed to it.
    from polytable.ai.formfinity._native import compiled_greedy_run

    pytest.importorskip("polytable.ai.formfinity._cformfinity_greedy", reason="the AI's extension is not built")
    state = random_midgame({"variant": "1"}, 3, moves=10)
    compiled, pure = (setup_of(get_game("formfinity", e), state) for e in ("compiled", "pure"))
    got = compiled_greedy_run(compiled, state, state.turn, Rng(1), False, 200)
    assert got is not None and got[0].__dict__ == greedy_run(pure, state, state.turn, Rng(1), False, 200)[0].__dict__
    assert compiled_greedy_run(pure, state, state.turn, Rng(1), False, 200) is None
