"""Quadefy bots: ``greedy`` (mobility plus a small exact endgame), the exact ``solver``, and ``hard``.

``greedy`` scores each placement by the mobility difference after it (own placements minus the
opponent's, a won game worth 1000), computed straight on bit sets. Mobility alone lost about one game in
eight to ``random``: it cannot see that a reply may leave it without a move, which is how Quadefy is lost.
So once the position is small (at most ``endgame_moves`` legal placements) it adds two cheap checks:

* a short exact search (:func:`._solver.solve_position`, at most ``solve_nodes``
  positions, its exact table kept between moves): a proven winning move is played;
* otherwise it avoids *refutable* moves: a placement after which the opponent has a reply that leaves
  it with no placement at all is skipped when another candidate (taken in mobility order) has none.

``solver`` runs the exact solver with a larger node budget and falls back to greedy when it does not
finish. ``hard`` (2 s by default) spends part of its time on an exact search (the compiled solver of
:mod:`polytable.ai._native` when the extension is built, else the Python one) and plays a proven win;
when the search does not finish, or proves the position lost, it plays the move of the generic MCTS
(greedy priors) with the rest of its time. Both parts read their time on one clock: the wall clock, or
with ``clock=cpu`` this thread's CPU time (the compiled solver reads the same clock in C), so that two
players measured on a busy machine get the same thinking.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Any

from ...core import ConfigError, Game, Rng
from ...games.quadefy import (
    ACTIONS,
    PLACEMENTS,
    Placement,
    QuadefyKernel,
    QuadefyState,
    kernel_of,
    moves_of,
)
from .._bots import Bot
from .._clock import budget_clock
from .._mcts import MCTSBot, MCTSConfig
from ._evaluator import mobility_after
from ._solver import solve_position

__all__ = ["PLAYERS", "QuadefyConfig", "QuadefyGreedyBot", "QuadefyHardBot", "QuadefySolverBot", "greedy_choice"]

_TABLE_LIMIT = 500_000
"""Exact table entries kept between moves by one bot (emptied when larger)."""


def _refutable(occ: int, me: int, opp: int, flags: int, kernel: QuadefyKernel) -> bool:
    """Whether the opponent (hand ``opp``) has a placement after which hand ``me`` cannot move."""
    return any(not kernel.any(occ | PLACEMENTS[q].mask, me, flags) for q in moves_of(occ, opp, flags))


def greedy_choice(
    state: QuadefyState,
    player: int,
    rng: Rng,
    solve_nodes: int = 0,
    endgame_moves: int = 0,
    table: dict[int, bool] | None = None,
    kernel: QuadefyKernel | None = None,
) -> int:
    """The placement id with the best mobility difference after it (ties broken with ``rng``); with
    ``endgame_moves`` > 0, the endgame checks of the module docstring once the position is that small.
    ``kernel``: the game object's (``kernel_of(game)``; default: the pure one)."""
    kernel = kernel or QuadefyKernel()
    occ, flags = state.occupied, state.flags
    me, opp = state.remaining[player], state.remaining[1 - player]
    best: list[int] = []
    scored: list[tuple[int, int]] = []
    best_value = -(10**9)
    for pid in moves_of(occ, me, flags):
        value = mobility_after(kernel, occ, me, opp, flags, pid)
        scored.append((value, pid))
        if value > best_value:
            best_value, best = value, [pid]
        elif value == best_value:
            best.append(pid)
    if not best:
        raise ConfigError(f"Quadefy: player {player + 1} has no legal placement")
    choice = best[rng.below(len(best))] if len(best) > 1 else best[0]
    if best_value == 1000 or len(scored) > endgame_moves:
        return choice
    if solve_nodes > 0:
        if table is not None and len(table) > _TABLE_LIMIT:
            table.clear()
        result = solve_position(occ, me, opp, flags, solve_nodes, table, kernel)
        if result.solved and result.best is not None:
            return result.best
    scored.sort(key=lambda vp: -vp[0])  # stable: id order within a value
    for pid in [choice] + [pid for _, pid in scored if pid != choice]:
        p = PLACEMENTS[pid]
        if not _refutable(occ | p.mask, me & ~(1 << p.block), opp, flags, kernel):
            return pid
    return choice


