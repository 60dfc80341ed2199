"""Quadefy's ``hard`` and ``expert`` read their budget on one clock, ``wall`` or ``cpu``: the MCTS through
the clock the bot holds (a scripted one here, so no test depends on the machine's speed), the compiled
exact search through the same clock read in C."""

from __future__ import annotations

import threading
import time
from typing import Any

import pytest

from polytable.ai import make_bot
from polytable.ai.quadefy import QuadefyConfig, QuadefyHardBot, load_native, native_unavailable
from polytable.ai.quadefy._player import _native_flags, native_verdict
from polytable.core import ConfigError, Rng, get_game, pure_engine_forced
from polytable.games.quadefy import ACTIONS, ALL_BLOCKS, REACH

GAME = get_game("quadefy")

needs_native = pytest.mark.skipif(
    pure_engine_forced() or native_unavailable() is not None, reason="the compiled solver is not built"
)


class _Ticks:
    """A clock that advances ``step`` seconds a reading (a power of two: exact sums)."""

    def __init__(self, step: float) -> None:
        self.t = 100.0
        self.step = step
        self.readings = 0

    def __call__(self) -> float:
        self.t += self.step
        self.readings += 1
        return self.t


class _UnfinishedSolver:
    """Stands in for the compiled solver: records how it was asked, never finishes."""

    def __init__(self) -> None:
        self.lock = threading.RLock()
        self.calls: list[dict[str, Any]] = []
        self.depths: list[int] = []

    def clear(self) -> None:
        pass

    def solve(self, *args: Any, **kw: Any) -> tuple[int, int | None]:
        self.calls.append(kw)
        self.depths.append(args[4])  # occupied, hands, flags, then the position's depth
        return -1, None


def _midgame(plies: int = 4) -> Any:
    state = GAME.new_game(seed=4)
    rng = Rng(4)
    for _ in range(plies):
        p = GAME.current_player(state)
        state = GAME.apply(state, GAME.legal_actions(state, p).sample(rng), p)
    return state


def _think(bot: QuadefyHardBot, step: float, plies: int = 4) -> tuple[_UnfinishedSolver, _Ticks]:
    solver, ticks = _UnfinishedSolver(), _Ticks(step)
    bot._native = solver
    bot.clock = ticks
    state = _midgame(plies)
    player = GAME.current_player(state)
    assert bot.choose(GAME, state, player, Rng(1)) in GAME.legal_actions(state, player)
    return solver, ticks


@pytest.mark.parametrize("clock", ["wall", "cpu"])
def test_hard_spends_its_mcts_share_on_its_clock(clock: str) -> None:
    # 0.5 s a move, half for the exact search: 0.25 s of MCTS = 8 readings of 1/32 s after the start,
    # however long the iterations really take (60 s would pass first if the wall were read instead).
    bot = make_bot("hard:seconds=0.5,clock=" + clock, "quadefy")
    assert isinstance(bot, QuadefyHardBot)
    solver, ticks = _think(bot, 1 / 32)
    assert bot._mcts.last_iterations == 8 and ticks.readings == 9
    # The search is told the position's depth (4 blocks placed): its modes follow the depth.
    assert solver.calls == [{"max_seconds": 0.25, "cpu_clock": clock == "cpu", "dedup_plies": 5}]
    assert solver.depths == [4]
    # A slower clock, fewer iterations: the budget is what the clock says, not a count.
    bot = QuadefyHardBot(QuadefyConfig(seconds=0.5, clock=clock))
    _think(bot, 1 / 8)
    assert bot._mcts.last_iterations == 2


def test_the_default_clock_is_the_wall_and_others_are_refused() -> None:
    bot = QuadefyHardBot(QuadefyConfig(seconds=0.5))
    assert bot.clock is time.perf_counter and bot._mcts.config.clock == "wall" and not bot.cpu_clock
    assert QuadefyHardBot(QuadefyConfig(seconds=0.5, clock="cpu")).clock is time.thread_time
    with pytest.raises(ConfigError, match="clock"):
        make_bot("hard:clock=sundial", "quadefy")


