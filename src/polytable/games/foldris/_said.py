"""Foldris in words: each drop and card for the history, and why the game ended (``Game.narrate``/
``outcome``), with the rulebook's tie-break for players eliminated together (most lines, then most unused
bonus points; CLARIFICATIONS: an empty deck with players left ends the game the same way)."""

from __future__ import annotations

from polytable.core import both, decided, phrase, player_name

from ._state import Action, Drop, FoldrisState

__all__ = ["narrate", "outcome"]


def narrate(action: Action, state: FoldrisState, player: int) -> dict[str, object]:
    """``Player 1 dropped block T in column 3`` (mirrored, trimmed); ``card revealed: block I, lane 2``."""
    if not isinstance(action, Drop):
        return phrase(
            "foldris.said.reveal",
            f"card revealed: block {action.name}, lane {action.lane}",
            {"block": action.name, "lane": action.lane},
        )
    col = action.col + 1
    if action.mirror and action.trim:
        return phrase(
            "foldris.said.drop_both",
            f"{player_name(player)} mirrored and trimmed block {action.name}, then dropped it in column {col}",
            {"seat": player, "block": action.name, "col": col},
        )
    if action.mirror:
        return phrase(
            "foldris.said.drop_mirror",
            f"{player_name(player)} mirrored block {action.name} and dropped it in column {col}",
            {"seat": player, "block": action.name, "col": col},
        )
    if action.trim:
        return phrase(
            "foldris.said.drop_trim",
            f"{player_name(player)} trimmed block {action.name} and dropped it in column {col}",
            {"seat": player, "block": action.name, "col": col},
        )
    return phrase(
        "foldris.said.drop",
        f"{player_name(player)} dropped block {action.name} in column {col}",
        {"seat": player, "block": action.name, "col": col},
    )


def outcome(state: FoldrisState) -> dict[str, object]:
    sheets = state.sheets
    if state.config.players == 1:
        end = (
            phrase("foldris.said.solo_out", "the block no longer fits on the sheet")
            if sheets[0].out
            else phrase("foldris.said.deck_out", "the deck ran out")
        )
        return both(end, decided([sheets[0].lines], (0,), "lines"))
    alive = [p for p, s in enumerate(sheets) if not s.out]
    if len(alive) == 1:
        return phrase(
            "foldris.said.last",
            f"{player_name(alive[0])} is the last one standing: the others' blocks no longer fit",
            {"seat": alive[0]},
        )
    if alive:
        end = phrase("foldris.said.deck_left", f"the deck ran out with {len(alive)} players left", {"n": len(alive)})
    else:
        last = max(s.out for s in sheets)
        alive = [p for p, s in enumerate(sheets) if s.out == last]
        end = phrase("foldris.said.together", "the last players were eliminated in the same round")
    return both(end, _tie_break([sheets[p].lines for p in alive], [sheets[p].bonus for p in alive]))


def _tie_break(lines: list[int], bonus: list[int]) -> dict[str, object]:
    best = max(lines)
    top = [i for i, n in enumerate(lines) if n == best]
    if len(top) == 1:
        return decided(lines, (top[0],), "lines")
    kept = sorted((bonus[i] for i in top), reverse=True)
    if kept[0] != kept[1]:
        return phrase(
            "foldris.said.bonus",
            f"{best} lines each; the most unused bonus points wins: {kept[0]} against {kept[1]}",
            {"lines": best, "best": kept[0], "runner_up": kept[1]},
        )
    return phrase(
        "foldris.said.tied",
        f"{best} lines and {kept[0]} bonus points each: a shared win",
        {"lines": best, "bonus": kept[0]},
    )
