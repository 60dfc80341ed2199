"""Type stubs of Foldris's compiled kernel (``_cfoldris.c``)."""

from collections.abc import Sequence

from polytable.core import Rng

from ._state import FoldrisState, Sheet

def register(
    variants: Sequence[tuple[int, int, int, int, Sequence[int], int, int, int]],
    by_key: Sequence[tuple[int, int, int, int]],
    /,
) -> int: ...
def check(
    table: int, mirror: int, trim: int, rot: int, col: int, ink: int, barrier: int, height: int, bonus: int, /
) -> bool: ...
def count(table: int, ink: int, barrier: int, height: int, bonus: int, /) -> int: ...
def sample(table: int, ink: int, barrier: int, height: int, bonus: int, rng: int, /) -> tuple[int, int, int]: ...
def legal(table: int, ink: int, barrier: int, height: int, bonus: int, /) -> tuple[int, ...]: ...
def types(sheet: type, sheet_fields: Sequence[str], state: type, state_fields: Sequence[str], /) -> None: ...
def resolve(
    table: int, lane: int, solo: bool, sheets: Sequence[Sheet], drops: Sequence[int], /
) -> tuple[Sheet, ...]: ...
def deck(tables: Sequence[int], keys: Sequence[int], lanes: Sequence[int], /) -> int: ...
def playout(
    deck: int,
    state: FoldrisState,
    pending: Sequence[int] | None,
    rngs: Sequence[Rng],
    shared: bool,
    max_actions: int,
    /,
) -> tuple[FoldrisState, int]: ...
