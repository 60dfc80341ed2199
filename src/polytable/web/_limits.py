"""Bounded JSON: every body and message the server parses is checked for size and nesting first.

Why: Python's ``json`` parser recurses once per level, so ``[[[[...]]]]`` a hundred thousand deep raises
``RecursionError`` (an HTTP 500, a dead handler) long before any size limit bites. The nesting depth is
measured here without recursion, before parsing, and a request beyond it is refused with a reason.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "JsonLimitError", "loads_bounded"]

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (the deepest real request, a room's seats, is 3)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_BRACKET = re.compile(r"[\[\]{}]")


class JsonLimitError(ValueError):
    """A body that is not JSON, or JSON nested too deep; ``reason`` and ``params`` name it for translation."""

    def __init__(self, message: str, reason: str, params: dict[str, object] | None = None) -> None:
        super().__init__(message)
        self.reason = reason
        self.params: dict[str, object] = params or {}


def json_depth(text: str | bytes) -> int:
    """The deepest nesting of ``[`` and ``{`` in JSON text (brackets inside strings do not count)."""
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    opened = text.count("[") + text.count("{")
    if opened <= MAX_DEPTH:
        return opened  # an upper bound that is already small enough: no scan needed
    depth = deepest = 0
    for m in _BRACKET.finditer(_STRING.sub("", text)):
        if m.group() in "[{":
            depth += 1
            deepest = max(deepest, depth)
        else:
            depth -= 1
    return deepest


def loads_bounded(text: str | bytes, max_depth: int = MAX_DEPTH) -> Any:
    """``json.loads`` that raises :class:`JsonLimitError` for bad JSON or nesting beyond ``max_depth``."""
    if json_depth(text) > max_depth:
        raise JsonLimitError(
            f"the JSON is nested too deep (at most {max_depth} levels)", "too_deep", {"max": max_depth}
        )
    try:
        return json.loads(text)
    except (ValueError, RecursionError):
        raise JsonLimitError("messages must be JSON objects", "not_json") from None
