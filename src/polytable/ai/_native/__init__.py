"""The compiled Quadefy solver: the ``_qsolve`` extension, built with the package from ``quadefy_solve.c``.

Why compiled: the whole game needs 10^9 positions or more, far beyond the pure-Python search's speed
(docs/benchmarks/design-figures.md). Why this shape: the rules stay single-sourced in Python.
:func:`export_tables` turns the tables of :mod:`polytable.games.quadefy._tables` and the symmetries of
``_symmetry`` into flat arrays that ``_qsolve.init`` copies; the C file holds no geometry of its own, only
the bit logic of ``_moves.orient_legal`` (the game's move generator, ``games/quadefy/quadefy_gen.h``,
included downward), and the tests check that both agree on legal moves and on game values.

The extension is built by ``pip install`` / ``python -m build`` (see ``setup.py``); nothing is compiled at
run time. Where it was not built, or ``POLYTABLE_PURE=1`` asks for the pure engine, :func:`available` is
False and :func:`unavailable_reason` says why. The C search keeps global state (its tables), so every
call goes through one lock.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from types import ModuleType
from typing import Any

from ...core import native_module
from ...games.quadefy import native_tables as export_tables

__all__ = [
    "NativeQuadefy",
    "available",
    "export_tables",
    "load",
    "unavailable_reason",
]

_MAXPLY = 20
_LOCK = threading.Lock()
_LOADED: NativeQuadefy | None = None
_ERROR: str | None = None


class NativeQuadefy:
    """The initialised extension with Python-friendly calls (hold :attr:`lock` around a sequence of calls)."""

    def __init__(self, ext: ModuleType, tt_log2: int = 22) -> None:
        t = export_tables()
        ext.init(
            t["oblock"], t["ooff"], t["omasks"], t["osub"], t["place_at"], t["pmask"], t["pblock"], t["perm"],
            t["screws"][0], t["screws"][1],
        )  # fmt: skip
        self.ext = ext
        self.lock = threading.RLock()
        self.tt_log2 = 0
        self.set_table_size(tt_log2)

    def set_table_size(self, log2_entries: int) -> None:
        """(Re)allocate the transposition table: ``2**log2_entries`` entries of 16 bytes (emptied)."""
        if log2_entries != self.tt_log2:
            self.ext.tt_alloc(log2_entries)
            self.tt_log2 = log2_entries

    def clear(self) -> None:
        self.ext.tt_clear()

    def legal(self, occ: int, hand: int, flags: int) -> list[int]:
        return list(self.ext.legal(occ, hand, flags))

    def count(self, occ: int, hand: int, flags: int) -> int:
        return int(self.ext.count(occ, hand, flags))

    def canonical_key(self, occ: int, me: int, opp: int) -> int:
        lo, hi = self.ext.canon(occ, me, opp)
        return int(lo) | int(hi) << 64

    def put(self, key: int, value: bool) -> None:
        """Preload a proven position (a checkpoint line): kept for good."""
        self.ext.tt_put(key & ((1 << 64) - 1), key >> 64, int(value))

    def solve(
        self,
        occ: int,
        me: int,
        opp: int,
        flags: int,
        ply: int = 0,
        *,
        use_table: bool = False,
        max_seconds: float | None = None,
        cpu_clock: bool = False,
        max_nodes: int | None = None,
        persist_plies: int = -1,
        dedup_plies: int = 3,
        on_record: Callable[[int, bool], None] | None = None,
        on_progress: Callable[[int, int, int], None] | None = None,
    ) -> tuple[int, int | None]:
        """(1 win / 0 loss / -1 stopped, a winning placement id or None) for the player to move (hand ``me``).

        ``ply`` is the position's depth (blocks placed) for the statistics, the persistent entries (those
        at most ``persist_plies`` plies deep are kept for good and passed to ``on_record``) and the sibling
        deduplication (below ``dedup_plies``). ``use_table``: answer from the table if the position itself
        is there (no winning move is then known). ``max_seconds`` is read on the wall clock, or with
        ``cpu_clock`` on the calling thread's CPU time (:meth:`now`)."""
        rec: Callable[[int, int, int], None] | None = None
        if on_record is not None:
            record = on_record

            def rec(lo: int, hi: int, val: int) -> None:
                record(lo | hi << 64, bool(val))

        r, best = self.ext.solve(
            occ, me, opp, flags, ply, int(use_table), max_seconds or 0.0, max_nodes or 0,
            persist_plies, dedup_plies, rec, on_progress, cpu_clock,
        )  # fmt: skip
        return int(r), (int(best) if best >= 0 else None)

    def now(self, cpu_clock: bool = False) -> float:
        """The clock :meth:`solve` reads ``max_seconds`` on: ``time.monotonic``'s, or with ``cpu_clock``
        ``time.thread_time``'s (the same readings)."""
        return float(self.ext.now(cpu_clock))

    def stats(self) -> dict[str, Any]:
        buf = self.ext.stats()
        per_ply = {i: (buf[4 + 2 * i], buf[5 + 2 * i]) for i in range(_MAXPLY) if buf[4 + 2 * i]}
        return {"nodes": buf[0], "tt_hits": buf[1], "tt_stores": buf[2], "pinned": buf[3], "per_ply": per_ply}

    def reset_stats(self) -> None:
        self.ext.reset_stats()

    def path(self) -> list[tuple[int, int, int]]:
        return [tuple(p) for p in self.ext.path()]


def load() -> NativeQuadefy:
    """The solver, initialised on first use; raises OSError when the extension is not there."""
    global _LOADED, _ERROR
    with _LOCK:
        if _LOADED is not None:
            return _LOADED
        if _ERROR is not None:
            raise OSError(_ERROR)
        ext = native_module("polytable.ai._native._qsolve")
        if ext is None:
            _ERROR = "the compiled extension is not built (or POLYTABLE_PURE=1 asks for the pure engine)"
            raise OSError(_ERROR)
        _LOADED = NativeQuadefy(ext)
        return _LOADED


def available() -> bool:
    try:
        load()
    except OSError:
        return False
    return True


def unavailable_reason() -> str | None:
    """Why the native solver cannot be used (None when it can)."""
    try:
        load()
    except OSError as exc:
        return str(exc)
    return None
