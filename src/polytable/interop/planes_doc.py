"""The observation planes of every game as Markdown, for docs/research.md (``python -m`` this module).

Generated from the encoders themselves, so the documented list cannot drift from the code: a test checks
that docs/research.md contains exactly this text.
"""

from __future__ import annotations

import re

from ..core import get_game
from ._planes import ENCODED_GAMES
from ._table import Table

__all__ = ["planes_markdown"]


def _parts(names: list[str]) -> tuple[list[str], list[str], list[str]]:
    """Split names into those before the seat blocks, one seat block, and those after."""
    seat = re.compile(r"^(self|next\d+)\.")
    marked = [i for i, n in enumerate(names) if seat.match(n)]
    if not marked:
        return names, [], []
    first, last = marked[0], marked[-1]
    block = [n.removeprefix("self.") for n in names[first : last + 1] if n.startswith("self.")]
    return names[:first], block, names[last + 1 :]


def _code(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names) if names else "none"


def _listing(kind: str, names: list[str]) -> list[str]:
    before, block, after = _parts(names)
    if not block:
        return [f"- {kind}: {_code(before)}"]
    return [
        f"- {kind}, first: {_code(before)}",
        f"- then one block per seat ({len(block)} each), the observer first: {_code(block)}",
        f"- last: {_code(after)}",
    ]


def planes_markdown() -> str:
    """One section per game: the default configuration's shape, its channels and its features in order."""
    lines = []
    for game in map(get_game, ENCODED_GAMES):
        table = Table(game.spec.id, None, None)
        h, w, c = table.obs_shape
        n = table.players
        lines.append(f"### {game.spec.name} (`{game.spec.id}`)\n")
        kind = "legal actions by index" if table.indexed else "dense action ids"
        lines.append(
            f"Default configuration ({n} players): shape ({h}, {w}, {c}), {h * w * c:,} bytes; "
            f"mask: {table.num_actions} {kind}.\n"
        )
        planes = [name for name in table.plane_names if not name.startswith("features")]
        lines.extend(_listing("planes", planes))
        lines.extend(_listing("features", table.feature_names))
        lines.append("")
    return "\n".join(lines)


if __name__ == "__main__":
    print(planes_markdown())
