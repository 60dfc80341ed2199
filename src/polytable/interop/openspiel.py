"""Expose any polytable game as an OpenSpiel Python game, so OpenSpiel's algorithms and tools run on ours.

``load(game_id, options, players)`` returns a ``pyspiel.Game``; every game is registered with OpenSpiel on
import as ``polytable_<id>`` (``-`` as ``_``), so ``pyspiel.load_game("polytable_forma(players=2)")`` works.
Games and states pickle and serialise (``pyspiel.serialize_game_and_state``), which OpenSpiel's
``random_sim_test(serialize=True)`` checks; the ``options`` parameter is JSON with the characters
OpenSpiel's game strings reserve (``,``, ``(``, ``)``, ``=``, spaces) percent-encoded (:func:`game_string`).

Mapping of the protocol:

* Actions are the PettingZoo environments' encoding (:mod:`polytable.interop._table`): the game's dense
  ids, or for a game with more ids than ``DENSE_LIMIT`` (Qwirkle Cubes: a placement names every cube and
  cell) the *index* of the action among the legal ones in the game's listing order (the same in both
  engines), at most ``INDEXED_CAP`` (32,768) of them. An indexed action's meaning depends on the state,
  which search (MCTS) accepts; learning algorithms that need fixed meanings should prefer the dense games.
* Chance is *sampled*: a chance node (a card reveal, a roll, a bag draw, Forma's set-up draw) offers one
  outcome, the one the state's own seeded generator draws (``Game.chance_outcome``, constant time), with
  probability 1. Chosen over listing the distribution because the lists are far too long to build at
  every node (a FORMFINITY card reveal has 8,736 outcomes, a Qwirkle Cubes roll up to 46,656: 28 and 68
  steps per second when they were listed) and over a factored chance node because no generic factoring
  fits every game. Simulations stay exact and replay from the seed, and a serialised state replays its
  history. The price: OpenSpiel search that expands a chance node of its own copy sees *the* future
  draw; :class:`OpenSpielMCTSBot` therefore searches a determinised copy (``Game.determinize``), as our
  AIs do.
* Simultaneous rounds are presented sequentially (the acting players in index order) with imperfect
  information: observations are built from ``Game.view`` for that player, which never contains another
  player's pending choice.
* Observations: ``observation_tensor`` is the environments' planes (``uint8`` values as float32, shape
  height x width x channels, docs/research.md), ``observation_string`` the player's view as JSON. Games
  with perfect information also give the same tensor as ``information_state_tensor`` (their state is
  Markov: the history adds nothing a player could use), so ``rl_environment.Environment`` and OpenSpiel's
  RL algorithms run on every game.
* Returns are ours (zero-sum ``n/k - 1`` for winners and ``-1`` for the others; one-player games in [0, 1]).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any
from urllib.parse import quote, unquote

import numpy as np
import pyspiel

from ..core import CHANCE, SIMULTANEOUS, TERMINAL, Game, IllegalActionError, game_ids, get_game, loads_bounded
from ._planes import encoder_for
from ._table import action_space_of, fast_codec, observe, ordered_legal

__all__ = ["OpenSpielMCTSBot", "PolytableGame", "PolytableState", "game_string", "load", "register_all", "short_name"]

_MAX_GAME_LENGTH = 5000
_SAFE = '{}[]":_-.~/#*'


def short_name(game_id: str) -> str:
    return "polytable_" + game_id.replace("-", "_")


def _encode_options(options: Mapping[str, object]) -> str:
    return quote(json.dumps(dict(options), sort_keys=True, separators=(",", ":")), safe=_SAFE)


def _decode_options(text: object) -> dict[str, Any]:
    if isinstance(text, Mapping):
        return dict(text)
    value = loads_bounded(unquote(str(text)))
    if not isinstance(value, dict):
        raise ValueError(f"options must be a JSON object, not {text!r}")
    return value


def game_string(game_id: str, options: Mapping[str, object] | None = None, players: int | None = None) -> str:
    """The OpenSpiel game string of a configuration, for ``pyspiel.load_game``."""
    spec = get_game(game_id).spec
    return (
        f"{short_name(spec.id)}(options={_encode_options(options or {})},"
        f"players={players or spec.default_players},seed=0)"
    )


def _game_type(game: Game[Any, Any]) -> pyspiel.GameType:
    spec = game.spec
    hidden = spec.hidden_information or spec.simultaneous
    return pyspiel.GameType(
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
        provides_information_state_tensor=not hidden,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification={"players": spec.default_players, "seed": 0, "options": "{}"},
    )


class PolytableGame(pyspiel.Game):  # type: ignore[misc]
    """One polytable game configuration as an OpenSpiel game (see the module docstring)."""

    game_id = ""

    def __init__(self, params: Mapping[str, Any] | None = None) -> None:
        game = get_game(self.game_id)
        spec = game.spec
        params = dict(params or {})
        players = int(params.get("players", spec.default_players))
        self.seed = int(params.get("seed", 0))
        self.options = _decode_options(params.get("options", "{}"))
        self.pt_game = game
        first = game.new_game(self.options, seed=self.seed, players=players)
        self.indexed, size = action_space_of(game, first.config)
        info = pyspiel.GameInfo(
            num_distinct_actions=size,
            max_chance_outcomes=size if spec.chance else 0,
            num_players=players,
            min_utility=-1.0 if players > 1 else 0.0,
            max_utility=float(players - 1) if players > 1 else 1.0,
            utility_sum=0.0 if spec.min_players > 1 else None,
            max_game_length=_MAX_GAME_LENGTH,
        )
        self.params = {"players": players, "seed": self.seed, "options": _encode_options(self.options)}
        super().__init__(_TYPES[spec.id], info, self.params)
        self.players = players
        first_view = game.view(first, 0)
        self.encoder = encoder_for(spec.id, first_view, first.config)
        self.codec = fast_codec(game, first.config, first_view)
        self.obs_shape = observe(game, self.encoder, first, 0, players).shape
        # One cache of ordered legal actions per game object: clones share it (keyed by the state object).
        self.legal_cache: tuple[Any, int, list[Any]] | None = None

    def __reduce__(self) -> tuple[Any, ...]:
        # Rebuilt from its parameters (OpenSpiel's own pickling would make a game without our attributes).
        return (type(self), (self.params,))

    def new_initial_state(self) -> PolytableState:
        return PolytableState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> PolytableObserver:
        return PolytableObserver(self)


class PolytableState(pyspiel.State):  # type: ignore[misc]
    """A polytable state under OpenSpiel: ``s`` is the (immutable) polytable state."""

    def __init__(self, pgame: PolytableGame) -> None:
        super().__init__(pgame)
        self.s = pgame.pt_game.new_game(pgame.options, seed=pgame.seed, players=pgame.players)

    @property
    def pgame(self) -> PolytableGame:
        game: PolytableGame = self.get_game()
        return game

    @property
    def pt(self) -> Game[Any, Any]:
        return self.pgame.pt_game

    def __deepcopy__(self, memo: dict[int, Any]) -> PolytableState:
        # OpenSpiel clones Python states with deepcopy; ours are immutable, so share them instead.
        other = PolytableState.__new__(PolytableState)
        pyspiel.State.__init__(other, self.get_game())
        other.s = self.s
        return other

    def _ordered_legal(self, player: int) -> list[Any]:
        pgame, s = self.pgame, self.s
        cached = pgame.legal_cache
        if cached is not None and cached[0] is s and cached[1] == player:
            return cached[2]
        actions, _ = ordered_legal(pgame.pt_game, s, player)
        pgame.legal_cache = (s, player, actions)
        return actions

    def _who(self) -> int:
        pt, s = self.pt, self.s
        cp = pt.current_player(s)
        return int(pt.acting_players(s)[0]) if cp == SIMULTANEOUS else int(cp)

    def _value(self, action: int) -> Any:
        pt, s = self.pt, self.s
        if pt.current_player(s) == CHANCE:
            return pt.chance_outcome(s)
        if not self.pgame.indexed:
            return pt.action_from_id(int(action), s)
        return self._ordered_legal(self._who())[int(action)]

    def current_player(self) -> int:
        cp = self.pt.current_player(self.s)
        if cp == TERMINAL:
            return int(pyspiel.PlayerId.TERMINAL)
        if cp == CHANCE:
            return int(pyspiel.PlayerId.CHANCE)
        return self._who()

    def _legal_actions(self, player: int) -> list[int]:
        if self.pgame.indexed:
            return list(range(len(self._ordered_legal(player))))
        return self.pt.legal_actions(self.s, player).ids()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        if self.pgame.indexed:
            return [(0, 1.0)]
        pt, s = self.pt, self.s
        return [(pt.action_id(pt.chance_outcome(s), s), 1.0)]

    def _apply_action(self, action: int) -> None:
        who = self._who()
        pt = self.pt
        try:
            if pt.current_player(self.s) == CHANCE:
                self.s = pt.apply_chance(self.s)
            else:
                self.s = pt.apply(self.s, self._value(action), who)
        except (IllegalActionError, IndexError) as exc:
            raise ValueError(f"action {action}: {exc}") from None

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


class PolytableObserver:
    """OpenSpiel's Python observer: the planes as a float32 tensor, the view as a JSON string."""

    def __init__(self, pgame: PolytableGame) -> None:
        self.tensor = np.zeros(int(np.prod(pgame.obs_shape)), np.float32)
        self.dict: dict[str, Any] = {"observation": self.tensor.reshape(pgame.obs_shape)}
        self._planes = np.zeros(pgame.obs_shape, np.uint8)

    def set_from(self, state: PolytableState, player: int) -> None:
        pgame = state.pgame
        if pgame.codec is None:
            self.tensor[:] = observe(pgame.pt_game, pgame.encoder, state.s, player, pgame.players).ravel()
        else:
            pgame.codec.write(state.s, player, self._planes)
            self.tensor[:] = self._planes.ravel()

    def string_from(self, state: PolytableState, player: int) -> str:
        return json.dumps(state.pt.view(state.s, player), sort_keys=True)


