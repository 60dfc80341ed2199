"""State serialisation (whole state, validated on load) and per-player views.

A view never contains the generator state or another player's pending choice; it does show how many cards
of each kind are left, because every revealed card is public and the deck list is printed in the rules.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from polytable.core import IllegalActionError, StateFormatError, require, require_int, require_list

from ._cards import WIDTH, Deck, drawing
from ._decks import deck_of, table_of
from ._state import Drop, FoldrisState, Sheet
from ._text import format_action, parse_action
from ._titles import SOLO_TITLES, solo_title

if TYPE_CHECKING:
    from ._game import FoldrisGame

__all__ = ["rows_of", "state_from_dict", "state_to_dict", "view"]


def rows_of(board: int, height: int) -> list[int]:
    """The sheet's rows as 8-bit ints, bottom row first: the board's bytes, as a row is 8 squares (every view
    of every seat lists each sheet's rows, so they are read in one call rather than a shift per row)."""
    return list((board & ((1 << (WIDTH * height)) - 1)).to_bytes(height, "little"))


if WIDTH != 8:  # pragma: no cover - the sheet's width is the rulebook's
    raise ImportError("rows_of reads a row as one byte")


def _from_rows(rows: list[Any], field: str) -> int:
    board = 0
    for r, row in enumerate(rows):
        if isinstance(row, bool) or not isinstance(row, int) or not 0 <= row <= 0xFF:
            raise StateFormatError(
                f"{field}: each row is a number from 0 to 255, not {row!r}",
                "foldris.state_row",
                {"field": field, "row": f"{row!r}"},
            )
        board |= row << (WIDTH * r)
    return board


def _sheet_dict(s: Sheet) -> dict[str, Any]:
    return {
        "ink": rows_of(s.ink, s.height),
        "barrier": rows_of(s.barrier, s.height),
        "height": s.height,
        "lines": s.lines,
        "bonus": s.bonus,
        "out": s.out,
    }


def state_to_dict(state: FoldrisState) -> dict[str, Any]:
    return {
        "game": "foldris",
        "players": state.config.players,
        "options": dict(state.config.items()),
        "sheets": [_sheet_dict(s) for s in state.sheets],
        "deck": list(state.deck),
        "start_lane": state.start_lane,
        "round": state.round,
        "card": state.card,
        "pending": [None if d is None else format_action(d) for d in state.pending],
        "rng": state.rng,
        "over": state.over,
        "starter": state.starter,
    }


def state_from_dict(game: FoldrisGame, data: Mapping[str, Any]) -> FoldrisState:
    if require(data, "game") != "foldris":
        raise StateFormatError("this is not a Foldris state", "foldris.not_a_state")
    options = require(data, "options")
    if not isinstance(options, Mapping):
        raise StateFormatError("field 'options' must be an object", "foldris.state_options")
    try:
        config = game.spec.config(options, require_int(data, "players", 1, 7))
    except ValueError as exc:
        raise StateFormatError(f"bad configuration: {exc}", "foldris.bad_config", {"why": exc}) from None
    n = config.players
    full_height = config.int("height")
    cards = deck_of(config).cards
    sheets = []
    for i, raw in enumerate(require_list(data, "sheets", n)):
        height = require_int(raw, "height", 0, full_height)
        ink = _from_rows(require_list(raw, "ink", height), "ink")
        barrier = _from_rows(require_list(raw, "barrier", height), "barrier")
        if ink & barrier:
            raise StateFormatError(
                f"sheet {i + 1}: a barrier overlaps inked squares", "foldris.state_barrier_inked", {"sheet": i + 1}
            )
        lines = require_int(raw, "lines", 0, full_height)
        if lines + height != full_height:
            raise StateFormatError(
                f"sheet {i + 1}: lines plus visible rows must equal the sheet height",
                "foldris.state_sheet_height",
                {"sheet": i + 1},
            )
        sheets.append(Sheet(ink, barrier, height, lines, require_int(raw, "bonus", 0), require_int(raw, "out", 0)))
    deck = require_list(data, "deck")
    if any(isinstance(i, bool) or not isinstance(i, int) or not 0 <= i < len(cards) for i in deck):
        raise StateFormatError("field 'deck' holds card numbers of this deck", "foldris.state_deck_cards")
    if sorted(set(deck)) != deck:
        raise StateFormatError(
            "field 'deck' must list distinct card numbers in increasing order", "foldris.state_deck_order"
        )
    start_lane = require_int(data, "start_lane", 0, 7)
    rnd = require_int(data, "round", 0)
    card = require_int(data, "card", -1, len(cards) - 1)
    if card in deck:
        raise StateFormatError("the face-up card is still listed in the deck", "foldris.state_card_in_deck")
    over = require(data, "over")
    if not isinstance(over, bool):
        raise StateFormatError("field 'over' must be true or false", "foldris.state_over")
    rng = require_int(data, "rng", 0, (1 << 64) - 1)
    starter = require_int(data, "starter", 0, n - 1)
    state = FoldrisState(config, tuple(sheets), tuple(deck), start_lane, rnd, card, (None,) * n, rng, over, starter)
    pending: list[Drop | None] = []
    for p, text in enumerate(require_list(data, "pending", n)):
        if text is None:
            pending.append(None)
            continue
        if card < 0 or not isinstance(text, str):
            raise StateFormatError(
                "a pending choice exists only while a card is face up", "foldris.state_pending_no_card"
            )
        try:
            action = parse_action(text, cards[card][0])
            if not isinstance(action, Drop) or sheets[p].out:
                raise StateFormatError(
                    f"pending choice of player {p + 1} is not a drop of a player in the game",
                    "foldris.state_pending_not_drop",
                    {"player": p + 1},
                )
            game._check(state, action, p)
        except IllegalActionError as exc:
            raise StateFormatError(
                f"pending choice of player {p + 1}: {exc}", "foldris.state_pending_bad", {"player": p + 1, "why": exc}
            ) from None
        pending.append(action)
    if card >= 0 and all(d is not None or s.out for d, s in zip(pending, sheets, strict=True)):
        raise StateFormatError(
            "every player has chosen, so the round should already be resolved", "foldris.state_unresolved"
        )
    if card >= 0:
        table_of(state)  # the card must exist
    return FoldrisState(config, tuple(sheets), tuple(deck), start_lane, rnd, card, tuple(pending), rng, over, starter)


_Card = tuple[str, int, str, str]
"""A card of a deck as a view shows it: name, lane, the shape's drawing and its key in ``deck_cards_left``."""
_CARDS: dict[int, tuple[Deck, tuple[_Card, ...]]] = {}
"""id(deck) -> the deck and its cards as views show them (decks are remembered per text, so few)."""
_LEFT: tuple[object, object, dict[str, int]] = (None, None, {})
"""The last count of cards left: (the deck, the state's tuple of cards left, the counts); the seats' views
of one state, and every state of a round, share that tuple."""


def _cards(deck: Deck) -> tuple[_Card, ...]:
    hit = _CARDS.get(id(deck))
    if hit is None or hit[0] is not deck:
        cards = tuple((name, lane, drawing(deck.shape(name)), f"{name} {lane}") for name, lane in deck.cards)
        hit = _CARDS[id(deck)] = (deck, cards)
    return hit[1]


def _left(deck: Deck, order: tuple[int, ...], cards: tuple[_Card, ...]) -> dict[str, int]:
    """How many cards of each kind are left, in the order they first appear in ``order`` (a new dict)."""
    global _LEFT
    last = _LEFT
    if last[1] is order and last[0] is deck:
        return dict(last[2])
    left: dict[str, int] = {}
    for i in order:
        key = cards[i][3]
        left[key] = left.get(key, 0) + 1
    _LEFT = (deck, order, left)
    return dict(left)


def view(game: FoldrisGame, state: FoldrisState, player: int | None) -> dict[str, Any]:
    deck = deck_of(state.config)
    cards = _cards(deck)
    card = None
    if state.card >= 0:
        name, lane, shape, _ = cards[state.card]
        card = {"name": name, "lane": lane, "shape": shape}
    players = []
    pending = state.pending
    for p, s in enumerate(state.sheets):
        mask = (1 << (WIDTH * s.height)) - 1
        entry: dict[str, Any] = {
            "ink": list((s.ink & mask).to_bytes(s.height, "little")),
            "barrier": list((s.barrier & mask).to_bytes(s.height, "little")),
            "height": s.height,
            "width": WIDTH,  # the board draws the sheet's columns from this, never from a number of its own
            "lines": s.lines,
            "bonus": s.bonus,
            "out": s.out,
            "player": p,
            "chosen": pending[p] is not None,
        }
        if player == p and pending[p] is not None:
            entry["choice"] = format_action(pending[p])  # type: ignore[arg-type]
        players.append(entry)
    out: dict[str, Any] = {
        "game": "foldris",
        "viewer": player,
        "round": state.round,
        "start_lane": state.start_lane,
        "starter": state.starter,
        "card": card,
        "deck_left": len(state.deck),
        "deck_cards_left": _left(deck, state.deck, cards),
        "acting": list(game.acting_players(state)),
        "players": players,
        "over": state.over,
    }
    if state.over:
        out["winners"] = list(game.winners(state))
        if state.config.players == 1:
            out["title"] = solo_title(state.sheets[0].lines)
            out["title_lines"] = SOLO_TITLES[-1][0]  # the lines the first title needs (the board says so)
    return out
