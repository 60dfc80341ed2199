"""Type stubs of Qwirkle Cubes' compiled kernel (``_cqwirkle.c``, ``qwirkle_board.c``, ``qwirkle_flow.c``)."""

from collections.abc import Sequence

Cubes = tuple[tuple[int, int], ...]

def count(placed: Cubes, hand: int, need: int, /) -> int: ...
def sample(placed: Cubes, hand: int, need: int, rng: int, /) -> tuple[Cubes | None, int]: ...
def placements(placed: Cubes, hand: int, need: int, /) -> list[Cubes]: ...
def placeable(placed: Cubes, /) -> int: ...
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