_TYPES: dict[str, pyspiel.GameType] = {}
_CLASSES: dict[str, type[PolytableGame]] = {}


def _register(game_id: str) -> str:
    game = get_game(game_id)
    if game.spec.id not in _TYPES:
        _TYPES[game.spec.id] = _game_type(game)
        # OpenSpiel's registry wants a class taking the parameters: one small subclass per game, a module
        # attribute so that pickle finds it.
        name = f"PolytableGame_{game.spec.id.replace('-', '_')}"
        cls = type(name, (PolytableGame,), {"game_id": game.spec.id, "__module__": __name__})
        globals()[name] = cls
        pyspiel.register_game(_TYPES[game.spec.id], cls)
        _CLASSES[short_name(game.spec.id)] = cls
    return short_name(game.spec.id)


def load(game_id: str, options: Mapping[str, object] | None = None, players: int | None = None, seed: int = 0) -> Any:
    """An OpenSpiel game object for a polytable game configuration."""
    spec = get_game(game_id).spec
    return _CLASSES[_register(spec.id)](
        {"players": players or spec.default_players, "seed": seed, "options": _encode_options(options or {})}
    )


def register_all() -> list[str]:
    """Register every polytable game with OpenSpiel (done on import); returns the OpenSpiel short names."""
    return [_register(g) for g in game_ids()]


register_all()


class OpenSpielMCTSBot:
    """OpenSpiel's own ``MCTSBot`` (random rollouts, UCT) as a polytable bot: the peer in the arena.

    It searches a determinised copy of the state (``Game.determinize``), so the sampled chance nodes of the
    adapter do not show it the real future draws. ``seconds`` per move is honoured by calibration: the
    simulations per second of the previous move set the budget of the next one (the first uses
    ``simulations``).
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
        osg = load(game.spec.id, dict(cfg), cfg.players)
        ostate = osg.new_initial_state()
        ostate.s = game.determinize(state, player, rng)
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
        ostate.s = state  # the player's own legal actions are the same in the determinised copy
        return ostate._value(int(action_id))
