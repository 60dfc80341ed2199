"""Type stubs of Qwirkle Cubes' compiled kernel (``_cqwirkle.c``, ``qwirkle_board.c``, ``qwirkle_flow.c``)."""

from collections.abc import Sequence

Cubes = tuple[tuple[int, int], ...]

def count(placed: Cubes, hand: int, need: int, /) -> int: ...
def sample(placed: Cubes, hand: int, need: int, rng: int, /) -> tuple[Cubes | None, int]: ...
def placements(placed: Cubes, hand: int, need: int, /) -> list[Cubes]: ...
def placeable(placed: Cubes, /) -> int: ...
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
def table(placed: Cubes, /) -> tuple[dict[int, int], set[int]]: ...
def playout(
    players: int,
    rng: int,
    phase: int,
    player: int,
    hands: Sequence[Sequence[int]],
    bag: Sequence[int],
    points: Sequence[int],
    placed: Cubes,
    rolling: int,
    forced: int,
    passes: int,
    turn: int,
    last: Sequence[int],
    finisher: int,
    seat_rngs: Sequence[int],
    shared: bool,
    max_actions: int,
    /,
) -> tuple[
    int,
    int,
    int,
    tuple[tuple[int, ...], ...],
    tuple[int, ...],
    tuple[int, ...],
    Cubes,
    int,
    int,
    int,
    int,
    tuple[int, int, int],
    int,
    list[int],
    int,
]: ...
