"""Terminal rendering: every sheet side by side (four to a band), readable without colour.

``#`` inked square, ``=`` barrier, ``.`` empty; rows are numbered from the bottom; the lane numbers sit
under the line between their two columns; ``~`` rows at the top stand for the lines folded away.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from polytable.core import player_name

from ._cards import WIDTH, drawing
from ._state import FoldrisState
from ._text import format_action
from ._titles import solo_title

if TYPE_CHECKING:
    from ._game import FoldrisGame

__all__ = ["render"]

_RESET = "\x1b[0m"
_INK = "\x1b[1;36m"
_BAR = "\x1b[1;31m"
_DIM = "\x1b[2m"
_BOLD = "\x1b[1m"
_PER_BAND = 4
_COLW = 2 * WIDTH + 8


def _pad(text: str, visible: int) -> str:
    return text + " " * max(0, _COLW - visible)


def _sheet_lines(game: FoldrisGame, state: FoldrisState, p: int, viewer: int | None, color: bool) -> list[str]:
    s = state.sheets[p]
    full = state.config.int("height")
    out: list[tuple[str, int]] = []  # (text with colour codes, visible length)

    def add(text: str, plain: str | None = None) -> None:
        out.append((text, len(plain if plain is not None else text)))

    who = player_name(p) + (" (you)" if viewer == p else "")
    add(f"{_BOLD}{who}{_RESET}" if color else who, who)
    head = f"lines {s.lines:<2} bonus {s.bonus} "
    room = _COLW - len(head)
    circles = "o" * s.bonus if s.bonus <= room else "o" * (room - 1) + "+"  # the storage, one circle a point
    add(head + circles)
    if s.out:
        status = f"OUT in round {s.out}"
    elif state.over:
        status = "finished"
    elif state.card < 0:
        status = "waiting for the card"
    elif state.pending[p] is None:
        status = "choosing..."
    elif viewer == p:
        status = "chose " + format_action(state.pending[p])  # type: ignore[arg-type]
    else:
        status = "has chosen"
    add(status)
    cols = "    " + " ".join(str(c + 1) for c in range(WIDTH))
    add(cols)
    add("  +" + "-" * (2 * WIDTH + 1) + "+")
    for _ in range(full - s.height):
        add("  |" + " ~" * WIDTH + " |")
    for r in range(s.height - 1, -1, -1):
        plain_cells = []
        shown = []
        for c in range(WIDTH):
            bit = 1 << (r * WIDTH + c)
            if s.ink & bit:
                ch, code = "#", _INK
            elif s.barrier & bit:
                ch, code = "=", _BAR
            else:
                ch, code = ".", _DIM
            plain_cells.append(ch)
            shown.append(f"{code}{ch}{_RESET}" if color else ch)
        plain = f"{r + 1:>2}| " + " ".join(plain_cells) + " |"
        add(f"{r + 1:>2}| " + " ".join(shown) + " |", plain)
    add("  +" + "-" * (2 * WIDTH + 1) + "+")
    add("lane " + " ".join(str(k) for k in range(1, 8)))
    return [_pad(text, n) for text, n in out]


def render(game: FoldrisGame, state: FoldrisState, viewer: int | None = None, color: bool = False) -> str:
    from ._decks import deck_of

    deck = deck_of(state.config)
    head = []
    n = state.config.players
    mode = "solo" if n == 1 else f"{n} players"
    head.append(f"Foldris ({mode}) - round {state.round} - {len(state.deck)} card(s) left in the deck")
    if n > 1:
        first = f" (start card lane {state.start_lane})" if state.start_lane else ""
        head.append(f"Starting player: {player_name(state.starter)}{first}")
    elif state.start_lane:
        head.append(f"Start card lane {state.start_lane}")
    if state.card >= 0:
        name, lane = deck.cards[state.card]
        head.append(f"Card: {name}  lane {lane}  shape {drawing(deck.shape(name))}")
    elif not state.over:
        head.append("Next: a card is revealed")
    cost = "1 (solo)" if n == 1 else "2"
    head.append(f"Effects: mirror m = 1 point, trim tK = {cost} points; e.g. 'T r1 c3', 'L m t2 r0 c5'")
    body = []
    sheets = [_sheet_lines(game, state, p, viewer, color) for p in range(n)]
    for start in range(0, n, _PER_BAND):
        band = sheets[start : start + _PER_BAND]
        for row in zip(*band, strict=True):
            body.append("   ".join(row).rstrip())
        body.append("")
    tail = []
    if state.over:
        won = game.winners(state)
        if n == 1:
            lines = state.sheets[0].lines
            title = solo_title(lines)
            tail.append(
                f"Game over: {lines} line(s). " + (f"Title: {title}." if title else "No title (under 3 lines).")
            )
        elif won:
            tail.append("Game over. Winner(s): " + ", ".join(player_name(p) for p in won))
    return "\n".join([*head, "", *body, *tail]).rstrip() + "\n"
