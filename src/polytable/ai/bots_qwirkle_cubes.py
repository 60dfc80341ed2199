"""Qwirkle Cubes bots: ``greedy`` (best placement now minus what it leaves open, and rerolls of the
cubes that placement does not use), ``greedy-keep`` (the same, never rerolling) to measure what the
reroll is worth, and ``greedy-points`` (no look-around) to measure the evaluation. The evaluation lives
with the rules in ``games/qwirkle_cubes/_ai.py``."""

from __future__ import annotations

from typing import Any

from ..core import Game, Rng
from ..games.qwirkle_cubes import Pass, Place, Reroll
from ..games.qwirkle_cubes._ai import best_placement, placement_value, unused_mask
from ..games.qwirkle_cubes._check import largest_line
from ..games.qwirkle_cubes._game import hand_mask
from ..games.qwirkle_cubes._state import PASS, PLACE, REROLL, QState
from ._bots import register_bot

__all__ = ["QwirkleGreedy"]


class QwirkleGreedy:
    """One ply with look-around: see ``games/qwirkle_cubes/_ai.py`` for why these terms."""

    def __init__(self, reroll: bool = True, look: bool = True) -> None:
        self.reroll = reroll
        self.look = look
        self.name = "greedy" + ("" if reroll else "-keep") + ("" if look else "-points")

    def choose(self, game: Game[Any, Any], state: QState, player: int, rng: Rng) -> Any:
        if state.phase == PASS:
            return Pass()
        if state.phase == REROLL:
            if not self.reroll:
                return Reroll(0)
            _, best = best_placement(state, player)
            hand = state.hands[player]
            return Reroll(unused_mask(hand, best) if best else (1 << len(hand)) - 1)
        if state.phase == PLACE:
            hand = state.hands[player]
            hm = hand_mask(hand)
            need = largest_line(hm) if not state.board.cells else 0
            top: list[tuple[tuple[int, int], ...]] = []
            top_value = float("-inf")
            for placed in state.board.placements(hm, need):
                v = placement_value(state, placed, player, self.look)
                if v > top_value + 1e-9:
                    top_value, top = v, [placed]
                elif v >= top_value - 1e-9:
                    top.append(placed)
            return Place(top[rng.below(len(top))] if len(top) > 1 else top[0])
        return game.legal_actions(state, player).sample(rng)


register_bot("greedy", QwirkleGreedy, "qwirkle-cubes")
register_bot("greedy-keep", lambda: QwirkleGreedy(reroll=False), "qwirkle-cubes")
register_bot("greedy-points", lambda: QwirkleGreedy(look=False), "qwirkle-cubes")
