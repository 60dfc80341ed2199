"""FORMFINITY's rules kernel, the one seam between the pure-Python rules and the compiled ``_cformfinity``.

The game object picks its kernel once, when it is made (``get_game("formfinity", engine=...)``), and hands
it to every :class:`._board.Setup` it builds (``setup.kernel``: a setup is made once per config and
engine), so the rules below the game object reach it through the setup they already receive. A
:class:`FormfinityKernel` runs the Python rules (the reference); a :class:`CompiledFormfinity` answers the
hot path the profile shows in C: where an element may go (``_board.element_anchors``: every orientation,
anywhere or slid in from the card's edges, as bitboards), the flood of a region (``Setup.flood``), the
connection goal's "no element may take the opponent's last way" filter (``_flow.keeps_a_way``), the whole
random playout (``_flow``'s turns, card draws, lines, areas, numbers and ends, with the draws of
``FormfinityGame._sample``). Stepwise play, notation and views stay in Python. The state buffer (PLAYOUT) also
carries the fields of the lines goal's greedy run, which the AI compiles in its own extension
(``polytable.ai.formfinity._cformfinity_greedy``, including this kernel's C downward) and feeds through
:func:`state_buffer` and :func:`state_from_fields`.
tests/games/formfinity/test_formfinity_native.py, test_formfinity_playout.py and ``polytable fuzz
formfinity`` play both side by side; docs/engine.md describes the seam.
"""

from __future__ import annotations

import functools
import weakref
from collections.abc import Sequence
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING, Any

from polytable.core import Rng, StateLayout
from polytable.geometry import flood

from ._cards import ROTATIONS, SHAPES
from ._state import FormfinityState, evolve

if TYPE_CHECKING:
    from ._board import Setup

__all__ = [
    "PLAYOUT",
    "CompiledFormfinity",
    "FormfinityKernel",
    "pack",
    "state_buffer",
    "state_from_buffer",
    "state_from_fields",
]

Anchors = list[tuple[int, int]]
"""(shape id, anchors bitboard) per orientation with a legal placement."""


class FormfinityKernel:
    """The pure-Python kernel: the reference every compiled answer must equal."""

    def setup(self, pure: Setup) -> Setup:
        """The setup this kernel's game object plays on, from the pure rules' one (that one itself)."""
        return pure

    def flood(self, seed: int, passable: int, stride: int) -> int:
        """The squares of ``passable`` orthogonally connected to ``seed``."""
        return flood(seed, passable, stride)

    def element_anchors(
        self, setup: Setup, orients: Sequence[int], edges: int, blocked: int, allowed: int, touch: int | None
    ) -> Anchors | None:
        """``_board.element_anchors`` in one call, or None: the Python computes it."""
        return None

    def keeps_a_way(self, setup: Setup, st: FormfinityState, player: int, options: Anchors) -> Anchors | None:
        """``_flow.keeps_a_way`` in one call, or None: the Python computes it."""
        return None

    def playout(
        self, setup: Setup, state: FormfinityState, rngs: Sequence[Rng], max_actions: int | None
    ) -> tuple[FormfinityState, int] | None:
        """The whole random playout in one call, or None: the game plays it step by step."""
        return None


_SCALARS = ("turn", "phase", "card", "left", "placed", "area", "fails", "cards_drawn", "unused")
"""FormfinityState's int fields the buffer holds as they are, in its order."""
_GOALS = ("lines", "areas", "connection", "numbers")
_ROTATION = ("card", "always", "never")

BOARD = 216
"""Bytes of a board in the compiled kernel (27 words: a 40 x 40 template, stride 41, needs 1,640 bits)."""
SEATS = 4
"""Players the buffer has room for (those past the game's are zeros)."""

PLAYOUT = StateLayout(
    (
        ("players", "q", 1),
        ("nrngs", "q", 1),  # playout: the generators in rngs (1: one for every player)
        ("max_actions", "q", 1),  # playout: -1, to the end
        ("taken", "q", 1),  # out (playout): the actions taken
        ("me", "q", 1),  # greedy_run: the player whose horizon it is
        ("left_me", "q", 1),  # greedy_run, in and out
        ("steps", "q", 1),  # greedy_run, in and out: steps left
        ("done", "q", 1),  # out (greedy_run): the horizon reached
        ("holes", "q", 1),  # out (greedy_run): claimable holes at the horizon
        ("rng", "Q", 1),  # FormfinityState.rng: the card draws
        ("done_areas", "Q", 1),
        ("rngs", "Q", SEATS),  # the players' generators (greedy_run: rngs[0])
        *((name, "q", 1) for name in _SCALARS),
        ("nwin", "q", 1),
        ("winners", "q", SEATS),
        ("points", "q", SEATS),
        ("owners", f"{BOARD}s", SEATS),
        ("last", f"{BOARD}s", 1),
    )
)
"""The compiled playout's and greedy run's state buffer (``_cformfinity_playout.h``'s PlayoutBuf): a
FormfinityState's fixed-size fields with the call's generators and limits, written back with the end state;
the deck, lines and numbers travel beside it as the state's tuples. The one description of it: the C reports
its members' offsets (``_cformfinity.layout()``) and tests/kernel/test_layouts.py compares them with these."""

