"""Reading ``--option KEY=VALUE`` and ``--ai SEAT=NAME`` from the command line.

Options of kind ``text`` hold a file's contents (games do no I/O): ``KEY=@FILE`` or ``KEY=FILE`` naming an
existing file reads it here, so a record made from it replays on any machine.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from typing import Any

from ..core import ConfigError, Game

__all__ = ["parse_ai_seats", "parse_options"]


def parse_options(game: Game[Any, Any], items: Sequence[str] | None) -> dict[str, object]:
    out: dict[str, object] = {}
    for item in items or ():
        if "=" not in item:
            raise ConfigError(f"--option takes KEY=VALUE, not {item!r}")
        key, value = item.split("=", 1)
        key = key.strip()
        opt = game.spec.option(key)
        if opt.kind == "text":
            path = value[1:] if value.startswith("@") else value
            if value.startswith("@") or os.path.isfile(path):
                try:
                    with open(path, encoding="utf-8") as fh:
                        value = fh.read()
                except OSError as exc:
                    raise ConfigError(f"option {key!r}: cannot read {path!r}: {exc.strerror}") from None
                except UnicodeDecodeError:
                    raise ConfigError(f"option {key!r}: {path!r} is not a UTF-8 text file") from None
        out[key] = value
    return out


def parse_ai_seats(items: Sequence[str] | None, players: int) -> dict[int, str]:
    """``SEAT=NAME`` pairs (seats numbered from 1) -> {0-based seat: bot name}."""
    out: dict[int, str] = {}
    for item in items or ():
        if "=" not in item:
            raise ConfigError(f"--ai takes SEAT=NAME (for example 2=greedy), not {item!r}")
        seat_text, name = item.split("=", 1)
        try:
            seat = int(seat_text)
        except ValueError:
            raise ConfigError(f"--ai: the seat must be a number from 1 to {players}, not {seat_text!r}") from None
        if not 1 <= seat <= players:
            raise ConfigError(f"--ai: there is no seat {seat} in a {players}-player game")
        out[seat - 1] = name.strip()
    return out
