"""The greedy evaluation over many placements at once: what the sampling players (``hard``/``medium``) ask
thousands of times a decision, so it runs in C (``_cqwirkle_eval``, the AI's own extension) beside the
compiled kernel.

A placement's value is ``_eval``'s: its points, minus (``look``) the Qwirkle chances it hands the others
(:func:`._eval.threat`). Three questions, each the same in both engines (the same placements in the same
order, the same doubles; tests/ai/qwirkle_cubes/test_qwirkle_eval_native.py):

* :func:`placement_values`: every placement of one hand with its value;
* :func:`best_value`: the best placement of one hand (the first of the highest value in walk order), with
  ``out_bonus`` added to a placement that uses the whole hand (going out with the bag empty);
* :func:`colour_values`: every placement some roll of cubes with these colour counts could show
  (:meth:`Board.placements_by_colour`), with its value plus ``per_cube`` a cube placed (and ``out_bonus``)
  and the mask of its faces: the table a reroll is judged by;
* :func:`roll_diffs`: sampled rolls of the hand, each reroll choice's value on each against a reference
  choice's, answered from that table (the rolls drawn from the generator as the Python draws them).

The Python below is the reference (what a game object on the pure kernel is valued with: :class:`QwirkleValues`;
the players ask :func:`values_of` the game object's kernel); ``memo`` (placement -> value) lets it keep the
values of one board and one look across calls, as the players do. The compiled evaluation
(:class:`CompiledValues`) ignores it: a value costs less there than a dictionary lookup here.
"""

from __future__ import annotations

from collections.abc import Sequence
from types import ModuleType

from ...core import Rng, native_module
from ...games.qwirkle_cubes import Board, CompiledQwirkle, Placement, QwirkleKernel
from ._eval import QWIRKLE_VALUE, REROLL_HIT, threat

__all__ = [
    "CompiledValues",
    "Hands",
    "Memo",
    "QwirkleValues",
    "best_value",
    "colour_values",
    "placement_values",
    "roll_diffs",
    "values_of",
]

Hands = tuple[tuple[int, ...], ...]


Memo = dict[Placement, float] | None


def _value(board: Board, placed: Placement, hands: Hands, player: int, look: bool, memo: Memo) -> float:
    got = None if memo is None else memo.get(placed)
    if got is None:
        after = board.scratch(placed)
        got = float(after.score_placed(placed)[0])
        if look:
            got -= threat(after, placed, hands, player)
        if memo is not None:
            memo[placed] = got
    return got


def placement_values(
    board: Board, hand: int, need: int, hands: Hands, player: int, look: bool, memo: Memo = None
) -> list[tuple[Placement, float]]:
    """(placement, value) for every placement of the distinct faces ``hand`` (``need`` as in
    :meth:`Board.placements`), in its order; ``player`` places, ``hands`` are everyone's (for the look)."""
    return [(p, _value(board, p, hands, player, look, memo)) for p in board.placements(hand, need)]


def best_value(
    board: Board,
    hand: int,
    need: int,
    size: int,
    out_bonus: float,
    hands: Hands,
    player: int,
    look: bool,
    memo: Memo = None,
) -> tuple[float, Placement]:
    """(value, placement) of the best placement of ``hand``, ``(-inf, ())`` if none fits; a placement of
    ``size`` cubes (the whole hand) gains ``out_bonus``."""
    best: tuple[float, Placement] = (float("-inf"), ())
    for placed in board.placements(hand, need):
        v = _value(board, placed, hands, player, look, memo)
        if out_bonus and len(placed) == size:
            v += out_bonus
        if v > best[0]:
            best = (v, placed)
    return best


def colour_values(
    board: Board,
    counts: Sequence[int],
    size: int,
    per_cube: float,
    out_bonus: float,
    hands: Hands,
    player: int,
    look: bool,
    memo: Memo = None,
) -> list[tuple[float, int, Placement]]:
    """(value, faces mask, placement) for every placement some roll of cubes with the colour counts
    ``counts`` could show, in :meth:`Board.placements_by_colour`'s order; the value gains ``per_cube`` a
    cube placed and ``out_bonus`` for a placement of ``size`` cubes."""
    out: list[tuple[float, int, Placement]] = []
    for placed in board.placements_by_colour(counts):
        fm = 0
        for f, _ in placed:
            fm |= 1 << f
        v = _value(board, placed, hands, player, look, memo) + per_cube * len(placed)
        if out_bonus and len(placed) == size:
            v += out_bonus
        out.append((v, fm, placed))
    return out


