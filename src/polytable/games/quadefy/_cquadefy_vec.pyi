"""Type stubs of the batch of Quadefy games stepped in C (``_cquadefy_vec.c``; driven by ``interop/_batch.py``)."""

from collections.abc import Sequence

NUM_IDS: int

def init(
    solver_tables: tuple[object, ...],
    pmask: Sequence[int],
    pblock: Sequence[int],
    porient: Sequence[int],
    pbit: Sequence[int],
    /,
) -> None: ...
def bind(state_class: type, spec: tuple[tuple[str, ...], tuple[tuple[str, str, int, int, int], ...]], /) -> None: ...
def state_bytes() -> int: ...
def load(
    states: object,
    i: int,
    occupied: int,
    owned0: int,
    owned1: int,
    remaining0: int,
    remaining1: int,
    to_move: int,
    loser: int,
    flags: int,
    moves: Sequence[int],
    /,
) -> None: ...
def export(states: object, i: int, /) -> tuple[int, tuple[int, int], tuple[int, int], tuple[int, ...], int, int]: ...
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
    fresh: object = None,
    /,
) -> int: ...
def sample(states: object, ids: object, draws: object, out: object, /) -> None: ...
def hold(
    states: object,
    obs: object,
    masks: object,
    to_act: object,
    rewards: object,
    returns: object,
    terminations: object,
    fresh: object,
    episodes: object,
    /,
) -> object: ...
def play(held: object, actions: object, /) -> int: ...
def simd(level: int = -1, /) -> int: ...
