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
        fits = piece_fits(tb, action.piece, tb.board & ~state.filled)
        lost = (
            phrase("said.none", "") if fits else phrase("forma.said.lost", ", which fits nowhere: it leaves the game")
        )
        return phrase(
            "forma.said.pick",
            f"{player_name(player)} picked up piece {piece}{lost['message']}",
            {"seat": player, "piece": piece, "lost": lost},
        )
    if isinstance(action, (Obstacle, Tower)):
        cell = cell_name(action.col, action.row)
        what = (
            phrase("forma.said.an_obstacle", "an obstacle")
            if isinstance(action, Obstacle)
            else phrase("forma.said.the_tower", "the tower")
        )
        return phrase(
            "forma.said.setup",
            f"{player_name(player)} placed {what['message']} on {cell}",
            {"seat": player, "what": what, "cell": cell},
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
