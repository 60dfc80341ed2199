"""A table on one device: a match that speaks the room protocol of the web app, for offline play.

Why: with no server, the web app runs these very rules under Pyodide in a Web Worker and its room page
talks to this class instead of a WebSocket. It answers the same messages (``act``, ``undo``, ``preview``,
``hint``, ``sync``) with the same replies (``welcome``, ``state``, ``preview``, ``hint``, ``error``) as a
server room whose seats are all on this device (hot-seat) or AIs, so every board works unchanged: the
rules of the room (versions, undo, what each seat sees, the history) are :class:`RoomMachine`'s, the
server's own, and a contract test compares the two message for message. Every action goes through
:class:`Match`, so a record made offline replays on a desktop with ``polytable replay``. Only JSON data
crosses in and out (the worker's boundary).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import IllegalActionError, Rng, all_games, get_game
from ._companion import Dealer, catalogue_facts
from ._match import Match
from ._room import (
    RoomError,
    RoomMachine,
    action_text,
    ask_of,
    default_seat_name,
    engine_error,
    error_reply,
    seat_entry,
    seat_number,
    version_of,
)
from ._simulate import PlayerMaker

__all__ = ["Table", "game_catalogue", "random_record", "suggestion"]

COMPANION_FORMAT = "polytable-companion/1"
CODE = "LOCAL"


def game_catalogue() -> list[dict[str, Any]]:
    """The listed games as the home page describes them (``GameSpec.describe``), for the offline menu."""
    out = []
    for game in all_games():
        if game.spec.listed:
            out.append({**game.spec.describe(), **catalogue_facts(game)})
    return out


def suggestion(game: Any, state: Any, seat: int, seed: int, version: int, make_player: PlayerMaker) -> list[str]:
    """A hint: the move the greedy player would make for ``seat`` in ``state``, in notation; when that move
    binds the seat to a next one (Forma's touch-move pick, which must be placed), that one follows, so the
    hint shows where the piece goes. The same on the server and on the offline table for the same game,
    seed and version (its generator is drawn from both)."""
    greedy = make_player("greedy", game.spec.id)
    rng = Rng(seed, stream=2000 + version)
    action = greedy.choose(game, state, seat, rng)
    moves = [str(game.format_action(action, state))]
    try:
        game.check_undo(state, action, seat)
    except IllegalActionError:
        after = game.apply(state, action, seat)
        if not game.is_terminal(after) and seat in game.acting_players(after):
            moves.append(str(game.format_action(greedy.choose(game, after, seat, rng), after)))
    return moves


def _seats(raw: Sequence[Mapping[str, Any]] | None, players: int) -> list[dict[str, Any]]:
    out = []
    for p in range(players):
        s = raw[p] if raw is not None and p < len(raw) else {}
        ai = s.get("ai") or None
        name = str(s.get("name") or "").strip()[:24]
        out.append({"name": name or default_seat_name(p, ai), "default_name": not name, "ai": ai})
    return out


class Table:
    """One match on one device. Seats are ``{"name", "ai"}``: ``ai`` None for a person at this device.

    The room's rules are :class:`RoomMachine`'s, as on the server; this class is the connection that holds
    every person's seat, the AI players and the room's summary. ``make_player``
    (``polytable.ai.make_bot``) seats the AIs and gives hints; matches sit below the players, so whoever
    opens the table passes it in (the offline worker does)."""

    def __init__(
        self,
        match: Match,
        seats: Sequence[Mapping[str, Any]] | None = None,
        make_player: PlayerMaker | None = None,
        dealt: Sequence[str] | None = None,
    ) -> None:
        self.make_player = make_player
        self.seats = _seats(seats, match.players)
        ai = [p for p, s in enumerate(self.seats) if s["ai"] is not None]
        mode = "play" if dealt is None else "companion"
        self.machine = RoomMachine(match, ai, mode=mode, dealt=dealt)
        self._bots: dict[int, Any] = {}
        self._rngs = {p: self.machine.ai_rng(p) for p in ai}

    @property
    def match(self) -> Match:
        return self.machine.match

    @property
    def dealer(self) -> Dealer | None:
        return self.machine.dealer

    @property
    def version(self) -> int:
        """The version a client quotes (see :class:`RoomMachine`)."""
        return self.machine.version

    @classmethod
    def new(
        cls,
        game: str,
        options: Mapping[str, object] | None,
        players: int | None,
        seed: int,
        seats: Sequence[Mapping[str, Any]] | None = None,
        make_player: PlayerMaker | None = None,
    ) -> Table:
        """A new match; chance at the start (a deal, a roll) is resolved at once."""
        match = Match(get_game(game), dict(options or {}), players, seed)
        match.resolve_chance()  # before the AI seats' generators are made, as a new server room does
        return cls(match, seats, make_player)

    @classmethod
    def companion(
        cls, game: str, options: Mapping[str, object] | None, players: int | None, seed: int, dealt: Sequence[str] = ()
    ) -> Table:
        """A companion table: the phone only deals cards for people playing on paper (a game that declares
        a companion), with the very :class:`Dealer` a server room uses; ``dealt`` replays the cards dealt
        so far."""
        return cls(Match(get_game(game), dict(options or {}), players, seed), None, None, list(dealt))

    @classmethod
    def resume(
        cls,
        record: Mapping[str, Any],
        seats: Sequence[Mapping[str, Any]] | None = None,
        make_player: PlayerMaker | None = None,
    ) -> Table:
        """Rebuild a saved table from its record, checked action by action as ``polytable replay`` does (a
        companion table's record lists its cards, see :meth:`record`)."""
        if record.get("format") == COMPANION_FORMAT:
            config = record.get("config") or {}
            return cls.companion(
                str(record.get("game")), config.get("options"), config.get("players"), int(record.get("seed", 0)),
                [str(c) for c in record.get("cards", [])],
            )  # fmt: skip
        return cls(Match.replay(record, check_result=False), seats, make_player)

    # ------------------------------------------------------------------ reading
    def acting(self) -> list[int]:
        """The seats that may act now (one, several in a simultaneous round, none at the end)."""
        return list(self.machine.acting())

    def people(self) -> list[int]:
        """The seats played by people at this device (the connection holds them all)."""
        return [p for p, s in enumerate(self.seats) if s["ai"] is None]

    def summary(self) -> dict[str, Any]:
        """The room's summary as a server room sends it (a table on one device: everyone is here)."""
        seats = [
            seat_entry(p, s["name"], s["default_name"], "ai" if s["ai"] else "here", s["ai"], False, True)
            for p, s in enumerate(self.seats)
        ]
        return {**self.machine.summary(CODE, seats), "local": True}

    def message(self) -> dict[str, Any]:
        """The ``state`` message a server room sends to a connection holding every person's seat (a game on
        one device has no clocks)."""
        return self.machine.message(self.people(), True, room=self.summary(), clock=None, now=None)

    def welcome(self) -> dict[str, Any]:
        return {"type": "welcome", "code": CODE, "seats": self.people()}

    # ------------------------------------------------------------------ acting
    def handle(self, msg: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Answer one client message as a server room does; the replies in order (a refusal of the kind
        that makes a server resend the state is followed by the state)."""
        kind = msg.get("type")
        try:
            reply = self._answer(str(kind), msg)
        except RoomError as exc:
            return [error_reply(exc), self.message()] if exc.code in ("stale", "storage") else [error_reply(exc)]
        return [reply]

    def _answer(self, kind: str, msg: Mapping[str, Any]) -> dict[str, Any]:
        held = self.people()
        if kind in ("deal", "undeal"):
            card = msg.get("card")
            self.deal(version_of(msg, "dealing carries the version it was asked on"), kind == "undeal", card)
        elif kind in ("act", "undo"):
            seat = seat_number(msg, held)
            version = version_of(msg)
            if kind == "act":
                self.play(seat, action_text(msg.get("action")), version)
            else:
                self.undo(seat, version)
        elif kind == "hint":
            who = msg.get("seat")
            if isinstance(who, bool) or not isinstance(who, int):
                raise RoomError("say which seat the hint is for (a number)", reason="seat_number")
            if who not in held:
                raise RoomError("a hint is asked for a seat you hold", "forbidden", "hint_seat")
            return {"type": "hint", "seat": who, "ask": ask_of(msg), "moves": self.hint(who), "version": self.version}
        elif kind == "preview":
            who = msg.get("seat")
            if isinstance(who, bool) or not isinstance(who, int) or who not in held:
                raise RoomError("a preview is asked for a seat you hold", "forbidden", "preview_seat")
            out = self.machine.preview(who, action_text(msg.get("action")))
            return {"type": "preview", "seat": who, "ask": ask_of(msg), **out}
        elif kind not in ("sync", "hello", "text"):  # this table always sends the text rendering
            raise RoomError(f"unknown message type {kind[:20]!r}", reason="unknown_type", params={"type": kind[:20]})
        return self.message()

    def play(self, seat: int, text: str, version: int) -> int:
        """Play ``text`` for ``seat`` on ``version``, then resolve chance; the new version. A refused move
        raises :class:`RoomError` and changes nothing."""
        machine = self.machine
        machine.check_playable(seat)
        machine.check_version(seat, version)
        machine.play(seat, text)
        return machine.version

    def undo(self, seat: int, version: int) -> int:
        """Take back the seat's last decision and the AIs' replies to it (``Match.undo_span`` says when)."""
        self.machine.check_playable(seat, undo=True)
        before, after = self.machine.undo(seat, version)
        self.machine.count_undone(before - after)
        return self.machine.version

    def ai_seats(self) -> frozenset[int]:
        """The AI seats (an undo takes their replies back with the move they answered)."""
        return self.machine.ai

    def deal(self, version: int, undo: bool = False, card: object = None) -> int:
        """Deal the next card (or take the last one back, or take ``card`` from a printed deck); the count."""
        given = None if card is None else str(card)
        self.machine.plan_deal(version, undo, given)
        self.machine.deal(undo, given)
        return self.machine.version

    def ai_seat(self) -> int | None:
        """The AI seat that should act now, if any (the worker paces AI moves so people can follow)."""
        for p in self.acting():
            if self.seats[p]["ai"] is not None:
                return p
        return None

    def ai_step(self) -> bool:
        """Let one AI seat act (then chance resolve); False when no AI is to act."""
        p = self.ai_seat()
        if p is None:
            return False
        bot = self._bots.get(p)
        if bot is None:
            bot = self._bots[p] = self._maker()(str(self.seats[p]["ai"]), self.match.game.spec.id)
        m = self.match
        self.machine.play(p, bot.choose(m.game, m.state, p, self._rngs[p]))
        return True

    def hint(self, seat: int) -> list[str]:
        """The move the greedy player would make for ``seat`` now (a guided game's "show me"; see
        :func:`suggestion`), or nothing when it is not that seat's turn."""
        if seat not in self.acting():
            return []
        m = self.match
        return suggestion(m.game, m.state, seat, m.seed, self.version, self._maker())

    def _maker(self) -> PlayerMaker:
        if self.make_player is None:
            raise engine_error(
                IllegalActionError(
                    "this table was opened without players: no AI seat or hint is possible", "match.no_players"
                )
            )
        return self.make_player

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """The game record, as ``polytable replay`` reads it; a companion table's: its cards in order."""
        if self.dealer is not None:
            m = self.match
            return {
                "format": COMPANION_FORMAT,
                "game": m.game.spec.id,
                "rules_version": m.game.spec.rules_version,
                "config": m.config.to_dict(),
                "seed": m.seed,
                "cards": list(self.dealer.dealt),
            }
        return self.match.record()

    def step(self, n: int) -> dict[str, Any]:
        """A finished game at position ``n``, as the server's replay endpoint gives it."""
        m = self.match
        n = max(0, min(n, len(m.log)))
        state = m.state_at(n)
        entry = m.log[n - 1] if n else None
        return {
            "position": n,
            "total": len(m.log),
            "view": m.game.view(state, None),
            "render": m.game.render(state, None, color=False),
            "result": m.game.result(state) if m.game.is_terminal(state) else None,
            "action": {"player": entry.player, "action": entry.action} if entry else None,
        }


def random_record(game: str, options: Mapping[str, object] | None, players: int | None, seed: int) -> dict[str, Any]:
    """A whole game of seeded uniform random moves through :class:`Table`, as a record.

    The same call gives the same record on any Python that runs these rules (CPython or Pyodide), which is
    how the tests show the offline engine is the server's engine.
    """
    table = Table.new(game, options, players, seed)
    rng = Rng(seed, stream=77)
    m = table.match
    while not m.is_over():
        seat = table.acting()[0]
        action = m.game.legal_actions(m.state, seat).sample(rng)
        table.play(seat, m.game.format_action(action, m.state), table.version)
    return table.record()
