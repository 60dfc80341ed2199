"""Qwirkle Cubes: every placement a roll could give, tabulated once per reroll decision.

Why: a reroll is judged by the best placement of each hand it may give, over many sampled rolls and
every reroll choice. Walking the placements of each sampled hand (as the first ``hard`` did) costs about
a millisecond a hand and capped the search at a few choices and 64 rolls. But a roll changes shapes, never
colours, so every hand a reroll can give shows faces of the colours already held, no more cubes of a
colour than are held. One walk over the placements those colour counts allow (faces of a colour offered
only while a cube of that colour is left) finds every placement any roll can give; their values are
computed once, and kept per *set of faces* (a placement never repeats a face: a line holds distinct
faces). The best placement of a hand is then the first entry, by value, whose faces the hand shows: a
scan of a few hundred integers instead of a walk.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...games.qwirkle_cubes import Board, Placement
from ._values import PURE, QwirkleValues

__all__ = ["RollTable", "reachable_placements"]


def reachable_placements(board: Board, hand: tuple[int, ...]) -> Iterator[Placement]:
    """Every placement on ``board`` (not the empty one) whose faces some roll of ``hand`` could show."""
    counts = [0] * 6
    for t in hand:
        counts[t // 6] += 1
    return board.placements_by_colour(counts)


class RollTable:
    """The best value per set of faces over every placement a roll of ``hand`` could give, sorted best
    first, so that the best placement of any hand those cubes can show is one scan away.

    A placement is valued as greedy values it for ``player`` (points minus the Qwirkle chances handed to
    the others, whose ``hands`` these are: ``kernel.colour_values``, in C beside the compiled kernel);
    ``per_cube`` is added for each cube placed (a cube kept for the next turn is worth less than a fresh
    draw); ``out_bonus`` is added when a placement uses the whole hand (going out with the bag empty)."""

    __slots__ = ("_memo", "entries", "size")

    def __init__(
        self,
        board: Board,
        hand: tuple[int, ...],
        hands: tuple[tuple[int, ...], ...],
        player: int,
        per_cube: float = 0.0,
        out_bonus: float = 0.0,
        kernel: QwirkleValues = PURE,
    ) -> None:
        size = len(hand)
        counts = [0] * 6
        for t in hand:
            counts[t // 6] += 1
        best: dict[int, tuple[float, Placement]] = {}
        for v, fm, placed in kernel.colour_values(board, counts, size, per_cube, out_bonus, hands, player, True, {}):
            got = best.get(fm)
            if got is None or v > got[0]:
                best[fm] = (v, placed)
        self.entries = sorted(((v, fm, placed) for fm, (v, placed) in best.items()), key=lambda e: -e[0])
        self.size = size
        self._memo: dict[int, tuple[float, Placement]] = {}

    def best(self, faces: int) -> tuple[float, Placement]:
        """(value, placement) of the best placement of a hand showing the faces ``faces`` (a mask), or
        ``(-inf, ())`` if none fits."""
        got = self._memo.get(faces)
        if got is not None:
            return got
        out: tuple[float, Placement] = (float("-inf"), ())
        miss = ~faces
        for v, fm, placed in self.entries:
            if not fm & miss:
                out = (v, placed)
                break
        self._memo[faces] = out
        return out
