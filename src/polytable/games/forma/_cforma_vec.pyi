"""Type stubs of the batch of Forma games stepped in C (``_cforma_vec.c``; driven by ``interop/_batch.py``)."""

from collections.abc import Sequence

NUM_IDS: int

def init(
    size: int,
    stride: int,
    offsets: Sequence[Sequence[int]],
    orient_piece: Sequence[int],
    piece_size: Sequence[int],
    orient_ref: Sequence[int],
    /,
) -> None: ...
def state_bytes() -> int: ...
def load(
    states: object,
    i: int,
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
    touch: bool,
    picked: int,
    misses: int,
    placing: int,
    rng: int,
    /,
) -> None: ...
def export(states: object, i: int, /) -> tuple[object, ...]: ...
def write(
    states: object, ids: object, size: int, i: int, obs: object, masks: object, index: object, to_act: object, /
) -> None: ...
def step(
    states: object,
    ids: object,
    size: int,
    actions: object,
    obs: object,
    masks: object,
    index: object,
    to_act: object,
    rewards: object,
    returns: object,
    terminations: object,
    fresh: None = None,
    /,
) -> int: ...
def sample(states: object, ids: object, draws: object, out: object, /) -> None: ...
