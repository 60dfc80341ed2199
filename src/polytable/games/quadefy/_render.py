"""Terminal rendering: the four layers side by side, each cell showing its owner and block, and a legend.

Readable without colour: a cell reads ``1L`` (Player 1's L), ``2SR`` (Player 2's right screw) or ``.``;
the cells of the last move carry a ``*``. Each cell is four characters wide, so the four layers fit in 78
columns. Row 4 is printed at the top of each layer (as on a chess
diagram), layer 1 (the floor) on the left.
"""

from __future__ import annotations

from polytable.geometry import bits

from ._moves import legal_count
from ._state import ACTIONS, QuadefyState, format_placement
from ._tables import BLOCK_TITLES, BLOCKS, PLACEMENTS

__all__ = ["cell_blocks", "render_state"]

_NAMES = ("Player 1 (dark)", "Player 2 (light)")
_ANSI = ("\x1b[1;97;44m", "\x1b[30;103m")  # dark: white on blue; light: black on bright yellow
_RESET = "\x1b[0m"


def cell_blocks(state: QuadefyState) -> list[tuple[int, str] | None]:
    """For each of the 64 cells: (owner, block name) or None."""
    cells: list[tuple[int, str] | None] = [None] * 64
    for ply, pid in enumerate(state.moves):
        p = PLACEMENTS[pid]
        owner = ply % 2
        m = p.mask
        for i in bits(m):
            cells[i] = (owner, BLOCKS[p.block])
    return cells


def hand_text(rem: int) -> str:
    names = [BLOCKS[b] for b in range(len(BLOCKS)) if rem >> b & 1]
    return " ".join(names) if names else "(none)"


def render_state(state: QuadefyState, color: bool = False) -> str:
    cells = cell_blocks(state)
    last = PLACEMENTS[state.moves[-1]].mask if state.moves else 0
    lines: list[str] = []
    if state.loser >= 0:
        w = 1 - state.loser
        lines.append(f"Quadefy: {_NAMES[w]} wins; {_NAMES[state.loser]} cannot place any remaining block.")
    else:
        n = legal_count(state.occupied, state.remaining[state.to_move], state.flags)
        lines.append(f"Quadefy: {_NAMES[state.to_move]} to move ({n} legal placements).")
    titles = ["layer 1 (floor)", "layer 2", "layer 3", "layer 4 (top)"]
    width = 2 + 4 * 4
    lines.append("  ".join(t.ljust(width) for t in titles).rstrip())
    lines.append("  ".join(("  " + "".join(c.ljust(4) for c in "abcd")).ljust(width) for _ in range(4)).rstrip())
    for y in range(3, -1, -1):
        parts = []
        for z in range(4):
            row = f"{y + 1} "
            for x in range(4):
                i = x + 4 * y + 16 * z
                c = cells[i]
                if c is None:
                    text = ".   "
                else:
                    owner, name = c
                    mark = "*" if last >> i & 1 else ""
                    text = f"{owner + 1}{name}{mark}".ljust(4)
                    if color:
                        body = f"{owner + 1}{name}".ljust(3)
                        text = f"{_ANSI[owner]}{body}{_RESET}{mark or ' '}"
                row += text
            parts.append(row)
        lines.append("  ".join(parts).rstrip())
    lines.append("")
    lines.append("Cells: owner 1 (dark) or 2 (light), then block; . = empty; * = last move")
    titles_list = [BLOCK_TITLES[b] for b in BLOCKS]
    lines.append("Blocks: " + ", ".join(titles_list[:5]) + ",")
    lines.append("        " + ", ".join(titles_list[5:]))
    for p in range(2):
        lines.append(f"{_NAMES[p]} in hand: {hand_text(state.remaining[p])}")
    if state.moves:
        who = _NAMES[(len(state.moves) - 1) % 2]
        lines.append(f"Last move: {who} {format_placement(ACTIONS[state.moves[-1]])}")
    return "\n".join(lines)
