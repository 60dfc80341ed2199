"""Monte Carlo tree search over the protocol, for any game polytable registers.

* UCT with max^n backups: every node keeps one value per player and the player to move at a node picks
  the child best for *them*, so 1- to 7-player games are handled alike.
* Hidden information and chance by *determinisation*: each iteration starts from
  ``game.determinize(root, me, rng)`` (what I cannot know — a deck order, a bag, the generator state —
  resampled, never peeked at) and chance nodes are sampled from that determinised state, so chance
  outcomes vary between iterations. The tree is keyed by action, and the children tried at a node are the
  ones legal in the current determinisation (an "availability" count per child keeps UCB fair when the
  legal set varies, as in ISMCTS).
* Simultaneous rounds are searched as if the acting players chose one after another; a player's choice is
  never taken from the real state (determinisation keeps only what that player may know).
* Progressive widening: at a node visited ``n`` times at most ``ceil(widen_c * n ** widen_alpha)`` children
  are open, taken in the order of a prior (``Evaluator.action_value``, the greedy evaluation) when
  ``use_prior`` is set, so games with hundreds of legal moves (Forma) search their best candidates first.
* Budgets: iterations and/or seconds per move, the seconds on ``clock`` (``wall``, or ``cpu``: this
  thread's CPU time, :mod:`._clock`).
* Tree reuse between moves: the bot keeps the tree it built and the real state it searched from; on the
  next move it looks for the node reached by the moves played since (replayed from that state, chance
  resolved as the real game resolved it) and keeps searching from there. The real chance outcomes are
  used only to recognise the position that has already happened, never to choose a move.

A leaf is valued by a random (or epsilon-greedy) rollout to the end, or, past ``rollout_depth``, by the
game's heuristic ``evaluate`` squashed to [0, 1].
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from ..core import CHANCE, SIMULTANEOUS, Game, IllegalActionError, Rng
from ._clock import budget_clock
from ._evaluator import evaluator

__all__ = ["MCTSBot", "MCTSConfig"]


@dataclass(frozen=True)
class MCTSConfig:
    iterations: int | None = 400
    seconds: float | None = None
    exploration: float = 0.7
    rollout_depth: int = 200
    widen_c: float = 2.0
    widen_alpha: float = 0.5
    use_prior: bool = False
    prior_limit: int = 400
    greedy_rollout_epsilon: float = 1.0  # 1.0: uniform random rollouts
    reuse_tree: bool = True
    clock: str = "wall"

    def __post_init__(self) -> None:
        budget_clock(self.clock)


@dataclass
class _Node:
    player: int
    visits: int = 0
    value: list[float] = field(default_factory=list)
    children: dict[Any, _Node] = field(default_factory=dict)
    avail: dict[Any, int] = field(default_factory=dict)
    order: list[Any] | None = None


def _utilities(game: Game[Any, Any], state: Any) -> list[float]:
    n = state.config.players
    r = game.returns(state)
    if n == 1:
        return [max(0.0, min(1.0, float(r[0])))]
    return [(x + 1.0) / n for x in r]


def _heuristic(game: Game[Any, Any], state: Any) -> list[float]:
    n = state.config.players
    judge = evaluator(game)
    vals = [judge.evaluate(game, state, p) for p in range(n)]
    if n == 1:
        return [1.0 / (1.0 + math.exp(-vals[0] / 10.0))]
    mean = sum(vals) / n
    raw = [1.0 / (1.0 + math.exp(-(v - mean) / 10.0)) for v in vals]
    total = sum(raw)
    return [x / total for x in raw]


class MCTSBot:
    """A determinised UCT player; see the module docstring."""

    def __init__(self, config: MCTSConfig | None = None, name: str = "mcts") -> None:
        self.config = config or MCTSConfig()
        self.name = name
        self.clock = budget_clock(self.config.clock)
        """What ``seconds`` is read on (a test may put a scripted clock here)."""
        self.last_iterations = 0
        self.last_reused_visits = 0
        self._tree: tuple[_Node, Any, int] | None = None

    def _reuse(self, game: Game[Any, Any], state: Any, player: int) -> _Node | None:
        """The node of the previous tree that corresponds to ``state`` (see the module docstring)."""
        if self._tree is None or not self.config.reuse_tree:
            return None
        root, root_state, old_player = self._tree
        if old_player != player:
            return None
        limit = 2 * state.config.players + 2
        stack: list[tuple[_Node, Any, int]] = [(root, root_state, 0)]
        while stack:
            node, s, depth = stack.pop()
            while game.current_player(s) == CHANCE:
                s = game.apply(s, game.chance_outcome(s), CHANCE)
            if depth > 0 and s == state:
                return node if node.player == player else None
            if depth >= limit or game.is_terminal(s):
                continue
            for a, child in node.children.items():
                if child.visits == 0:
                    continue
                try:
                    nxt = game.apply(s, a, node.player)
                except IllegalActionError:  # an action of another determinisation
                    continue
                stack.append((child, nxt, depth + 1))
        return None

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Rng) -> Any:
        legal = list(game.legal_actions(state, player))
        if len(legal) == 1:
            return legal[0]
        cfg = self.config
        root = self._reuse(game, state, player) or _Node(player)
        self.last_reused_visits = root.visits
        deadline = self.clock() + cfg.seconds if cfg.seconds else None
        it = 0
        while True:
            if cfg.iterations is not None and it >= cfg.iterations:
                break
            if deadline is not None and it > 0 and self.clock() >= deadline:
                break
            det = game.determinize(state, player, rng)
            self._iterate(game, det, root, player, rng)
            it += 1
        self.last_iterations = it
        self._tree = (root, state, player)
        best = max(
            (a for a in legal if a in root.children),
            key=lambda a: (root.children[a].visits, root.children[a].value[player] if root.children[a].visits else 0),
            default=None,
        )
        return best if best is not None else legal[rng.below(len(legal))]

    # ------------------------------------------------------------------ one iteration
    def _iterate(self, game: Game[Any, Any], state: Any, root: _Node, me: int, rng: Rng) -> None:
        path: list[tuple[_Node, int]] = []
        node = root
        acting_override: int | None = me
        while True:
            if game.is_terminal(state):
                values = _utilities(game, state)
                break
            cp = game.current_player(state)
            if cp == CHANCE:
                state = game.apply(state, game.chance_outcome(state), CHANCE)
                continue
            if cp == SIMULTANEOUS:
                acting = game.acting_players(state)
                p = acting_override if acting_override in acting else acting[0]
            else:
                p = cp
            acting_override = None
            node.player = p
            actions = self._open_actions(game, state, node, p, rng)
            for a in actions:
                node.avail[a] = node.avail.get(a, 0) + 1
            fresh = [a for a in actions if a not in node.children]
            if fresh:
                a = fresh[0] if node.order is not None else fresh[rng.below(len(fresh))]
                child = _Node(p)
                node.children[a] = child
                path.append((node, p))
                state = game.apply(state, a, p)
                path.append((child, p))
                values = self._rollout(game, state, rng)
                self._backup(path, values)
                return
            a = self._select(node, actions, p)
            path.append((node, p))
            state = game.apply(state, a, p)
            node = node.children[a]
        path.append((node, node.player))
        self._backup(path, values)

    def _open_actions(self, game: Game[Any, Any], state: Any, node: _Node, p: int, rng: Rng) -> list[Any]:
        cfg = self.config
        legal = list(game.legal_actions(state, p))
        limit = max(1, math.ceil(cfg.widen_c * (node.visits + 1) ** cfg.widen_alpha))
        if len(legal) <= limit:
            return legal
        if cfg.use_prior:
            if node.order is None:
                cand = legal
                if len(cand) > cfg.prior_limit:
                    cand = [cand[rng.below(len(cand))] for _ in range(cfg.prior_limit)]
                node.order = sorted(set(cand), key=lambda a: -evaluator(game).action_value(game, state, a, p))
            legal_set = set(legal)
            ordered = [a for a in node.order if a in legal_set]
            return ordered[:limit] if ordered else legal[:limit]
        # Without a prior: keep the children already open, then add random ones up to the limit.
        opened = [a for a in node.children if a in set(legal)]
        rest = [a for a in legal if a not in node.children]
        while len(opened) < limit and rest:
            opened.append(rest.pop(rng.below(len(rest))))
        return opened

    def _select(self, node: _Node, actions: list[Any], p: int) -> Any:
        c = self.config.exploration
        best_a = actions[0]
        best = -1.0
        for a in actions:
            child = node.children[a]
            avail = max(1, node.avail.get(a, 1))
            q = child.value[p] / child.visits if child.visits else 0.5
            u = q + c * math.sqrt(math.log(avail) / (child.visits + 1))
            if u > best:
                best, best_a = u, a
        return best_a

    def _rollout(self, game: Game[Any, Any], state: Any, rng: Rng) -> list[float]:
        cfg = self.config
        if cfg.greedy_rollout_epsilon >= 1.0 and type(game).playout is not Game.playout:
            # The game's own (compiled) playout: the same draws as the loop below for a game whose
            # playout it overrides (no chance or simultaneous steps in its playouts), many times faster.
            state, _ = game.playout(state, [rng], cfg.rollout_depth)
            return _utilities(game, state) if game.is_terminal(state) else _heuristic(game, state)
        for _ in range(cfg.rollout_depth):
            if game.is_terminal(state):
                return _utilities(game, state)
            cp = game.current_player(state)
            if cp == CHANCE:
                state = game.apply(state, game.chance_outcome(state), CHANCE)
                continue
            p = game.acting_players(state)[0]
            legal = game.legal_actions(state, p)
            if cfg.greedy_rollout_epsilon < 1.0 and rng.random() > cfg.greedy_rollout_epsilon:
                judge = evaluator(game)
                a = max(legal, key=lambda x: judge.action_value(game, state, x, p))
            else:
                a = legal.sample(rng)
            state = game.apply(state, a, p)
        if game.is_terminal(state):
            return _utilities(game, state)
        return _heuristic(game, state)

    @staticmethod
    def _backup(path: list[tuple[_Node, int]], values: list[float]) -> None:
        seen: set[int] = set()
        for node, _ in path:
            if id(node) in seen:
                continue
            seen.add(id(node))
            if not node.value:
                node.value = [0.0] * len(values)
            node.visits += 1
            for i, v in enumerate(values):
                node.value[i] += v
