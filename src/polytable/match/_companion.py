"""Companion mode: the app only deals cards, for people playing FORMFINITY or Foldris on paper.

Pure (no I/O): a server room and the offline table on a phone deal through the same :class:`Dealer`.

Why the engine deals and not a separate deck: the cards must be exactly the game's own (its options, its
deck file, its seeded generator), so the companion keeps a *dealer state* -- the game's initial state --
and draws each card with ``game.chance_outcome``. After a card the dealer state keeps its set-up but takes
the generator and deck the engine produced (``rng`` and ``deck`` fields): in both games the next card
depends on nothing else, so no placement is ever needed. Every phone in the room sees the same card at
the same moment because the deal is one logged, committed action like any other.

A FORMFINITY room may instead follow a *physical deck* (printed QR cards shuffled by hand): its first card
decides. A card read from a QR code or typed by its number is *given*, not drawn: it is logged as
``given <notation>`` and leaves the dealer state (generator, deck) as it was, so the log says honestly
which cards came from the seed and which from the table; once a room follows a physical deck the app
deals no more (take every card back to switch).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core import CHANCE, Game, IllegalActionError, PolytableError

__all__ = ["COMPANION_GAMES", "GIVEN", "Dealer", "card_info", "player_counts", "supports"]

COMPANION_GAMES = ("formfinity", "foldris")
PHYSICAL_GAMES = ("formfinity",)
"""Games whose printed cards carry a code the companion reads (FORMFINITY's QRious cards)."""
GIVEN = "given "
"""Log prefix of a card given from a physical deck (read or typed) rather than drawn from the seed."""


def supports(game_id: str) -> bool:
    return game_id in COMPANION_GAMES


class Dealer:
    """The cards dealt so far in a companion room, and the dealer state that draws the next one."""

    def __init__(self, game: Game[Any, Any], initial: Any, dealt: list[str]) -> None:
        if not supports(game.spec.id):
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
        return self.game.current_player(state) == CHANCE and not (self.game.spec.id == "foldris" and not state.deck)

    def can_give(self) -> bool:
        return self.game.spec.id in PHYSICAL_GAMES and (self.physical or not self.dealt)

    def give(self, text: str) -> str:
        """Take a card from a physical deck: its printed number, its QR code (or card URL) or its notation.

        Returns the card's notation; ValueError (nothing changed) when the text is no card or the room
        already deals from its seed.
        """
        name = self.game.spec.name
        if self.game.spec.id not in PHYSICAL_GAMES:
            raise ValueError(f"{name} has no cards to scan")
        if self.dealt and not self.physical:
            raise ValueError("this room deals its own cards; take them all back to play a printed deck")
        from ..games.formfinity import Card, parse_card, parse_card_code

        raw = text.strip()
        if raw.isdigit():
            card = Card.from_id(int(raw[:200]))
        elif ":" in raw and "/c/" not in raw:
            card = parse_card(raw)
        else:
            card = parse_card_code(raw)
        notation = card.notation()
        self.states.append(self.states[-1])
        self.dealt.append(GIVEN + notation)
        return notation

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
        is left, and the variant's facts the screen follows (do arrows apply, the start lanes)."""
        game_id = self.game.spec.id
        config = self.initial.config
        cards = [card_info(game_id, t, config) for t in self.dealt]
        state = self.states[-1]
        left = None if self.physical else len(state.deck) if game_id == "foldris" or state.deck else None
        out: dict[str, Any] = {
            "game": game_id,
            "players": config.players,
            "printables": _printables(game_id),
            "round": _round(game_id, len(self.dealt)),
            "card": cards[-1] if cards else None,
            "history": cards,
            "can_deal": self.can_deal(),
            "can_give": self.can_give(),
            "physical": self.physical,
            "deck_left": left,
        }
        if game_id == "formfinity":
            from ..games.formfinity import rules_for

            rules = rules_for(config)
            out["variant"] = {"name": rules.name, "arrows": rules.arrows, "rotation": rules.rotation}
            # Players take turns, seat 1 first: the card on screen is the one its player is using.
            n = len(self.dealt)
            out["turn"] = (n - 1) % config.players if n else 0
        elif game_id == "foldris":
            out["turn"] = None  # every player draws the same block at once
            first = cards[0].get("lane") if cards else None
            if isinstance(first, int):
                starter = _starter(self.initial)
                out["starter"] = starter
                out["start_lanes"] = [
                    (first - 1 + (p - starter) % config.players) % 7 + 1 for p in range(config.players)
                ]
        return out


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


def _starter(initial: Any) -> int:
    """The starting player of a Foldris game (seat 1 unless the state names another)."""
    for name in ("starter", "start_player", "first_player"):
        value = getattr(initial, name, None)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return 0


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


def _round(game_id: str, dealt: int) -> int:
    # Foldris's first card is the start card (it only sets the start lane): round 1 is the second card.
    return max(0, dealt - 1) if game_id == "foldris" else dealt


def card_info(game_id: str, text: str, config: Any) -> dict[str, Any]:
    """A dealt card in a form the client draws: shape rows (``#``/``.``), count, arrows, rotation, lane."""
    given = text.startswith(GIVEN)
    text = text[len(GIVEN) :] if given else text
    out: dict[str, Any] = {"text": text, "given": given}
    if game_id == "formfinity":
        # SHAPE x COUNT : EDGES : ROT  (docs/games/formfinity.md)
        head, _, rest = text.partition(":")
        edges, _, rot = rest.partition(":")
        drawing, _, count = head.rpartition("x")
        from ..games.formfinity import parse_card, rules_for

        rules = rules_for(config)
        card = parse_card(text)
        out.update(
            {
                "shape": drawing.split("/"),
                "count": int(count) if count.isdigit() else 1,
                # Where the variant ignores the arrows (2 and 4) the card shows none and says so.
                "arrows": ("" if edges == "-" else edges) if rules.arrows else "",
                "arrows_apply": rules.arrows,
                "rotate": rules.rotation_allowed(rot == "r"),
                "number": card.id,
            }
        )
    elif game_id == "foldris":
        parts = text.split()
        name = parts[1] if len(parts) > 1 else "?"
        lane = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
        # The number is the lane of the start squares (first card) and of this round's barriers; the
        # players choose where the block itself falls.
        out.update({"name": name, "lane": lane, "shape": _foldris_shape(name, config)})
    return out


def _foldris_shape(name: str, config: Any) -> list[str]:
    try:  # the game's own deck (a deck file may define shapes); fall back to the standard letters
        from ..games.foldris import deck_of
        from ..geometry import shape_to_text

        return str(shape_to_text(deck_of(config).shape(name))).replace("\n", "/").split("/")
    except Exception:
        standard = {"I": "####", "O": "##/##", "T": "###/.#.", "S": ".##/##.", "Z": "##./.##", "J": "#../###"}
        standard["L"] = "..#/###"
        return standard.get(name, "#").split("/")
