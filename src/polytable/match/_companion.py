"""Companion mode: the app only deals cards, for people playing a card-driven game on paper.

Pure (no I/O): a server room and the offline table on a phone deal through the same :class:`Dealer`. A
game offers the mode by declaring a :class:`polytable.core.Companion` (``Game.companion``); everything
here is the same for every such game, and what differs (cards left, how a card and the set-up look,
printed cards) is asked of that declaration.

Why the engine deals and not a separate deck: the cards must be exactly the game's own (its options, its
deck file, its seeded generator), so the companion keeps a *dealer state* -- the game's initial state --
and draws each card with ``game.chance_outcome``. After a card the dealer state keeps its set-up but takes
the generator and deck the engine produced (``rng`` and ``deck`` fields): the next card depends on nothing
else, so no placement is ever needed. Every phone in the room sees the same card at the same moment
because the deal is one logged, committed action like any other.

A game whose printed cards carry a code (``Companion.reads_cards``) may instead follow a *physical deck*
(printed QR cards shuffled by hand): its first card decides. A card read from a QR code or typed by its
number is *given*, not drawn: it is logged as ``given <notation>`` and leaves the dealer state (generator,
deck) as it was, so the log says honestly which cards came from the seed and which from the table; once a
room follows a physical deck the app deals no more (take every card back to switch).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core import CHANCE, Companion, ConfigError, Game, IllegalActionError, PolytableError, get_game

__all__ = ["GIVEN", "Dealer", "catalogue_facts", "player_counts", "supports"]

GIVEN = "given "
"""Log prefix of a card given from a physical deck (read or typed) rather than drawn from the seed."""


def supports(game_id: str) -> bool:
    """Whether the game of this id offers companion mode (False for an unknown id)."""
    try:
        return get_game(game_id).companion is not None
    except ConfigError:
        return False


def catalogue_facts(game: Game[Any, Any]) -> dict[str, Any]:
    """What the home page's game list says of a game's companion mode and player counts: ``companion``
    (offered), ``printed_cards`` (its printed cards can be read) and ``player_counts`` (see below)."""
    companion = game.companion
    return {
        "companion": companion is not None,
        "printed_cards": companion is not None and companion.reads_cards,
        "player_counts": player_counts(game),
    }


class Dealer:
    """The cards dealt so far in a companion room, and the dealer state that draws the next one."""

    def __init__(self, game: Game[Any, Any], initial: Any, dealt: list[str]) -> None:
        if game.companion is None:
            raise PolytableError(
                f"{game.spec.name} has no companion mode", "match.no_companion", {"name": game.spec.name}
            )
        fields = {f.name for f in dataclasses.fields(initial)}
        if not {"rng", "deck"} <= fields:
            raise PolytableError(
                f"{game.spec.name}'s state has no card generator to deal from",
                "match.no_generator",
                {"name": game.spec.name},
            )
        self.game = game
        self.companion: Companion[Any] = game.companion
        self.initial = initial
        self.states = [_first_draw(game, initial)]
        self.dealt: list[str] = []
        for text in dealt:
            if text.startswith(GIVEN):
                self.give(text[len(GIVEN) :])
                continue
            got = self.next_card()
            if got != text:
                raise PolytableError(
                    f"card {len(self.dealt) + 1} was {text!r}, the seed now gives {got!r}",
                    "match.deal_differs",
                    {"dealt": len(self.dealt) + 1, "text": f"{text!r}", "got": f"{got!r}"},
                )
            self.push()

    @property
    def physical(self) -> bool:
        """Whether this room follows a physical deck (its first card was given, not drawn)."""
        return bool(self.dealt) and self.dealt[0].startswith(GIVEN)

    def can_deal(self) -> bool:
        state = self.states[-1]
        if self.physical:
            return False
        return self.game.current_player(state) == CHANCE and self.companion.cards_left(state) != 0

    def can_give(self) -> bool:
        return self.companion.reads_cards and (self.physical or not self.dealt)

    def give(self, text: str) -> str:
        """Take a card from a physical deck: its printed number, its QR code (or card URL) or its notation.

        Returns the card's notation; ValueError (nothing changed) when the text is no card or the room
        already deals from its seed.
        """
        notation = self.check_give(text)
        self.states.append(self.states[-1])
        self.dealt.append(GIVEN + notation)
        return notation

    def check_give(self, text: str) -> str:
        """The notation :meth:`give` would take, changing nothing; ValueError as there."""
        if not self.companion.reads_cards:
            raise ValueError(f"{self.game.spec.name} has no cards to scan")
        if self.dealt and not self.physical:
            raise ValueError("this room deals its own cards; take them all back to play a printed deck")
        return self.companion.give(text)

    def next_card(self) -> str:
        state = self.states[-1]
        if not self.can_deal():
            raise IllegalActionError("the deck is empty: the game is over", "match.deck_empty")
        return self.game.format_action(self.game.chance_outcome(state), state)

    def push(self) -> str:
        """Deal the next card; returns its notation."""
        if not self.can_deal():
            raise IllegalActionError("the deck is empty: the game is over", "match.deck_empty")
        game, state = self.game, self.states[-1]
        outcome = game.chance_outcome(state)
        text = game.format_action(outcome, state)
        after = game.apply(state, outcome, CHANCE)
        self.states.append(dataclasses.replace(state, rng=after.rng, deck=after.deck))
        self.dealt.append(text)
        return text

    def pop(self) -> None:
        if not self.dealt:
            raise IllegalActionError("no card has been dealt yet", "match.nothing_dealt")
        self.dealt.pop()
        self.states.pop()

    def message(self) -> dict[str, Any]:
        """What every phone shows: the current card (big), whose turn it is, the round, the history, what
        is left, how the game is played with the cards (``together``, ``start``) and the facts of the
        set-up the game's companion adds (the variant's rules, the start lanes)."""
        companion, config = self.companion, self.initial.config
        cards = [card_info(self.game, t, config) for t in self.dealt]
        n = len(self.dealt)
        deck = companion.printed_deck
        out: dict[str, Any] = {
            "game": self.game.spec.id,
            "players": config.players,
            "printables": _printables(self.game.spec.id),
            "deck_print": {"name": deck[0], "query": deck[1]} if deck else None,
            "shared_sheet": companion.shared_sheet,
            "round": _round(n, companion, config.players),
            "start": companion.start_card and n == 1,
            "card": cards[-1] if cards else None,
            "history": cards,
            "can_deal": self.can_deal(),
            "can_give": self.can_give(),
            "physical": self.physical,
            "deck_left": None if self.physical else companion.cards_left(self.states[-1]),
            "together": companion.together,
            # Players take turns, seat 1 first: the card on screen is the one its player is using.
            "turn": None if companion.together else (n - 1) % config.players if n else 0,
        }
        out.update(companion.table(self.initial, cards))
        return out


def _round(dealt: int, companion: Companion[Any], players: int) -> int:
    """The round the latest card belongs to: every card is a round when everyone uses it at once (after
    a start card, which is round 0); when the players take turns, a round is one card for each player."""
    cards = max(0, dealt - 1) if companion.start_card else dealt
    if companion.together or cards == 0:
        return cards
    return (cards - 1) // players + 1


def _first_draw(game: Game[Any, Any], state: Any) -> Any:
    """The first chance node of a new game: where a set-up choice comes before the first card (FORMFINITY
    variant 2 chooses an area first) it is taken with the first legal choice; it changes neither the
    generator nor the deck, so the cards are still exactly those of a digital game with that seed."""
    for _ in range(8):
        player = game.current_player(state)
        if player == CHANCE or game.is_terminal(state):
            return state
        state = game.apply(state, next(iter(game.legal_actions(state))), player)
    return state


def _printables(game_id: str) -> list[str]:
    """The printables of this game (templates, sheets, cards) for the companion's links."""
    try:
        from ..printables import printables

        return sorted(n for n in printables() if n == game_id or n.startswith(game_id + "-"))
    except Exception:  # a printable module being written must not break the deal
        return []


