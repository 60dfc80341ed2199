"""Type stubs of Foldris's compiled kernel (``_cfoldris.c``)."""

from collections.abc import Sequence

def register(variants: Sequence[tuple[int, int, int, int, Sequence[int]]], /) -> int: ...
def count(table: int, ink: int, barrier: int, height: int, bonus: int, /) -> int: ...
def sample(table: int, ink: int, barrier: int, height: int, bonus: int, rng: int, /) -> tuple[int, int, int]: ...
def legal(table: int, ink: int, barrier: int, height: int, bonus: int, /) -> tuple[int, ...]: ...
def resolve(
    table: int, lane: int, solo: bool, sheets: Sequence[tuple[int, int, int, int, int, int]], drops: Sequence[int], /
) -> tuple[tuple[int, int, int, int, int, int], ...]: ...
def playout(
    tables: Sequence[int],
    keys: Sequence[int],
    lanes: Sequence[int],
    deck: Sequence[int],
    sheets: Sequence[tuple[int, int, int, int, int, int]],
    pending: Sequence[int],
    start_lane: int,
    round: int,
    card: int,
    rng: int,
    over: bool,
    starter: int,
    solo: bool,
    rngs: Sequence[int],
    shared: bool,
    max_actions: int,
    /,
) -> tuple[
    tuple[tuple[int, int, int, int, int, int], ...], tuple[int, ...], int, int, int, int, bool, bool, list[int], int
]: ...
