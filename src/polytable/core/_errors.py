"""The exception types of polytable.

Why so few: every interface (terminal, web, AI harness) needs to tell a bad move from a bug. One type for
a refused action, one for a bad configuration, one for a malformed saved state keep that test trivial.
All derive from ``ValueError`` so generic callers that only know the standard library still catch them.
"""

from __future__ import annotations

from collections.abc import Mapping

__all__ = ["ConfigError", "IllegalActionError", "PolytableError", "StateFormatError"]


class PolytableError(ValueError):
    """Base class of every error polytable raises on purpose.

    ``code`` (optional) names the exact message, stable across versions, and ``params`` its variable parts
    (plain numbers and words): an interface shows the message in its own language from the code
    (``error.engine.<code>`` in the web app's translation files) and falls back to the English text.
    """

    def __init__(self, message: str, code: str = "", params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, object] = dict(params or {})


class IllegalActionError(PolytableError):
    """An action was malformed or is not legal in the state it was applied to.

    The message is written for a player ("Block T does not fit at column 7 in rotation 2: it would leave
    the sheet"). Raising it never changes any state: states are immutable.
    """


class ConfigError(PolytableError):
    """A game configuration (options, player count, files given as options) is invalid."""


class StateFormatError(PolytableError):
    """A serialised state or match record is malformed or inconsistent."""
