"""``polytable solve quadefy --native``: the whole-game search of :mod:`._fullsolve` on the C solver.

The driver is the same as the pure-Python one (first-move symmetry classes in order of Player 2's
replies, each searched until one wins for Player 1 or all are refuted), and it returns the same
:class:`._fullsolve.SolveReport`, so the command prints both alike. The canonical
keys are the Python keys, so a checkpoint file written by either solver is read by the other.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping

from ...core import get_game
from ...games.quadefy import ALL_BLOCKS, PLACEMENTS, kernel_of
from .._native import load
from ._fullsolve import PERSIST_PLIES, FullSolver, RootMove, SolveReport

__all__ = ["DEFAULT_TABLE_LOG2", "solve_game_native"]

DEFAULT_TABLE_LOG2 = 26
"""2^26 entries of 16 bytes: a 1 GiB transposition table."""


def solve_game_native(
    flags: int,
    max_seconds: float | None = None,
    known: Mapping[int, bool] | None = None,
    report: Callable[[RootMove], None] | None = None,
    step: Callable[[RootMove], None] | None = None,
    on_record: Callable[[int, bool], None] | None = None,
    table_log2: int = DEFAULT_TABLE_LOG2,
) -> SolveReport:
    """Solve Quadefy from the empty cube on the compiled search (arguments as ``_fullsolve.solve_game``)."""
    native = load()
    t0 = time.monotonic()
    c0 = time.process_time()
    with native.lock:
        native.set_table_size(table_log2)
        native.clear()
        native.reset_stats()
        for key, value in (known or {}).items():
            native.put(key, value)
        roots = [
            RootMove(pid, size, replies)
            for replies, pid, size, _ in FullSolver(flags, kernel=kernel_of(get_game("quadefy"))).root_moves(flags)
        ]
        # The limit counts search time: allocating a large table and listing the first moves come first.
        deadline = None if max_seconds is None else time.monotonic() + max_seconds
        winner: int | None = None
        timed_out = False
        path: list[tuple[int, int, int]] = []
        for rm in roots:
            p = PLACEMENTS[rm.pid]
            rest = ALL_BLOCKS & ~(1 << p.block)
            start_nodes, start_t = native.stats()["nodes"], time.monotonic()

            def progress(ply: int, done: int, total: int, rm: RootMove = rm) -> None:
                if ply == 1:
                    rm.refuted, rm.reply_classes = done, total
                    if step is not None:
                        step(rm)

            left = None if deadline is None else deadline - time.monotonic()
            if left is not None and left <= 0:
                result = -1
            else:
                result, _ = native.solve(
                    p.mask,
                    ALL_BLOCKS,
                    rest,
                    flags,
                    1,
                    use_table=True,
                    max_seconds=left if left is not None else None,
                    persist_plies=PERSIST_PLIES,
                    on_record=on_record,
                    on_progress=progress,
                )
            rm.nodes += native.stats()["nodes"] - start_nodes
            rm.seconds += time.monotonic() - start_t
            if result < 0:
                timed_out = True
                path = native.path()
                if report is not None:
                    report(rm)
                break
            p2_wins = result == 1
            rm.status = "loss" if p2_wins else "win"
            if report is not None:
                report(rm)
            if not p2_wins:
                winner = rm.pid
                break
        stats = native.stats()
    solved = winner is not None or not timed_out
    return SolveReport(
        solved=solved,
        first_player_wins=(winner is not None) if solved else None,
        winning_move=winner,
        root=roots,
        nodes=stats["nodes"],
        tt_hits=stats["tt_hits"],
        tt_size=min(stats["tt_stores"], 1 << table_log2) + stats["pinned"],
        seconds=time.monotonic() - t0,
        loaded=len(known or {}),
        per_ply=stats["per_ply"],
        cpu_seconds=time.process_time() - c0,
        path=path,
    )
