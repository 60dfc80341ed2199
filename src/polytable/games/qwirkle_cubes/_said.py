"""Qwirkle Cubes in words: each move for the history, and why the game ended (``Game.narrate``/``outcome``)."""

from __future__ import annotations

from ...core import both, decided, gained, phrase, player_name
from ._actions import Action, Draw, Pass, Place, Reroll, Roll
from ._state import QState

__all__ = ["narrate", "outcome"]


def narrate(action: Action, state: QState, after: QState, player: int) -> dict[str, object]:
    """``Player 1 placed 3 cubes (+7)``; a reroll or keeping the hand, a pass; chance's rolls and draws are
    told as the player's whose cubes they are."""
    seat = state.player
    if isinstance(action, Place):
        n = len(action.cubes)
        placed = phrase("qwirkle_cubes.said.place", f"{player_name(seat)} placed {n} cubes", {"seat": seat, "n": n})
        if n == 1:
            placed = phrase("qwirkle_cubes.said.place1", f"{player_name(seat)} placed 1 cube", {"seat": seat})
        qwirkles = after.last[2] if after.last[0] == seat else 0
        if qwirkles:
            placed = phrase("qwirkle_cubes.said.qwirkle", f"{placed['message']}: a Qwirkle!", {"part": placed})
        return gained(placed, state.points, after.points, seat)
    if isinstance(action, Reroll):
        n = bin(action.mask).count("1") if action.mask >= 0 else len(state.hand)
        if action.mask == 0:
            return phrase("qwirkle_cubes.said.keep", f"{player_name(seat)} kept every cube", {"seat": seat})
        return phrase("qwirkle_cubes.said.reroll", f"{player_name(seat)} rerolled {n} cubes", {"seat": seat, "n": n})
    if isinstance(action, Pass):
        return phrase("qwirkle_cubes.said.pass", f"{player_name(seat)} passed: no cube could ever fit", {"seat": seat})
    if isinstance(action, Roll):
        n = len(action.shapes)
        return phrase("qwirkle_cubes.said.roll", f"{player_name(seat)} rolled {n} cubes", {"seat": seat, "n": n})
    assert isinstance(action, Draw)
    n = len(action.colours)
    return phrase("qwirkle_cubes.said.draw", f"{player_name(seat)} drew {n} cubes from the bag", {"seat": seat, "n": n})


def outcome(state: QState) -> dict[str, object]:
    """The end (a player placed their last cube with the bag empty, +6; or everyone passed with the bag
    empty, no bonus), then the most points (ties shared: the rulebook has no tie-break)."""
    best = max(state.points)
    winners = tuple(p for p, v in enumerate(state.points) if v == best)
    if state.finisher >= 0:
        end = phrase(
            "qwirkle_cubes.said.finished",
            f"the bag is empty and {player_name(state.finisher)} placed their last cube (6 bonus points)",
            {"seat": state.finisher},
        )
    else:
        end = phrase("qwirkle_cubes.said.stuck", "the bag is empty and nobody can place a cube any more")
    return both(end, decided(state.points, winners))