class QuadefyGreedyBot:
    """Mobility with the endgame checks (see the module docstring)."""

    name = "greedy"

    def __init__(self, solve_nodes: int = 600, endgame_moves: int = 80) -> None:
        self.solve_nodes = solve_nodes
        self.endgame_moves = endgame_moves
        self._tables: dict[int, dict[int, bool]] = {}

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Placement:
        table = self._tables.setdefault(state.flags, {})
        return ACTIONS[greedy_choice(state, player, rng, self.solve_nodes, self.endgame_moves, table, kernel_of(game))]


class QuadefySolverBot:
    """Perfect play when the exact search fits in ``max_nodes`` expansions; greedy otherwise."""

    name = "solver"

    def __init__(self, max_nodes: int = 4000) -> None:
        self.max_nodes = max_nodes
        self._tables: dict[int, dict[int, bool]] = {}
        """Transposition tables kept between moves, one per option set (their entries are exact)."""
        self.last: tuple[bool, bool, int] | None = None
        """(solved, win, nodes) of the last search, for tests and curious users."""

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Placement:
        me, opp = state.remaining[player], state.remaining[1 - player]
        table = self._tables.setdefault(state.flags, {})
        if len(table) > 2_000_000:
            table.clear()
        kernel = kernel_of(game)
        result = solve_position(state.occupied, me, opp, state.flags, self.max_nodes, table, kernel)
        self.last = (result.solved, result.win, result.nodes)
        if result.solved and result.best is not None:
            return ACTIONS[result.best]
        return ACTIONS[greedy_choice(state, player, rng, kernel=kernel)]


@dataclass(frozen=True)
class QuadefyConfig:
    """``hard``: ``seconds`` a move on ``clock`` (``wall``, or ``cpu``: this thread's CPU time),
    ``solve_share`` of them for the exact search (the rest for MCTS), and ``late_share`` instead from the
    ``late_ply``-th placement on (none: ``solve_share`` throughout); ``native`` uses the compiled solver
    when it can be built (false forces the Python one, far fewer positions a second, on a node budget
    that follows ``seconds``: docs/benchmarks/design-figures.md).

    Why two shares: games between these players are decided at plies 5 and 6, where a full proof takes
    about 0.1 s of CPU and one a few plies earlier far more than a move's budget
    (docs/benchmarks/2026-12-05-quadefy-decided.md). ``expert`` spends its exact search's time there."""

    seconds: float = 2.0
    solve_share: float = 0.5
    native: bool = True
    clock: str = "wall"
    late_share: float | None = None
    late_ply: int = 5

    def __post_init__(self) -> None:
        # Both ends are refused: a share of 0 or 1 leaves one of the two searches a budget of 0 s, which
        # both read as "no limit", so a move would not keep to its seconds.
        shares = (self.solve_share,) if self.late_share is None else (self.solve_share, self.late_share)
        if self.seconds <= 0 or not all(0.0 < s < 1.0 for s in shares):
            raise ConfigError("seconds must be positive and solve_share (and late_share) strictly between 0 and 1")
        if self.late_ply < 0:
            raise ConfigError("late_ply must be 0 or more")
        budget_clock(self.clock)

    def share(self, ply: int) -> float:
        """The exact search's share of the time at a position with ``ply`` blocks placed."""
        return self.solve_share if self.late_share is None or ply < self.late_ply else self.late_share


