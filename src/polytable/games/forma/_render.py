"""Terminal rendering of a Forma board: coordinates on all sides, one letter per player for pieces
(``A``-``D``) and for markers (``a``-``d``), ``#`` grey obstacles, ``T`` the tower, ``.`` empty cells;
the last piece placed is marked with ``*`` so the board reads the same without colour."""

from __future__ import annotations

import textwrap

from polytable.core import CHANCE, TERMINAL, player_name

from . import _pieces as P
from ._state import COLUMNS, FormaState

__all__ = ["LETTERS", "render"]

LETTERS = "ABCD"
_BG = ("\x1b[41m", "\x1b[44m", "\x1b[43m", "\x1b[42m")  # red, blue, yellow, green as in the box
_FG = ("\x1b[31m", "\x1b[34m", "\x1b[33m", "\x1b[32m")
_RESET = "\x1b[0m"
_GREY = "\x1b[100m"
_WHITE = "\x1b[47m\x1b[30m"


def render(state: FormaState, color: bool = False) -> str:
    tb = P.tables(state.size)
    n, st = state.size, tb.stride
    header = "    " + " ".join(COLUMNS[:n])
    lines = [header]
    for y in range(n):
        row = []
        for x in range(n):
            bit = 1 << (y * st + x)
            mark = "*" if state.last & bit else " "
            ch, style = ".", ""
            if state.obstacles & bit:
                ch, style = "#", _GREY
            elif state.tower & bit:
                ch, style = "T", _WHITE
            else:
                for i in range(state.config.players):
                    if state.pieces[i] & bit:
                        ch, style = LETTERS[i], _BG[i] + "\x1b[97m"
                        break
                    if state.markers[i] & bit:
                        ch, style = LETTERS[i].lower(), _FG[i] + "\x1b[1m"
                        break
            cell = mark + ch
            row.append(f"{style}{cell}{_RESET}" if color and style else cell)
        label = f"{n - y:>3}"
        lines.append(label + "".join(row) + f" {n - y}")
    lines.append(header)
    lines.append("")
    for i in range(state.config.players):
        left = [f"{P.PIECE_NAMES[p]}x{c}" if c > 1 else P.PIECE_NAMES[p] for p, c in enumerate(state.stock[i]) if c]
        tag = LETTERS[i]
        if color:
            tag = f"{_BG[i]}\x1b[97m{tag}{_RESET}"
        turn = " <- to play" if state.turn == i else ""
        lines.append(f"{tag} {player_name(i)}: {state.scores[i]} points, {state.bridges[i]} bridge(s){turn}")
        lines.extend(
            textwrap.wrap(
                "pieces left: " + (" ".join(left) if left else "(none)"),
                width=76,
                initial_indent="    ",
                subsequent_indent="      ",
            )
        )
    if state.placing:
        togo = state.placing - (0 if state.tower else 1)
        if state.turn == CHANCE:
            lines.append(
                f"Set-up: the rest is placed at random ({togo} obstacle(s){'' if state.tower else ' and the tower'})."
            )
        else:
            todo = [f"{togo} more obstacle(s)"] if togo else []
            todo += [] if state.tower else ["the tower"]
            lines.append(
                f"Set-up: {player_name(state.turn)} places {' and '.join(todo)}, off the border and not next to each"
                " other ('obstacle k7', 'tower j10'), or 'fill' to place the rest at random."
            )
    if state.picked >= 0:
        lines.append(f"In hand: {P.PIECE_NAMES[state.picked]} (touch-move: it must be placed)")
    elif state.misses:
        lines.append(
            "Touch-move: the piece just picked fits nowhere and has left the game; pick once more (if that one"
            " does not fit either, it leaves too and the turn passes)."
        )
    elif state.config["touch_move"] and state.turn >= 0 and not state.placing:
        lines.append("Touch-move: pick a piece first ('pick F5'); once picked it must be placed.")
    if state.turn == TERMINAL:
        best = max(state.scores)
        won = [player_name(i) for i, s in enumerate(state.scores) if s == best]
        lines.append(f"Game over: {' and '.join(won)} {'win' if len(won) > 1 else 'wins'} with {best} points.")
    lines.append("Key: A-D pieces, a-d markers, # obstacle, T tower, . empty, * last piece placed")
    return "\n".join(lines)
