"""Forma's own players: ``greedy`` over a pruned candidate list, and ``hard``/``medium``, a two-ply lookahead.

Why pruned: an open board has 20,000-30,000 legal placements and ``Evaluator.action_value`` costs tens of
microseconds, so the greedy scores the placements that can score now (:data:`HOT_CAP` at most) plus
:data:`RANDOM_CANDIDATES` random ones. Why a lookahead and not the generic MCTS: with thousands of moves
a few hundred iterations cannot tell them apart, while the greedy's one blind spot is the reply. So the
lookahead keeps the greedy's best ``width`` and charges each with the next player's best immediate bonus
(:func:`best_bonus`, exact on a bitboard); ``hard`` adds bridge candidates and threats (:mod:`._bridge`)
and plays the best few out a few plies with a cheap greedy. Measurements: docs/ai-ladder-forma.md.

**Anytime** (``hard``): the fixed stage above (the ``width`` best one-ply moves answered, the best
``rollouts`` of them played out once) usually ends well under the budget, most of all on the compiled
kernel, beside which the one-ply value and the reply bonus are computed in C (``_cforma_eval``). The rest
of the budget then goes, until the clock (:data:`ANYTIME_WIDTH`, :data:`ANYTIME_ROUNDS` end it sooner), in steps of:

1. while fewer than ``ANYTIME_WIDTH * width`` candidates are answered, answer the next ``width`` in
   one-ply order (a wider two-ply search: a move the one-ply order missed can become a finalist);
2. one more round of playouts: every finalist (the best ``rollouts`` by two-ply value, so a newcomer
   first plays the rounds it missed) plays ``depth`` turns from a fresh generator shared by all finalists.

The choice is the finalist with the best mean score lead over the rounds every finalist completed (the
first in two-ply order on ties); a round cut short by the clock counts only where complete. With no time
left after the fixed stage this is exactly the fixed stage's choice, so a faster engine only adds search.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from ...core import ConfigError, Game, Rng
from ...games import forma as P
from ...games.forma import (
    Fill,
    FormaKernel,
    FormaState,
    Pick,
    Place,
    enclosed,
    kernel_of,
    neighbours,
)
from ...geometry import bits
from .._bots import Bot
from .._clock import budget_clock
from ._bridge import frontier
from ._eval import ENGINE_WEIGHTS, Weights, compiled_eval, place_value
from ._evaluator import FormaEvaluator

__all__ = [
    "ANYTIME_ROUNDS",
    "ANYTIME_WIDTH",
    "HARD",
    "HOT_CAP",
    "MEDIUM",
    "PLAYERS",
    "RANDOM_CANDIDATES",
    "FormaConfig",
    "FormaGreedy",
    "FormaLookahead",
    "best_bonus",
    "bridge_threat",
    "candidates",
]

JUDGE = FormaEvaluator()
"""Forma's evaluator: the players' one-ply values."""

HOT_CAP = 600
RANDOM_CANDIDATES = 250


def _offsets(mask: int) -> list[int]:
    return list(bits(mask))


def _sides(tb: P.Tables, filled: int) -> tuple[int, int, int, int]:
    st = tb.stride
    return (filled << 1) | tb.left, (filled >> 1) | tb.right, (filled << st) | tb.top, (filled >> st) | tb.bottom


PURE = FormaKernel()
"""The pure kernel: what the functions below use when no game object names one."""


def hot_placements(s: FormaState, player: int, target: int, kernel: FormaKernel = PURE) -> list[Place]:
    """Every placement of ``player``'s pieces (or the piece in hand) that covers a cell of ``target``."""
    tb = kernel.tables(s.size)
    st = tb.stride
    table = tb.table(tb.board & ~s.filled)
    gs = s.orients[player] if s.picked < 0 else P.PIECE_ORIENTS[s.picked]
    hot: list[Place] = []
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
        hot += (Place(p, k, i % st + ref, top - i // st) for i in bits(cand))
    return hot


def candidates(s: FormaState, player: int, legal: Any, rng: Rng, kernel: FormaKernel = PURE) -> list[Place]:
    """The placements the greedy scores (see the module docstring): the hot ones (capped at
    :data:`HOT_CAP` by a seeded random subset) and :data:`RANDOM_CANDIDATES` uniform random legal ones,
    sorted (so the order never depends on hashing)."""
    tb = kernel.tables(s.size)
    empty = tb.board & ~s.filled
    le, ri, up, dn = _sides(tb, s.filled)
    three = empty & ((le & ri & (up | dn)) | (up & dn & (le | ri)))
    target = neighbours(tb, three) & empty
    pending = (s.obstacles | s.tower) & ~s.closed
    if pending:
        target |= s.watch & empty
    hot = hot_placements(s, player, target, kernel) if target else []
    if len(hot) > HOT_CAP:
        hot = list(rng.shuffle(hot)[:HOT_CAP])
    out = set(hot)
    for _ in range(RANDOM_CANDIDATES):
        out.add(legal.sample(rng))
    return sorted(out)


def bridge_threat(s: FormaState, player: int, cap: int, min_span: int, kernel: FormaKernel = PURE) -> int:
    """The most points beyond the piece's cells (bridges included, see ``place_effect``) ``player`` can
    earn with one placement over the growth frontier of their long groups (:func:`frontier`): the bridge
    completions the bonus search leaves out. At most about ``cap`` placements are tried (a seeded
    subset is not needed: the cut is by orientation order, small pieces first)."""
    tb = kernel.tables(s.size)
    empty = tb.board & ~s.filled
    target = frontier(tb, s.pieces[player] | s.markers[player], empty, min_span)
    if not target:
        return 0
    best = 0
    top = s.size - 1
    for a in hot_placements(s, player, target, kernel)[:cap]:
        p, k, col, row = a
        g = P.ORIENT_GK[p * 8 + k]
        mask = tb.masks[g] << ((top - row) * tb.stride + col - P.ORIENT_REF[g])
        size = P.PIECE_SIZES[p]
        gain = kernel.place_effect(tb, s, player, mask, size).points - size
        if gain > best:
            best = gain
    return best


def best_bonus(s: FormaState, player: int, cap: int, kernel: FormaKernel = PURE) -> int:
    """The most bonus points (beyond the piece's cells: enclosures, obstacles, the tower; see
    :func:`_bonus`) ``player`` can earn with one placement now, over the placements that touch an empty
    cell, an obstacle or the tower with at least two closed sides (one piece can close two sides at a
    corner). Rarer closures (a U pentomino around a cell with one closed side) and bridges are left out,
    and at most about ``cap`` placements are tried (those of the first orientations, small pieces first).
    Beside the compiled kernel the compiled evaluation (``_cforma_eval``) computes the same number."""
    tb = kernel.tables(s.size)
    ext = compiled_eval(kernel)
    if ext is not None:
        own = s.pieces[player] | s.markers[player]
        return int(
            ext.best_bonus(s.size, s.filled, s.watch, s.obstacles, s.tower, s.closed, own, s.orients[player], cap)
        )
    empty = tb.board & ~s.filled
    le, ri, up, dn = _sides(tb, s.filled)
    two = (le & (ri | up | dn)) | (ri & (up | dn)) | (up & dn)
    target = neighbours(tb, empty & two)
    pending = (s.obstacles | s.tower) & ~s.closed
    if pending:
        target |= neighbours(tb, pending & two)
    target &= empty
    if not target:
        return 0
    table = tb.table(empty)
    best = 0
    tried = 0
    for g in s.orients[player]:
        ok = table[g]
        if not ok:
            continue
        m = tb.masks[g]
        hit = 0
        for o in _offsets(m):
            hit |= target >> o
        cand = ok & hit
        tried += cand.bit_count()
        if tried > cap:
            break
        while cand:
            low = cand & -cand
            gain = _bonus(tb, s, player, m << (low.bit_length() - 1))
            if gain > best:
                best = gain
            cand ^= low
    return best


class FormaGreedy:
    """Points now plus position (see ``polytable.games.forma._ai``), over the candidates described above."""

    name = "greedy"

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        s: FormaState = state
        if s.placing:  # the set-up: obstacles and tower at random, as the all-random placement would
            return Fill()
        legal = game.legal_actions(s, player)
        if s.picked < 0 and s.config["touch_move"]:
            picks = list(legal)
            return self._best(game, s, picks, player, rng)
        return self._best(game, s, candidates(s, player, legal, rng, kernel_of(game)), player, rng)

    @staticmethod
    def _best(game: Game[Any, Any], s: FormaState, actions: list[Place] | list[Pick], player: int, rng: Rng) -> Any:
        best: list[Any] = []
        best_value = float("-inf")
        for a in actions:
            v = JUDGE.action_value(game, s, a, player)
            if v > best_value + 1e-9:
                best_value, best = v, [a]
            elif v >= best_value - 1e-9:
                best.append(a)
        return best[rng.below(len(best))] if len(best) > 1 else best[0]


@dataclass(frozen=True)
class FormaConfig:
    """The lookahead of one level; the defaults are the plain two-ply search (:data:`HARD`, :data:`MEDIUM`).

    ``seconds`` per move on ``clock`` (``wall``, or ``cpu``: this thread's CPU time, for measuring on a
    busy machine); ``width``: candidates answered at most; ``reply_cap``: reply placements tried at most;
    ``bridges``: bridge candidates and threats (``min_span``: the shortest group that counts as long;
    ``frontier_cap``/``threat_cap``: placements added/tried at most); ``rollouts``: how many of the best
    two-ply moves are played out ``depth`` plies (0 or 1: none); ``anytime``: spend what is left of the
    budget after that fixed stage (see the module docstring).
    """

    seconds: float = 2.0
    width: int = 24
    reply_cap: int = 4000
    clock: str = "wall"
    bridges: bool = False
    rollouts: int = 0
    depth: int = 5
    min_span: int = 10
    frontier_cap: int = 400
    threat_cap: int = 600
    anytime: bool = False

    def __post_init__(self) -> None:
        if self.width < 1 or self.seconds <= 0:
            raise ConfigError("width must be at least 1 and seconds positive")
        budget_clock(self.clock)


HARD: dict[str, Any] = {"bridges": True, "rollouts": 6, "depth": 5, "anytime": True}
MEDIUM: dict[str, Any] = {"seconds": 0.25, "width": 6, "reply_cap": 1500}


class FormaLookahead:
    """``hard``/``medium``: the greedy's best ``width`` placements, each answered by the next player's best
    immediate bonus (a two-ply search on the greedy evaluation); see the module docstring."""

    def __init__(
        self, config: FormaConfig | None = None, name: str = "hard", weights: Weights = ENGINE_WEIGHTS
    ) -> None:
        self.config = config = config or FormaConfig()
        self.weights = weights
        self.clock = budget_clock(config.clock)
        self.seconds = float(config.seconds)
        self.bridges = bool(config.bridges)
        self.name = name
        self.greedy = FormaGreedy()
        self.last_searched = 0
        self.last_rollouts = 0

    def reply(self, game: Game[Any, Any], s1: FormaState, me: int, rng: Rng, deadline: float) -> float | None:
        """The value of the position after my move for me: minus the bonus points (beyond the cells of the
        piece) the next player can take at once; the final result if the game is over. None if the deadline
        passed first."""
        if game.is_terminal(s1):
            r = game.returns(s1)[me]
            return 10_000.0 * r + (s1.scores[me] - max(x for i, x in enumerate(s1.scores) if i != me))
        q = game.current_player(s1)
        if q == me:  # everyone else is out of moves: nothing to answer
            return 0.0
        if self.clock() >= deadline:
            return None
        cfg = self.config
        kernel = kernel_of(game)
        best = best_bonus(s1, q, cfg.reply_cap, kernel)
        if self.bridges:
            best = max(best, bridge_threat(s1, q, cfg.threat_cap, cfg.min_span, kernel))
        return -1.0 * best

    def playout_value(self, game: Game[Any, Any], t: FormaState, me: int) -> float:
        """What a playout that ended in ``t`` is worth to ``me``: the score lead (``expert`` overrides it
        with a learned value, :mod:`._value`)."""
        return float(t.scores[me] - max(x for i, x in enumerate(t.scores) if i != me))

    def _bridge_moves(self, s: FormaState, player: int, rng: Rng, kernel: FormaKernel) -> list[Place]:
        """Placements over the growth frontier of every colour's long groups (:func:`frontier`): they
        extend or complete the player's bridges and block the opponents'; at most ``frontier_cap``."""
        tb = kernel.tables(s.size)
        empty = tb.board & ~s.filled
        target = 0
        for q in range(len(s.pieces)):
            target |= frontier(tb, s.pieces[q] | s.markers[q], empty, self.config.min_span)
        if not target:
            return []
        moves = hot_placements(s, player, target, kernel)
        if len(moves) > self.config.frontier_cap:
            moves = list(rng.shuffle(moves)[: self.config.frontier_cap])
        return moves

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        start = self.clock()
        deadline = start + self.seconds
        s: FormaState = state
        if s.placing or (s.picked < 0 and s.config["touch_move"]):
            return self.greedy.choose(game, s, player, rng)
        legal = game.legal_actions(s, player)
        pool = candidates(s, player, legal, rng, kernel_of(game))
        if self.bridges:
            pool = sorted(set(pool) | set(self._bridge_moves(s, player, rng, kernel_of(game))))
        cands = list(rng.shuffle(pool))  # a cut-short scoring is a fair sample
        # The one-ply scores (the greedy's own work) may use up to 90% of the budget: on a busy machine the
        # lookahead then falls back to the greedy's choice rather than to a cut-short list.
        scored = _scores(game, s, cands, player, start + 0.9 * self.seconds, self.clock, self.weights)
        self.last_searched = self.last_rollouts = 0
        if not scored:
            return cands[0] if cands else legal.sample(rng)
        scored.sort(key=lambda t: (-t[0], t[1]))
        seed = rng.u64()
        ranked: list[tuple[float, Place]] = []
        best = self._replies(game, s, player, scored[: self.config.width], ranked, seed, deadline)
        if self.config.rollouts > 1 and len(ranked) > 1:
            play = _Playouts(self, game, s, player, seed, deadline)
            best = play.round(ranked)
            if self.config.anytime:
                best = self._spend(play, scored, ranked, seed, deadline, best)
            self.last_rollouts = play.count
        return best

    def _replies(
        self,
        game: Game[Any, Any],
        s: FormaState,
        player: int,
        top: list[tuple[float, Place]],
        ranked: list[tuple[float, Place]],
        seed: int,
        deadline: float,
    ) -> Place:
        """Answer each of ``top`` (the reply model: :meth:`reply`) until the clock, appending (two-ply value,
        move) to ``ranked``; the best two-ply move of all of ``ranked`` (the first on ties)."""
        for v1, a in top:
            if ranked and self.clock() >= deadline:
                break
            r = self.reply(game, game.apply(s, a, player), player, Rng(seed), deadline)
            if r is None:
                break
            self.last_searched += 1
            ranked.append((v1 + r, a))
        best_value, best = float("-inf"), top[0][1]
        for v, a in ranked:
            if v > best_value + 1e-9:
                best_value, best = v, a
        return best

    def _spend(
        self,
        play: _Playouts,
        scored: list[tuple[float, Place]],
        ranked: list[tuple[float, Place]],
        seed: int,
        deadline: float,
        best: Place,
    ) -> Place:
        """The anytime stage (the rule: the module docstring): wider replies, then more playout rounds."""
        game, s, player = play.game, play.s, play.me
        width = self.config.width
        while self.clock() < deadline:
            searched = self.last_searched
            if searched < min(len(scored), ANYTIME_WIDTH * width):
                self._replies(game, s, player, scored[searched : searched + width], ranked, seed, deadline)
            elif play.rounds >= ANYTIME_ROUNDS:
                break
            best = play.round(ranked)
        return best


ANYTIME_WIDTH = 4
"""The anytime stage answers at most this many times ``width`` candidates."""
ANYTIME_ROUNDS = 64
"""... and plays at most this many playout rounds (then the decision ends early)."""


class _Playouts:
    """The finalists' short playouts of one decision, round by round (the rule: the module docstring).

    Round ``r`` plays every finalist ``depth`` turns of a fast greedy for everyone from the same generator
    (the decision's seed, stream ``r``; under touch-move a turn is the greedy's pick and then the
    placement); a finalist's worth is its mean score lead for ``me`` over the rounds every finalist
    completed (a round cut short by the clock counts only where it is complete for all); ``expert`` values
    a playout's end by its network instead of the lead (:meth:`FormaLookahead.playout_value`)."""

    def __init__(
        self, owner: FormaLookahead, game: Game[Any, Any], s: FormaState, me: int, seed: int, deadline: float
    ) -> None:
        self.owner, self.game, self.s, self.me, self.seed, self.deadline = owner, game, s, me, seed, deadline
        self.leads: dict[Place, list[float]] = {}
        self.rounds = 0
        self.count = 0

    def round(self, ranked: list[tuple[float, Place]]) -> Place:
        """Bring the current finalists (the best ``rollouts`` of ``ranked`` by two-ply value) up to one more
        round than before, until the clock; the best finalist after it."""
        finalists = [a for _, a in sorted(ranked, key=lambda t: (-t[0], t[1]))[: self.owner.config.rollouts]]
        target = self.rounds + 1
        for r in range(target):
            for a in finalists:
                got = self.leads.setdefault(a, [])
                if len(got) > r:
                    continue
                if self.owner.clock() >= self.deadline:
                    return self._best(finalists)
                got.append(self._playout(a, r))
                self.count += 1
        self.rounds = target
        return self._best(finalists)

    def _best(self, finalists: list[Place]) -> Place:
        done = [a for a in finalists if self.leads.get(a)]
        if not done:
            return finalists[0]
        k = min(len(self.leads[a]) for a in done)
        best, best_lead = done[0], float("-inf")
        for a in done:
            lead = sum(self.leads[a][:k]) / k
            if lead > best_lead:
                best, best_lead = a, lead
        return best

    def _playout(self, a: Place, r: int) -> float:
        game, me, greedy = self.game, self.me, self.owner.greedy
        t = game.apply(self.s, a, me)
        rng = Rng(self.seed, r)
        for _ in range(self.owner.config.depth):
            if game.is_terminal(t):
                break
            q = game.current_player(t)
            if t.picked < 0 and t.config["touch_move"]:  # touch-move: the greedy's pick, then the placement
                t = game.apply(t, greedy.choose(game, t, q, rng), q)
            t = game.apply(t, _fast_move(game, t, q, rng, self.owner.weights), q)
        return self.owner.playout_value(game, t, me)


FAST_HOT = 120
FAST_RANDOM = 40


def _fast_move(game: Game[Any, Any], s: FormaState, q: int, rng: Rng, w: Weights = ENGINE_WEIGHTS) -> Place:
    """A cheap greedy move for playouts: the best by :func:`place_value` (weights ``w``) over at most
    :data:`FAST_HOT` placements that can close something and :data:`FAST_RANDOM` random legal ones."""
    kernel = kernel_of(game)
    tb = kernel.tables(s.size)
    empty = tb.board & ~s.filled
    le, ri, up, dn = _sides(tb, s.filled)
    three = empty & ((le & ri & (up | dn)) | (up & dn & (le | ri)))
    target = neighbours(tb, three) & empty
    if (s.obstacles | s.tower) & ~s.closed:
        target |= s.watch & empty
    hot = hot_placements(s, q, target, kernel) if target else []
    if len(hot) > FAST_HOT:
        hot = list(rng.shuffle(hot)[:FAST_HOT])
    legal = game.legal_actions(s, q)
    pool: list[Place] = hot + [legal.sample(rng) for _ in range(FAST_RANDOM)]
    best, best_v = pool[0], float("-inf")
    for a in pool:
        v = place_value(kernel, s, a, q, w)
        if v > best_v:
            best, best_v = a, v
    return best


def _bonus(tb: P.Tables, s: FormaState, q: int, mask: int) -> int:
    """The points beyond its cells that placing ``mask`` earns player ``q``: enclosed cells, the tower and
    obstacles (the scoring rules of ``place_effect`` without the bridge count, which is far slower and
    rarely decided by a single reply)."""
    filled = s.filled | mask
    enc = enclosed(tb, filled, tb.board & ~filled)
    gain = 10 * enc.bit_count()
    if (mask | enc) & s.watch:
        closed = enclosed(tb, filled | enc, (s.obstacles | s.tower) & ~s.closed)
        if closed:
            if closed & s.tower:
                gain += 50
            own = s.pieces[q] | s.markers[q] | mask | enc
            gain += 10 * enclosed(tb, own, closed & s.obstacles).bit_count()
    return gain


def _scores(
    game: Game[Any, Any],
    s: FormaState,
    actions: list[Place],
    player: int,
    deadline: float,
    clock: Callable[[], float],
    w: Weights = ENGINE_WEIGHTS,
) -> list[tuple[float, Place]]:
    """The one-ply value of each placement (``place_value`` under weights ``w``; with the engine's weights
    the greedy's ``action_value``) until ``deadline`` (on ``clock``): the list, cut short if need be."""
    kernel = kernel_of(game)
    out: list[tuple[float, Place]] = []
    for i, a in enumerate(actions):
        if i and clock() >= deadline:
            return out
        out.append((place_value(kernel, s, a, player, w), a))
    return out


def _hard(**kw: Any) -> FormaLookahead:
    return FormaLookahead(FormaConfig(**{**HARD, **kw}), name="hard")


def _medium(**kw: Any) -> FormaLookahead:
    return FormaLookahead(FormaConfig(**{**MEDIUM, **kw}), name="medium")


PLAYERS: dict[str, Callable[..., Bot]] = {"greedy": FormaGreedy, "hard": _hard, "medium": _medium}
"""Forma's own players by name (the registry's table points here)."""