_I = PLAYOUT.index  # where each field's items start in the buffer's flat tuple
_TAKEN, _RNG, _DONE_AREAS, _RNGS, _NWIN, _WINNERS, _POINTS, _OWNERS, _LAST = (
    _I[f] for f in ("taken", "rng", "done_areas", "rngs", "nwin", "winners", "points", "owners", "last")
)
_FIRST = _I[_SCALARS[0]]
_board = functools.partial(int.from_bytes, byteorder="little")


def pack(setup: Setup) -> tuple[object, ...]:
    """A setup as the compiled kernel reads it once (``prepare``): its sizes, boards, rules and card source."""
    r, gen = setup.rules, setup.generator
    return (
        setup.W, setup.H, _GOALS.index(r.goal), setup.players, setup.full, setup.playable, setup.wall,
        setup.stars, setup.areas, setup.numbers, setup.numbers_all, r.corner_touch, r.connect, r.length,
        r.target, r.difficulty == "hard", r.directions, r.arrows, _ROTATION.index(r.rotation),
        None if gen is None else (gen.sizes, gen.counts, gen.arrows, gen.rotation),
        setup.deck, setup.deck_shuffle, setup.possible,
    )  # fmt: skip


def _state_buffer(n: int, st: FormfinityState, rngs: Sequence[int], calls: tuple[int, ...]) -> bytearray | None:
    """The state buffer (PLAYOUT) of ``st`` with ``n`` players, the generators ``rngs`` and the call's
    ``calls`` (nrngs ... holes); None where it cannot hold it."""
    if n > SEATS or len(st.owners) != n or len(st.points) != n or len(st.winners) > n or st.done_areas >> 64:
        return None
    pad = (0,) * (SEATS - n)
    return bytearray(
        PLAYOUT.struct.pack(
            n, *calls, st.rng, st.done_areas, *rngs, *(0,) * (SEATS - len(rngs)),
            st.turn, st.phase, st.card, st.left, st.placed, st.area, st.fails, st.cards_drawn, st.unused,
            len(st.winners), *st.winners, *(0,) * (SEATS - len(st.winners)), *st.points, *pad,
            *[b.to_bytes(BOARD, "little") for b in st.owners], *(b"",) * (SEATS - n),
            st.last.to_bytes(BOARD, "little"),
        )
    )  # fmt: skip


def state_buffer(st: FormfinityState, rngs: Sequence[int] = (), calls: tuple[int, ...] = (0,) * 8) -> bytearray:
    """``st``'s fixed-size fields in a state buffer (PLAYOUT) with the generators ``rngs`` and the call's
    fields ``calls`` (nrngs ... holes; by default none): what the compiled batch (``_cformfinity_vec.load``)
    and the AI's greedy run read beside the deck, lines and numbers; ValueError where it cannot hold them."""
    buf = _state_buffer(st.config.players, st, rngs, calls)
    if buf is None:
        raise ValueError("a state the compiled kernel does not hold")
    return buf


def state_from_buffer(like: FormfinityState, buf: bytearray, rest: tuple[object, object, object]) -> FormfinityState:
    """The state a state buffer (and the deck, lines and numbers ``rest``) holds, of ``like``'s configuration."""
    return CompiledFormfinity._state(like, like.config.players, PLAYOUT.struct.unpack(buf), rest)


def state_from_fields(
    like: FormfinityState, fields: tuple[Any, ...], rest: tuple[object, object, object]
) -> FormfinityState:
    """:func:`state_from_buffer` from the buffer already unpacked (``PLAYOUT.struct.unpack``), for a caller
    that also reads the call's fields (``PLAYOUT.index``)."""
    return CompiledFormfinity._state(like, like.config.players, fields, rest)


