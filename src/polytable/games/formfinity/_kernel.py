"""FORMFINITY's rules kernel, the one seam between the pure-Python rules and the compiled ``_cformfinity``.

The game object picks its kernel once, when it is made (``get_game("formfinity", engine=...)``), and hands
it to every :class:`._board.Setup` it builds (``setup.kernel``: a setup is made once per config and
engine), so the rules below the game object reach it through the setup they already receive. A
:class:`FormfinityKernel` runs the Python rules (the reference); a :class:`CompiledFormfinity` answers the
hot path the profile shows in C: where an element may go (``_board.element_anchors``: every orientation,
anywhere or slid in from the card's edges, as bitboards), the flood of a region (``Setup.flood``), the
connection goal's "no element may take the opponent's last way" filter (``_flow.keeps_a_way``), the whole
random playout (``_flow``'s turns, card draws, lines, areas, numbers and ends, with the draws of
``FormfinityGame._sample``) and the lines goal's greedy replica (``polytable.ai.formfinity.greedy_run``: the
AI's, still compiled here). Stepwise play, notation and views stay in Python.
tests/games/formfinity/test_formfinity_native.py, test_formfinity_playout.py and ``polytable fuzz
formfinity`` play both side by side; docs/engine.md describes the seam.
"""

from __future__ import annotations

import weakref
from collections.abc import Sequence
from dataclasses import replace
from types import ModuleType
from typing import TYPE_CHECKING

from polytable.core import Rng
from polytable.geometry import flood

from ._cards import ROTATIONS, SHAPES
from ._state import FormfinityState, evolve

if TYPE_CHECKING:
    from ._board import Setup

__all__ = ["CompiledFormfinity", "FormfinityKernel"]

Anchors = list[tuple[int, int]]
"""(shape id, anchors bitboard) per orientation with a legal placement."""
Run = tuple[FormfinityState, bool, int, bool, int]
"""What ``polytable.ai.formfinity.greedy_run`` returns: (state, left_me, steps left, done, holes)."""


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

    def greedy_run(self, setup: Setup, st: FormfinityState, me: int, rng: Rng, left_me: bool, steps: int) -> Run | None:
        """``polytable.ai.formfinity.greedy_run`` in one call, or None: the Python plays it."""
        return None


_GOALS = ("lines", "areas", "connection", "numbers")
_ROTATION = ("card", "always", "never")
_FIELDS = (
    "rng", "deck", "owners", "turn", "phase", "card", "left", "placed", "lines", "area", "done_areas", "fails",
    "points", "numbers", "winners", "cards_drawn", "last", "unused",
)  # fmt: skip


class CompiledFormfinity(FormfinityKernel):
    """The same kernel in C (``_cformfinity``): the same regions, anchors, draws and states, faster."""

    _ready: set[int] = set()  # noqa: RUF012 (the extensions whose shape tables are loaded: once a process)

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext
        if id(ext) not in self._ready:
            ext.init(SHAPES, ROTATIONS)
            self._ready.add(id(ext))
        self._setups: weakref.WeakKeyDictionary[Setup, Setup] = weakref.WeakKeyDictionary()
        self._packs: weakref.WeakKeyDictionary[Setup, tuple[object, ...]] = weakref.WeakKeyDictionary()

    def setup(self, pure: Setup) -> Setup:
        """The setup of the pure rules with this kernel in it (made once per setup)."""
        got = self._setups.get(pure)
        if got is None:
            got = self._setups[pure] = replace(pure, kernel=self)
        return got

    def _pack(self, setup: Setup) -> tuple[object, ...]:
        """The setup as the kernel reads it (built once per setup; the kernel rereads it only when it changes)."""
        pack = self._packs.get(setup)
        if pack is None:
            r, gen = setup.rules, setup.generator
            pack = (
                setup.W, setup.H, _GOALS.index(r.goal), setup.players, setup.full, setup.playable, setup.wall,
                setup.stars, setup.areas, setup.numbers, setup.numbers_all, r.corner_touch, r.connect, r.length,
                r.target, r.difficulty == "hard", r.directions, r.arrows, _ROTATION.index(r.rotation),
                None if gen is None else (gen.sizes, gen.counts, gen.arrows, gen.rotation),
                setup.deck, setup.deck_shuffle, setup.possible,
            )  # fmt: skip
            self._packs[setup] = pack
        return pack

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

    def playout(
        self, setup: Setup, state: FormfinityState, rngs: Sequence[Rng], max_actions: int | None
    ) -> tuple[FormfinityState, int] | None:
        """The same draws and the same final state; None where the kernel declines (tables it does not
        hold), and then nothing has changed."""
        used = rngs[:1] if len(rngs) == 1 else rngs[: setup.players]
        fields = tuple(getattr(state, f) for f in _FIELDS)
        limit = -1 if max_actions is None else max_actions
        out = self.ext.playout(self._pack(setup), fields, [r.state for r in used], limit)
        if out is None:
            return None
        values, states, taken = out
        for r, st in zip(used, states, strict=True):
            r.state = st
        return evolve(state, **dict(zip(_FIELDS, values, strict=True))), taken

    def greedy_run(self, setup: Setup, st: FormfinityState, me: int, rng: Rng, left_me: bool, steps: int) -> Run | None:
        if setup.rules.goal != "lines" or setup.players < 2:
            return None
        fields = tuple(getattr(st, f) for f in _FIELDS)
        out = self.ext.greedy_run(self._pack(setup), fields, rng.state, me, left_me, steps)
        if out is None:
            return None
        values, rng.state, left, rest, done, holes = out
        return evolve(st, **dict(zip(_FIELDS, values, strict=True))), left, rest, done, holes
