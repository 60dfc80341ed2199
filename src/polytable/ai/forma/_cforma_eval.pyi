"""Type stubs of Forma's compiled AI evaluation (``_cforma_eval.c``; the tables are the rules' kernel's)."""

from collections.abc import Sequence

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