class QuadefyHardBot:
    """Exact search first (``solve_share`` of the time), MCTS with the rest (see the module docstring)."""

    name = "hard"

    def __init__(self, config: QuadefyConfig | None = None) -> None:
        self.config = config = config or QuadefyConfig()
        self.seconds = config.seconds
        self.solve_share = config.solve_share
        self.cpu_clock = config.clock == "cpu"
        self.clock = budget_clock(config.clock)
        """What the MCTS reads its time on (a test may put a scripted clock here; the compiled solver
        reads the same clock in C)."""
        self._mcts = MCTSBot(self._mcts_config(), name="hard")
        self._native: Any = None
        if config.native:
            from .._native import load

            try:
                self._native = load()
            except OSError:
                self._native = None
        self._tables: dict[int, dict[int, bool]] = {}
        self.last: tuple[int, int | None] | None = None
        """(1 win / 0 loss / -1 unfinished, winning placement id) of the last exact search."""

    def _mcts_config(self) -> MCTSConfig:
        seconds = self.seconds * (1 - self.solve_share)
        return MCTSConfig(iterations=None, seconds=seconds, use_prior=True, clock=self.config.clock)

    def _solve(self, state: QuadefyState, player: int, kernel: QuadefyKernel) -> tuple[int, int | None]:
        me, opp = state.remaining[player], state.remaining[1 - player]
        budget = self.seconds * self.config.share(len(state.moves))
        if self._native is not None:
            return native_verdict(self._native, state, player, budget, self.cpu_clock)
        table = self._tables.setdefault(state.flags, {})
        if len(table) > 2_000_000:
            table.clear()
        # The node budget follows the Python search's speed (docs/benchmarks/design-figures.md).
        result = solve_position(state.occupied, me, opp, state.flags, max(200, int(6000 * budget)), table, kernel)
        if not result.solved:
            return -1, None
        return int(result.win), result.best

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        self.last = self._solve(state, player, kernel_of(game))
        verdict, best = self.last
        if verdict == 1 and best is not None:
            return ACTIONS[best]
        self._mcts.clock = self.clock
        if self.config.late_share is not None:
            seconds = self.seconds * (1 - self.config.share(len(state.moves)))
            self._mcts.config = replace(self._mcts.config, seconds=seconds)
        return self._mcts.choose(game, state, player, rng)


def native_verdict(
    native: Any, state: QuadefyState, player: int, seconds: float, cpu_clock: bool
) -> tuple[int, int | None]:
    """The compiled exact search of ``state`` for ``player`` (the player to move) within ``seconds`` (on the CPU clock
    with ``cpu_clock``): (1 win / 0 loss / -1 unfinished, a winning placement id or None).

    The search is told the position's depth (blocks placed). Its modes follow the depth from the empty cube
    (canonical keys, reply-count ordering and the table near the start; cheap plain keys and no table deep
    down), so a position five blocks deep searched as if it were the start pays for the near-start modes all
    the way down: 3-4x the CPU for the same verdict (docs/benchmarks/2026-12-05-quadefy-decided.md)."""
    ply = len(state.moves)
    me, opp = state.remaining[player], state.remaining[1 - player]
    with native.lock:
        _native_flags(native, state.flags)
        verdict: tuple[int, int | None] = native.solve(
            state.occupied, me, opp, state.flags, ply, max_seconds=seconds, cpu_clock=cpu_clock, dedup_plies=ply + 1
        )
        return verdict


_NATIVE_FLAGS: list[int] = [-1]


def _native_flags(native: Any, flags: int) -> None:
    """The native table's keys do not include the rule options: empty it when they change."""
    if _NATIVE_FLAGS[0] != flags:
        native.clear()
        _NATIVE_FLAGS[0] = flags


def _hard(**kw: Any) -> QuadefyHardBot:
    return QuadefyHardBot(QuadefyConfig(**kw))


PLAYERS: dict[str, Callable[..., Bot]] = {"greedy": QuadefyGreedyBot, "solver": QuadefySolverBot, "hard": _hard}
"""Quadefy's own players by name (the registry's table points here)."""
