"""Forma in words: each move for the history, and why the game ended (``Game.narrate``/``outcome``)."""

from __future__ import annotations

from polytable.core import both, decided, gained, phrase, player_name

from . import _pieces as P
from ._notation import FormaAction
from ._rules import piece_fits
from ._state import Fill, FormaState, Obstacle, Pick, Tower, cell_name

__all__ = ["narrate", "outcome"]


def narrate(action: FormaAction, state: FormaState, after: FormaState, player: int) -> dict[str, object]:
    """``Player 1 placed piece L4 on c5 (+14)``; a pick, the set-up's obstacles and tower, a fill."""
    if isinstance(action, Pick):
        piece = P.PIECE_NAMES[action.piece]
        tb = P.tables(state.size)
        if piece_fits(tb, action.piece, tb.board & ~state.filled):
            return phrase(
                "forma.said.pick",
                f"{player_name(player)} picked up piece {piece}",
                {"seat": player, "piece": piece},
            )
        return phrase(
            "forma.said.pick_lost",
            f"{player_name(player)} picked up piece {piece}, which fits nowhere: it leaves the game",
            {"seat": player, "piece": piece},
        )
    if isinstance(action, Obstacle):
        cell = cell_name(action.col, action.row)
        return phrase(
            "forma.said.obstacle",
            f"{player_name(player)} placed an obstacle on {cell}",
            {"seat": player, "cell": cell},
        )
    if isinstance(action, Tower):
        cell = cell_name(action.col, action.row)
        return phrase(
            "forma.said.tower",
            f"{player_name(player)} placed the tower on {cell}",
            {"seat": player, "cell": cell},
        )
    if isinstance(action, Fill):
        return phrase(
            "forma.said.fill",
            f"{player_name(player)} left the rest of the set-up to chance",
            {"seat": player},
        )
    piece, cell = P.PIECE_NAMES[action[0]], cell_name(action[2], action[3])
    placed = phrase(
        "forma.said.place",
        f"{player_name(player)} placed piece {piece} on {cell}",
        {"seat": player, "piece": piece, "cell": cell},
    )
    return gained(placed, state.scores, after.scores, player)


def outcome(state: FormaState) -> dict[str, object]:
    """The rulebook: the game ends when nobody can place a piece; the most points wins (ties shared)."""
    best = max(state.scores)
    winners = tuple(p for p, s in enumerate(state.scores) if s == best)
    return both(phrase("forma.said.end", "no one can place a piece any more"), decided(state.scores, winners))
