"""Solving Quadefy from the empty cube: who wins with perfect play (``polytable solve quadefy``).

Search: boolean negamax (Quadefy has no draws, so alpha-beta is "stop at the first move after which the
opponent loses") with

* a transposition table keyed by the canonical position (:mod:`._symmetry`: the occupied cells and both
  hands, the smallest key over the 8 symmetries of the footprint, reflections swapping the screws), so a
  position and its 7 images are solved once;
* early win detection: while generating the children the search stops at the first placement that leaves
  the opponent without a legal reply, before counting the replies of the other children;
* move ordering by the opponent's mobility (fewest replies first), which finds wins fast and keeps
  refutations small;
* symmetry reduction at the shallow plies: children that are images of each other are searched once.

Partial results stay useful. The root moves are searched one symmetry class at a time and each verdict is
reported as it is proven; every position proven within :data:`PERSIST_PLIES` plies of the root is appended
to a checkpoint file (one ``key win`` line), which a later run loads before it starts, so a run that stops
at its time limit resumes where it was. Per-ply statistics (positions solved and the mean size of their
subtrees) give the effective branching factor from which the remaining effort is estimated.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from ...games.quadefy import ALL_BLOCKS, PLACEMENTS, QuadefyKernel, canonical_key, moves_of
from ...geometry import Memo

__all__ = ["PERSIST_PLIES", "FullSolver", "RootMove", "SolveReport", "solve_game"]

PERSIST_PLIES = 3
"""Positions proven at most this many plies from the root go to the checkpoint file."""
DEDUP_PLIES = 3
"""Children are deduplicated by canonical key at plies below this (where transpositions by symmetry
are common and the cost of one key per child is small against the subtree)."""
_CHECK_EVERY = 2048
TRACK_PLIES = 8
"""The search path down to this ply is tracked (children done / total at each level) for progress."""


class _Timeout(Exception):
    pass


@dataclass(slots=True)
class RootMove:
    """One symmetry class of first moves: ``pid`` is its representative, ``size`` the number of first
    moves in the class, ``replies`` Player 2's legal replies, ``status`` ``"win"`` (Player 1 wins by it),
    ``"loss"`` (Player 2 has a winning reply), or ``"open"``; ``refuted``/``done`` count the replies
    proven so far while it was being searched."""

    pid: int
    size: int
    replies: int
    status: str = "open"
    nodes: int = 0
    seconds: float = 0.0
    refuted: int = 0
    reply_classes: int = 0
    """Player 2's replies up to symmetry (known once the class is being searched)."""


@dataclass(slots=True)
class SolveReport:
    solved: bool
    first_player_wins: bool | None
    winning_move: int | None
    root: list[RootMove]
    nodes: int
    tt_hits: int
    tt_size: int
    seconds: float
    loaded: int
    """Checkpoint entries loaded at the start."""
    per_ply: dict[int, tuple[int, int]] = field(default_factory=dict)
    """ply -> (positions solved by search at that ply, total nodes in their subtrees)."""
    cpu_seconds: float = 0.0
    path: list[tuple[int, int, int]] = field(default_factory=list)
    """Where an unfinished search stopped: (ply, children already proven, children) from ply 1 down."""


