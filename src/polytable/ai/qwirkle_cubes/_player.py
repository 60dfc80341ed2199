"""Qwirkle Cubes' own players: ``greedy`` (and its two ablations) and ``hard``/``medium``.

``greedy``: the best placement now minus what it leaves open (the evaluation lives with the rules), and a
reroll of the cubes that placement does not use; ``greedy-keep`` never rerolls, ``greedy-points`` does not
look around. ``hard``/``medium`` fix what greedy does badly: every reroll is judged by its expected value
over shared sampled rolls, answered from a table of every placement a roll could give (:mod:`._reroll`);
the best few placements are re-ranked by a sampled next turn of the opponent and of ours; and greedy's
choice stands unless an alternative is better by ``CONFIDENCE`` standard errors on the shared samples.
Why not the generic MCTS: a random playout is slow on the pure rules (docs/benchmarks/design-figures.md),
so 2 s buys too few to beat a good one-ply evaluation. Chance comes from the injected generator only.
Design notes and measurements: docs/ai-ladder-qwirkle.md.

Anytime: with a time budget (no ``rounds``), both searches sample until the clock, not to a fixed count.
A placement takes scenario after scenario while the time left (of 0.9 of ``seconds``) is expected to
cover one more at the mean cost so far, up to the ceiling :data:`SAMPLES`; a reroll takes
:data:`FIRST_ROLLS` rolls, then doubling batches cut to what the time left covers, up to :data:`ROLLS`.
A reroll whose rolls reach that ceiling with time left spends the rest on a second stage: its best
:data:`FINALISTS` choices judged as placements are (greedy's placement of the rolled hand, then a
sampled next turn of each side), on shared samples. So a faster engine buys more samples, a
tighter estimate (the confidence rule then lets more alternatives displace greedy's choice) and a deeper
look at the reroll: the hot loops (each sampled hand's best placement, the table
of every placement by colour counts, the sampled rolls) are :mod:`._values`' evaluation functions,
compiled (``_cqwirkle_eval``) beside the compiled kernel (the compiled engine buys many times the scenarios in
the same CPU time: docs/benchmarks/design-figures.md). With ``rounds`` the counts are fixed and the choice depends
on the seeds only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from ...core import ConfigError, Game, Rng
from ...games.qwirkle_cubes import (
    HAND_SIZE,
    LINE_MAX,
    PASS,
    PLACE,
    REROLL,
    Board,
    Pass,
    Place,
    Placement,
    QState,
    Reroll,
    canonical_mask,
    hand_mask,
    kernel_of,
    largest_line,
    reroll_masks,
)
from .._bots import Bot
from .._clock import budget_clock
from ._eval import best_placement, placement_value, threat, unused_mask
from ._reroll import RollTable
from ._values import QwirkleValues, values_of

__all__ = ["PLAYERS", "QwirkleConfig", "QwirkleGreedy", "QwirkleSearch"]

REPLY_WEIGHT = 1.0
"""How much of the next player's sampled points counts against a placement. What they would score
whatever we play is common to every candidate and cancels, so the full weight is the honest one."""

TOP_K = 10
"""Placements re-ranked by the sampled turn after (by greedy value): the others are far behind in practice."""

FUTURE_WEIGHT = 0.7
"""How much of our next turn's sampled greedy value counts: the next player moves in between (and may
take the spot), which the scenario does not play out on the table, so it is discounted."""

SAMPLES = 2048
"""Scenarios per placement decision at most (shared by its candidates): the ceiling of the anytime search.
At 0.5 s of CPU the clock stops it first on either engine (the counts: docs/benchmarks/design-figures.md)."""

CONFIDENCE = 1.0
"""Standard errors by which a sampled alternative must beat greedy's own choice (reroll or placement) to
replace it: with few samples (a short or starved budget) the noise of one lucky roll is larger than the
differences being judged, and greedy's choice is the better default."""

MAX_ROUNDS = 64
"""Roll samples per reroll mask at most in the narrow (per-hand walk) reroll search."""

ROLLS = 16384
"""Shared roll samples per decision at most in the wide (tabulated) reroll search (the anytime ceiling)."""

FIRST_ROLLS = 8
"""Roll samples the wide reroll search always takes (a spread to judge by), before it asks the clock."""

