"""What the games say to people beyond errors: why a game ended as it did, and each move in words.

Why: players should never have to read notation or guess why someone won. A game states both as coded
phrases (:func:`~polytable.core.phrase`), so every interface shows them in its own language from the code
(``error.engine.<code>`` in the web app's translation files, where every engine text lives) and the
terminal prints the English. In these phrases a param named ``seat`` (``seat``, ``seat2`` ...) is a
0-based seat, which an interface shows by the seat's name (a person's or an AI's; ``-1`` is chance).

The helpers here are the parts the games share: the usual decision by the most of something, a shared
win, and two parts joined into one sentence.
"""

from __future__ import annotations

from collections.abc import Sequence

from ._errors import phrase, word

__all__ = ["both", "decided", "gained", "number"]

UNITS = ("points", "lines", "numbers")
"""The measures :func:`decided` names (``word.<unit>`` in the translation files)."""


def number(x: float) -> int | float:
    """A score as people read it: ``6`` rather than ``6.0``."""
    return int(x) if float(x).is_integer() else x


def both(first: dict[str, object], then: dict[str, object]) -> dict[str, object]:
    """Two parts as one sentence: why the game ended, then what decided it."""
    return phrase("said.both", f"{first['message']}; {then['message']}", {"first": first, "then": then})


def decided(scores: Sequence[float], winners: Sequence[int], unit: str = "points") -> dict[str, object]:
    """What decided a game won on the most ``unit``: the winner's against the runner-up's, or a shared win
    on equal counts (the rulebooks give no tie-break unless a game says so: CLARIFICATIONS, Shared)."""
    if unit not in UNITS:
        raise ValueError(f"unknown unit {unit!r}")
    ranked = sorted((number(s) for s in scores), reverse=True)
    best = ranked[0] if ranked else 0
    if len(scores) == 1:
        return phrase("said.solo", f"{unit}: {best}", {"best": best, "unit": word(unit)})
    if not winners:
        return phrase("said.nobody", "nobody wins")
    if len(winners) > 1:
        return phrase(
            "said.shared",
            f"{best} {unit} each, and the rules give no tie-break: a shared win",
            {"best": best, "unit": word(unit)},
        )
    runner_up = ranked[1]
    return phrase(
        "said.most",
        f"the most {unit} wins: {best} against {runner_up}",
        {"unit": word(unit), "best": best, "runner_up": runner_up},
    )


def gained(part: dict[str, object], before: Sequence[float], after: Sequence[float], seat: int) -> dict[str, object]:
    """``part`` with the points ``seat`` gained by it (``+7``), when it gained any."""
    gain = number(after[seat] - before[seat]) if seat >= 0 else 0
    if gain <= 0:
        return part
    return phrase("said.gain", f"{part['message']} (+{gain})", {"part": part, "gain": gain})
