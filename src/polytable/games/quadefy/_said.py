"""Quadefy in words: each placement for the history, and why the game ended (``Game.narrate``/``outcome``)."""

from __future__ import annotations

from polytable.core import phrase, player_name

from ._state import Placement, QuadefyState

__all__ = ["narrate", "outcome"]


def narrate(action: Placement, state: QuadefyState, player: int) -> dict[str, object]:
    """``Player 1 placed block L on layer 1, corner at b2`` (columns a-d and rows 1-4 as the layers show)."""
    cell = f"{'abcd'[action.x]}{action.y + 1}"
    return phrase(
        "quadefy.said.place",
        f"{player_name(player)} placed block {action.block} on layer {action.z + 1}, corner at {cell}",
        {"seat": player, "block": action.block, "layer": action.z + 1, "cell": cell},
    )


def outcome(state: QuadefyState) -> dict[str, object]:
    """Who could not place: the rulebook's only way to end (no draws); the blocks placed do not count."""
    loser = state.loser
    left = bin(state.remaining[loser]).count("1") if loser >= 0 else 0
    if left == 0:
        return phrase(
            "quadefy.said.empty",
            f"{player_name(loser)} has no block left to place, and whoever cannot place a block loses",
            {"seat": loser},
        )
    return phrase(
        "quadefy.said.stuck",
        f"{player_name(loser)}: none of the {left} blocks left fits anywhere, and whoever cannot place a block loses",
        {"seat": loser, "left": left},
    )
