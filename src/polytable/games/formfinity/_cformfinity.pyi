"""Type stubs of FORMFINITY's compiled kernel (``_cformfinity.c``)."""

from collections.abc import Sequence

def init(shapes: Sequence[Sequence[tuple[int, int]]], rotations: Sequence[Sequence[int]], /) -> None: ...
def element_anchors(
    W: int, H: int, orients: Sequence[int], edges: int, blocked: int, allowed: int, touch: int | None, /
) -> list[tuple[int, int]]: ...
def flood(seed: int, passable: int, stride: int, /) -> int: ...
def keeps_a_way(
    W: int,
    H: int,
    full: int,
    playable: int,
    star0: int,
    star1: int,
    corner_touch: bool,
    own0: int,
    own1: int,
    player: int,
    options: Sequence[tuple[int, int]],
    /,
) -> list[tuple[int, int]]: ...
def setup_bytes() -> int: ...
def prepare(pack: tuple[object, ...], buffer: bytearray, /) -> bool: ...
def playout(
    setup: bytearray,
    deck: tuple[int, ...],
    lines: tuple[tuple[int, int, int], ...],
    numbers: tuple[int, ...],
    buffer: bytearray,
    /,
) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], tuple[int, ...]] | None: ...
def layout() -> tuple[tuple[tuple[str, int, int], ...], int]: ...
