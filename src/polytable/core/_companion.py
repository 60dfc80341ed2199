"""Companion mode, declared by a game: the app deals the game's cards for people playing it on paper.

A game offers companion mode by setting ``Game.companion`` to a :class:`Companion`. The dealer
(:class:`polytable.match.Dealer`, shared by server rooms and the offline table) draws every card with the
game's own ``chance_outcome`` from its initial state, and asks the companion only what differs between
games: how many cards are left, how a card and the table's set-up look on a phone, and whether printed
cards with a code can be read instead. So the match and web layers and the client name no game.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from typing import Any, ClassVar, Generic, TypeVar

from ._spec import Config

__all__ = ["Companion"]

S = TypeVar("S")


class Companion(ABC, Generic[S]):
    """How the app deals a game's cards in companion mode (the defaults: players take turns, seat 1
    first, from an endless generator, one shared sheet, no printed deck).

    A card on a phone is a JSON object: ``text`` (its notation) and ``given`` are added by the dealer;
    :meth:`card` adds ``shape`` (rows of ``#`` and ``.``) and what else the printed card shows, any of
    ``count``, ``arrows``, ``arrows_apply``, ``rotate``, ``number``, ``name`` and ``lane``.
    """

    together: ClassVar[bool] = False
    """Every player uses the same card at once; otherwise the players take turns, seat 1 first."""
    start_card: ClassVar[bool] = False
    """The first card only sets the game up (it is shown as the start card; round 1 is the second)."""
    shared_sheet: ClassVar[bool] = True
    """The players draw on one printed sheet; otherwise each player has a sheet of their own."""
    reads_cards: ClassVar[bool] = False
    """Printed cards carry a code the app reads (:meth:`give`, :meth:`scanned`): a room may follow a
    physical deck instead of dealing."""
    printed_deck: ClassVar[tuple[str, str] | None] = None
    """The printable of that deck and the query it is printed with (``("name", "qr=1")``)."""

    def cards_left(self, state: S) -> int | None:
        """Cards left to deal from this dealer state; None when the supply never runs out. At 0 the
        dealing stops."""
        return None

    @abstractmethod
    def card(self, text: str, config: Config) -> dict[str, Any]:
        """A dealt card (its notation) as a phone draws it: at least ``shape``."""

    def table(self, initial: S, cards: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        """Facts of the set-up every phone shows beside the card (the variant's rules, start lanes), from
        the initial state and the cards dealt so far (as :meth:`card` describes them)."""
        return {}

    def give(self, text: str) -> str:
        """The notation of a printed card given as typed or read: its number, its code, its card address or
        its notation. ValueError when the text is no card (or the game reads no printed cards)."""
        raise ValueError("this game has no printed cards to read")

    def scanned(self, text: str) -> str:
        """The canonical code of a printed card from the text of its QR code; ValueError if it is none."""
        raise ValueError("this game has no printed cards to read")
