"""Small validation helpers for ``state_from_dict`` implementations, so every game reports a malformed
saved state the same way (a :class:`StateFormatError` naming the field)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ._errors import StateFormatError

__all__ = ["require", "require_int", "require_list"]


def require(data: Mapping[str, Any], key: str) -> Any:
    """``data[key]``, or a StateFormatError naming the missing field."""
    if not isinstance(data, Mapping):
        raise StateFormatError(
            f"expected an object, not {type(data).__name__}", "util.not_an_object", {"name": type(data).__name__}
        )
    if key not in data:
        raise StateFormatError(f"missing field {key!r}", "util.field_missing", {"key": f"{key!r}"})
    return data[key]


def require_int(data: Mapping[str, Any], key: str, lo: int | None = None, hi: int | None = None) -> int:
    """An int field within ``[lo, hi]``."""
    value = require(data, key)
    if isinstance(value, bool) or not isinstance(value, int):
        raise StateFormatError(
            f"field {key!r} must be a whole number, not {value!r}",
            "util.field_not_int",
            {"key": f"{key!r}", "value": f"{value!r}"},
        )
    if (lo is not None and value < lo) or (hi is not None and value > hi):
        raise StateFormatError(
            f"field {key!r} is out of range: {value}", "util.field_range", {"key": f"{key!r}", "value": value}
        )
    return value


def require_list(data: Mapping[str, Any], key: str, length: int | None = None) -> list[Any]:
    """A list field, optionally of a fixed length."""
    value = require(data, key)
    if not isinstance(value, list):
        raise StateFormatError(f"field {key!r} must be a list", "util.field_not_list", {"key": f"{key!r}"})
    if length is not None and len(value) != length:
        raise StateFormatError(
            f"field {key!r} must have {length} items, not {len(value)}",
            "util.field_length",
            {"key": f"{key!r}", "length": length, "value": len(value)},
        )
    return value
