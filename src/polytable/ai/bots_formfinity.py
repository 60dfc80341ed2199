"""FORMFINITY's ``hard`` and ``medium``: a one-turn lookahead with the expectation over the next cards.

Why not the generic MCTS: a FORMFINITY turn is one card of 1-3 elements with tens to hundreds of
placements each, and what decides a position is whether the *opponent's next card* can finish a line
(or block a path, or take a number) that my placement leaves open. A few hundred MCTS iterations with
random rollouts barely see that; the one-ply greedy does not see it at all (it guesses with a fixed
penalty per open threat). So this player asks the question directly:

1. The candidates are the legal actions of the decision (placements, line claims or areas), ordered by
   the game's one-ply ``action_value`` (the greedy evaluation), the best ``width`` kept.
2. Each candidate is played out to the *horizon*: the rest of my turn and then every other player's next
   turn, all played by the one-ply greedy, until I am about to draw again (or the game ends). The cards
   drawn on the way are chance: each sample is ``Game.determinize`` of the real state (the generator is
   reseeded, a deck file's public contents reshuffled; the hidden order is never read), and the same
   samples are used for every candidate (common random numbers), so candidates are compared on the same
   draws.
3. The horizon is valued by the goal's heuristic (:mod:`polytable.games.formfinity._ai`) from my side,
   with "I move next" set, since the next card is mine; a finished game is worth +-10,000.
4. Successive halving: every surviving candidate gets ``batch`` more samples per round and the worse half
   is dropped, until the time budget (``seconds``, wall clock, checked before each playout against the
   slowest playout so far) or ``samples`` per candidate run out. The best mean wins; ties go to the
   better one-ply value.

A decision with one legal action is played at once.
"""

from __future__ import annotations

from typing import Any

from ..core import CHANCE, ConfigError, Game, Rng
from ..games.formfinity import _ai
from ..games.formfinity._board import setup_for
from ..games.formfinity._state import CHOOSE, DRAW, OVER, FormfinityState
from ._bots import GreedyBot, register_bot
from ._clock import budget_clock

__all__ = ["FormfinityLookahead"]

_WIN = 10_000.0


def leaf_value(game: Game[Any, Any], st: FormfinityState, me: int) -> float:
    """The goal's heuristic for ``me`` at a horizon where I am the next to move (or the final result)."""
    setup = setup_for(st.config)
    if st.phase == OVER:
        return _WIN * game.returns(st)[me]
    goal = setup.rules.goal
    mine_next = st.turn == me
    if goal == "lines":
        return _ai._lines(setup, st, me, mine_next)
    if goal == "areas":
        return _ai._areas(setup, st, me)
    if goal == "connection":
        return _ai._connection(setup, st, me)
    return _ai._numbers(setup, st, me, mine_next)


class FormfinityLookahead:
    """See the module docstring. ``width``: candidates kept; ``samples``: card samples per candidate at
    most; ``batch``: samples added per halving round; ``seconds``: the wall-clock budget of one decision."""

    def __init__(
        self,
        seconds: float = 2.0,
        width: int = 12,
        samples: int = 96,
        batch: int = 8,
        clock: str = "wall",
        name: str = "hard",
    ) -> None:
        self.clock = budget_clock(clock)
        if width < 1 or samples < 1 or batch < 1:
            raise ConfigError("width, samples and batch must be at least 1")
        if seconds <= 0:
            raise ConfigError("seconds must be positive")
        self.seconds = float(seconds)
        self.width = width
        self.samples = samples
        self.batch = batch
        self.name = name
        self.greedy = GreedyBot()
        self.last_playouts = 0

    def _playout(self, game: Game[Any, Any], st: FormfinityState, me: int, rng: Rng) -> float:
        """Greedy play from ``st`` (chance drawn from the sample's own generator) to the horizon."""
        left_me = st.turn != me or st.phase in (DRAW, CHOOSE)
        for _ in range(200):
            if st.phase == OVER:
                break
            cp = game.current_player(st)
            if cp == CHANCE:
                if left_me and st.turn == me:
                    break
                st = game.apply(st, game.chance_outcome(st), CHANCE)
                continue
            if st.turn != me:
                left_me = True
            elif left_me and st.phase == CHOOSE:
                break
            a = self.greedy.choose(game, st, cp, rng)
            st = game.apply(st, a, cp)
        return leaf_value(game, st, me)

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        start = self.clock()
        deadline = start + self.seconds
        st: FormfinityState = state
        legal = list(game.legal_actions(st, player))
        if len(legal) == 1:
            return legal[0]
        prior = {a: game.action_value(st, a, player) for a in legal}
        ranked = sorted(legal, key=lambda a: -prior[a])[: self.width]
        if len(ranked) == 1:
            return ranked[0]
        seeds = [rng.u64() for _ in range(self.samples)]
        alive: list[Any] = list(ranked)
        values: dict[Any, list[float]] = {a: [] for a in ranked}
        after = {a: game.apply(st, a, player) for a in ranked}
        slowest = 0.0
        used = 0
        playouts = 0
        out_of_time = False
        while used < self.samples and not out_of_time:
            chunk = seeds[used : used + self.batch]
            for a in alive:
                for sd in chunk:
                    now = self.clock()
                    if now + 1.5 * slowest > deadline and playouts > 0:
                        out_of_time = True
                        break
                    srng = Rng(sd)
                    det = game.determinize(after[a], player, srng)
                    values[a].append(self._playout(game, det, player, srng))
                    playouts += 1
                    slowest = max(slowest, self.clock() - now)
                if out_of_time:
                    break
            used += len(chunk)
            if out_of_time:
                break
            if len(alive) > 2:
                alive.sort(key=lambda a: (-sum(values[a]) / len(values[a]), -prior[a]))
                alive = alive[: max(2, (len(alive) + 1) // 2)]
        self.last_playouts = playouts
        # The survivors, compared on the samples they all saw (the same draws for each).
        pool = [a for a in alive if values[a]]
        if not pool:
            return alive[0]
        m = min(len(values[a]) for a in pool)
        return max(pool, key=lambda a: (sum(values[a][:m]), prior[a]))


def _hard(**kw: Any) -> FormfinityLookahead:
    kw.setdefault("name", "hard")
    return FormfinityLookahead(**kw)


def _medium(**kw: Any) -> FormfinityLookahead:
    params: dict[str, Any] = {"seconds": 0.25, "width": 6, "samples": 16, "batch": 8, "name": "medium"}
    params.update(kw)
    return FormfinityLookahead(**params)


register_bot("hard", _hard, "formfinity")
register_bot("medium", _medium, "formfinity")
