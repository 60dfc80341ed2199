"""Per-game web extras: the routes, pages, board tables and room sheets one game adds to the web app.

A game that needs more than the generic room has one module here, ``extras/<package>.py``, exporting
``EXTRAS``, an :class:`Extras`. The app finds them by scanning this package (:func:`polytable.core.discover`,
the hook that also finds printables, bench and CLI extras), so a game's web extras are one file and no
shared list names the game. A scan rather than an entry-point group: the extras build on the web layer's
own helpers (the hub, its JSON error answers), which are no public API a separately installed
distribution could rely on. Generic web modules name no game; they ask :func:`extras_for` and
:func:`extra_routes`. An extras module uses only its game's public face (``polytable.games.<g>``).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from ...core import Config, discover

if TYPE_CHECKING:
    from starlette.routing import BaseRoute

    from .._hub import Hub

__all__ = ["Extras", "all_extras", "board_data", "extra_routes", "extras_for"]


def _no_routes(hub: Hub) -> Sequence[BaseRoute]:
    return ()


@dataclass(frozen=True)
class Extras:
    """What one game adds to the web app; every part is optional.

    ``routes(hub)`` builds the game's HTTP routes and pages for one app (state such as running jobs lives
    in what it builds, so two apps share nothing); ``board_data()`` returns the static tables of the game's
    dedicated board (``GET /api/boards/{game}``, cached by the caller); ``room_sheet(out_path, paper,
    config)`` prints the sheet of a companion room for its exact configuration (otherwise the printable
    named like the game is printed for the room's player count).
    """

    game: str
    routes: Callable[[Hub], Sequence[BaseRoute]] = _no_routes
    board_data: Callable[[], dict[str, Any]] | None = None
    room_sheet: Callable[[str, str, Config], None] | None = None


@functools.cache
def all_extras() -> dict[str, Extras]:
    """Every game's extras by game id (found once; a module without ``EXTRAS`` adds nothing)."""
    out: dict[str, Extras] = {}
    for mod in discover(__name__):
        extras = getattr(mod, "EXTRAS", None)
        if isinstance(extras, Extras):
            if extras.game in out:
                raise ValueError(f"two extras modules claim the game {extras.game!r}")
            out[extras.game] = extras
    return out


def extras_for(game_id: str) -> Extras | None:
    """The extras of one game, or None when it has none."""
    return all_extras().get(game_id)


def extra_routes(hub: Hub) -> list[BaseRoute]:
    """The routes of every game's extras, for one app."""
    return [route for extras in all_extras().values() for route in extras.routes(hub)]


def board_data(game_id: str) -> dict[str, Any] | None:
    """The static tables a game's dedicated board needs, or None for a game without any."""
    extras = extras_for(game_id)
    if extras is None or extras.board_data is None:
        return None
    return _tables(game_id)


@functools.cache
def _tables(game_id: str) -> dict[str, Any]:
    """Built once per game with tables (only known ids are cached: a request names any text)."""
    build = all_extras()[game_id].board_data
    assert build is not None
    return build()