def test_expert_spends_its_mcts_share_on_its_clock() -> None:
    pytest.importorskip("numpy")
    bot = make_bot("expert:seconds=1,solve_share=0.75,clock=cpu", "quadefy")
    assert isinstance(bot, QuadefyHardBot) and bot._mcts.config.clock == "cpu"
    solver, _ = _think(bot, 1 / 16)
    assert bot._mcts.last_iterations == 4  # 0.25 s at 1/16 s a reading
    assert solver.calls == [{"max_seconds": 0.75, "cpu_clock": True, "dedup_plies": 5}] and solver.depths == [4]


def test_expert_gives_the_exact_search_its_time_from_the_fifth_placement() -> None:
    pytest.importorskip("numpy")
    from polytable.ai.quadefy._value import QuadefyExpertBot

    for plies, exact in ((4, 0.2), (5, 0.9), (6, 0.9)):
        bot = make_bot("expert:seconds=1,clock=cpu", "quadefy")
        # By default the leaves are random playouts (the shipped network lost at 0.5 s a move).
        assert isinstance(bot, QuadefyHardBot) and not isinstance(bot, QuadefyExpertBot) and bot.name == "expert"
        solver, _ = _think(bot, 1 / 64, plies)
        assert solver.calls[0]["max_seconds"] == pytest.approx(exact) and solver.depths == [plies]
        assert bot._mcts.config.seconds == pytest.approx(1 - exact)
    # hard keeps one share throughout; the split is refused outside (0, 1) like solve_share.
    assert QuadefyConfig().share(9) == 0.5 == QuadefyConfig(late_share=0.9).share(4)
    assert QuadefyConfig(late_share=0.9, late_ply=3).share(3) == 0.9
    for bad in ({"late_share": 1.0}, {"late_share": 0.0}, {"late_ply": -1}):
        with pytest.raises(ConfigError):
            QuadefyConfig(**bad)  # type: ignore[arg-type]


@needs_native
def test_the_compiled_solver_reads_the_clocks_python_reads() -> None:
    native = load_native()
    # The same clock sources: a reading in C falls between two readings in Python.
    before = time.thread_time()
    inside = native.now(cpu_clock=True)
    assert before <= inside <= time.thread_time()
    before = time.monotonic()
    inside = native.now()
    assert before <= inside <= time.monotonic()


@needs_native
def test_the_compiled_solver_stops_on_a_cpu_budget() -> None:
    # The whole game is far beyond a few milliseconds: without its deadline the search would not return.
    native = load_native()
    with native.lock:
        _native_flags(native, REACH)
        verdict, best = native.solve(0, ALL_BLOCKS, ALL_BLOCKS, REACH, 0, max_seconds=0.01, cpu_clock=True)
    assert (verdict, best) == (-1, None)


@pytest.mark.parametrize("share", ["0", "1", "1.5"])
def test_a_share_that_leaves_a_search_unlimited_is_refused(share: str) -> None:
    """A share of 0 or 1 would give one search 0 s, which it reads as no limit: refused, as is one past 1."""
    for level in ("hard", "expert"):
        with pytest.raises(ConfigError, match="solve_share"):
            make_bot(f"{level}:seconds=0.5,solve_share={share}", "quadefy")


@needs_native
def test_hard_s_exact_search_at_the_position_s_depth_gives_the_verdict_of_a_search_from_depth_0() -> None:
    # The depth changes how the search works (its keys, ordering and table), never what it proves.
    native = load_native()
    for seed in range(6):
        state = GAME.new_game(seed=seed)
        rng = Rng(seed)
        while len(state.moves) < 7 + seed % 3 and not GAME.is_terminal(state):
            p = GAME.current_player(state)
            state = GAME.apply(state, GAME.legal_actions(state, p).sample(rng), p)
        if GAME.is_terminal(state):
            continue
        p = GAME.current_player(state)
        verdict, best = native_verdict(native, state, p, 0.0, False)
        with native.lock:
            _native_flags(native, state.flags)
            native.clear()
            me, opp = state.remaining[p], state.remaining[1 - p]
            assert native.solve(state.occupied, me, opp, state.flags, 0)[0] == verdict >= 0
        if verdict == 1:
            assert best is not None
            after = GAME.apply(state, ACTIONS[best], p)
            q = 1 - p
            with native.lock:
                native.clear()
                assert native.solve(after.occupied, after.remaining[q], after.remaining[p], after.flags, 0)[0] == 0
