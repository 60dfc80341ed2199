"""Type stubs of the batch of FORMFINITY games stepped in C (``_cformfinity_vec.c``)."""

from collections.abc import Sequence

NUM_IDS: int

def init(shapes: Sequence[Sequence[tuple[int, int]]], rotations: Sequence[Sequence[int]], /) -> None: ...
def info_bytes() -> int: ...
def state_bytes() -> int: ...
def prepare_batch(info: object, pack: tuple[object, ...], statics: object, cards: object, /) -> bool: ...
def load(
    info: object,
    states: object,
    i: int,
    deck: tuple[int, ...],
    lines: tuple[tuple[int, int, int], ...],
    numbers: tuple[int, ...],
    buffer: bytearray,
    /,
) -> None: ...
def export(
    info: object, states: object, i: int, buffer: bytearray, /
) -> tuple[tuple[int, ...], tuple[tuple[int, int, int], ...], tuple[int, ...]]: ...
def write(info: object, states: object, ids: object, i: int, obs: object, masks: object, to_act: object, /) -> None: ...
def step(
    info: object,
    states: object,
    ids: object,
    actions: object,
    obs: object,
    masks: object,
    to_act: object,
    rewards: object,
    returns: object,
    /,
) -> list[int]: ...
def restart(
    info: object,
    states: object,
    ids: object,
    games: object,
    seeds: object,
    obs: object,
    masks: object,
    to_act: object,
    /,
) -> list[int]: ...
def sample(states: object, ids: object, draws: object, out: object, /) -> None: ...
