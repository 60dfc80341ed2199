"""FORMFINITY's own ``hard`` and ``medium``: a one-turn lookahead with the expectation over the next cards.

Why not the generic MCTS: what decides a position is whether the opponent's next card can finish a line
(or block a path, or take a number) that my placement leaves open, which random rollouts barely see and
the one-ply greedy only guesses at. So the greedy's best ``width`` actions (lines ties broken by
:func:`._fast.line_potential`) are each played out to my next draw by the greedy (for lines its bitboard
replica, :func:`._greedy.greedy_run`, in the compiled kernel when it is built) over
determinised card samples shared by every candidate (common random numbers); successive halving spends
the budget on the best, and a horizon is valued by the measured chance to win (lines,
:func:`._fast.lines_win_value`) or the goal's heuristic. A decision with one legal action is played at
once. Design notes and measurements: docs/ai-ladder-formfinity.md.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core import CHANCE, ConfigError, Game, Rng
from ...games.formfinity import CHOOSE, DRAW, OVER, FormfinityState, Place, setup_for, setup_of
from .._bots import Bot, GreedyBot
from .._clock import budget_clock
from .._evaluator import evaluator
from ._eval import goal_value
from ._fast import line_potential, lines_win_value
from ._greedy import greedy_run

__all__ = ["MAX_SCALE", "MEDIUM", "PLAYERS", "FormfinityConfig", "FormfinityLookahead", "fits", "leaf_value"]

_WIN = 10_000.0


def leaf_value(game: Game[Any, Any], st: FormfinityState, me: int, holes: int | None = None) -> float:
    """The goal's heuristic for ``me`` at a horizon where I am the next to move (or the final result);
    lines: :func:`lines_win_value`, the chance to win on the result's scale (``holes``: its count of
    open holes when the caller has it)."""
    setup = setup_of(game, st)
    if st.phase == OVER:
        return _WIN * game.returns(st)[me]
    goal = setup.rules.goal
    mine_next = st.turn == me
    if goal == "lines" and mine_next:
        return lines_win_value(setup, st, me, holes)
    return goal_value(setup, st, me, mine_next)


@dataclass(frozen=True)
class FormfinityConfig:
    """The lookahead of one level; the defaults are ``hard``'s (:data:`MEDIUM` is ``medium``'s).

    ``seconds``: the budget of one decision on ``clock`` (``wall``, or ``cpu``: this thread's CPU time, for
    measuring on a busy machine); ``width``: candidates kept; ``samples``: card samples per candidate at
    most; ``first``: samples per candidate before the first halving; ``batch``: samples added per round.
    ``None``: by goal (lines: 48 candidates, 640 samples, 4 first; other goals: 12, 96 and ``batch``).
    ``scale``: the anytime rule, for the default ``samples`` only (a ``samples`` given is a cap, so
    ``medium`` keeps its 16): when the first round's pace says the whole schedule would fit ``k`` >= 2
    times in the budget (a fast engine, a long budget), every round takes ``k`` times the samples
    (``first``, ``batch`` and ``samples`` times ``k``, at most :data:`MAX_SCALE`), so the budget is spent
    rather than the caps reached early; where the schedule does not fit twice, nothing changes.
    """

    seconds: float = 2.0
    width: int | None = None
    samples: int | None = None
    batch: int = 8
    first: int | None = None
    clock: str = "wall"
    scale: bool = True

    def __post_init__(self) -> None:
        if min(self.width or 1, self.samples or 1, self.batch, self.first or 1) < 1:
            raise ConfigError("width, samples, batch and first must be at least 1")
        if self.seconds <= 0:
            raise ConfigError("seconds must be positive")
        budget_clock(self.clock)


MEDIUM: dict[str, Any] = {"seconds": 0.25, "width": 6, "samples": 16, "batch": 8}


class FormfinityLookahead:
    """See the module docstring and :class:`FormfinityConfig`."""

    def __init__(self, config: FormfinityConfig | None = None, name: str = "hard") -> None:
        self.config = config = config or FormfinityConfig()
        self.clock = budget_clock(config.clock)
        self.seconds = float(config.seconds)
        self.batch = config.batch
        self.name = name
        self.greedy = GreedyBot()
        self.last_playouts = 0

    def _playout(self, game: Game[Any, Any], st: FormfinityState, me: int, rng: Rng) -> float:
        """Greedy play from ``st`` (chance drawn from the sample's own generator) to the horizon: my next
        draw (or area choice) after the other players have moved. Lines: runs of
        :func:`._greedy.greedy_run` (one call of the compiled kernel when it is built),
        with the generic greedy only for what it leaves (a claim choice); at most 200 steps."""
        left_me = st.turn != me or st.phase in (DRAW, CHOOSE)
        setup = setup_of(game, st)
        steps = 200
        if setup.rules.goal == "lines":
            while True:
                st, left_me, steps, done, holes = greedy_run(setup, st, me, rng, left_me, steps)
                if done:
                    return self.horizon_value(game, st, me, holes)
                cp = game.current_player(st)
                st = game.apply(st, self.greedy.choose(game, st, cp, rng), cp)
                steps -= 1
        for _ in range(steps):
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
        return self.horizon_value(game, st, me, None)

    def horizon_value(self, game: Game[Any, Any], st: FormfinityState, me: int, holes: int | None) -> float:
        """A playout's value at its horizon: :func:`leaf_value` (``expert`` puts its network here)."""
        return leaf_value(game, st, me, holes)

    def _plan(self, st: FormfinityState) -> tuple[int, int, int]:
        """(width, samples, first) for this game: the lines goal has the fast playouts, so it can afford
        every plausible candidate (48) with 4 samples first and up to 640 samples for the finalists (the
        2 s are the limit, not the cap); the other goals keep 12 candidates and 8."""
        lines = setup_for(st.config).rules.goal == "lines"
        cfg = self.config
        width = cfg.width or (48 if lines else 12)
        samples = cfg.samples or (640 if lines else 96)
        first = cfg.first or (4 if lines else cfg.batch)
        return width, samples, first

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        start = self.clock()
        deadline = start + self.seconds
        st: FormfinityState = state
        width, samples, first = self._plan(st)
        legal = list(game.legal_actions(st, player))
        if len(legal) == 1:
            return legal[0]
        judge = evaluator(game)
        prior = {a: judge.action_value(game, st, a, player) for a in legal}
        order = prior
        if len(legal) > width and isinstance(legal[0], Place) and setup_for(st.config).rules.goal == "lines":
            # Many placements tie in the greedy's value: among equals, the ones that build towards a
            # line come first while more elements follow (they may finish it), the quiet ones first on
            # the last element (they leave the opponent least).
            setup = setup_of(game, st)
            sign = 1e-3 if st.left > 1 else -1e-3
            order = {
                a: v + sign * line_potential(setup, st, setup.place_mask(a.shape, a.x, a.y)) for a, v in prior.items()
            }
        ranked = sorted(legal, key=lambda a: -order[a])[:width]
        if len(ranked) == 1:
            return ranked[0]
        seeds = [rng.u64() for _ in range(samples)]
        alive: list[Any] = list(ranked)
        values: dict[Any, list[float]] = {a: [] for a in ranked}
        after = {a: game.apply(st, a, player) for a in ranked}
        slowest = 0.0
        used = 0
        playouts = 0
        batch = self.batch
        size = first
        out_of_time = False
        began = end = self.clock()
        while not out_of_time and used < samples:
            chunk = seeds[used : used + size]
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
                    end = self.clock()
                    slowest = max(slowest, end - now)
                if out_of_time:
                    break
            if out_of_time:
                break
            used += len(chunk)
            size = batch
            if used == first and self.config.scale and self.config.samples is None:
                k = fits(deadline - began, (end - began) / playouts, len(alive), samples, first, batch)
                if k > 1:  # the schedule k times over: the first round is topped up before any halving
                    seeds += [rng.u64() for _ in range(samples * (k - 1))]
                    samples *= k
                    batch *= k
                    size = first * (k - 1)
                    continue
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


MAX_SCALE = 16
"""The anytime rule scales the schedule at most this many times (16 x 640 samples)."""


def fits(budget: float, per_playout: float, width: int, samples: int, first: int, batch: int) -> int:
    """How many times (1 to :data:`MAX_SCALE`) the whole sampling schedule (``width`` candidates,
    ``first`` samples each, then ``batch`` more a round, halving the candidates after each round down to
    two, ``samples`` at most) fits in ``budget`` at ``per_playout`` seconds a playout."""
    total = used = 0
    alive = width
    size = first
    while used < samples:
        step = min(size, samples - used)
        total += alive * step
        used += step
        size = batch
        if alive > 2:
            alive = max(2, (alive + 1) // 2)
    if total == 0 or per_playout <= 0:
        return MAX_SCALE
    return max(1, min(MAX_SCALE, int(budget / (per_playout * total))))


def _hard(**kw: Any) -> FormfinityLookahead:
    return FormfinityLookahead(FormfinityConfig(**kw), name="hard")


def _medium(**kw: Any) -> FormfinityLookahead:
    return FormfinityLookahead(FormfinityConfig(**{**MEDIUM, **kw}), name="medium")


PLAYERS: dict[str, Callable[..., Bot]] = {"hard": _hard, "medium": _medium}
"""FORMFINITY's own players by name (the registry's table points here)."""
