"""Type stubs of the compiled Quadefy solver (``_qsolve.c``)."""

from collections.abc import Callable, Sequence

def init(
    oblock: Sequence[int],
    ooff: Sequence[int],
    omasks: Sequence[int],
    osub: Sequence[int],
    place_at: Sequence[int],
    pmask: Sequence[int],
    pblock: Sequence[int],
    perm: Sequence[int],
    screw_l: int,
    screw_r: int,
    /,
) -> None: ...
def legal(occ: int, hand: int, flags: int, /) -> list[int]: ...
def count(occ: int, hand: int, flags: int, /) -> int: ...
def canon(occ: int, me: int, opp: int, /) -> tuple[int, int]: ...
def tt_alloc(log2_entries: int, /) -> None: ...
def tt_clear() -> None: ...
def tt_put(lo: int, hi: int, value: int, /) -> None: ...
def solve(
    occ: int,
    me: int,
    opp: int,
    flags: int,
    ply: int,
    use_table: int,
    max_seconds: float,
    max_nodes: int,
    persist_plies: int,
    dedup_plies: int,
    on_record: Callable[[int, int, int], None] | None,
    on_progress: Callable[[int, int, int], None] | None,
    cpu: bool = False,
    /,
) -> tuple[int, int]: ...
def now(cpu: bool = False, /) -> float: ...
def stats() -> list[int]: ...
def reset_stats() -> None: ...
def path() -> list[tuple[int, int, int]]: ...
