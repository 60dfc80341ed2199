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
def value(
    size: int,
    filled: int,
    watch: int,
    obstacles: int,
    tower: int,
    closed: int,
    pieces: Sequence[int],
    markers: Sequence[int],
    player: int,
    bridges: int,
    mask: int,
    piece: int,
    stock: Sequence[int],
    weights: Sequence[float],
    /,
) -> float: ...
def best_bonus(
    size: int,
    filled: int,
    watch: int,
    obstacles: int,
    tower: int,
    closed: int,
    own: int,
    orients: Sequence[int],
    cap: int,
    /,
) -> int: ...
def bridges(size: int, own: int, /) -> tuple[int, int, int, bool]: ...
def playout(buffer: bytearray, /) -> None: ...
def layout() -> tuple[tuple[tuple[str, int, int], ...], int]: ...
