"""Quadefy bots: a fast mobility ``greedy`` and the exact endgame ``solver``.

``greedy`` is the generic one-ply bot with Quadefy's evaluation (own placements minus the opponent's,
a won game worth 1000) computed straight on bit sets instead of through new states: same choices as the
generic ``GreedyBot`` with ``Quadefy.evaluate``, several times faster.

``solver`` runs the exact solver (:func:`polytable.games.quadefy.solve_position`) with a node budget:
when the search finishes it plays a proven winning move, or, in a lost position, the greedy move (every
move loses against perfect play, so it picks the one that looks hardest to refute). When the budget runs
out (the remaining game is too large) it plays the greedy move. In practice the search finishes from
about the eighth block (seven placed) onward with the default budget of 4000 positions.
"""

from __future__ import annotations

from typing import Any

from ..core import ConfigError, Game, Rng
from ..games.quadefy import Placement, QuadefyState, solve_position
from ..games.quadefy._moves import hand_counts
from ..games.quadefy._solver import moves_of
from ..games.quadefy._state import ACTIONS
from ..games.quadefy._tables import PLACEMENTS
from ._bots import register_bot

__all__ = ["QuadefyGreedyBot", "QuadefySolverBot", "greedy_choice"]


def greedy_choice(state: QuadefyState, player: int, rng: Rng) -> int:
    """The placement id with the best mobility difference after it (ties broken with ``rng``)."""
    occ, flags = state.occupied, state.flags
    me, opp = state.remaining[player], state.remaining[1 - player]
    best: list[int] = []
    best_value = -(10**9)
    for pid in moves_of(occ, me, flags):
        p = PLACEMENTS[pid]
        child = occ | p.mask
        mine, theirs = hand_counts(child, me & ~(1 << p.block), opp, flags)
        value = 1000 if theirs == 0 else mine - theirs
        if value > best_value:
            best_value, best = value, [pid]
        elif value == best_value:
            best.append(pid)
    if not best:
        raise ConfigError(f"Quadefy: player {player + 1} has no legal placement")
    return best[rng.below(len(best))] if len(best) > 1 else best[0]


class QuadefyGreedyBot:
    """One ply of mobility (see the module docstring)."""

    name = "greedy"

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Placement:
        return ACTIONS[greedy_choice(state, player, rng)]


class QuadefySolverBot:
    """Perfect play when the exact search fits in ``max_nodes`` expansions; greedy otherwise."""

    name = "solver"

    def __init__(self, max_nodes: int = 4000) -> None:
        self.max_nodes = max_nodes
        self._tables: dict[int, dict[int, bool]] = {}
        """Transposition tables kept between moves, one per option set (their entries are exact)."""
        self.last: tuple[bool, bool, int] | None = None
        """(solved, win, nodes) of the last search, for tests and curious users."""

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Placement:
        me, opp = state.remaining[player], state.remaining[1 - player]
        table = self._tables.setdefault(state.flags, {})
        if len(table) > 2_000_000:
            table.clear()
        result = solve_position(state.occupied, me, opp, state.flags, self.max_nodes, table)
        self.last = (result.solved, result.win, result.nodes)
        if result.solved and result.best is not None:
            return ACTIONS[result.best]
        return ACTIONS[greedy_choice(state, player, rng)]


register_bot("greedy", QuadefyGreedyBot, "quadefy")
register_bot("solver", QuadefySolverBot, "quadefy")
