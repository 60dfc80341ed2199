"""The exception types of polytable.

Why so few: every interface (terminal, web, AI harness) needs to tell a bad move from a bug. One type for
a refused action, one for a bad configuration, one for a malformed saved state keep that test trivial.
All derive from ``ValueError`` so generic callers that only know the standard library still catch them.

Every error the rules raise names its message with a stable ``code`` and gives the variable parts as
``params``, so an interface can show it in another language without reading the English text.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Self

__all__ = ["ConfigError", "IllegalActionError", "PolytableError", "StateFormatError", "joined", "phrase", "word"]


def phrase(code: str, english: str, params: Mapping[str, object] | None = None) -> dict[str, object]:
    """A part of a message that is itself translatable (a word such as ``top``, a relayed reason), given as
    a param value: ``{"code", "params", "message"}``; an interface shows ``error.engine.<code>`` for it,
    or ``english`` when it has no translation."""
    return {"code": code, "params": _plain(params or {}), "message": english}


def word(english: str) -> dict[str, object]:
    """One English word of a message (``top``, ``mirroring``) as a translatable part: ``word.<english>``."""
    return phrase(f"word.{english}", english)


def joined(words: Sequence[str], joiner: str) -> dict[str, object]:
    """Words joined by ``and`` or ``or`` (``top or left``) as nested parts ``word.<joiner>`` (``{a} or {b}``)."""
    out = word(words[-1])
    text = words[-1]
    for w in reversed(words[:-1]):
        text = f"{w} {joiner} {text}"
        out = phrase(f"word.{joiner}", text, {"a": word(w), "b": out})
    return out


def _value(value: object) -> object:
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, PolytableError):
        return value.part() if value.code else str(value)
    if isinstance(value, Mapping) and "code" in value and "message" in value:
        params = value.get("params")
        nested = _plain(params) if isinstance(params, Mapping) else {}
        return {"code": str(value["code"]), "params": nested, "message": str(value["message"])}
    return str(value)


def _plain(params: Mapping[str, object]) -> dict[str, object]:
    """``params`` as JSON: numbers, words, nested parts; anything else (a relayed exception) as its text."""
    return {str(k): _value(v) for k, v in params.items()}


class PolytableError(ValueError):
    """Base class of every error polytable raises on purpose.

    ``code`` names the exact message, stable across versions (``forma.no_piece``; codes shared by every
    game have no game prefix), and ``params`` its variable parts (plain numbers and words, or a nested
    part made by :func:`phrase` or relayed from another error): an interface shows the message in its own
    language from the code (``error.engine.<code>`` in the web app's translation files) and falls back to
    the English text. A relayed coded error keeps its code.
    """

    def __init__(self, message: str, code: str = "", params: Mapping[str, object] | None = None) -> None:
        super().__init__(message)
        self.code = code
        self.params: dict[str, object] = _plain(params or {})

    @classmethod
    def relay(cls, exc: Exception) -> Self:
        """``exc`` (often a parser's error) as this type, keeping its message, code and params."""
        if isinstance(exc, PolytableError):
            return cls(str(exc), exc.code, exc.params)
        return cls(str(exc))

    def part(self) -> dict[str, object]:
        """This error as a nested message part (see :func:`phrase`)."""
        return {"code": self.code, "params": self.params, "message": str(self)}


class IllegalActionError(PolytableError):
    """An action was malformed or is not legal in the state it was applied to.

    The message is written for a player ("Block T does not fit at column 7 in rotation 2: it would leave
    the sheet"). Raising it never changes any state: states are immutable.
    """


class ConfigError(PolytableError):
    """A game configuration (options, player count, files given as options) is invalid."""


class StateFormatError(PolytableError):
    """A serialised state or match record is malformed or inconsistent."""
