"""Type stubs of Quadefy's compiled move generator (``_cquadefy.c``)."""

from collections.abc import Sequence

def init(
    solver_tables: tuple[object, ...],
    pmask: Sequence[int],
    pblock: Sequence[int],
    porient: Sequence[int],
    pbit: Sequence[int],
    /,
) -> None: ...
def sample(occ: int, hand: int, flags: int, rng: int, /) -> tuple[int, int]: ...
def count(occ: int, hand: int, flags: int, /) -> int: ...
def any(occ: int, hand: int, flags: int, /) -> bool: ...
def legal(occ: int, hand: int, flags: int, /) -> list[int]: ...
def playout(
    occ: int,
    owned0: int,
    owned1: int,
    rem0: int,
    rem1: int,
    to_move: int,
    loser: int,
    flags: int,
    rngs: Sequence[int],
    shared: bool,
    max_actions: int,
    /,
) -> tuple[int, int, int, int, int, int, int, list[int], list[int]]: ...
