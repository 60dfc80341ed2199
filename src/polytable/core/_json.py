"""Bounded JSON: every JSON text that comes from outside (a request, a socket message, a record file, a
deck file, a pub/sub message) is checked for nesting and Unicode before it is used.

Why: Python's ``json`` parser recurses once per level, so ``[[[[...]]]]`` a hundred thousand deep raises
``RecursionError`` (an HTTP 500, a dead handler, a traceback) long before any size limit bites. The
nesting depth is measured here without recursion, before parsing, and a text beyond it is refused with a
reason. A lone surrogate (``"\\ud800"``) parses but is no text at all: it cannot be stored or encoded, so it
is refused here too.
"""

from __future__ import annotations

import json
import re
from typing import Any

__all__ = ["MAX_DEPTH", "JsonLimitError", "loads_bounded"]

MAX_DEPTH = 32
"""Deepest nesting of arrays and objects accepted (the deepest real request, a room's seats, is 3)."""

_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SURROGATE = re.compile(r"\\u[dD][89a-fA-F]")
"""The escape of a UTF-16 surrogate: only such text can hold a lone one (valid pairs are checked after)."""
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
        value = json.loads(text)
    except (ValueError, RecursionError):
        raise JsonLimitError("messages must be JSON objects", "not_json") from None
    if _SURROGATE.search(text if isinstance(text, str) else text.decode("utf-8", "replace")):
        try:
            json.dumps(value, ensure_ascii=False).encode("utf-8")
        except UnicodeEncodeError:
            raise JsonLimitError(
                "the text holds a character that is not Unicode (a lone surrogate)", "not_unicode"
            ) from None
    return value
