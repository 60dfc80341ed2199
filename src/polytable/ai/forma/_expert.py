"""``expert``'s factory, kept apart so that the players load without NumPy (only ``expert`` needs it)."""

from __future__ import annotations

from typing import Any

from ...core import ConfigError
from .._bots import Bot


def expert(**kw: Any) -> Bot:
    """``expert``: ``hard`` with the learned value at the end of its playouts (:mod:`._value`); needs NumPy."""
    try:
        from ._value import EXPERT
    except ImportError:
        raise ConfigError("the expert player needs NumPy: pip install 'polytable[learn]'") from None
    return EXPERT(**kw)
