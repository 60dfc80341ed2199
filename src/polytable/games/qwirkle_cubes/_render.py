"""What players see: the JSON view and the terminal picture (readable without colour: a letter for each
colour, a symbol for each shape; ANSI colours only add to it)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ...core import player_name
from ._actions import Action, Draw, Pass, Place, Reroll, Roll, format_action
from ._state import END, PASS, PHASES, PLACE, REROLL, ROLL, QState
from ._tiles import COLOUR_LETTERS, COLOUR_NAMES, SHAPE_NAMES, SHAPE_SYMBOLS, cell_xy, face_name, face_text

if TYPE_CHECKING:
    from ._game import QwirkleCubes

__all__ = ["describe", "render", "view"]

_ANSI = ("\x1b[1;31m", "\x1b[1;38;5;208m", "\x1b[1;33m", "\x1b[1;32m", "\x1b[1;34m", "\x1b[1;35m")
_RESET = "\x1b[0m"


def _cube(t: int, color: bool, pending: bool = False) -> str:
    text = COLOUR_LETTERS[t // 6] + ("?" if pending else SHAPE_SYMBOLS[t % 6])
    return f"{_ANSI[t // 6]}{text}{_RESET}" if color else text


def _hand_texts(s: QState, p: int) -> list[str]:
    pending = s.rolling if p == s.player else 0
    return [COLOUR_LETTERS[t // 6] + "?" if pending >> i & 1 else face_text(t) for i, t in enumerate(s.hands[p])]


def view(game: QwirkleCubes, s: QState, player: int | None) -> dict[str, Any]:
    """Everything is open except the bag's order (and the generator behind it)."""
    out: dict[str, Any] = {
        "game": "qwirkle-cubes",
        "phase": PHASES[s.phase],
        "to_move": s.player,
        "turn": s.turn,
        "points": list(s.points),
        "hands": [_hand_texts(s, p) for p in range(s.config.players)],
        "table": [[*cell_xy(c), face_text(t)] for t, c in s.placed],
        "bag_size": s.bag_size,
        "bag_colours": {COLOUR_NAMES[c]: n for c, n in enumerate(s.bag)},
        "forced_rerolls": s.forced,
        "passes_in_a_row": s.passes,
        "last": {"player": s.last[0], "points": s.last[1], "qwirkles": s.last[2]} if s.last[0] >= 0 else None,
        "viewer": player,
    }
    if s.phase == END:
        out["winners"] = list(game.winners(s))
        out["finisher"] = s.finisher
    return out


def _grid(s: QState, color: bool) -> list[str]:
    if not s.placed:
        return ["(the grid is empty: the first play starts at 0,0 and runs to the right)"]
    cells = {cell_xy(c): t for t, c in s.placed}
    xs = [x for x, _ in cells]
    ys = [y for _, y in cells]
    x0, x1, y0, y1 = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    lines = ["     " + "".join(f"{x:>3}" for x in range(x0, x1 + 1))]
    for y in range(y1, y0 - 1, -1):
        row = [f"{y:>4} "]
        for x in range(x0, x1 + 1):
            t = cells.get((x, y))
            row.append(" " + (_cube(t, color) if t is not None else " ·"))
        lines.append("".join(row))
    return lines


def render(game: QwirkleCubes, s: QState, player: int | None = None, color: bool = False) -> str:
    lines = [f"Qwirkle Cubes — turn {s.turn}, bag {s.bag_size} cubes   (x to the right, y upwards)"]
    lines += _grid(s, color)
    lines.append("")
    for p in range(s.config.players):
        mark = "▶" if p == s.player and s.phase != END else " "
        pending = s.rolling if p == s.player else 0
        cubes = " ".join(f"{i + 1}:{_cube(t, color, bool(pending >> i & 1))}" for i, t in enumerate(s.hands[p]))
        you = " (you)" if p == player else ""
        lines.append(f"{mark} {player_name(p)}{you}: {s.points[p]:>3} points   {cubes}")
    if s.last[0] >= 0:
        who, pts, q = s.last
        lines.append(f"Last play: {player_name(who)} scored {pts}" + (" with a Qwirkle!" * (q > 0)))
    name = player_name(s.player)
    if s.phase == END:
        winners = game.winners(s)
        names = " and ".join(player_name(w) for w in winners)
        how = (
            "the bag ran out and nobody could play"
            if s.finisher < 0
            else f"{player_name(s.finisher)} used every cube (+6)"
        )
        lines.append(f"Game over ({how}). {'Winners' if len(winners) > 1 else 'Winner'}: {names}.")
    elif s.phase == REROLL:
        lines.append(f"{name}: reroll some cubes ('reroll 1,4'), or 'keep'.")
    elif s.phase == PLACE:
        extra = f" (forced rerolls this turn: {s.forced})" if s.forced else ""
        first = " First play: as many cubes as you can, from 0,0 to the right." if not s.placed else ""
        lines.append(f"{name}: place cubes in one line, like 'B◆@0,1 B●@0,2' (ASCII 'Bd@0,1 Bo@0,2').{first}{extra}")
    elif s.phase == PASS:
        lines.append(f"{name}: no face of your cubes could ever be placed: 'pass'.")
    elif s.phase == ROLL and s.forced:
        lines.append(f"{name} cannot place anything: every cube is rerolled.")
    lines.append("Shapes: " + "  ".join(f"{SHAPE_SYMBOLS[i]} {SHAPE_NAMES[i]}" for i in range(6)))
    return "\n".join(lines)


def describe(action: Action, s: QState) -> str:
    if isinstance(action, Place):
        parts = [f"{face_name(t)} at {cell_xy(c)[0]},{cell_xy(c)[1]}" for t, c in action.cubes]
        return "place " + ", ".join(parts)
    if isinstance(action, Reroll):
        if action.mask == 0:
            return "keep every cube"
        hand = s.hands[s.player]
        return "reroll " + ", ".join(face_name(hand[i]) for i in range(len(hand)) if action.mask >> i & 1)
    if isinstance(action, Pass):
        return "pass: no cube could ever fit"
    if isinstance(action, Roll):
        return "the cubes show " + ", ".join(SHAPE_NAMES[x] for x in action.shapes)
    if isinstance(action, Draw):
        return "drawn from the bag: " + ", ".join(COLOUR_NAMES[c] for c in action.colours)
    return format_action(action)
