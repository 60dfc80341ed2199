"""FORMFINITY's ``hard`` and ``medium``: a one-turn lookahead with the expectation over the next cards.

Why not the generic MCTS: a FORMFINITY turn is one card of 1-3 elements with tens to hundreds of
placements each, and what decides a position is whether the *opponent's next card* can finish a line
(or block a path, or take a number) that my placement leaves open. A few hundred MCTS iterations with
random rollouts barely see that; the one-ply greedy does not see it at all (it guesses with a fixed
penalty per open threat). So this player asks the question directly:

1. The candidates are the legal actions of the decision (placements, line claims or areas), ordered by
   the game's one-ply ``action_value`` (the greedy evaluation), the best ``width`` kept: 48 for the
   lines goal (its playouts are fast, and the greedy's value often ties over a hundred placements, so
   a narrow cut dropped the one placement whose later elements win), 12 for the others. Lines ties are
   broken by :func:`~polytable.ai.bots_formfinity_fast.line_potential`: placements that build towards
   a line first while more elements of the card follow, the quiet ones first on the last element.
2. Each candidate is played out to the *horizon*: the rest of my turn and then every other player's next
   turn, all played by the one-ply greedy (for lines its fast replica,
   :func:`~polytable.ai.bots_formfinity_fast.fast_greedy_place`, 3x faster), until I am about to draw
   again (or the game ends; ``rounds`` > 1 plays on to my later draws). The cards drawn on the way are
   chance: each sample is ``Game.determinize`` of the real state (the generator is reseeded, a deck
   file's public contents reshuffled; the hidden order is never read), and the same samples are used
   for every candidate (common random numbers), so candidates are compared on the same draws.
3. The horizon is valued from my side with "I move next" set, since the next card is mine; a finished
   game is worth +-10,000. Lines (``leaf="win"``, the default): the chance to win from the line counts,
   measured over greedy games, on the same +-10,000 scale
   (:func:`~polytable.ai.bots_formfinity_fast.lines_win_value`). The greedy's scale (100 per line,
   10,000 for the game) weighs a 1% risk of losing like a whole line, where a line in fact moves the
   chance to win by 12-20 points: it traded sure lines for tiny risks. Other goals (and ``leaf="greedy"``): the goal's
   heuristic (:func:`polytable.games.formfinity.goal_value`).
4. Successive halving: ``first`` samples per candidate (lines 4, else 8), then every surviving
   candidate gets ``batch`` more per round and the worse half is dropped, until the time budget
   (``seconds``, checked before each playout against the slowest playout so far) or ``samples`` per
   candidate (lines 640, else 96) run out. The best mean on the samples all survivors saw wins; ties go
   to the better one-ply value. With the lines goal the sample cap used to be 160, where most decisions
   stopped with about half of the 2 s unused; at 640 the time is the limit, and the finalists' choice is
   less noisy (measured in docs/ai-ladder-formfinity.md: 101 of 132 against ``greedy``).
5. ``deep`` (an option, off by default; lines goal only): once the halving is down to ``deep``
   candidates, they are played out one draw further (``rounds`` + 1: my next card and the opponent's
   card after it) on fresh common samples, until the budget or ``samples`` each, and compared on those
   (on the shallow samples if fewer than 16 each fit). Why it was tried: a player that knew the true cards
   won 15 of 20 with the one-turn horizon and 20 of 20 with three turns, and the shallow search stops at
   ``samples`` with about half of its 2 s unused; ``deep=3`` spends that time on the finalists. It won no
   more often than the default on the same seeds (docs/ai-ladder-formfinity.md), so it is not the default.

A decision with one legal action is played at once. ``clock="cpu"`` counts this thread's CPU time
instead of the wall clock (for measuring on a busy machine).
"""

from __future__ import annotations

from typing import Any

from ..core import CHANCE, ConfigError, Game, Rng
from ..games.formfinity import CHOOSE, DRAW, OVER, PLACE, FormfinityState, Place, apply_place, goal_value, setup_for
from ._bots import GreedyBot, register_bot
from ._clock import budget_clock
from .bots_formfinity_fast import fast_greedy_place, line_potential, lines_win_value

__all__ = ["FormfinityLookahead"]

_WIN = 10_000.0
_DEEP_MIN = 16
"""Deeper samples per finalist below which the finalists are compared on their shallow samples."""


def leaf_value(game: Game[Any, Any], st: FormfinityState, me: int, leaf: str = "win") -> float:
    """The goal's heuristic for ``me`` at a horizon where I am the next to move (or the final result);
    lines with ``leaf="win"``: :func:`lines_win_value`, the chance to win on the result's scale."""
    setup = setup_for(st.config)
    if st.phase == OVER:
        return _WIN * game.returns(st)[me]
    goal = setup.rules.goal
    mine_next = st.turn == me
    if goal == "lines" and leaf == "win" and mine_next:
        return lines_win_value(setup, st, me)
    return goal_value(setup, st, me, mine_next)


