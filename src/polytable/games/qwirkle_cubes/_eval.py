"""The greedy evaluation over many placements at once: what the sampling players (``hard``/``medium``) ask
thousands of times a decision, so the compiled kernel answers it when it is built.

A placement's value is ``_ai``'s: its points, minus (``look``) the Qwirkle chances it hands the others
(:func:`._ai.threat`). Three questions, each the same in both engines (the same placements in the same
order, the same doubles; tests/games/qwirkle_cubes/test_qwirkle_eval_native.py):

* :func:`placement_values`: every placement of one hand with its value;
* :func:`best_value`: the best placement of one hand (the first of the highest value in walk order), with
  ``out_bonus`` added to a placement that uses the whole hand (going out with the bag empty);
* :func:`colour_values`: every placement some roll of cubes with these colour counts could show
  (:meth:`Board.placements_by_colour`), with its value plus ``per_cube`` a cube placed (and ``out_bonus``)
  and the mask of its faces: the table a reroll is judged by;
* :func:`roll_diffs`: sampled rolls of the hand, each reroll choice's value on each against a reference
  choice's, answered from that table (the rolls drawn from the generator as the Python draws them).

The Python below is the reference (what the pure kernel, ``_kernel.QwirkleKernel``, answers; the players
ask the game object's kernel); ``memo`` (placement -> value) lets it keep the values of one board and one
look across calls, as the players do. The compiled kernel ignores it: a value costs less there than a
dictionary lookup here.
"""

from __future__ import annotations

from collections.abc import Sequence

from ...core import Rng
from ._ai import threat
from ._board import Board, Placement

__all__ = ["Hands", "Memo", "best_value", "colour_values", "placement_values", "roll_diffs"]

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
