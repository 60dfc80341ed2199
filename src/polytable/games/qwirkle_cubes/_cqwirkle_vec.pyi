"""Stubs of the batch of Qwirkle Cubes games stepped in C (``_cqwirkle_vec.c``, driven by ``interop/_batch.py``)."""

NUM_IDS: int
WINDOW: int

Cubes = tuple[tuple[int, int], ...]

def state_bytes() -> int: ...
def load(states: object, i: int, placed: Cubes, buffer: bytes | bytearray, /) -> None: ...
def export(states: object, i: int, buffer: bytearray, /) -> Cubes: ...
def listed(states: object, i: int, /) -> tuple[int, int]: ...
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
    seeds: object = None,
    /,
) -> list[int]: ...
def sample(states: object, ids: object, draws: object, out: object, /) -> None: ...
def layout() -> tuple[tuple[tuple[str, int, int], ...], int]: ...
