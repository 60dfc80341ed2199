"""Qwirkle Cubes' rules kernel, the one seam between the pure-Python rules and the compiled ``_cqwirkle``.

The game object picks its kernel once, when it is made (``get_game("qwirkle-cubes", engine=...)``): a
:class:`QwirkleKernel` (the Python ``Board``, the reference) or a
:class:`CompiledQwirkle` (the same interface over the C extension built with the package). The kernel
covers placement generation (count, the uniform sample with the same draw as ``_game._sample``, the list,
all in the order of ``Board.placements``) and a random playout to the end with every chance event. Checking
a typed move, notation, ids and views stay in Python; the AI's values (``polytable.ai.qwirkle_cubes``) are
not the kernel's: its compiled evaluation is its own extension, which reads this one's table through a
capsule (``QwirkleAPI`` in ``qwirkle_api.h``). tests/games/qwirkle_cubes/test_qwirkle_native.py plays both
kernels side by side; docs/engine.md describes the seam.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from types import ModuleType
from typing import Any

from polytable.core import Rng, StateLayout

from ._board import Board, Placement
from ._state import QState, evolve

__all__ = ["PLAYOUT", "CompiledQwirkle", "QwirkleKernel", "pack_state", "unpack_state"]

SEATS = 4
"""Players the buffer has room for (those past the game's are zeros)."""

PLAYOUT = StateLayout(
    (
        ("players", "q", 1),
        ("rng", "Q", 1),  # QState.rng: the chance events' generator
        *((name, "q", 1) for name in ("phase", "player", "rolling", "forced", "passes", "turn", "finisher")),
        ("shared", "q", 1),  # one generator for every seat (seats[0])
        ("max_actions", "q", 1),  # -1: to the end
        ("taken", "q", 1),  # out: the actions taken
        ("seats", "Q", SEATS),
        ("hlen", "q", SEATS),
        ("hand", "8s", SEATS),  # a hand's faces (at most 6, each below 36), zero-padded
        ("bag", "q", 6),
        ("points", "q", SEATS),
        ("last", "q", 3),
    )
)
"""The compiled playout's state buffer (``_cqwirkle.c``'s QPlayoutBuf): a QState's numbers with the seats'
generators and the limit, written back with the end state (the table's cubes travel as the ``placed``
tuple beside it). The one description of it: tests/kernel/test_layouts.py compares the C's ``layout()``."""

_I = PLAYOUT.index  # where each field's items start in the buffer's flat tuple
_RNG, _PHASE, _PLAYER, _ROLLING, _FORCED, _PASSES, _TURN, _FINISHER, _TAKEN = (
    _I[f] for f in ("rng", "phase", "player", "rolling", "forced", "passes", "turn", "finisher", "taken")
)
_SEATS, _HLEN, _HAND, _BAG, _POINTS, _LAST = (_I[f] for f in ("seats", "hlen", "hand", "bag", "points", "last"))


class QwirkleKernel:
    """The pure-Python kernel: the reference every compiled answer must equal. ``memo`` (placement ->
    value) lets the Python keep the values of one board and one look across calls; the compiled kernel
    ignores it (a value costs less there than a dictionary lookup here)."""

    def placements(self, state: QState, hand: int, need: int) -> Iterable[Placement]:
        return state.board.placements(hand, need)

    def count(self, state: QState, hand: int, need: int) -> int:
        return state.board.count(hand, need)

    def sample(self, state: QState, hand: int, need: int, rng: Rng) -> Placement | None:
        """A uniformly random placement (``rng.below(count)``), None when none fits."""
        n = state.board.count(hand, need)
        return state.board.sample(hand, need, rng.below(n)) if n else None

    def playout(self, state: QState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[QState, int] | None:
        """The whole random playout in one call, or None: the game plays it step by step."""
        return None

    # The players' batch values: the Python of ._eval is the reference (the same signatures below).


class CompiledQwirkle(QwirkleKernel):
    """The same kernel in C (``_cqwirkle``): the same placements in the same order, the same draws and
    doubles, faster."""

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext

    def placements(self, state: QState, hand: int, need: int) -> Iterable[Placement]:
        return self.ext.placements(state.placed, hand, need)  # type: ignore[no-any-return]

    def count(self, state: QState, hand: int, need: int) -> int:
        return int(self.ext.count(state.placed, hand, need))

    def sample(self, state: QState, hand: int, need: int, rng: Rng) -> Placement | None:
        cubes, rng.state = self.ext.sample(state.placed, hand, need, rng.state)
        return cubes  # type: ignore[no-any-return]

    def playout(self, state: QState, rngs: Sequence[Rng], max_actions: int | None) -> tuple[QState, int]:
        """The turns to the end in C, through one state buffer (PLAYOUT): the same draws and final state."""
        s = state
        used = rngs[:1] if len(rngs) == 1 else rngs[: s.config.players]
        buf = pack_state(s, [r.state for r in used], len(rngs) == 1, -1 if max_actions is None else max_actions)
        placed = self.ext.playout(s.placed, buf)
        v = PLAYOUT.struct.unpack(buf)
        for r, st in zip(used, v[_SEATS : _SEATS + len(used)], strict=True):
            r.state = st
        board = s.board if len(placed) == len(s.placed) else Board.from_parts(placed, *self.ext.table(placed))
        return unpack_state(s, v, placed, board), v[_TAKEN]


def pack_state(s: QState, seats: Sequence[int] = (), shared: bool = False, max_actions: int = -1) -> bytearray:
    """A state's numbers as a PLAYOUT buffer (the table's cubes travel beside it as ``s.placed``), with the
    seats' generators and the playout's limit."""
    n = s.config.players
    pad = (0,) * (SEATS - n)
    return bytearray(
        PLAYOUT.struct.pack(
            n, s.rng, s.phase, s.player, s.rolling, s.forced, s.passes, s.turn, s.finisher, shared, max_actions, 0,
            *seats, *(0,) * (SEATS - len(seats)), *[len(h) for h in s.hands], *pad, *[bytes(h) for h in s.hands],
            *(b"",) * (SEATS - n), *s.bag, *s.points, *pad, *s.last,
        )
    )  # fmt: skip


def unpack_state(s: QState, v: tuple[Any, ...], placed: tuple[tuple[int, int], ...], board: Board) -> QState:
    """The state of a PLAYOUT buffer's values ``v`` (``PLAYOUT.struct.unpack``) with the table's cubes
    ``placed`` and their ``board``; ``s`` gives the configuration."""
    n = s.config.players
    hands = tuple(tuple(h[:k]) for h, k in zip(v[_HAND : _HAND + n], v[_HLEN : _HLEN + n], strict=True))
    return evolve(
        s, rng=v[_RNG], phase=v[_PHASE], player=v[_PLAYER], hands=hands, bag=v[_BAG : _BAG + 6],
        points=v[_POINTS : _POINTS + n], placed=placed, rolling=v[_ROLLING], forced=v[_FORCED],
        passes=v[_PASSES], turn=v[_TURN], last=v[_LAST : _LAST + 3], finisher=v[_FINISHER], board=board,
    )  # fmt: skip