class FormfinityLookahead:
    """See the module docstring. ``width``: candidates kept; ``samples``: card samples per candidate at
    most; ``batch``: samples added per halving round; ``seconds``: the wall-clock budget of one decision;
    ``deep``: finalists searched one draw deeper (0: off)."""

    def __init__(
        self,
        seconds: float = 2.0,
        width: int | None = None,
        samples: int | None = None,
        batch: int = 8,
        first: int | None = None,
        clock: str = "wall",
        rounds: int = 1,
        leaf: str = "win",
        deep: int = 0,
        name: str = "hard",
    ) -> None:
        self.clock = budget_clock(clock)
        if deep < 0:
            raise ConfigError("deep must be 0 (off) or the number of finalists searched one draw deeper")
        self.deep = deep
        if min(width or 1, samples or 1, batch, first or 1, rounds) < 1:
            raise ConfigError("width, samples, batch, first and rounds must be at least 1")
        if seconds <= 0:
            raise ConfigError("seconds must be positive")
        self.seconds = float(seconds)
        self.width = width
        self.samples = samples
        self.batch = batch
        self.first = first
        if leaf not in ("win", "greedy"):
            raise ConfigError("leaf must be win (the chance to win) or greedy (the greedy's evaluation)")
        self.leaf = leaf
        self.rounds = rounds
        self.name = name
        self.greedy = GreedyBot()
        self.last_playouts = 0

    def _playout(self, game: Game[Any, Any], st: FormfinityState, me: int, rng: Rng, rounds: int = 0) -> float:
        """Greedy play from ``st`` (chance drawn from the sample's own generator) to the horizon: my
        ``rounds``-th next draw (or area choice; default ``self.rounds``) after the other players have moved."""
        left_me = st.turn != me or st.phase in (DRAW, CHOOSE)
        rounds = rounds or self.rounds
        setup = setup_for(st.config)
        fast = setup.rules.goal == "lines"
        for _ in range(200 * rounds):
            if st.phase == OVER:
                break
            cp = game.current_player(st)
            if cp == CHANCE:
                if left_me and st.turn == me:
                    rounds -= 1
                    if rounds <= 0:
                        break
                    left_me = False
                st = game.apply(st, game.chance_outcome(st), CHANCE)
                continue
            if st.turn != me:
                left_me = True
            elif left_me and st.phase == CHOOSE:
                rounds -= 1
                if rounds <= 0:
                    break
                left_me = False
            if fast and st.phase == PLACE:
                pick = fast_greedy_place(setup, st, cp, rng)
                if pick is not None:
                    st = apply_place(setup, st, pick[2])
                    continue
            a = self.greedy.choose(game, st, cp, rng)
            st = game.apply(st, a, cp)
        return leaf_value(game, st, me, self.leaf)

    def _plan(self, st: FormfinityState) -> tuple[int, int, int]:
        """(width, samples, first) for this game: the lines goal has the fast playouts, so it can afford
        every plausible candidate (48) with 4 samples first and up to 640 samples for the finalists (the
        2 s are the limit, not the cap); the other goals keep 12 candidates and 8."""
        lines = setup_for(st.config).rules.goal == "lines"
        width = self.width or (48 if lines else 12)
        samples = self.samples or (640 if lines else 96)
        first = self.first or (4 if lines else self.batch)
        return width, samples, first

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        start = self.clock()
        deadline = start + self.seconds
        st: FormfinityState = state
        width, samples, first = self._plan(st)
        legal = list(game.legal_actions(st, player))
        if len(legal) == 1:
            return legal[0]
        prior = {a: game.action_value(st, a, player) for a in legal}
        order = prior
        if len(legal) > width and isinstance(legal[0], Place) and setup_for(st.config).rules.goal == "lines":
            # Many placements tie in the greedy's value: among equals, the ones that build towards a
            # line come first while more elements follow (they may finish it), the quiet ones first on
            # the last element (they leave the opponent least).
            setup = setup_for(st.config)
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
        out_of_time = False
        shallow = values
        rounds = self.rounds
        deep = self.deep if setup_for(st.config).rules.goal == "lines" else 0
        while not out_of_time:
            if deep and len(alive) <= deep and rounds == self.rounds:
                # The finalists, searched one draw deeper on fresh samples (up to ``samples`` each).
                rounds = self.rounds + 1
                shallow = values
                values = {a: [] for a in alive}
                used = 0
                seeds = [rng.u64() for _ in range(samples)]
            if used >= samples:
                break
            chunk = seeds[used : used + (self.batch if used else first)]
            for a in alive:
                for sd in chunk:
                    now = self.clock()
                    if now + 1.5 * slowest > deadline and playouts > 0:
                        out_of_time = True
                        break
                    srng = Rng(sd)
                    det = game.determinize(after[a], player, srng)
                    values[a].append(self._playout(game, det, player, srng, rounds))
                    playouts += 1
                    slowest = max(slowest, self.clock() - now)
                if out_of_time:
                    break
            used += len(chunk)
            if out_of_time:
                break
            if len(alive) > max(2, deep):
                alive.sort(key=lambda a: (-sum(values[a]) / len(values[a]), -prior[a]))
                alive = alive[: max(2, deep, (len(alive) + 1) // 2)]
        self.last_playouts = playouts
        # The survivors, compared on the samples they all saw (the same draws for each).
        pool = [a for a in alive if values[a]]
        deep_fit = min(len(values[a]) for a in alive)
        if rounds != self.rounds and deep_fit < _DEEP_MIN and all(shallow.get(a) for a in alive):
            # Too few deeper samples to trust (the budget ran out): decide on the shallow ones.
            values = shallow
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
