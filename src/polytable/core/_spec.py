"""What a game declares about itself: its spec and its options.

Why declarative: the CLI (`polytable games`), the web app's room form, simulations and the conformance
suite all read the same spec, so an option exists in exactly one place, with its default and validation.
Config values are plain JSON scalars so a match record stays a self-contained JSON document; an option
of kind ``"text"`` holds the *contents* of a file (a template, a deck), never a path, because games do
no I/O and a record must replay on another machine.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Literal

from ._errors import ConfigError

__all__ = ["Config", "GameSpec", "Option", "OptionKind", "Scalar"]

Scalar = int | float | str | bool
OptionKind = Literal["int", "float", "bool", "choice", "str", "text"]

_TRUE = {"1", "true", "yes", "on", "y"}
_FALSE = {"0", "false", "no", "off", "n"}


@dataclass(frozen=True)
class Option:
    """One game option.

    ``kind`` is one of ``int``, ``float``, ``bool``, ``choice`` (one of ``choices``), ``str`` (a short
    value) or ``text`` (the contents of a file the user names; interfaces read the file).
    """

    name: str
    kind: OptionKind
    default: Scalar | None
    help: str
    choices: tuple[str, ...] = ()
    min: float | None = None
    max: float | None = None

    def coerce(self, value: object) -> Scalar | None:
        """Turn a user value (often a string from the command line) into the option's type, or raise."""
        name = self.name
        if value is None:
            if self.default is None:
                return None
            raise ConfigError(f"option {name!r} needs a value", "option_value", {"option": name})
        if self.kind == "bool":
            if isinstance(value, bool):
                return value
            text = str(value).strip().lower()
            if text in _TRUE:
                return True
            if text in _FALSE:
                return False
            raise ConfigError(
                f"option {name!r} takes true or false, not {value!r}",
                "option_bool",
                {"option": name, "value": repr(value)},
            )
        if self.kind == "int":
            if isinstance(value, bool):
                raise ConfigError(
                    f"option {name!r} takes a whole number, not {value!r}",
                    "option_int",
                    {"option": name, "value": repr(value)},
                )
            try:
                number: int | float = int(str(value).strip()) if not isinstance(value, int) else value
            except ValueError:
                raise ConfigError(
                    f"option {name!r} takes a whole number, not {value!r}",
                    "option_int",
                    {"option": name, "value": repr(value)},
                ) from None
            self._check_range(number)
            return number
        if self.kind == "float":
            if isinstance(value, bool):
                raise ConfigError(
                    f"option {name!r} takes a number, not {value!r}",
                    "option_number",
                    {"option": name, "value": repr(value)},
                )
            try:
                number = float(value) if isinstance(value, (int, float)) else float(str(value).strip())
            except ValueError:
                raise ConfigError(
                    f"option {name!r} takes a number, not {value!r}",
                    "option_number",
                    {"option": name, "value": repr(value)},
                ) from None
            self._check_range(number)
            return number
        if not isinstance(value, (str, int, float)):
            raise ConfigError(
                f"option {name!r} takes text, not {type(value).__name__}",
                "option_text",
                {"option": name, "type": type(value).__name__},
            )
        text = str(value)
        if self.kind == "choice":
            if text not in self.choices:
                raise ConfigError(
                    f"option {name!r} must be one of {', '.join(self.choices)}, not {text!r}",
                    "option_choice",
                    {"option": name, "choices": ", ".join(self.choices), "value": repr(text)},
                )
            return text
        if self.kind == "str" and len(text) > 200:
            raise ConfigError(
                f"option {name!r} is too long ({len(text)} characters; at most 200)",
                "option_long",
                {"option": name, "length": len(text)},
            )
        if self.kind == "text" and len(text) > 1_000_000:
            raise ConfigError(
                f"option {name!r} is too large ({len(text)} characters; at most 1,000,000)",
                "option_large",
                {"option": name, "length": len(text)},
            )
        return text

    def _check_range(self, number: float) -> None:
        if self.min is not None and number < self.min:
            raise ConfigError(
                f"option {self.name!r} must be at least {_fmt(self.min)}, not {_fmt(number)}",
                "option_min",
                {"option": self.name, "min": _fmt(self.min), "value": _fmt(number)},
            )
        if self.max is not None and number > self.max:
            raise ConfigError(
                f"option {self.name!r} must be at most {_fmt(self.max)}, not {_fmt(number)}",
                "option_max",
                {"option": self.name, "max": _fmt(self.max), "value": _fmt(number)},
            )

    def describe(self) -> dict[str, object]:
        """A JSON-compatible description (for `polytable games --json` and the web app)."""
        out: dict[str, object] = {"name": self.name, "kind": self.kind, "default": self.default, "help": self.help}
        if self.choices:
            out["choices"] = list(self.choices)
        if self.min is not None:
            out["min"] = self.min
        if self.max is not None:
            out["max"] = self.max
        return out


