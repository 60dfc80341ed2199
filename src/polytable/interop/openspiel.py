"""Expose any polytable game as an OpenSpiel Python game, so OpenSpiel's algorithms run on our games.

``load(game_id, options, players)`` returns a ``pyspiel.Game``; the type is also registered with OpenSpiel
as ``polytable_<id>`` (with ``-`` as ``_``), so ``pyspiel.load_game("polytable_forma")`` works after
:func:`register_all`.

Mapping of the protocol:

* Player actions are our dense integer ids (``num_distinct_actions`` is ours).
* Chance nodes: where the game enumerates its chance outcomes (``Game.chance_outcomes``) OpenSpiel sees
  that exact distribution. Where it does not (dice pools, bag draws, generated cards: far too many
  outcomes to list), the node offers the one outcome the state's own generator would draw, with
  probability 1. That keeps OpenSpiel's simulations exact and replayable, but it means an OpenSpiel
  search that expands chance nodes sees *the* future draw of its own copy of the state: an advantage for
  the OpenSpiel bot when it is measured against ours, which determinises (documented in ``docs/ai.md``).
  Chance outcome ids share the id space of player actions.
* Simultaneous rounds are presented sequentially (the acting players in index order) with imperfect
  information: the observation string of a player is built from ``Game.view`` for that player, which
  never contains another player's pending choice.
* Games whose id space is too large for OpenSpiel's action masks (Qwirkle Cubes has about 1.5e9 ids: a
  placement names every cube and cell) are *indexed*: an OpenSpiel action is the position of the action
  in the state's legal actions sorted by our id, and ``num_distinct_actions`` is the cap
  :data:`INDEXED_CAP`. The meaning of an OpenSpiel action then depends on the state, which search
  algorithms (MCTS) accept; learning algorithms that need fixed action meanings should not use them.
* Returns are ours (zero-sum ``n/k - 1`` for winners and ``-1`` for the others; one-player games in [0, 1]).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

import numpy as np
import pyspiel

from ..core import CHANCE, SIMULTANEOUS, TERMINAL, Game, IllegalActionError, get_game, loads_bounded

__all__ = ["load", "register_all", "short_name"]

_MAX_GAME_LENGTH = 5000
INDEXED_CAP = 1 << 20
"""Action ids beyond this many make a game *indexed* for OpenSpiel (see the module docstring)."""


def short_name(game_id: str) -> str:
    return "polytable_" + game_id.replace("-", "_")


def _make(game: Game[Any, Any]) -> type[pyspiel.Game]:
    spec = game.spec
    hidden = spec.hidden_information or spec.simultaneous
    game_type = pyspiel.GameType(
        short_name=short_name(spec.id),
        long_name=f"polytable {spec.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=(
            pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC
            if spec.chance
            else pyspiel.GameType.ChanceMode.DETERMINISTIC
        ),
        information=(
            pyspiel.GameType.Information.IMPERFECT_INFORMATION
            if hidden
            else pyspiel.GameType.Information.PERFECT_INFORMATION
        ),
        utility=(pyspiel.GameType.Utility.ZERO_SUM if spec.min_players > 1 else pyspiel.GameType.Utility.GENERAL_SUM),
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=spec.max_players,
        min_num_players=spec.min_players,
        provides_information_state_string=False,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=False,
        parameter_specification={"players": spec.default_players, "seed": 0, "options": "{}"},
    )

    class _Game(pyspiel.Game):  # type: ignore[misc]
        def __init__(self, params: Mapping[str, Any] | None = None) -> None:
            params = dict(params or {})
            players = int(params.get("players", spec.default_players))
            self.seed = int(params.get("seed", 0))
            options = params.get("options", "{}")
            self.options = loads_bounded(options) if isinstance(options, str) else dict(options)
            self.pt_game = game
            first = game.new_game(self.options, seed=self.seed, players=players)
            size = game.num_distinct_actions(first.config)
            self.indexed = size > INDEXED_CAP
            if self.indexed:
                size = INDEXED_CAP
            info = pyspiel.GameInfo(
                num_distinct_actions=size,
                max_chance_outcomes=size if spec.chance else 0,
                num_players=players,
                min_utility=-1.0 if players > 1 else 0.0,
                max_utility=float(players - 1) if players > 1 else 1.0,
                utility_sum=0.0 if spec.min_players > 1 else None,
                max_game_length=_MAX_GAME_LENGTH,
            )
            super().__init__(
                game_type, info, {"players": players, "seed": self.seed, "options": json.dumps(self.options)}
            )
            self.players = players
            self.legal_cache: tuple[Any, int, list[Any]] | None = None
            self.chance_cache: tuple[Any, list[tuple[Any, float]]] | None = None

        def new_initial_state(self) -> _State:
            return _State(self)

        def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
            return _Observer()

    class _State(pyspiel.State):  # type: ignore[misc]
        def __init__(self, pgame: _Game) -> None:
            super().__init__(pgame)
            self._pgame = pgame
            self.pt = pgame.pt_game
            self.indexed = pgame.indexed
            self.s = self.pt.new_game(pgame.options, seed=pgame.seed, players=pgame.players)

        def _sorted_legal(self, player: int) -> list[Any]:
            s = self.s
            # Caches live on the game object: OpenSpiel clones states by deep-copying their attributes.
            cached = getattr(self._pgame, "legal_cache", None)
            if cached is not None and cached[0] is s and cached[1] == player:
                return list(cached[2])
            actions = sorted(self.pt.legal_actions(s, player), key=lambda a: self.pt.action_id(a, s))
            if len(actions) > INDEXED_CAP:
                raise ValueError(f"{len(actions)} legal actions: more than the adapter's cap {INDEXED_CAP}")
            self._pgame.legal_cache = (s, player, actions)
            return list(actions)

        def _chance_list(self) -> list[tuple[Any, float]]:
            s = self.s
            cached = getattr(self._pgame, "chance_cache", None)
            if cached is not None and cached[0] is s:
                return list(cached[1])
            out = self._chance_list_uncached()
            self._pgame.chance_cache = (s, out)
            return list(out)

        def _chance_list_uncached(self) -> list[tuple[Any, float]]:
            s = self.s
            try:
                outcomes = self.pt.chance_outcomes(s)
            except NotImplementedError:
                return [(self.pt.chance_outcome(s), 1.0)]
            merged: dict[int, tuple[Any, float]] = {}
            for a, p in outcomes:
                i = self.pt.action_id(a, s)
                merged[i] = (a, merged[i][1] + p) if i in merged else (a, p)
            return [merged[i] for i in sorted(merged)]

        def _value(self, action: int) -> Any:
            if not self.indexed:
                return self.pt.action_from_id(int(action), self.s)
            if self.pt.current_player(self.s) == CHANCE:
                return self._chance_list()[int(action)][0]
            return self._sorted_legal(self._who())[int(action)]

        def __deepcopy__(self, memo: dict[int, Any]) -> _State:
            # OpenSpiel clones Python states with deepcopy; ours are immutable, so share them (and the
            # rules object with its tables) instead of copying.
            other = _State(self._pgame)
            other.s = self.s
            return other

        def current_player(self) -> int:
            cp = self.pt.current_player(self.s)
            if cp == TERMINAL:
                return int(pyspiel.PlayerId.TERMINAL)
            if cp == CHANCE:
                return int(pyspiel.PlayerId.CHANCE)
            if cp == SIMULTANEOUS:
                return int(self.pt.acting_players(self.s)[0])
            return int(cp)

        def _who(self) -> int:
            cp = self.pt.current_player(self.s)
            if cp == SIMULTANEOUS:
                return int(self.pt.acting_players(self.s)[0])
            return int(cp)

        def _legal_actions(self, player: int) -> list[int]:
            s = self.s
            if self.indexed:
                return list(range(len(self._sorted_legal(player))))
            return sorted(self.pt.action_id(a, s) for a in self.pt.legal_actions(s, player))

        def chance_outcomes(self) -> list[tuple[int, float]]:
            outcomes = self._chance_list()
            if self.indexed:
                return [(i, p) for i, (_, p) in enumerate(outcomes)]
            return [(self.pt.action_id(a, self.s), p) for a, p in outcomes]

        def _apply_action(self, action: int) -> None:
            who = self._who()
            value = self._value(action)
            try:
                self.s = self.pt.apply(self.s, value, who)
            except IllegalActionError as exc:
                raise ValueError(str(exc)) from None

        def _action_to_string(self, player: int, action: int) -> str:
            try:
                return str(self.pt.format_action(self._value(action), self.s))
            except (IllegalActionError, IndexError):
                return f"#{action}"

        def is_terminal(self) -> bool:
            return bool(self.pt.is_terminal(self.s))

        def returns(self) -> list[float]:
            return [float(x) for x in self.pt.returns(self.s)]

        def __str__(self) -> str:
            return str(self.pt.render(self.s, None))

    class _Observer:
        def __init__(self) -> None:
            self.tensor = np.zeros(0, np.float32)
            self.dict: dict[str, Any] = {}

        def set_from(self, state: _State, player: int) -> None:
            pass

        def string_from(self, state: _State, player: int) -> str:
            return json.dumps(state.pt.view(state.s, player), sort_keys=True)

    pyspiel.register_game(game_type, _Game)
    return _Game


_CLASSES: dict[str, type[pyspiel.Game]] = {}


def _class(game_id: str) -> type[pyspiel.Game]:
    game = get_game(game_id)
    if game.spec.id not in _CLASSES:
        _CLASSES[game.spec.id] = _make(game)
    return _CLASSES[game.spec.id]


def load(game_id: str, options: Mapping[str, object] | None = None, players: int | None = None, seed: int = 0) -> Any:
    """An OpenSpiel game object for a polytable game (the type is registered on first use)."""
    cls = _class(game_id)
    game = get_game(game_id)
    return cls(
        {"players": players or game.spec.default_players, "seed": seed, "options": json.dumps(dict(options or {}))}
    )


def register_all() -> list[str]:
    """Register every polytable game with OpenSpiel; returns the OpenSpiel short names."""
    from ..core import game_ids

    out = []
    for g in game_ids():
        _class(g)
        out.append(short_name(g))
    return out


class OpenSpielMCTSBot:
    """OpenSpiel's own ``MCTSBot`` (random rollouts, UCT) as a polytable bot: the peer in the arena.

    ``seconds`` per move is honoured by calibration: the simulations per second of the previous move set
    the simulation budget of the next one (the first move uses ``simulations``).
    """

    def __init__(
        self, seconds: float | None = 2.0, simulations: int = 200, uct_c: float = 1.4, rollouts: int = 1
    ) -> None:
        self.name = "openspiel-mcts"
        self.seconds = seconds
        self.simulations = simulations
        self.uct_c = uct_c
        self.rollouts = rollouts
        self._rate: float | None = None

    def choose(self, game: Game[Any, Any], state: Any, player: int, rng: Any) -> Any:
        import time

        from open_spiel.python.algorithms import mcts

        cfg = state.config
        # Only options that differ from their defaults: OpenSpiel's game-string parser splits values
        # that contain commas (FORMFINITY's default weights "3,4,4,4,1"), which broke cloning.
        defaults = {o.name: o.default for o in game.spec.options}
        osg = load(game.spec.id, {k: v for k, v in dict(cfg).items() if defaults.get(k, object()) != v}, cfg.players)
        ostate = osg.new_initial_state()
        ostate.s = state
        seed = int(rng.below(2**31))
        sims = self.simulations
        if self.seconds is not None and self._rate is not None:
            sims = max(2, int(self._rate * self.seconds))
        bot = mcts.MCTSBot(
            osg,
            self.uct_c,
            sims,
            mcts.RandomRolloutEvaluator(self.rollouts, np.random.RandomState(seed)),
            random_state=np.random.RandomState(seed),
            solve=False,
        )
        start = time.perf_counter()
        action_id = bot.step(ostate)
        elapsed = max(time.perf_counter() - start, 1e-6)
        self._rate = sims / elapsed
        return ostate._value(int(action_id))
