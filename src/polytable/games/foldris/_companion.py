"""Foldris in companion mode: the app reveals the blocks; every player draws the same one on their sheet."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from polytable.core import Companion, Config
from polytable.geometry import shape_to_text

from ._state import FoldrisState

__all__ = ["FoldrisCompanion"]

_STANDARD = {"I": "####", "O": "##/##", "T": "###/.#.", "S": ".##/##.", "Z": "##./.##", "J": "#../###", "L": "..#/###"}
"""The standard blocks, drawn when a deck's own shape cannot be (a card of an unknown block)."""


class FoldrisCompanion(Companion[FoldrisState]):
    """All draw the same block at once; the first card only sets the start lanes; a sheet per player."""

    together = True
    start_card = True
    shared_sheet = False

    def cards_left(self, state: FoldrisState) -> int:
        return len(state.deck)

    def card(self, text: str, config: Config) -> dict[str, Any]:
        parts = text.split()
        name = parts[1] if len(parts) > 1 else "?"
        lane = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
        # The number is the lane of the start squares (first card) and of this round's barriers; the
        # players choose where the block itself falls.
        return {"name": name, "lane": lane, "shape": _shape(name, config)}

    def table(self, initial: FoldrisState, cards: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """The starting player and each seat's start lane (``start + (seat - starter) mod players``)."""
        first = cards[0].get("lane") if cards else None
        if not isinstance(first, int):
            return {}
        starter, n = initial.starter, initial.config.players
        return {"starter": starter, "start_lanes": [(first - 1 + (p - starter) % n) % 7 + 1 for p in range(n)]}


def _shape(name: str, config: Config) -> list[str]:
    from ._decks import deck_of

    try:  # the game's own deck (a deck file may define shapes)
        return str(shape_to_text(deck_of(config).shape(name))).replace("\n", "/").split("/")
    except Exception:
        return _STANDARD.get(name, "#").split("/")