class FullSolver:
    """The search (see the module docstring). ``deadline`` is a ``time.monotonic()`` value or None."""

    def __init__(
        self,
        flags: int,
        deadline: float | None = None,
        known: Mapping[int, bool] | None = None,
        on_record: Callable[[int, bool], None] | None = None,
        tt_limit: int = 12_000_000,
        kernel: QuadefyKernel | None = None,
    ) -> None:
        self.flags = flags
        self.count = (kernel or QuadefyKernel()).count
        """Counts the replies that order the moves (the game object's kernel; default: the pure one)."""
        self.deadline = deadline
        self.on_record = on_record
        self.tt_limit = tt_limit
        self.table: Memo[int, bool] = Memo(tt_limit)
        self.shallow: dict[int, bool] = {}
        """Entries within PERSIST_PLIES of the root: never evicted, written to the checkpoint."""
        self.nodes = 0
        self.tt_hits = 0
        self.loaded = 0
        self.path: list[list[int]] = []
        self.per_ply: dict[int, list[int]] = {}
        self._next_check = _CHECK_EVERY
        self.on_progress: Callable[[int, int, int], None] | None = None
        """Called as (ply, children done, children total) at plies 0 and 1 after each child."""
        if known:
            # Rules code does no I/O: the command line reads the checkpoint file and passes its entries.
            self.shallow.update(known)
            self.loaded = len(self.shallow)

    def _record(self, key: int, ply: int, value: bool) -> None:
        if ply <= PERSIST_PLIES:
            self.shallow[key] = value
            if self.on_record is not None:
                self.on_record(key, value)
        else:
            self.table.put(key, value)

    def children(self, occ: int, me: int, opp: int, ply: int) -> list[tuple[int, int, int]] | int:
        """The children as (opponent replies, placement id, child cells), fewest replies first; or the
        placement id of a child where the opponent has no reply (an immediate win)."""
        flags = self.flags
        out = []
        seen: set[int] | None = set() if ply < DEDUP_PLIES else None
        for pid in moves_of(occ, me, flags):
            p = PLACEMENTS[pid]
            child = occ | p.mask
            rest = me & ~(1 << p.block)
            if seen is not None:
                k = canonical_key(child, opp, rest)
                if k in seen:
                    continue
                seen.add(k)
            replies = self.count(child, opp, flags)
            if replies == 0:
                return pid
            out.append((replies, pid, child))
        out.sort()
        return out

    def win(self, occ: int, me: int, opp: int, ply: int) -> bool:
        """Does the player to move (hand ``me``) win?"""
        key = canonical_key(occ, me, opp)
        hit = self.shallow.get(key) if ply <= PERSIST_PLIES else self.table.get(key)
        if hit is not None:
            self.tt_hits += 1
            return hit
        self.nodes += 1
        if self.nodes >= self._next_check:
            self._next_check += _CHECK_EVERY
            if self.deadline is not None and time.monotonic() > self.deadline:
                raise _Timeout
        start = self.nodes
        kids = self.children(occ, me, opp, ply)
        result = False
        if isinstance(kids, int):
            result = True
        else:
            total = len(kids)
            track = ply <= TRACK_PLIES
            if track:
                level = [ply, 0, total]
                self.path.append(level)
            for i, (_, pid, child) in enumerate(kids):
                p = PLACEMENTS[pid]
                if not self.win(child, opp, me & ~(1 << p.block), ply + 1):
                    result = True
                    break
                if track:
                    level[1] = i + 1
                if ply <= 1 and self.on_progress is not None:
                    self.on_progress(ply, i + 1, total)
            if track:
                self.path.pop()  # on a timeout the path stays as it was: the report shows where it stopped
        self._record(key, ply, result)
        stat = self.per_ply.setdefault(ply, [0, 0])
        stat[0] += 1
        stat[1] += self.nodes - start + 1
        return result

    def root_moves(self, flags: int) -> list[tuple[int, int, int, int]]:
        """First-move classes as (Player 2's replies, representative pid, class size, child cells)."""
        classes: dict[int, list[int]] = {}
        for pid in moves_of(0, ALL_BLOCKS, flags):
            p = PLACEMENTS[pid]
            k = canonical_key(p.mask, ALL_BLOCKS, ALL_BLOCKS & ~(1 << p.block))
            classes.setdefault(k, []).append(pid)
        out = []
        for members in classes.values():
            pid = members[0]
            child = PLACEMENTS[pid].mask
            out.append((self.count(child, ALL_BLOCKS, flags), pid, len(members), child))
        out.sort()
        return out

    def solve(
        self, report: Callable[[RootMove], None] | None = None, step: Callable[[RootMove], None] | None = None
    ) -> SolveReport:
        """Search the root move classes in order until one wins for Player 1 or the deadline passes.

        ``report`` is called when a root class is proven (or the time runs out on it); ``step`` after each
        of Player 2's replies to the class being searched is refuted."""
        t0 = time.monotonic()
        c0 = time.process_time()
        flags = self.flags
        roots = [RootMove(pid, size, replies) for replies, pid, size, _ in self.root_moves(flags)]
        winner: int | None = None
        timed_out = False
        for rm in roots:
            p = PLACEMENTS[rm.pid]
            rest = ALL_BLOCKS & ~(1 << p.block)
            start_nodes, start_t = self.nodes, time.monotonic()

            def progress(ply: int, done: int, total: int, rm: RootMove = rm) -> None:
                if ply == 1:
                    rm.refuted, rm.reply_classes = done, total
                    if step is not None:
                        step(rm)

            self.on_progress = progress
            try:
                p2_wins = self.win(p.mask, ALL_BLOCKS, rest, 1)
            except _Timeout:
                timed_out = True
            rm.nodes += self.nodes - start_nodes
            rm.seconds += time.monotonic() - start_t
            if timed_out:
                if report is not None:
                    report(rm)
                break
            rm.status = "loss" if p2_wins else "win"
            if report is not None:
                report(rm)
            if not p2_wins:
                winner = rm.pid
                break
        solved = winner is not None or not timed_out
        return SolveReport(
            solved=solved,
            first_player_wins=(winner is not None) if solved else None,
            winning_move=winner,
            root=roots,
            nodes=self.nodes,
            tt_hits=self.tt_hits,
            tt_size=len(self.table) + len(self.shallow),
            seconds=time.monotonic() - t0,
            loaded=self.loaded,
            per_ply={k: (v[0], v[1]) for k, v in sorted(self.per_ply.items())},
            cpu_seconds=time.process_time() - c0,
            path=[(a, b, c) for a, b, c in self.path] if timed_out else [],
        )


def solve_game(
    flags: int,
    max_seconds: float | None = None,
    known: Mapping[int, bool] | None = None,
    report: Callable[[RootMove], None] | None = None,
    step: Callable[[RootMove], None] | None = None,
    on_record: Callable[[int, bool], None] | None = None,
    kernel: QuadefyKernel | None = None,
) -> SolveReport:
    """Solve Quadefy from the empty cube with option ``flags`` within ``max_seconds`` (None: no limit).

    ``known`` are positions proven by an earlier run (a checkpoint) and ``on_record`` receives every
    position proven near the root, so a caller can keep a checkpoint; this module does no I/O."""
    deadline = None if max_seconds is None else time.monotonic() + max_seconds
    return FullSolver(flags, deadline, known, on_record, kernel=kernel).solve(report, step)


def parse_checkpoint(text: str) -> dict[int, bool]:
    """Checkpoint entries from their text form: one ``<key in hex> <1 win | 0 loss>`` line each."""
    out: dict[int, bool] = {}
    for line in text.splitlines():
        parts = line.split()
        if len(parts) == 2:
            out[int(parts[0], 16)] = parts[1] == "1"
    return out


def checkpoint_line(key: int, value: bool) -> str:
    """The text form of one checkpoint entry (with its newline)."""
    return f"{key:x} {int(value)}\n"
