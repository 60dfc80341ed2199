"""A config's deck and variant tables, found once per config: every protocol step asks for them.

Apart from the game module so that the compiled core's glue, the serialiser and the companion can import
them without importing the game.
"""

from __future__ import annotations

from polytable.core import Config
from polytable.geometry import derived

from ._cards import Deck, VariantTable, parse_deck, variant_table
from ._state import FoldrisState

__all__ = ["deck_and_tables", "deck_of", "table_of", "tables_of", "trim_cost"]


@derived(maxsize=1000)
def deck_and_tables(config: Config) -> tuple[Deck, tuple[VariantTable, ...]]:
    """A config's deck and tables, once per config object: every step asks for them, and hashing a
    config's option tuple each time cost more than the lookup."""
    value = config["deck"]
    text = value if isinstance(value, str) else None
    return (parse_deck(text), _tables(text, trim_cost(config)))


def deck_of(config: Config) -> Deck:
    """The cards a configuration plays with: its ``deck`` option parsed, or the rulebook's deck."""
    return deck_and_tables(config)[0]


def trim_cost(config: Config) -> int:
    """Trimming costs 2 bonus points, or 1 in solo mode."""
    return 1 if config.players == 1 else 2


_TABLES: dict[tuple[str | None, int], tuple[VariantTable, ...]] = {}


def _tables(text: str | None, cost: int) -> tuple[VariantTable, ...]:
    key = (text, cost)
    tables = _TABLES.get(key)
    if tables is None:
        deck = parse_deck(text)
        tables = _TABLES[key] = tuple(variant_table(deck.shape(name), cost) for name, _ in deck.cards)
    return tables


def tables_of(config: Config) -> tuple[VariantTable, ...]:
    """The variant table of every card of the config's deck, by card index (memoised per deck text)."""
    return deck_and_tables(config)[1]


def table_of(state: FoldrisState) -> VariantTable:
    """The ways (variants and their costs) to draw the card revealed this round."""
    return tables_of(state.config)[state.card]
