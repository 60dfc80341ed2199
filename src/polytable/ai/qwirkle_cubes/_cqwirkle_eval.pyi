"""Type stubs of Qwirkle Cubes' compiled evaluation (``_cqwirkle_eval.c``; the table is the rules' kernel's)."""

from collections.abc import Sequence

Cubes = tuple[tuple[int, int], ...]

def values(
    placed: Cubes,
    hand: int,
    need: int,
    hands: Sequence[Sequence[int]],
    player: int,
    look: bool,
    qv: float,
    hit: float,
    /,
) -> list[tuple[Cubes, float]]: ...
def best(
    placed: Cubes,
    hand: int,
    need: int,
    size: int,
    out_bonus: float,
    hands: Sequence[Sequence[int]],
    player: int,
    look: bool,
    qv: float,
    hit: float,
    /,
) -> tuple[float, Cubes]: ...
def colour_values(
    placed: Cubes,
    counts: Sequence[int],
    size: int,
    per_cube: float,
    out_bonus: float,
    hands: Sequence[Sequence[int]],
    player: int,
    look: bool,
    qv: float,
    hit: float,
    /,
) -> list[tuple[float, int, Cubes]]: ...
def roll_diffs(
    fms: Sequence[int],
    values: Sequence[float],
    hand: Sequence[int],
    masks: Sequence[int],
    base: int,
    rng: int,
    rounds: int,
    /,
) -> tuple[list[list[float]], int]: ...