FINALISTS = 4
"""Reroll choices (the first stage's choice and the next best by mean) that the second stage judges by a
sampled next turn, when the first stage reached its ceiling :data:`ROLLS` with time left."""

DEEP_ROLLS = 4096
"""Shared samples (a roll and a next-turn scenario) of the reroll decision's second stage at most."""

PER_CUBE = 0.4
"""Added to a placement's value per cube it uses when judging rerolls: a cube kept for the next turn is
worth less than a fresh draw (sampled next turns: about 0.6 points of our next turn per cube kept)."""


class QwirkleGreedy:
    """One ply with look-around: see :mod:`._eval` for why these terms."""

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
            top: list[Placement] = []
            top_value = float("-inf")
            for placed in state.board.placements(hm, need):
                v = placement_value(state, placed, player, self.look)
                if v > top_value + 1e-9:
                    top_value, top = v, [placed]
                elif v >= top_value - 1e-9:
                    top.append(placed)
            return Place(top[rng.below(len(top))] if len(top) > 1 else top[0])
        return game.legal_actions(state, player).sample(rng)


class _Values:
    """Greedy values of placements on one board for one player, each placement scored once.

    The value is ``_eval.placement_value``'s (points, +6 for going out, minus the
    Qwirkle chances handed to the others through lines of 5: ``threat`` against ``hands``) or, with
    ``look`` off, points only. ``best`` memoises per set of distinct faces: sampling meets the same hands
    again and again."""

    __slots__ = ("_best", "_part", "bag_empty", "board", "hands", "kernel", "look", "need_first", "player")

    def __init__(
        self,
        kernel: QwirkleValues,
        board: Board,
        player: int,
        hands: tuple[tuple[int, ...], ...],
        bag_empty: bool,
        look: bool,
    ) -> None:
        self.kernel = kernel
        self.board = board
        self.player = player
        self.hands = hands
        self.bag_empty = bag_empty
        self.look = look
        self.need_first = not board.cells
        self._part: dict[Placement, float] = {}
        self._best: dict[int, tuple[float, Placement]] = {}

    def part(self, placed: Placement) -> float:
        """The value of ``placed`` without the going-out bonus (which depends on the hand's size)."""
        got = self._part.get(placed)
        if got is None:
            after = self.board.scratch(placed)
            got = float(after.score_placed(placed)[0])
            if self.look:
                got -= threat(after, placed, self.hands, self.player)
            self._part[placed] = got
        return got

    def best(self, hand: tuple[int, ...]) -> tuple[float, Placement]:
        """(value, placement) of the best placement of ``hand`` (sorted); ``(-inf, ())`` if none fits."""
        hm = hand_mask(hand)
        key = hm << 3 | len(hand) if self.bag_empty else hm  # only the going-out bonus sees the size
        got = self._best.get(key)
        if got is not None:
            return got
        need = largest_line(hm) if self.need_first else 0
        out_bonus = float(LINE_MAX) if self.bag_empty else 0.0
        best = self.kernel.best_value(
            self.board, hm, need, len(hand), out_bonus, self.hands, self.player, self.look, self._part
        )
        self._best[key] = best
        return best

    def after_greedy_reroll(self, hand: tuple[int, ...], shapes: list[int]) -> tuple[float, Placement]:
        """A greedy player's turn: reroll the cubes the best placement leaves (all if nothing fits),
        with ``shapes`` as the roll, then the best placement of the hand that gives."""
        _, first = self.best(hand)
        mask = unused_mask(hand, first) if first else (1 << len(hand)) - 1
        if not mask:
            return self.best(hand)
        return self.best(_rolled(hand, mask, shapes))


def _lower_bound(diffs: list[float]) -> float:
    """Mean minus ``CONFIDENCE`` standard errors (-inf under two samples: no spread to judge by)."""
    n = len(diffs)
    if n < 2:
        return float("-inf")
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean - CONFIDENCE * math.sqrt(var / n)


def _batches(clock: Callable[[], float], deadline: float, first: int, ceiling: int) -> Iterator[int]:
    """Sizes of the batches of an anytime sampling loop: ``first``, then doubling (the total so far), each
    cut to what the time left before ``deadline`` is expected to cover at the cost a sample so far, until
    ``ceiling`` samples or the clock."""
    start = clock()
    done = 0
    batch = first
    while done < ceiling:
        if done:
            now = clock()
            per = (now - start) / done
            if per > 0:
                batch = min(batch, int((deadline - now) / per))
            if batch < 1:
                return
        batch = min(batch, ceiling - done)
        yield batch
        done += batch
        batch = done


