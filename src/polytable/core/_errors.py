"""The exception types of polytable.

Why so few: every interface (terminal, web, AI harness) needs to tell a bad move from a bug. One type for
a refused action, one for a bad configuration, one for a malformed saved state keep that test trivial.
All derive from ``ValueError`` so generic callers that only know the standard library still catch them.
"""

from __future__ import annotations

__all__ = ["ConfigError", "IllegalActionError", "PolytableError", "StateFormatError"]


class PolytableError(ValueError):
    """Base class of every error polytable raises on purpose."""


class IllegalActionError(PolytableError):
    """An action was malformed or is not legal in the state it was applied to.

    The message is written for a player ("Block T does not fit at column 7 in rotation 2: it would leave
    the sheet"). Raising it never changes any state: states are immutable.
    """


class ConfigError(PolytableError):
    """A game configuration (options, player count, files given as options) is invalid."""


class StateFormatError(PolytableError):
    """A serialised state or match record is malformed or inconsistent."""
