"""Forma's own ``greedy`` bot: the generic one-ply greedy over a pruned candidate list.

Why pruned: an open Forma board has 20,000-30,000 legal placements, and scoring every one with
``Game.action_value`` (tens of microseconds each) would take a second per move. The points that matter
now come from a few places, so the candidates are (1) every placement that covers the open side of a cell
with three closed sides or an open side of an obstacle or the tower that is nearly closed (these can score
now), capped at :data:`HOT_CAP` by a seeded random subset, and (2) :data:`RANDOM_CANDIDATES` uniformly
random legal placements (for space, bridges and blocking, which the evaluation weighs). The best by
``Game.action_value`` wins; ties are broken with the injected generator, so games replay exactly.
"""

from __future__ import annotations

from typing import Any

from ..core import Game, Rng
from ..games.forma import _pieces as P
from ..games.forma._rules import neighbours
from ..games.forma._state import FormaState, Pick, Place
from ._bots import register_bot

__all__ = ["HOT_CAP", "RANDOM_CANDIDATES", "FormaGreedy"]

HOT_CAP = 600
RANDOM_CANDIDATES = 250


def _offsets(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class FormaGreedy:
    """Points now plus position (see ``polytable.games.forma._ai``), over the candidates described above."""

    name = "greedy"

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        s: FormaState = state
        legal = game.legal_actions(s, player)
        if s.picked < 0 and s.config["touch_move"]:
            picks = list(legal)
            return self._best(game, s, picks, player, rng)
        tb = P.tables(s.size)
        st = tb.stride
        filled = s.filled
        empty = tb.board & ~filled
        le, ri = (filled << 1) | tb.left, (filled >> 1) | tb.right
        up, dn = (filled << st) | tb.top, (filled >> st) | tb.bottom
        three = empty & ((le & ri & (up | dn)) | (up & dn & (le | ri)))
        target = neighbours(tb, three) & empty
        pending = (s.obstacles | s.tower) & ~s.closed
        if pending:
            target |= s.watch & empty
        table = tb.table(empty)
        gs = s.orients[player] if s.picked < 0 else P.PIECE_ORIENTS[s.picked]
        hot: list[Place] = []
        if target:
            top = s.size - 1
            for g in gs:
                ok = table[g]
                if not ok:
                    continue
                hit = 0
                for o in _offsets(tb.masks[g]):
                    hit |= target >> o
                cand = ok & hit
                p, k, ref = P.ORIENT_PIECE[g], P.ORIENT_K[g], P.ORIENT_REF[g]
                while cand:
                    low = cand & -cand
                    y, x = divmod(low.bit_length() - 1, st)
                    hot.append(Place(p, k, x + ref, top - y))
                    cand ^= low
        if len(hot) > HOT_CAP:
            hot = list(rng.shuffle(hot)[:HOT_CAP])
        candidates = set(hot)
        for _ in range(RANDOM_CANDIDATES):
            candidates.add(legal.sample(rng))
        return self._best(game, s, sorted(candidates), player, rng)

    @staticmethod
    def _best(game: Game[Any, Any], s: FormaState, actions: list[Place] | list[Pick], player: int, rng: Rng) -> Any:
        best: list[Any] = []
        best_value = float("-inf")
        for a in actions:
            v = game.action_value(s, a, player)
            if v > best_value + 1e-9:
                best_value, best = v, [a]
            elif v >= best_value - 1e-9:
                best.append(a)
        return best[rng.below(len(best))] if len(best) > 1 else best[0]


register_bot("greedy", FormaGreedy, "forma")
