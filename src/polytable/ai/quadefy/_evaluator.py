"""Quadefy's evaluator: mobility (keep one's own placements, remove the opponent's; a won game is worth
1000), counted for both hands in one generation; an action is worth the evaluation after it.

``action_value`` is the MCTS prior of ``hard`` over up to 400 placements a node, so it counts straight on
the game's kernel (:func:`mobility_after`, also the greedy's measure) with the same value as ``evaluate``
after ``apply``: the 761 placements of the empty cube cost 5.5 ms of CPU instead of 26.6 ms through a
checked step and a Python count, so ``hard``'s opening moves keep closer to their time. It takes a legal
``action`` for ``player``, the only kind the searches pass (a test checks the two agree).
"""

from __future__ import annotations

from typing import Any

from ...core import Game
from ...games.quadefy import ACTION_IDS, PLACEMENTS, CompiledQuadefy, QuadefyKernel, hand_counts, kernel_of

__all__ = ["QuadefyEvaluator", "mobility_after"]


def mobility_after(kernel: QuadefyKernel, occ: int, me: int, opp: int, flags: int, pid: int) -> int:
    """The mobility after the mover (hand ``me``) makes placement ``pid``: 1000 when the opponent (hand
    ``opp``) is left without a placement (a won game), else the mover's placements minus the opponent's.
    The compiled kernel counts each hand in C; the pure one counts both hands in one generation."""
    placed = PLACEMENTS[pid]
    after = occ | placed.mask
    mine_left = me & ~(1 << placed.block)
    if isinstance(kernel, CompiledQuadefy):
        theirs = kernel.count(after, opp, flags)
        return 1000 if theirs == 0 else kernel.count(after, mine_left, flags) - theirs
    mine, theirs = hand_counts(after, mine_left, opp, flags)
    return 1000 if theirs == 0 else mine - theirs


class QuadefyEvaluator:
    def evaluate(self, game: Game[Any, Any], state: Any, player: int) -> float:
        if state.loser >= 0:
            return 1000.0 if state.loser != player else -1000.0
        mine, theirs = hand_counts(state.occupied, state.remaining[player], state.remaining[1 - player], state.flags)
        return float(mine - theirs)

    def action_value(self, game: Game[Any, Any], state: Any, action: Any, player: int) -> float:
        me, opp = state.remaining[player], state.remaining[1 - player]
        return float(mobility_after(kernel_of(game), state.occupied, me, opp, state.flags, ACTION_IDS[action]))