def _fmt(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


@dataclass(frozen=True)
class Config(Mapping[str, Scalar | None]):
    """A validated, immutable configuration: the player count plus every option's value.

    It is a read-only mapping of option name to value; ``players`` is the player count.
    """

    players: int
    entries: tuple[tuple[str, Scalar | None], ...]
    _index: dict[str, Scalar | None] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_index", dict(self.entries))

    def __getitem__(self, key: str) -> Scalar | None:
        return self._index[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._index)

    def __len__(self) -> int:
        return len(self._index)

    def int(self, key: str) -> int:
        value = self._index[key]
        assert isinstance(value, int) and not isinstance(value, bool), key
        return value

    def str(self, key: builtins.str) -> builtins.str:
        value = self._index[key]
        assert isinstance(value, str), key
        return value

    def bool(self, key: builtins.str) -> builtins.bool:
        value = self._index[key]
        assert isinstance(value, bool), key
        return value

    def float(self, key: builtins.str) -> builtins.float:
        value = self._index[key]
        assert isinstance(value, (int, float)) and not isinstance(value, bool), key
        return builtins.float(value)

    def to_dict(self) -> dict[builtins.str, object]:
        """JSON-compatible: ``{"players": N, "options": {...}}``."""
        return {"players": self.players, "options": dict(self.entries)}


@dataclass(frozen=True)
class GameSpec:
    """What kind of game this is, next to its rules (as OpenSpiel's GameType does).

    ``rules_version`` changes whenever the behaviour of the rules changes (a recorded game names the
    version it was played under); ``chance`` says whether the game has chance nodes; ``simultaneous``
    whether some decisions are taken by several players at once without seeing each other's choices;
    ``hidden_information`` whether a player's view omits something (a deck order, a bag, a pending choice).
    ``listed`` is False for a game that is playable by id but not offered (a test or template game): the
    game list of the CLI, the web home page, the AI benchmark and the translation check skip it.
    ``rules_page`` names the game's How-to-play page in the translations (keys ``rules.<page>.*``; empty:
    the id), which ``polytable rules`` and the web page show.
    """

    id: str
    name: str
    min_players: int
    max_players: int
    default_players: int
    rules_version: str
    options: tuple[Option, ...] = ()
    chance: bool = False
    simultaneous: bool = False
    hidden_information: bool = False
    summary: str = ""
    listed: bool = True
    rules_page: str = ""

    def option(self, name: str) -> Option:
        for opt in self.options:
            if opt.name == name:
                return opt
        known = ", ".join(o.name for o in self.options) or "none"
        raise ConfigError(
            f"{self.name} has no option {name!r} (options: {known})",
            "no_option",
            {"game": self.name, "option": name, "known": known},
        )

    def config(self, options: Mapping[str, object] | None = None, players: int | None = None) -> Config:
        """Validate user options and a player count into a :class:`Config`.

        Unknown options, values of the wrong type or out of range, and player counts outside the game's
        range raise :class:`ConfigError` with a message that names the problem.
        """
        if isinstance(options, Config):
            if players is None or players == options.players:
                return options
            options = dict(options)
        n = self.default_players if players is None else players
        if isinstance(n, bool) or not isinstance(n, int):
            raise ConfigError(
                f"the number of players must be a whole number, not {n!r}", "players_int", {"value": repr(n)}
            )
        if not self.min_players <= n <= self.max_players:
            if self.min_players == self.max_players:
                raise ConfigError(
                    f"{self.name} is played by {self.min_players} players, not {n}",
                    "players_exact",
                    {"game": self.name, "n": self.min_players, "players": n},
                )
            raise ConfigError(
                f"{self.name} is played by {self.min_players} to {self.max_players} players, not {n}",
                "players_range",
                {"game": self.name, "min": self.min_players, "max": self.max_players, "players": n},
            )
        given = dict(options or {})
        values: list[tuple[str, Scalar | None]] = []
        for opt in self.options:
            values.append((opt.name, opt.coerce(given.pop(opt.name)) if opt.name in given else opt.default))
        if given:
            self.option(next(iter(given)))  # raises with the list of known options
        return Config(n, tuple(values))

    def describe(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "summary": self.summary,
            "players": {"min": self.min_players, "max": self.max_players, "default": self.default_players},
            "rules_version": self.rules_version,
            "chance": self.chance,
            "simultaneous": self.simultaneous,
            "hidden_information": self.hidden_information,
            "options": [o.describe() for o in self.options],
        }
