"""``expert``'s factory, kept apart so that the players load without NumPy (only ``expert`` needs it)."""

from __future__ import annotations

from typing import Any

from ...core import ConfigError
from .._bots import Bot


def expert(**kw: Any) -> Bot:
    """``expert``: ``hard`` with the learned value of the position a placement leaves (:mod:`._value`); needs NumPy."""
    try:
        from ._value import EXPERT
    except ImportError:
        raise ConfigError("the expert player needs NumPy: pip install 'polytable[learn]'") from None
    return EXPERT(**kw)


def _offered() -> bool:
    """Whether a table may seat ``expert`` as it is: only with shipped weights (none are, so far: see
    docs/ai-training.md); ``expert:weights=FILE`` plays a trained file whatever this says."""
    from importlib import resources

    return (resources.files(__package__ or __name__) / "value.npz").is_file()


expert.offered = _offered  # type: ignore[attr-defined]
