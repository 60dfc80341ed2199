"""The compiled Quadefy solver: builds ``quadefy_solve.c`` with the machine's C compiler at first use.

Why compiled: the pure-Python solver expands about 8,000 positions per second and the whole game needs
10^9 or more. Why this shape: the rules stay single-sourced in Python. :func:`export_tables` turns the
tables of :mod:`polytable.games.quadefy._tables` and the symmetries of ``_symmetry`` into flat arrays that
``qs_init`` copies; the C file holds no geometry of its own, only the bit logic of ``_moves.orient_legal``,
and the tests check that both agree on legal moves and on game values.

The shared library is built once per source version into the user's cache directory
(``$XDG_CACHE_HOME/polytable/native`` or ``~/.cache/polytable/native``), with ``cc`` (or ``$CC``), no build
system, no dependencies; :func:`available` says whether that worked and :func:`unavailable_reason` why not.
The C search keeps global state (its tables), so every call goes through one lock.
"""

from __future__ import annotations

import ctypes
import hashlib
import os
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = [
    "NativeQuadefy",
    "available",
    "export_tables",
    "load",
    "unavailable_reason",
]

_SOURCE = Path(__file__).with_name("quadefy_solve.c")
_MAXSUB = 24
_MAXPLY = 20
_LOCK = threading.Lock()
_LOADED: NativeQuadefy | None = None
_ERROR: str | None = None

RecordFn = ctypes.CFUNCTYPE(None, ctypes.c_uint64, ctypes.c_int, ctypes.c_int)
ProgressFn = ctypes.CFUNCTYPE(None, ctypes.c_int, ctypes.c_int, ctypes.c_int)


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "polytable" / "native"


def _compiler() -> str | None:
    cc = os.environ.get("CC") or "cc"
    return shutil.which(cc) or shutil.which("gcc") or shutil.which("clang")


def _build() -> Path:
    """Compile the source into the cache (once per source text) and return the library's path."""
    src = _SOURCE.read_bytes()
    digest = hashlib.sha256(src).hexdigest()[:16]
    out = cache_dir() / f"quadefy_solve-{digest}.so"
    if out.exists():
        return out
    cc = _compiler()
    if cc is None:
        raise OSError("no C compiler found (set CC or install cc)")
    out.parent.mkdir(parents=True, exist_ok=True)
    errors = []
    # -march=native when the compiler accepts it (popcount instructions), plain -O2 otherwise.
    for extra in (["-O3", "-march=native"], ["-O2"]):
        fd, tmp = tempfile.mkstemp(suffix=".so", dir=out.parent)
        os.close(fd)
        cmd = [cc, *extra, "-std=c99", "-D_POSIX_C_SOURCE=199309L", "-shared", "-fPIC", "-o", tmp, str(_SOURCE)]
        res = subprocess.run(cmd, capture_output=True, text=True, check=False)
        if res.returncode == 0:
            os.replace(tmp, out)
            return out
        os.unlink(tmp)
        errors.append(res.stderr.strip())
    raise OSError("compiling the Quadefy solver failed: " + " | ".join(errors))


def export_tables() -> dict[str, list[int]]:
    """The rules tables as flat integer lists, in the layout ``qs_init`` reads (see the C file)."""
    from ...games.quadefy import BLOCK_INDEX, ORIENTS, PLACE_AT, PLACEMENTS, transform_cells

    word = (1 << 64) - 1
    oblock: list[int] = []
    ooff: list[int] = []
    omasks: list[int] = []
    osub: list[int] = []
    pat: list[int] = []
    for o in ORIENTS:
        oblock.append(o.block)
        ooff.extend(o.offsets)
        for m in (o.inside, o.box, o.seed):
            omasks.extend((m >> (64 * w)) & word for w in range(4))
        if len(o.stable) > _MAXSUB:  # pragma: no cover - the tetracubes have at most a handful
            raise ValueError("too many stable subsets for the native solver")
        for s in range(_MAXSUB):
            if s < len(o.stable):
                sub = list(o.stable[s])
                osub.extend([len(sub), *sub, *[0] * (4 - len(sub))])
            else:
                osub.extend([0] * 5)
        pat.extend(PLACE_AT[o.index])
    perm = []
    for t in range(8):
        for cell in range(64):
            perm.append(transform_cells(t, 1 << cell).bit_length() - 1)
    return {
        "oblock": oblock,
        "ooff": ooff,
        "omasks": omasks,
        "osub": osub,
        "place_at": pat,
        "pmask": [p.mask for p in PLACEMENTS],
        "pblock": [p.block for p in PLACEMENTS],
        "perm": perm,
        "screws": [BLOCK_INDEX["SL"], BLOCK_INDEX["SR"]],
    }


def _arr(ctype: Any, values: list[int]) -> Any:
    return (ctype * len(values))(*values)


