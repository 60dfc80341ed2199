"""FORMFINITY's compiled greedy playout (``_cformfinity_greedy.c``): the lines goal's greedy run."""

from collections.abc import Sequence

def init(shapes: Sequence[Sequence[tuple[int, int]]], rotations: Sequence[Sequence[int]], /) -> None: ...
def setup_bytes() -> int: ...
def layout() -> tuple[tuple[tuple[str, int, int], ...], int]: ...
def greedy_run(
    setup: bytearray,
    deck: tuple[int, ...],
    lines: tuple[tuple[int, int, int], ...],
    numbers: tuple[int, ...],
    buffer: bytearray,
    /,
) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], tuple[int, ...]] | None: ...