class CompiledFormfinity(FormfinityKernel):
    """The same kernel in C (``_cformfinity``): the same regions, anchors, draws and states, faster."""

    _ready: set[int] = set()  # noqa: RUF012 (the extensions whose shape tables are loaded: once a process)

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext
        if id(ext) not in self._ready:
            ext.init(SHAPES, ROTATIONS)
            self._ready.add(id(ext))
        self._setups: weakref.WeakKeyDictionary[Setup, Setup] = weakref.WeakKeyDictionary()
        self._prepared: weakref.WeakKeyDictionary[Setup, bytearray | None] = weakref.WeakKeyDictionary()

    def setup(self, pure: Setup) -> Setup:
        """The setup of the pure rules with this kernel in it (made once per setup)."""
        got = self._setups.get(pure)
        if got is None:
            got = self._setups[pure] = replace(pure, kernel=self)
        return got

    def prepared(self, setup: Setup) -> bytearray | None:
        """The setup as the kernel holds it (its FFSetup, read from :func:`pack` once per setup), which the
        playout, the greedy run and the batch take; None where the kernel does not hold it (they decline)."""
        try:
            return self._prepared[setup]
        except KeyError:
            buf: bytearray | None = bytearray(self.ext.setup_bytes())
            if not self.ext.prepare(pack(setup), buf):
                buf = None
            self._prepared[setup] = buf
            return buf

    def flood(self, seed: int, passable: int, stride: int) -> int:
        return int(self.ext.flood(seed, passable, stride))

    def element_anchors(
        self, setup: Setup, orients: Sequence[int], edges: int, blocked: int, allowed: int, touch: int | None
    ) -> Anchors:
        return self.ext.element_anchors(setup.W, setup.H, orients, edges, blocked, allowed, touch)  # type: ignore[no-any-return]

    def keeps_a_way(self, setup: Setup, st: FormfinityState, player: int, options: Anchors) -> Anchors:
        own, stars = st.owners, setup.stars
        args = (setup.full, setup.playable, stars[0], stars[1], setup.rules.corner_touch, own[0], own[1])
        return self.ext.keeps_a_way(setup.W, setup.H, *args, player, options)  # type: ignore[no-any-return]

    def _buffer(
        self, setup: Setup, st: FormfinityState, rngs: Sequence[int], calls: tuple[int, ...]
    ) -> bytearray | None:
        """The state buffer of ``st`` (None where it cannot hold it: the kernel would decline too)."""
        return _state_buffer(setup.players, st, rngs, calls)

    @staticmethod
    def _state(st: FormfinityState, n: int, v: tuple[Any, ...], rest: tuple[object, object, object]) -> FormfinityState:
        """``st`` with the end state of the buffer ``v`` (unpacked) and the deck, lines and numbers ``rest``."""
        turn, phase, card, left, placed, area, fails, cards_drawn, unused = v[_FIRST : _FIRST + len(_SCALARS)]
        deck, lines, numbers = rest
        new = evolve(st)  # a copy, its fields then overwritten in one update (faster than evolve's keywords)
        new.__dict__.update(
            rng=v[_RNG], deck=deck, owners=tuple(map(_board, v[_OWNERS : _OWNERS + n])), turn=turn,
            phase=phase, card=card, left=left, placed=placed, lines=lines, area=area, done_areas=v[_DONE_AREAS],
            fails=fails, points=v[_POINTS : _POINTS + n], numbers=numbers, winners=v[_WINNERS : _WINNERS + v[_NWIN]],
            cards_drawn=cards_drawn, last=_board(v[_LAST]), unused=unused,
        )  # fmt: skip
        return new

    def playout(
        self, setup: Setup, state: FormfinityState, rngs: Sequence[Rng], max_actions: int | None
    ) -> tuple[FormfinityState, int] | None:
        """The same draws and the same final state, through one state buffer (PLAYOUT); None where the kernel
        declines (tables it does not hold), and then nothing has changed."""
        used = rngs[:1] if len(rngs) == 1 else rngs[: setup.players]
        if len(used) > SEATS:
            return None
        limit = -1 if max_actions is None else max_actions
        buf = self._buffer(setup, state, [r.state for r in used], (len(used), limit, 0, 0, 0, 0, 0, 0))
        if buf is None:
            return None
        prepared = self.prepared(setup)
        if prepared is None:
            return None
        rest = self.ext.playout(prepared, state.deck, state.lines, state.numbers, buf)
        if rest is None:
            return None
        v = PLAYOUT.struct.unpack(buf)
        for r, st in zip(used, v[_RNGS : _RNGS + len(used)], strict=True):
            r.state = st
        return self._state(state, setup.players, v, rest), v[_TAKEN]