class NativeQuadefy:
    """The loaded library with Python-friendly calls (hold :attr:`lock` around a sequence of calls)."""

    def __init__(self, path: Path, tt_log2: int = 22) -> None:
        lib = ctypes.CDLL(str(path))
        u64, c_int, i64 = ctypes.c_uint64, ctypes.c_int, ctypes.c_int64
        lib.qs_legal.argtypes = [u64, c_int, c_int, ctypes.POINTER(c_int)]
        lib.qs_count.argtypes = [u64, c_int, c_int]
        lib.qs_canon.argtypes = [u64, c_int, c_int, ctypes.POINTER(u64), ctypes.POINTER(c_int)]
        lib.qs_tt_alloc.argtypes = [c_int]
        lib.qs_tt_put.argtypes = [u64, c_int, c_int]
        lib.qs_solve.argtypes = [
            u64, c_int, c_int, c_int, c_int, c_int, ctypes.c_double, i64, c_int, c_int,
            RecordFn, ProgressFn, ctypes.POINTER(c_int),
        ]  # fmt: skip
        lib.qs_stats.argtypes = [ctypes.POINTER(i64)]
        lib.qs_path.argtypes = [ctypes.POINTER(c_int)]
        t = export_tables()
        rc = lib.qs_init(
            len(t["oblock"]),
            _arr(c_int, t["oblock"]),
            _arr(c_int, t["ooff"]),
            _arr(u64, t["omasks"]),
            _arr(c_int, t["osub"]),
            _arr(ctypes.c_int16, t["place_at"]),
            len(t["pmask"]),
            _arr(u64, t["pmask"]),
            _arr(c_int, t["pblock"]),
            _arr(ctypes.c_uint8, t["perm"]),
            t["screws"][0],
            t["screws"][1],
        )
        if rc != 0:
            raise OSError("the native solver rejected the tables")
        self.lib = lib
        self.lock = threading.RLock()
        self.tt_log2 = 0
        self.set_table_size(tt_log2)

    def set_table_size(self, log2_entries: int) -> None:
        """(Re)allocate the transposition table: ``2**log2_entries`` entries of 16 bytes (emptied)."""
        if log2_entries != self.tt_log2:
            if self.lib.qs_tt_alloc(log2_entries) != 0:
                raise MemoryError(f"cannot allocate 2^{log2_entries} table entries")
            self.tt_log2 = log2_entries

    def clear(self) -> None:
        self.lib.qs_tt_clear()

    def legal(self, occ: int, hand: int, flags: int) -> list[int]:
        buf = (ctypes.c_int * 1024)()
        n = self.lib.qs_legal(occ, hand, flags, buf)
        return list(buf[:n])

    def count(self, occ: int, hand: int, flags: int) -> int:
        return int(self.lib.qs_count(occ, hand, flags))

    def canonical_key(self, occ: int, me: int, opp: int) -> int:
        lo, hi = ctypes.c_uint64(), ctypes.c_int()
        self.lib.qs_canon(occ, me, opp, ctypes.byref(lo), ctypes.byref(hi))
        return lo.value | hi.value << 64

    def put(self, key: int, value: bool) -> None:
        """Preload a proven position (a checkpoint line): kept for good."""
        self.lib.qs_tt_put(key & ((1 << 64) - 1), key >> 64, int(value))

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
        is there (no winning move is then known)."""

        def rec(lo: int, hi: int, val: int) -> None:
            if on_record is not None:
                on_record(lo | hi << 64, bool(val))

        def prog(p: int, done: int, total: int) -> None:
            if on_progress is not None:
                on_progress(p, done, total)

        rec_c, prog_c = RecordFn(rec), ProgressFn(prog)
        best = ctypes.c_int(-1)
        r = self.lib.qs_solve(
            occ, me, opp, flags, ply, int(use_table), max_seconds or 0.0, max_nodes or 0,
            persist_plies, dedup_plies, rec_c, prog_c, ctypes.byref(best),
        )  # fmt: skip
        return int(r), (best.value if best.value >= 0 else None)

    def stats(self) -> dict[str, Any]:
        buf = (ctypes.c_int64 * (4 + 2 * _MAXPLY))()
        self.lib.qs_stats(buf)
        per_ply = {i: (buf[4 + 2 * i], buf[5 + 2 * i]) for i in range(_MAXPLY) if buf[4 + 2 * i]}
        return {"nodes": buf[0], "tt_hits": buf[1], "tt_stores": buf[2], "pinned": buf[3], "per_ply": per_ply}

    def reset_stats(self) -> None:
        self.lib.qs_reset_stats()

    def path(self) -> list[tuple[int, int, int]]:
        buf = (ctypes.c_int * 64)()
        n = self.lib.qs_path(buf)
        return [(buf[3 * i], buf[3 * i + 1], buf[3 * i + 2]) for i in range(n)]


def load() -> NativeQuadefy:
    """The library, compiled and initialised on first use; raises OSError when that is impossible."""
    global _LOADED, _ERROR
    with _LOCK:
        if _LOADED is not None:
            return _LOADED
        if _ERROR is not None:
            raise OSError(_ERROR)
        try:
            _LOADED = NativeQuadefy(_build())
        except OSError as exc:
            _ERROR = str(exc)
            raise
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
