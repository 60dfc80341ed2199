"""The lines goal's greedy run in C: ``_cformfinity_greedy``, the AI's own extension.

That extension includes the game's compiled kernel downward (``games/formfinity/_cformfinity.c``, as the
batch ``_cformfinity_vec.c`` does), so it runs the rules' own steps at the kernel's speed; it loads the shape
tables itself and reads the set-up the rules' extension prepared (``CompiledFormfinity.prepared``, the same
struct: checked by size). The state travels in the game's state buffer (``PLAYOUT``), with the run's fields.
Used when the game object runs the compiled kernel; :func:`._greedy.greedy_run` is the reference.
"""

from __future__ import annotations

import functools
from types import ModuleType

from ...core import Rng, native_module
from ...games.formfinity import (
    PLAYOUT,
    ROTATIONS,
    SHAPES,
    CompiledFormfinity,
    FormfinityState,
    Setup,
    state_buffer,
    state_from_fields,
)

__all__ = ["Run", "compiled_greedy_run"]

Run = tuple[FormfinityState, bool, int, bool, int]
"""What :func:`._greedy.greedy_run` returns: (state, left_me, steps left, done, holes)."""

_LEFT_ME, _STEPS, _DONE, _HOLES, _RNGS = (PLAYOUT.index[f] for f in ("left_me", "steps", "done", "holes", "rngs"))


@functools.cache
def _extension(rules: ModuleType) -> ModuleType | None:
    """The greedy's extension with its shape tables loaded (once a process), or None: not built, or built
    against another set-up struct than the rules' extension ``rules`` prepares."""
    ext = native_module("polytable.ai.formfinity._cformfinity_greedy")
    if ext is None or ext.setup_bytes() != rules.setup_bytes():
        return None
    ext.init(SHAPES, ROTATIONS)
    return ext


def compiled_greedy_run(setup: Setup, st: FormfinityState, me: int, rng: Rng, left_me: bool, steps: int) -> Run | None:
    """:func:`._greedy.greedy_run` in one call of the extension, or None (the Python plays it): the pure
    kernel, another goal than lines, one player, a state or set-up the kernel does not hold."""
    kernel = setup.kernel
    if not isinstance(kernel, CompiledFormfinity) or setup.rules.goal != "lines" or setup.players < 2:
        return None
    ext = _extension(kernel.ext)
    if ext is None:
        return None
    try:
        buf = state_buffer(st, (rng.state,), (1, -1, 0, me, left_me, steps, 0, 0))
    except ValueError:
        return None
    prepared = kernel.prepared(setup)
    if prepared is None:
        return None
    rest = ext.greedy_run(prepared, st.deck, st.lines, st.numbers, buf)
    if rest is None:
        return None
    v = PLAYOUT.struct.unpack(buf)
    rng.state = v[_RNGS]
    return state_from_fields(st, v, rest), bool(v[_LEFT_ME]), v[_STEPS], bool(v[_DONE]), v[_HOLES]
