"""What every printable needs: a titled PDF canvas of the chosen paper and checked whole-number options.

One place so that every ``polytable print`` command rejects a bad paper or option with the same
ConfigError sentence (the CLI and the web app report ConfigErrors to the user as they are).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import ConfigError

__all__ = ["int_option", "new_canvas"]


def new_canvas(out_path: str, paper: str, title: str) -> tuple[Any, float, float]:
    """A reportlab canvas writing ``out_path`` on A4 or US letter, with its page width and height."""
    from reportlab.lib.pagesizes import A4, LETTER  # type: ignore[import-untyped, unused-ignore]
    from reportlab.pdfgen.canvas import Canvas  # type: ignore[import-untyped, unused-ignore]

    if paper not in ("a4", "letter"):
        raise ConfigError(f"paper must be a4 or letter, not {paper!r}", "print.paper", {"paper": f"{paper!r}"})
    w, h = A4 if paper == "a4" else LETTER
    canvas = Canvas(out_path, pagesize=(w, h))
    canvas.setTitle(title)
    canvas.setAuthor("polytable")
    return canvas, float(w), float(h)


def int_option(options: Mapping[str, str], name: str, default: int, lo: int, hi: int) -> int:
    """The option ``name`` as a whole number from ``lo`` to ``hi`` (``default`` when absent or empty)."""
    raw = options.get(name)
    if raw is None or raw == "":
        return default
    try:
        value = int(str(raw))
    except ValueError:
        raise ConfigError(
            f"option {name!r} takes a whole number, not {raw!r}",
            "print.option_type",
            {"name": f"{name!r}", "raw": f"{raw!r}"},
        ) from None
    if not lo <= value <= hi:
        raise ConfigError(
            f"option {name!r} must be from {lo} to {hi}, not {value}",
            "print.option_range",
            {"name": f"{name!r}", "lo": lo, "hi": hi, "value": value},
        )
    return value
