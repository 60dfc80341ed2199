"""FORMFINITY in companion mode: the app deals the cards, or follows a printed QR deck, for paper play."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from polytable.core import Companion, Config

from ._board import setup_for
from ._cards import Card, parse_card
from ._code import card_code, parse_card_code
from ._state import FormfinityState

__all__ = ["FormfinityCompanion"]


class FormfinityCompanion(Companion[FormfinityState]):
    """Players take turns, seat 1 first, on one shared template; printed QR cards can be read."""

    reads_cards = True
    printed_deck = ("formfinity-cards", "qr=1&count=48")

    def cards_left(self, state: FormfinityState) -> int | None:
        # A deck file is drawn without replacement; the generator (an empty deck) never runs out.
        return len(state.deck) if state.deck else None

    def card(self, text: str, config: Config) -> dict[str, Any]:
        # SHAPE x COUNT : EDGES : ROT  (docs/games/formfinity.md)
        head, _, rest = text.partition(":")
        edges, _, rot = rest.partition(":")
        drawing, _, count = head.rpartition("x")
        rules = setup_for(config).rules
        return {
            "shape": drawing.split("/"),
            "count": int(count) if count.isdigit() else 1,
            # Where the variant ignores the arrows (2 and 4) the card shows none and says so.
            "arrows": ("" if edges == "-" else edges) if rules.arrows else "",
            "arrows_apply": rules.arrows,
            "rotate": rules.rotation_allowed(rot == "r"),
            "number": parse_card(text).id,
        }

    def table(self, initial: FormfinityState, cards: Sequence[Mapping[str, Any]]) -> dict[str, Any]:
        rules = setup_for(initial.config).rules
        return {"variant": {"name": rules.name, "arrows": rules.arrows, "rotation": rules.rotation}}

    def give(self, text: str) -> str:
        raw = text.strip()
        if raw.isdigit():
            card = Card.from_id(int(raw[:200]))
        elif ":" in raw and "/c/" not in raw:
            card = parse_card(raw)
        else:
            card = parse_card_code(raw)
        return card.notation()

    def scanned(self, text: str) -> str:
        return card_code(parse_card_code(text))