def _rolled(hand: tuple[int, ...], mask: int, shapes: list[int]) -> tuple[int, ...]:
    """``hand`` with the cubes in ``mask`` showing ``shapes[slot]`` (colours stay), sorted."""
    return tuple(sorted(t // 6 * 6 + shapes[i] if mask >> i & 1 else t for i, t in enumerate(hand)))


@dataclass(frozen=True)
class QwirkleConfig:
    """``hard``/``medium``: ``seconds`` a decision (a cap) on ``clock`` (``wall``, or ``cpu``: this thread's
    CPU time, for measuring on a busy machine). ``rounds``: a fixed number of samples for every decision and no time
    limit (the choices then depend on the seeds only: tests and reproducible ladders); ``samples``:
    scenarios a placement decision at most (default :data:`SAMPLES`, the anytime ceiling, or ``rounds``);
    ``top``: the placements re-ranked by the sampled next turn."""

    seconds: float = 2.0
    rounds: int | None = None
    samples: int | None = None
    clock: str = "wall"
    top: int = TOP_K

    def __post_init__(self) -> None:
        budget_clock(self.clock)


class QwirkleSearch:
    """``hard``/``medium``: expected-value rerolls and placements judged by a sampled next turn (see the
    module docstring and :class:`QwirkleConfig`)."""

    def __init__(self, config: QwirkleConfig | None = None, name: str = "hard") -> None:
        self.config = config = config or QwirkleConfig()
        self.seconds = float(config.seconds)
        self.rounds = None if config.rounds is None else max(1, int(config.rounds))
        samples = config.samples
        if samples is None:
            samples = SAMPLES if self.rounds is None else self.rounds
        self.samples = max(1, int(samples))
        self.rolls = ROLLS
        self.clock = budget_clock(config.clock)
        self.reply = REPLY_WEIGHT
        self.future = FUTURE_WEIGHT
        self.top = max(1, int(config.top))
        self.name = name
        self.last_deep = 0
        """Samples of the reroll decision's second stage (a roll and a scenario of the turn after)."""
        self.last_samples = 0
        """Roll samples (a reroll) or scenarios (a placement) the last decision judged: what the budget bought."""
        self.kernel = QwirkleValues()
        """The evaluation of the game object the last decision was asked by (in C beside the compiled kernel)."""

    # ------------------------------------------------------------------ rerolls
    def _reroll(self, state: QState, player: int, rng: Rng) -> Reroll:
        # With one sample no alternative can displace the default (no spread to judge by) and the table is
        # the expensive part, so fixed one-sample budgets (tests) take the cheap search: greedy's reroll.
        if state.board.cells and (self.rounds is None or self.rounds >= 2):
            return self._reroll_wide(state, player, rng)
        hand = state.hands[player]
        values = _Values(self.kernel, state.board, player, state.hands, state.bag_size == 0, True)
        _, best = values.best(hand)
        base = unused_mask(hand, best) if best else (1 << len(hand)) - 1
        used = [i for i in range(len(hand)) if not base >> i & 1]
        masks = sorted(
            {
                canonical_mask(hand, base | sum(1 << used[j] for j in range(len(used)) if sub >> j & 1))
                for sub in range(1 << len(used))
            }
        )
        if len(masks) == 1:
            return Reroll(masks[0])
        samples: dict[int, list[float]] = {m: [] for m in masks}
        deadline = self.clock() + self.seconds * 0.9
        limit = MAX_ROUNDS if self.rounds is None else self.rounds
        timed = self.rounds is None
        rounds = 0
        out_of_time = False
        while rounds < limit and not out_of_time:
            shapes = [rng.below(6) for _ in hand]
            for m in masks:
                v, placed = values.best(_rolled(hand, m, shapes))
                samples[m].append(v if placed else 0.0)
                # The first round always completes; later ones may stop part-way (means stay comparable).
                if timed and rounds and self.clock() > deadline:
                    out_of_time = True
                    break
            rounds += 1
        self.last_samples = rounds
        # Greedy's reroll stands unless another is better with some confidence: paired differences on the
        # same rolls, judged by their lower bound (a search starved of time falls back to greedy's reroll
        # instead of following the luck of one or two samples).
        ref = samples[base]
        best_mask, best_bound = base, 0.0
        for m in masks:
            if m != base:
                bound = _lower_bound([a - b for a, b in zip(samples[m], ref, strict=False)])
                if bound > best_bound + 1e-9:
                    best_mask, best_bound = m, bound
        return Reroll(best_mask)

    def _reroll_wide(self, state: QState, player: int, rng: Rng) -> Reroll:
        """Every reroll choice, each judged by the mean over shared sampled rolls of the best value of the
        hand it gives, looked up in a table of every placement a roll could give (``RollTable``)."""
        deadline = self.clock() + self.seconds * 0.9
        hand = state.hands[player]
        table = RollTable(
            state.board, hand, state.hands, player, PER_CUBE, LINE_MAX if state.bag_size == 0 else 0.0, self.kernel
        )
        _, first = table.best(hand_mask(hand))
        base = unused_mask(hand, first) if first else (1 << len(hand)) - 1
        masks = reroll_masks(hand)
        if len(masks) == 1:
            return Reroll(masks[0])
        fms = [fm for _, fm, _ in table.entries]
        vals = [v for v, _, _ in table.entries]
        diffs: dict[int, list[float]] = {m: [] for m in masks}
        rounds = 0
        if self.rounds is not None:
            batches: Iterator[int] = iter((self.rounds,))
        else:
            batches = _batches(self.clock, deadline, FIRST_ROLLS, self.rolls)
        for batch in batches:
            for m, got in zip(masks, self.kernel.roll_diffs(fms, vals, hand, masks, base, rng, batch), strict=True):
                diffs[m].extend(got)
            rounds += batch
        self.last_samples = rounds
        best_mask, best_bound = base, 0.0
        for m in masks:
            if m != base:
                bound = _lower_bound(diffs[m])
                if bound > best_bound + 1e-9:
                    best_mask, best_bound = m, bound
        if self.rounds is None and rounds >= self.rolls:
            means = {m: sum(d) / len(d) for m, d in diffs.items() if d}
            rest = sorted((m for m in means if m != best_mask), key=lambda m: -means[m])
            best_mask = self._reroll_deep(state, player, rng, [best_mask, *rest[: FINALISTS - 1]], deadline)
        return Reroll(best_mask)

    def _reroll_deep(self, state: QState, player: int, rng: Rng, finalists: list[int], deadline: float) -> int:
        """The second stage of the reroll decision (anytime only, with the time the first left): each of
        ``finalists`` (the first stage's choice first) judged over shared samples of a roll and a
        scenario of the turn after, by greedy's placement of the hand the roll gives, valued as
        placements are (points - the next player's sampled turn + ``future`` x our next one). The first
        stays unless another is better by the confidence rule."""
        hand = state.hands[player]
        values = _Values(self.kernel, state.board, player, state.hands, state.bag_size == 0, True)
        cands: dict[tuple[tuple[int, ...], Placement], _Candidate] = {}
        shared: dict[Placement, list[Any]] = {}
        outcomes: list[list[float]] = [[] for _ in finalists]
        start = self.clock()
        n = 0
        while n < DEEP_ROLLS:
            shapes = [rng.below(6) for _ in hand]
            scenario = _Scenario(state, rng)
            for row, m in zip(outcomes, finalists, strict=True):
                rolled = _rolled(hand, m, shapes)
                _, placed = values.best(rolled)
                if not placed:
                    row.append(0.0)
                    continue
                c = cands.get((rolled, placed))
                if c is None:
                    c = cands[rolled, placed] = _Candidate(self.kernel, state, player, placed, rolled, shared)
                reply, mine = c._sample(scenario)
                row.append(c.points - self.reply * reply + self.future * mine)
            n += 1
            if self.clock() + (self.clock() - start) / n > deadline:
                break
        self.last_deep = n
        ref = outcomes[0]
        choice, best_bound = finalists[0], 0.0
        for m, row in zip(finalists[1:], outcomes[1:], strict=True):
            bound = _lower_bound([a - b for a, b in zip(row, ref, strict=True)])
            if bound > best_bound + 1e-9:
                choice, best_bound = m, bound
        return choice

    # ------------------------------------------------------------------ placements
    def _place(self, state: QState, player: int, rng: Rng) -> Place:
        deadline = self.clock() + self.seconds * 0.9
        hand = state.hands[player]
        hm = hand_mask(hand)
        board = state.board
        need = largest_line(hm) if not board.cells else 0
        now = _Values(self.kernel, board, player, state.hands, state.bag_size == 0, True)
        options = self.kernel.placement_values(board, hm, need, state.hands, player, True, now._part)
        if len(options) == 1:
            return Place(options[0][0])
        scored = []
        for i, (placed, v) in enumerate(options):
            if len(placed) == len(hand) and state.bag_size == 0:
                v += LINE_MAX
            scored.append((v, i, placed))
        scored.sort(key=lambda x: (-x[0], x[1]))
        cands = [_Candidate(self.kernel, state, player, placed) for _, _, placed in scored[: self.top]]
        bias = self.placement_bias(state, player, [c.placed for c in cands])
        if len(cands) > 1 and (self.reply or self.future):
            timed = self.rounds is None
            start = self.clock()
            for n in range(1, self.samples + 1):
                self.last_samples = n
                scenario = _Scenario(state, rng)
                for c in cands:
                    c.add(scenario)
                # Anytime: the next scenario is taken when the time left is expected to cover it (at the
                # mean cost of those so far), so a faster engine buys more of them.
                if timed and self.clock() + (self.clock() - start) / n > deadline:
                    break
        # The same confidence rule as for rerolls: a candidate displaces greedy's choice (the first) only
        # when its paired advantage over the shared scenarios has a positive lower bound.
        ref = cands[0].outcomes(self.reply, self.future)
        best: list[Placement] = [cands[0].placed]
        best_bound = 0.0
        for i, c in enumerate(cands[1:], 1):
            shift = bias[i] - bias[0] if bias else 0.0
            bound = _lower_bound([a - b + shift for a, b in zip(c.outcomes(self.reply, self.future), ref, strict=True)])
            if bound > best_bound + 1e-9:
                best_bound, best = bound, [c.placed]
            elif bound >= best_bound - 1e-9:
                best.append(c.placed)
        return Place(best[rng.below(len(best))] if len(best) > 1 else best[0])

    def placement_bias(self, state: QState, player: int, placements: list[Placement]) -> list[float] | None:
        """Points added to each candidate placement's sampled outcomes (``expert``'s learned value of the
        position each leaves, :mod:`._value`); ``None`` (``hard``): nothing added."""
        return None

    def choose(self, game: Game[Any, Any], state: QState, player: int, rng: Rng) -> Any:
        self.last_samples = 0
        self.last_deep = 0
        self.kernel = values_of(kernel_of(game))
        if state.phase == PASS:
            return Pass()
        if state.phase == REROLL:
            return self._reroll(state, player, rng)
        if state.phase == PLACE:
            return self._place(state, player, rng)
        return game.legal_actions(state, player).sample(rng)


class _Scenario:
    """What we cannot know about the turn after a placement, sampled once and shared by every candidate
    (common random numbers): the next player's reroll shapes, our refill (colours from the bag's known
    counts, shapes) and our own reroll shapes."""

    __slots__ = ("draw", "opp_shapes", "our_shapes")

    def __init__(self, state: QState, rng: Rng) -> None:
        self.opp_shapes = [rng.below(6) for _ in range(HAND_SIZE)]
        self.our_shapes = [rng.below(6) for _ in range(HAND_SIZE)]
        bag = list(state.bag)
        total = sum(bag)
        drawn = []
        for _ in range(min(HAND_SIZE, total)):
            r = rng.below(total)
            c = 0
            while r >= bag[c]:
                r -= bag[c]
                c += 1
            bag[c] -= 1
            total -= 1
            drawn.append(c * 6 + rng.below(6))
        self.draw = drawn


class _Candidate:
    """One placement and the sums of its sampled next turns."""

    __slots__ = (
        "_after",
        "_mine",
        "_theirs",
        "bag_after",
        "finished",
        "kernel",
        "nexts",
        "opp",
        "opp_hand",
        "placed",
        "player",
        "points",
        "replies",
        "rest",
        "shared",
        "state",
    )

    def __init__(
        self,
        kernel: QwirkleValues,
        state: QState,
        player: int,
        placed: Placement,
        hand: tuple[int, ...] | None = None,
        shared: dict[Placement, list[Any]] | None = None,
    ) -> None:
        """``hand``: the hand placed from (default: the player's); ``shared``: the board after ``placed``
        and the two players' values on it, kept per placement across candidates of different hands."""
        self.kernel = kernel
        self.state = state
        self.player = player
        self.placed = placed
        self.shared = shared
        rest = list(state.hands[player] if hand is None else hand)
        for t, _ in placed:
            rest.remove(t)
        self.rest = tuple(rest)
        after = state.board.scratch(placed)
        self.finished = not rest and state.bag_size == 0
        self.points = float(after.score_placed(placed)[0] + (LINE_MAX if self.finished else 0))
        n = state.config.players
        self.opp = (player + 1) % n
        self.opp_hand = state.hands[self.opp]
        self.bag_after = max(0, state.bag_size - (HAND_SIZE - len(rest)))
        self.replies: list[float] = []
        self.nexts: list[float] = []
        self._after: Board | None = None
        self._theirs: _Values | None = None
        self._mine: _Values | None = None

    def add(self, sc: _Scenario) -> None:
        reply, mine = self._sample(sc)
        self.replies.append(reply)
        self.nexts.append(mine)

    def _sample(self, sc: _Scenario) -> tuple[float, float]:
        """(the next player's points, our next turn's value) in one scenario."""
        if self.finished:
            return 0.0, 0.0  # the game ends here: no reply, no next turn
        if self._after is None and self.shared is not None:
            # The hand's size is the decision's, so the bag after ``placed`` (and the values) are shared.
            got = self.shared.get(self.placed)
            if got is None:
                after = self.state.board.with_cubes(self.placed)
                empty = self.bag_after == 0
                got = self.shared[self.placed] = [
                    after,
                    _Values(self.kernel, after, self.opp, self.state.hands, empty, False),
                    _Values(self.kernel, after, self.player, self.state.hands, empty, True),
                ]
            self._after, self._theirs, self._mine = got
        if self._after is None:
            self._after = self.state.board.with_cubes(self.placed)
        after = self._after
        refill = sc.draw[: HAND_SIZE - len(self.rest)] if self.state.bag_size else []
        new_hand = tuple(sorted(self.rest + tuple(refill)))
        # The next player's turn, played as greedy plays it: points only count (their Qwirkle included).
        if self._theirs is None:
            self._theirs = _Values(self.kernel, after, self.opp, self.state.hands, self.bag_after == 0, False)
        reply, placed = self._theirs.after_greedy_reroll(self.opp_hand, sc.opp_shapes)
        if not placed:
            reply = 0.0
        if placed and self.bag_after == 0 and len(placed) == len(self.opp_hand):
            return reply, 0.0  # they go out: the game ends before our next turn
        if self._mine is None:
            self._mine = _Values(self.kernel, after, self.player, self.state.hands, self.bag_after == 0, True)
        mine, placed = self._mine.after_greedy_reroll(new_hand, sc.our_shapes)
        return reply, mine if placed else 0.0

    def outcomes(self, reply: float, future: float) -> list[float]:
        """The placement's value in each scenario so far."""
        return [self.points - reply * r + future * m for r, m in zip(self.replies, self.nexts, strict=True)]


def _config(seconds: float, kw: dict[str, Any]) -> QwirkleConfig:
    """The config of a level from a name's parameters; ``cpu=true``/``false`` is the older spelling of
    ``clock=cpu``/``wall`` (earlier measurements' commands use it), read into ``clock``."""
    if "cpu" in kw:
        cpu = kw.pop("cpu")
        if not isinstance(cpu, bool) or "clock" in kw:
            raise ConfigError("cpu must be true or false, and not given with clock (cpu=true is clock=cpu)")
        kw["clock"] = "cpu" if cpu else "wall"
    return QwirkleConfig(**{"seconds": seconds, **kw})


def _hard(**kw: Any) -> QwirkleSearch:
    return QwirkleSearch(_config(2.0, kw), name="hard")


def _medium(**kw: Any) -> QwirkleSearch:
    return QwirkleSearch(_config(0.5, kw), name="medium")


PLAYERS: dict[str, Callable[..., Bot]] = {
    "greedy": QwirkleGreedy,
    "greedy-keep": lambda: QwirkleGreedy(reroll=False),
    "greedy-points": lambda: QwirkleGreedy(look=False),
    "hard": _hard,
    "medium": _medium,
}
"""Qwirkle Cubes' own players by name (the registry's table points here)."""