def player_counts(game: Game[Any, Any]) -> dict[str, dict[str, list[int]]]:
    """For each choice option whose values allow fewer player counts than the game: value -> counts.

    The home form offers only these counts (FORMFINITY's variants 3 and 4 are for two players). Found
    by asking the engine for a game at each count, so the form holds no rules of its own.
    """
    spec = game.spec
    if spec.id in _COUNTS:
        return _COUNTS[spec.id]
    out: dict[str, dict[str, list[int]]] = {}
    for opt in spec.options:
        if opt.kind != "choice":
            continue
        for value in opt.choices or ():
            counts = []
            for n in range(spec.min_players, spec.max_players + 1):
                try:
                    game.new_game({opt.name: value}, seed=0, players=n)
                except PolytableError:
                    continue
                counts.append(n)
            if counts and len(counts) < spec.max_players - spec.min_players + 1:
                out.setdefault(opt.name, {})[str(value)] = counts
    _COUNTS[spec.id] = out
    return out


_COUNTS: dict[str, dict[str, dict[str, list[int]]]] = {}


def card_info(game: Game[Any, Any], text: str, config: Any) -> dict[str, Any]:
    """A dealt card in a form the client draws: its ``text``, whether it was ``given`` from a printed
    deck, and what the game's companion says the card shows (shape rows of ``#``/``.``, count, lane...)."""
    given = text.startswith(GIVEN)
    text = text[len(GIVEN) :] if given else text
    assert game.companion is not None
    return {"text": text, "given": given, **game.companion.card(text, config)}
