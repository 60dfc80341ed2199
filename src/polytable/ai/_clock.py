"""The clock a time-budgeted player reads.

``wall`` (the default) keeps a move within its budget as people feel it; ``cpu`` (this thread's CPU time)
gives the same thinking whatever else the machine runs, which is what a fair measurement on a shared
machine needs.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..core import ConfigError

__all__ = ["budget_clock"]


def budget_clock(clock: str) -> Callable[[], float]:
    """``time.perf_counter`` for ``wall``, ``time.thread_time`` for ``cpu``; anything else is a ConfigError."""
    if clock not in ("wall", "cpu"):
        raise ConfigError("clock must be wall (the default) or cpu (this thread's CPU time)")
    return time.perf_counter if clock == "wall" else time.thread_time
