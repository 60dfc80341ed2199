"""FORMFINITY (QRious Card Edition): a roll-and-write with polyomino cards, played on a shared template.

Rulebook: shared/rules/formfinity.txt; open points: CLARIFICATIONS.md (FORMFINITY). A turn is: the player
draws a card (a chance node), then places its 1-3 identical elements one by one (one action each).

Choices where the rulebook and CLARIFICATIONS are silent (each is in docs/games/formfinity.md and tested):

* Cards come from a seeded generator (weights are options) or a deck file (JSON/TOML) drawn at random
  without replacement; an empty deck is shuffled back in whole.
* An element with no legal placement is unused, and so are the rest of that card's elements (nothing
  changed, so they cannot be placed either); the turn then ends automatically. Elements of one card may
  touch each other at corners; only edge contact counts as a connection.
* Lines (variant 1) are claimed right after the element that completes them. Lines that can all be
  claimed together are claimed at once; when candidates exclude each other the mover chooses one (an
  action), and the rest are re-examined. The game also ends when no drawable card can be placed any
  more (most lines win; ties shared).
* Areas (variant 2): the player about to move chooses the next area (skipped when only one is left); an
  element left over when its area is filled is unused; points are recorded as each area finishes.
* Black squares (variant 3): the opponent's start square is not part of their drawing for the no-touch
  rule (reaching it is the goal). No element but the winning one may leave the opponent without a way
  to their goal (a path of squares they may still use): read word for word, one element beside one's
  own start square walls it off and no game is ever won, so the race keeps a way open for both, as in
  Quoridor. A game nobody can play on any more (every placement left would take the other's last way)
  goes to the player who needs fewer squares to connect; equal counts share the win.
* Numbers (variant 4): one element claims at most one number (the next one); the game ends with the
  numbers claimed so far when the next number can no longer be reached or nobody can place anything.
  The shipped template has 11 numbers, an odd count, so a game that claims them all has one winner.
* Squares outside an irregular template block sliding elements like black squares.
* Custom variants are TOML files (``variant_file``): template, players, arrows, rotation and a goal with
  parameters; see ``_variant.py``.
"""

from polytable.core import Config, register

# The public face: what the players (polytable.ai), printables, the CLI, bench and the web app use.
# Nothing outside this package imports its private modules (tests/kernel/test_architecture.py).
from ._board import Setup, element_anchors, setup_for
from ._cards import NUM_CARDS, NUM_SHAPES, ROTATIONS, SHAPES, Card, CardGenerator, card_art, parse_card, parse_deck
from ._code import card_code, card_url, parse_card_code
from ._flow import (
    apply_card,
    apply_place,
    can_connect,
    clear_caches,
    connects,
    constraints,
    deal,
    draw_card,
    forbidden,
    placements,
    squares_needed,
    window,
)
from ._game import FormfinityGame, setup_of
from ._kernel import PLAYOUT, CompiledFormfinity, FormfinityKernel, state_buffer, state_from_buffer, state_from_fields
from ._kernel import pack as formfinity_pack
from ._state import CHOOSE, CLAIM, DRAW, OVER, PLACE, ChooseArea, Claim, FormfinityState, Place, parse_cell
from ._template import Template, TemplateError, parse_template, template_text
from ._variant import Rules, parse_variant_file, variant_limits
from .templates import TEMPLATES

__all__ = [
    "CHOOSE",
    "CLAIM",
    "DRAW",
    "GAME",
    "NUM_CARDS",
    "NUM_SHAPES",
    "OVER",
    "PLACE",
    "PLAYOUT",
    "ROTATIONS",
    "SHAPES",
    "TEMPLATES",
    "Card",
    "CardGenerator",
    "ChooseArea",
    "Claim",
    "CompiledFormfinity",
    "FormfinityGame",
    "FormfinityKernel",
    "FormfinityState",
    "Place",
    "Rules",
    "Setup",
    "Template",
    "TemplateError",
    "apply_card",
    "apply_place",
    "can_connect",
    "card_art",
    "card_code",
    "card_url",
    "clear_caches",
    "connects",
    "constraints",
    "deal",
    "draw_card",
    "element_anchors",
    "forbidden",
    "formfinity_pack",
    "parse_card",
    "parse_card_code",
    "parse_cell",
    "parse_deck",
    "parse_template",
    "parse_variant_file",
    "placements",
    "rules_for",
    "setup_for",
    "setup_of",
    "squares_needed",
    "state_buffer",
    "state_from_buffer",
    "state_from_fields",
    "template_text",
    "variant_limits",
    "window",
]


def rules_for(config: Config) -> Rules:
    """The variant a configuration plays: its template, player counts, whether arrows and rotation apply."""
    return setup_for(config).rules


GAME = FormfinityGame()
register(GAME)
