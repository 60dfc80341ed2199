"""The action notation: ``T r1 c3``, ``L m t2 r0 c5``, ``reveal T 3``.

A drop is the block's name, then ``m`` if mirrored, ``tK`` if square K (1-based, reading order of the
drawing after the mirror) is trimmed, ``rK`` for K quarter turns clockwise (0-3) and ``cK`` for the
block's leftmost column (1-8). Parsing accepts the parts in any order and any letter case, ``r0`` may be
left out, and the block name may be left out when the state is known (``r1 c3``).
"""

from __future__ import annotations

import re
from functools import lru_cache

from polytable.core import IllegalActionError

from ._cards import MAX_CELLS, STANDARD_SHAPES, WIDTH
from ._state import Action, Drop, Reveal

__all__ = ["format_action", "parse_action"]

_PART = re.compile(r"([rtc])(\d+)")


@lru_cache(maxsize=8192, typed=True)
def format_action(action: Action) -> str:
    """The notation of an action; remembered (a function of the action alone, and a server lists every
    acting seat's legal drops after each change: formatting them was a third of building a state message)."""
    if isinstance(action, Reveal):
        return f"reveal {action.name} {action.lane}"
    parts = [action.name]
    if action.mirror:
        parts.append("m")
    if action.trim:
        parts.append(f"t{action.trim}")
    parts.append(f"r{action.rot}")
    parts.append(f"c{action.col + 1}")
    return " ".join(parts)


def _name(token: str) -> str:
    return token.upper() if token.upper() in STANDARD_SHAPES else token


def parse_action(text: str, card_name: str | None = None) -> Action:
    """Read a drop or a reveal; ``card_name`` (this round's block) fills in an omitted name."""
    if not isinstance(text, str):
        raise IllegalActionError(
            f"an action is text such as 'T r1 c3', not {type(text).__name__}",
            "foldris.action_type",
            {"name": type(text).__name__},
        )
    tokens = text.split()
    if not tokens:
        raise IllegalActionError(
            "empty action: write a drop such as 'T r1 c3' (block, rotation, column)", "foldris.empty_action"
        )
    if tokens[0].lower() == "reveal":
        if len(tokens) != 3 or not tokens[2].isdigit() or not 1 <= int(tokens[2]) <= 7:
            raise IllegalActionError(
                "a reveal reads 'reveal NAME LANE', with a lane from 1 to 7 (e.g. 'reveal T 3')",
                "foldris.reveal_format",
            )
        return Reveal(_name(tokens[1]), int(tokens[2]))
    first = tokens[0].lower()
    if first == "m" or _PART.fullmatch(first):
        if card_name is None:
            raise IllegalActionError(
                f"start with the block's name, for example 'T {text.strip()}'",
                "foldris.name_first",
                {"text": text.strip()},
            )
        name = card_name
    else:
        name = _name(tokens[0])
        tokens = tokens[1:]
    mirror = 0
    values: dict[str, int] = {}
    for token in tokens:
        low = token.lower()
        if low == "m":
            if mirror:
                raise IllegalActionError(
                    "mirror 'm' is given twice; each effect can be used once a round", "foldris.mirror_twice"
                )
            mirror = 1
            continue
        match = _PART.fullmatch(low)
        if not match:
            raise IllegalActionError(
                f"cannot read {token!r}: use m (mirror), tK (trim square K), rK (K quarter turns), cK (column K)",
                "foldris.unreadable_token",
                {"token": f"{token!r}"},
            )
        key, number = match.group(1), int(match.group(2))
        if key in values:
            raise IllegalActionError(
                f"'{key}' is given twice in {text.strip()!r}",
                "foldris.given_twice",
                {"key": key, "text": f"{text.strip()!r}"},
            )
        values[key] = number
    if "c" not in values:
        raise IllegalActionError(
            "say the column the block's left edge drops into, for example 'c3' (1 to 8)", "foldris.column_missing"
        )
    col, rot, trim = values["c"], values.get("r", 0), values.get("t", 0)
    if not 1 <= col <= WIDTH:
        raise IllegalActionError(
            f"the column must be from 1 to {WIDTH}, not {col}", "foldris.column_range", {"width": WIDTH, "col": col}
        )
    if not 0 <= rot <= 3:
        raise IllegalActionError(
            f"the rotation is a number of quarter turns from 0 to 3, not {rot}",
            "foldris.rotation_range",
            {"rot": rot},
        )
    if "t" in values and not 1 <= trim <= MAX_CELLS:
        raise IllegalActionError(
            f"the trimmed square is numbered from 1 (reading order), not {trim}",
            "foldris.trim_range",
            {"trim": trim},
        )
    return Drop(name, mirror, trim, rot, col - 1)
