"""Type stubs of Forma's compiled kernel (``_cforma.c``, ``_cforma_rules.c``, ``_cforma.h``)."""

from collections.abc import Sequence

def init(
    size: int, stride: int, offsets: Sequence[Sequence[int]], orient_piece: Sequence[int], piece_sizes: Sequence[int], /
) -> None: ...
def anchors(size: int, free: int, /) -> tuple[int, ...]: ...
def count(size: int, stock: Sequence[int], free: int, only: int, /) -> int: ...
def can_place(size: int, stock: Sequence[int], free: int, /) -> bool: ...
def sample(size: int, stock: Sequence[int], free: int, rng: int, only: int, /) -> tuple[int, int, int]: ...
def effect(
    size: int, filled: int, watch: int, obstacles: int, tower: int, closed: int, own: int, mask: int, cells: int, /
) -> tuple[int, int, int, int, int, int]: ...
def neighbours(size: int, cells: int, /) -> int: ...
def next_turn(size: int, stocks: Sequence[Sequence[int]], free: int, player: int, /) -> int: ...
def setup_sample(
    size: int, obstacles: int, tower: int, placing: int, rng: int, chance: bool, /
) -> tuple[int, int, int]: ...
def bridges(size: int, own: int, /) -> tuple[int, int, int, bool]: ...
def playout(
    size: int,
    obstacles: int,
    tower: int,
    pieces: Sequence[int],
    markers: Sequence[int],
    filled: int,
    stocks: Sequence[Sequence[int]],
    scores: Sequence[int],
    bridges: Sequence[int],
    closed: int,
    watch: int,
    turn: int,
    moves: int,
    last: int,
    exact: bool,
    rngs: Sequence[int],
    shared: bool,
    max_actions: int,
    touch_move: bool,
    picked: int,
    misses: int,
    placing: int,
    rng: int,
    /,
) -> tuple[
    tuple[int, ...],
    tuple[int, ...],
    int,
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    int,
    int,
    int,
    int,
    int,
    bool,
    list[int],
    int,
    int,
    int,
    int,
    int,
    int,
    int,
]: ...
