"""FORMFINITY terminal rendering and JSON views (everything public: the template, the drawing, the card).

Each square is three characters wide so numbers fit: `` . `` free, `` # `` black, `` * `` a start
square, `` 1 `` a square drawn by player 1, ``[1]`` a square of the element drawn last, a number or
an area letter on free squares that carry one. Without colour everything is still readable.
"""

from __future__ import annotations

from typing import Any

from polytable.core import player_name
from polytable.geometry import bits

from ._board import Setup
from ._cards import Card, card_art
from ._notation import DIRS
from ._state import CHOOSE, CLAIM, DRAW, OVER, PLACE, FormfinityState, cell_name, col_name

__all__ = ["render", "view"]

_COLOURS = ("\x1b[1;31m", "\x1b[1;34m", "\x1b[1;32m", "\x1b[1;33m")
_RESET = "\x1b[0m"
_DIM = "\x1b[2m"
_INV = "\x1b[7m"


def _status(setup: Setup, st: FormfinityState) -> str:
    who = player_name(st.turn)
    if st.phase == OVER:
        names = ", ".join(player_name(p) for p in st.winners)
        return f"Game over. {'Winner' if len(st.winners) == 1 else 'Shared win'}: {names}."
    if st.phase == DRAW:
        return f"{who} draws a card."
    if st.phase == CHOOSE:
        return f"{who} chooses the next area to fill (area:NAME)."
    if st.phase == CLAIM:
        return f"{who} chooses which line to claim (line:DIR:CELL)."
    card = Card.from_id(st.card)
    k = card.count - st.left + 1
    how = "T:c / L:5 (edge and lane)" if card.edges and setup.rules.arrows else "c5 (top-left corner)"
    rot = ", /r1../r3 to rotate" if setup.rules.rotation_allowed(card.rotate) else ""
    return f"{who} places element {k} of {card.count}: type {how}{rot}, or the squares (c5 d5 c6)."


def render(setup: Setup, st: FormfinityState, color: bool = False) -> str:
    t = setup.template
    rules = setup.rules
    owner_of: dict[int, int] = {}
    for p, m in enumerate(st.owners):
        for i in bits(m):
            owner_of[i] = p
    number_at = {b.bit_length() - 1: i + 1 for i, b in enumerate(setup.numbers)}
    area_at: dict[int, str] = {}
    for i, m in enumerate(setup.areas):
        name = setup.area_names[i]
        label = name if len(name) <= 2 else chr(65 + i % 26)
        # The area being filled in capitals, the others in small letters, finished ones as ':'.
        shown = ":" if st.done_areas >> i & 1 else label.upper() if i == st.area else label.lower()
        for i in bits(m):
            area_at[i] = shown
    title = rules.name + (f" ({rules.difficulty})" if rules.goal == "lines" else "")
    lines = [f"FORMFINITY - {title} - cards drawn: {st.cards_drawn}"]
    lines.append("    " + "".join(f"{col_name(x):^3}" for x in range(setup.W)))
    for y in range(setup.H):
        row = [f"{y + 1:>3} "]
        for x in range(setup.W):
            b = y * setup.S + x
            kind = t.kind(x, y)
            if kind == "outside":
                cell = "   "
            elif kind == "black":
                cell = f"{_DIM} # {_RESET}" if color else " # "
            elif kind == "star":
                p = setup.stars.index(1 << b)
                cell = f"{_COLOURS[p]} * {_RESET}" if color else " * "
            elif b in owner_of:
                p = owner_of[b]
                last = st.last >> b & 1
                text = f"[{p + 1}]" if last else f" {p + 1} "
                if color:
                    text = f"{_COLOURS[p]}{_INV if last else ''}{text}{_RESET}"
                cell = text
            elif b in number_at:
                cell = f"{number_at[b]:>2} "
            elif b in area_at:
                cell = f" {area_at[b]:<2}"[:3]
            else:
                cell = " . "
            row.append(cell)
        lines.append("".join(row).rstrip())
    lines.append("")
    lines.append(_scoreline(setup, st))
    lines.append(_status(setup, st))
    if st.phase in (PLACE, CLAIM) and st.card >= 0:
        card = Card.from_id(st.card)
        lines.append(f"Card {card.notation()}: {card.describe(rules.arrows, rules.rotation_allowed(card.rotate))}")
        lines += card_art(card, unicode=color)
    elif st.unused and st.phase != OVER:
        lines.append(f"({st.unused} element{'s' * (st.unused > 1)} of the last card could not be placed.)")
    return "\n".join(lines)


def _scoreline(setup: Setup, st: FormfinityState) -> str:
    rules = setup.rules
    n = setup.players
    if rules.goal == "lines":
        counts = [sum(1 for o, _, _ in st.lines if o == p) for p in range(n)]
        return f"Lines (target {rules.target}): " + ", ".join(f"{player_name(p)} {counts[p]}" for p in range(n))
    if rules.goal == "areas":
        cur = setup.area_names[st.area] if st.area >= 0 else "-"
        left = sum(1 for i in range(len(setup.areas)) if not st.done_areas >> i & 1)
        pts = ", ".join(f"{player_name(p)} {st.points[p]}" for p in range(n))
        return f"Points: {pts}. Area being filled: {cur}; areas left: {left}."
    if rules.goal == "connection":
        return "Player 1 builds up from the lower *, Player 2 down from the upper *."
    k = len(st.numbers)
    counts = [st.numbers.count(p) for p in range(n)]
    nxt = f"next number: {k + 1}" if k < len(setup.numbers) else "all numbers claimed"
    return "Numbers: " + ", ".join(f"{player_name(p)} {counts[p]}" for p in range(n)) + f"; {nxt}."


def view(setup: Setup, st: FormfinityState, scores: tuple[float, ...]) -> dict[str, Any]:
    t = setup.template
    card = Card.from_id(st.card) if st.card >= 0 else None
    return {
        "variant": setup.rules.name,
        "goal": setup.rules.goal,
        "difficulty": setup.rules.difficulty,
        "width": setup.W,
        "height": setup.H,
        "template": [[t.label(x, y) for x in range(setup.W)] for y in range(setup.H)],
        "turn": st.turn,
        "phase": ("choose", "draw", "place", "claim", "over")[st.phase],
        "card": card.notation() if card else None,
        "elements_left": st.left,
        "drawn": [[cell_name(x, y) for x, y in setup.cells(m)] for m in st.owners],
        "last": [cell_name(x, y) for x, y in setup.cells(st.last)],
        "lines": [
            {"owner": o, "direction": DIRS[d], "cells": [cell_name(x, y) for x, y in setup.cells(_w(setup, d, b))]}
            for o, d, b in st.lines
        ],
        "area": setup.area_names[st.area] if st.area >= 0 else None,
        "finished_areas": [setup.area_names[i] for i in range(len(setup.areas)) if st.done_areas >> i & 1],
        "points": list(st.points),
        "numbers_claimed_by": list(st.numbers),
        "scores": list(scores),
        "winners": list(st.winners),
        "cards_drawn": st.cards_drawn,
        "deck_left": len(st.deck) if setup.generator is None else None,
        "unused_last_card": st.unused,
        "status": _status(setup, st),
    }


def _w(setup: Setup, d: int, b: int) -> int:
    from ._flow import window

    return window(setup, d, b)