def roll_diffs(
    fms: Sequence[int],
    values: Sequence[float],
    hand: Sequence[int],
    masks: Sequence[int],
    base: int,
    rng: Rng,
    rounds: int,
) -> list[list[float]]:
    """``rounds`` sampled rolls of the whole hand (a shape a slot, ``rng.below(6)`` in slot order), shared by
    every reroll choice: for each of ``masks`` (in order), the value of the hand it gives minus that of
    ``base`` (one of ``masks``), a round each. A hand's value is that of the first entry of the table
    (``fms``: faces masks, ``values``: theirs, best first) whose faces it shows, 0.0 if none."""
    table = list(zip(fms, values, strict=True))
    memo: dict[int, float] = {}
    n = len(hand)
    colours = [t // 6 * 6 for t in hand]
    plans = []
    for m in masks:
        kept = 0
        for i in range(n):
            if not m >> i & 1:
                kept |= 1 << hand[i]
        plans.append((kept, [(colours[i], i) for i in range(n) if m >> i & 1]))
    out: list[list[float]] = [[] for _ in masks]
    at = list(masks).index(base)
    for _ in range(rounds):
        shapes = [rng.below(6) for _ in range(n)]
        got = []
        for kept, rolled in plans:
            fm = kept
            for c, i in rolled:
                fm |= 1 << (c + shapes[i])
            v = memo.get(fm)
            if v is None:
                v = 0.0
                miss = ~fm
                for f, value in table:
                    if not f & miss:
                        v = value
                        break
                memo[fm] = v
            got.append(v)
        ref = got[at]
        for row, v in zip(out, got, strict=True):
            row.append(v - ref)
    return out


class QwirkleValues:
    """The evaluation in Python, the reference: what a game object on the pure kernel is valued with."""

    placement_values = staticmethod(placement_values)
    best_value = staticmethod(best_value)
    colour_values = staticmethod(colour_values)
    roll_diffs = staticmethod(roll_diffs)


class CompiledValues(QwirkleValues):
    """The same evaluation in C (``_cqwirkle_eval``), on the table of the compiled kernel: identical values,
    placements and draws, faster."""

    def __init__(self, ext: ModuleType) -> None:
        self.ext = ext

    def placement_values(
        self, board: Board, hand: int, need: int, hands: Hands, player: int, look: bool, memo: Memo = None
    ) -> list[tuple[Placement, float]]:
        return self.ext.values(board.order, hand, need, hands, player, look, QWIRKLE_VALUE, REROLL_HIT)  # type: ignore[no-any-return]

    def best_value(
        self,
        board: Board,
        hand: int,
        need: int,
        size: int,
        out_bonus: float,
        hands: Hands,
        player: int,
        look: bool,
        memo: Memo = None,
    ) -> tuple[float, Placement]:
        return self.ext.best(  # type: ignore[no-any-return]
            board.order, hand, need, size, out_bonus, hands, player, look, QWIRKLE_VALUE, REROLL_HIT
        )

    def colour_values(
        self,
        board: Board,
        counts: Sequence[int],
        size: int,
        per_cube: float,
        out_bonus: float,
        hands: Hands,
        player: int,
        look: bool,
        memo: Memo = None,
    ) -> list[tuple[float, int, Placement]]:
        return self.ext.colour_values(  # type: ignore[no-any-return]
            board.order, tuple(counts), size, per_cube, out_bonus, hands, player, look, QWIRKLE_VALUE, REROLL_HIT
        )

    def roll_diffs(
        self,
        fms: Sequence[int],
        values: Sequence[float],
        hand: Sequence[int],
        masks: Sequence[int],
        base: int,
        rng: Rng,
        rounds: int,
    ) -> list[list[float]]:
        out, rng.state = self.ext.roll_diffs(fms, values, hand, masks, base, rng.state, rounds)
        return out  # type: ignore[no-any-return]


PURE = QwirkleValues()


def values_of(kernel: QwirkleKernel) -> QwirkleValues:
    """The evaluation that goes with a game object's kernel: in C beside the compiled kernel (when the AI's
    extension is built), else the Python."""
    ext = native_module("polytable.ai.qwirkle_cubes._cqwirkle_eval") if isinstance(kernel, CompiledQwirkle) else None
    return PURE if ext is None else CompiledValues(ext)
