"""The polytable kernel: the game protocol, specs and options, errors, the seeded generator, the registry."""

from ._companion import Companion
from ._discover import discover
from ._engine import ENGINES, load_kernel, native_module, pure_engine_forced
from ._errors import ConfigError, IllegalActionError, PolytableError, StateFormatError, joined, phrase, word
from ._json import MAX_DEPTH, JsonLimitError, json_depth, loads_bounded
from ._layout import StateLayout
from ._protocol import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameState, LegalActions, player_name, turns_in_rotation
from ._registry import BUILTIN_GAMES, ENTRY_POINT_GROUP, all_games, game_ids, get_game, register
from ._rng import Rng, below, next_u64, seed_state, shuffled
from ._said import both, decided, gained, number
from ._spec import Config, GameSpec, Option, Scalar
from ._util import require, require_int, require_list

__all__ = [
    "BUILTIN_GAMES",
    "CHANCE",
    "ENGINES",
    "ENTRY_POINT_GROUP",
    "MAX_DEPTH",
    "SIMULTANEOUS",
    "TERMINAL",
    "Companion",
    "Config",
    "ConfigError",
    "Game",
    "GameSpec",
    "GameState",
    "IllegalActionError",
    "JsonLimitError",
    "LegalActions",
    "Option",
    "PolytableError",
    "Rng",
    "Scalar",
    "StateFormatError",
    "StateLayout",
    "all_games",
    "below",
    "both",
    "decided",
    "discover",
    "gained",
    "game_ids",
    "get_game",
    "joined",
    "json_depth",
    "load_kernel",
    "loads_bounded",
    "native_module",
    "next_u64",
    "number",
    "phrase",
    "player_name",
    "pure_engine_forced",
    "register",
    "require",
    "require_int",
    "require_list",
    "seed_state",
    "shuffled",
    "turns_in_rotation",
    "word",
]
