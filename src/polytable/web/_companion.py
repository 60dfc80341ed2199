"""Companion mode: a room that only deals cards, for people playing FORMFINITY or Foldris on paper.

Why the engine deals and not a separate deck: the cards must be exactly the game's own (its options, its
deck file, its seeded generator), so the companion keeps a *dealer state* -- the game's initial state --
and draws each card with ``game.chance_outcome``. After a card the dealer state keeps its set-up but takes
the generator and deck the engine produced (``rng`` and ``deck`` fields): in both games the next card
depends on nothing else, so no placement is ever needed. Every phone in the room sees the same card at
the same moment because the deal is one logged, committed action like any other.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from ..core import CHANCE, Game, IllegalActionError, PolytableError

__all__ = ["COMPANION_GAMES", "Dealer", "card_info", "deal", "supports"]

COMPANION_GAMES = ("formfinity", "foldris")


def supports(game_id: str) -> bool:
    return game_id in COMPANION_GAMES


class Dealer:
    """The cards dealt so far in a companion room, and the dealer state that draws the next one."""

    def __init__(self, game: Game[Any, Any], initial: Any, dealt: list[str]) -> None:
        if not supports(game.spec.id):
            raise PolytableError(f"{game.spec.name} has no companion mode")
        fields = {f.name for f in dataclasses.fields(initial)}
        if not {"rng", "deck"} <= fields:
            raise PolytableError(f"{game.spec.name}'s state has no card generator to deal from")
        self.game = game
        self.initial = initial
        self.states = [initial]
        self.dealt: list[str] = []
        for text in dealt:
            got = self.next_card()
            if got != text:
                raise PolytableError(f"card {len(self.dealt) + 1} was {text!r}, the seed now gives {got!r}")
            self.push()

    def can_deal(self) -> bool:
        state = self.states[-1]
        return self.game.current_player(state) == CHANCE and not (self.game.spec.id == "foldris" and not state.deck)

    def next_card(self) -> str:
        state = self.states[-1]
        if not self.can_deal():
            raise IllegalActionError("the deck is empty: the game is over")
        return self.game.format_action(self.game.chance_outcome(state), state)

    def push(self) -> str:
        """Deal the next card; returns its notation."""
        if not self.can_deal():
            raise IllegalActionError("the deck is empty: the game is over")
        game, state = self.game, self.states[-1]
        outcome = game.chance_outcome(state)
        text = game.format_action(outcome, state)
        after = game.apply(state, outcome, CHANCE)
        self.states.append(dataclasses.replace(state, rng=after.rng, deck=after.deck))
        self.dealt.append(text)
        return text

    def pop(self) -> None:
        if not self.dealt:
            raise IllegalActionError("no card has been dealt yet")
        self.dealt.pop()
        self.states.pop()

    def message(self) -> dict[str, Any]:
        """What every phone shows: the current card (big), the round, the history, what is left."""
        config = self.initial.config
        cards = [card_info(self.game.spec.id, t, config) for t in self.dealt]
        state = self.states[-1]
        left = len(state.deck) if self.game.spec.id == "foldris" or state.deck else None
        return {
            "game": self.game.spec.id,
            "players": config.players,
            "printables": _printables(self.game.spec.id),
            "round": _round(self.game.spec.id, len(self.dealt)),
            "card": cards[-1] if cards else None,
            "history": cards,
            "can_deal": self.can_deal(),
            "deck_left": left,
        }


def _printables(game_id: str) -> list[str]:
    """The printables of this game (templates, sheets, cards) for the companion's links."""
    try:
        from ..printables import printables

        return sorted(n for n in printables() if n == game_id or n.startswith(game_id + "-"))
    except Exception:  # a printable module being written must not break the deal
        return []


def _round(game_id: str, dealt: int) -> int:
    # Foldris's first card is the start card (it only sets the start lane): round 1 is the second card.
    return max(0, dealt - 1) if game_id == "foldris" else dealt


def card_info(game_id: str, text: str, config: Any) -> dict[str, Any]:
    """A dealt card in a form the client draws: shape rows (``#``/``.``), count, arrows, rotation, lane."""
    out: dict[str, Any] = {"text": text}
    if game_id == "formfinity":
        # SHAPE x COUNT : EDGES : ROT  (docs/games/formfinity.md)
        head, _, rest = text.partition(":")
        edges, _, rot = rest.partition(":")
        drawing, _, count = head.rpartition("x")
        out.update(
            {
                "shape": drawing.split("/"),
                "count": int(count) if count.isdigit() else 1,
                "arrows": "" if edges == "-" else edges,
                "rotate": rot == "r",
            }
        )
    elif game_id == "foldris":
        parts = text.split()
        name = parts[1] if len(parts) > 1 else "?"
        lane = int(parts[2]) if len(parts) > 2 and parts[2].isdigit() else None
        out.update({"name": name, "lane": lane, "shape": _foldris_shape(name, config)})
    return out


def _foldris_shape(name: str, config: Any) -> list[str]:
    try:  # the game's own deck (a deck file may define shapes); fall back to the standard letters
        from ..games.foldris._game import deck_of
        from ..geometry import shape_to_text

        return str(shape_to_text(deck_of(config).shape(name))).replace("\n", "/").split("/")
    except Exception:
        standard = {"I": "####", "O": "##/##", "T": "###/.#.", "S": ".##/##.", "Z": "##./.##", "J": "#../###"}
        standard["L"] = "..#/###"
        return standard.get(name, "#").split("/")


async def deal(room: Any, version: int, undo: bool = False) -> None:
    """Deal the next card in a companion room (or take the last one back), committed before it shows."""
    from ._base import RoomError

    if room.mode != "companion" or room.dealer is None:
        raise RoomError("this room plays the game; cards are dealt by the game itself", reason="not_companion")
    async with room.lock:
        if version != room.version:
            raise RoomError("someone dealt already; here is the current card", "stale", "stale_deal")
        dealer: Dealer = room.dealer
        hub = room.store
        if undo:
            try:
                dealer.pop()
            except IllegalActionError as exc:
                raise RoomError(str(exc), "illegal") from None
            try:
                await hub.write("truncate_actions", room.code, len(dealer.dealt))
            except Exception as exc:
                dealer.push()
                raise RoomError(f"could not be saved ({exc})", "storage", "undeal_unsaved") from None
            room.undone += 1
            room.undo_version = room.version
        else:
            try:
                text = dealer.push()
            except IllegalActionError as exc:
                raise RoomError(str(exc), "illegal") from None
            try:
                await hub.write("append_actions", room.code, len(dealer.dealt) - 1, [(CHANCE, text)], False)
            except Exception as exc:
                dealer.pop()
                raise RoomError(f"the card could not be saved ({exc}); deal again", "storage", "deal_unsaved") from None
        room.broadcast()
