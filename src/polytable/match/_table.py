"""A table on one device: a match that speaks the room protocol of the web app, for offline play.

Why: with no server, the web app runs these very rules under Pyodide in a Web Worker and its room page
talks to this class instead of a WebSocket. It answers the same messages (``act``, ``undo``, ``preview``,
``hint``, ``sync``) with the same replies (``welcome``, ``state``, ``preview``, ``hint``, ``error``) as a
server room whose seats are all on this device (hot-seat) or AIs, so every board works unchanged.
Everything goes through :class:`Match`, as on the server and in the terminal, so a record made offline
replays on a desktop with ``polytable replay``. Only JSON data crosses in and out (the worker's boundary).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..core import CHANCE, SIMULTANEOUS, IllegalActionError, PolytableError, Rng, all_games, get_game, player_name
from ._companion import Dealer, catalogue_facts
from ._match import Match
from ._simulate import PlayerMaker

__all__ = [
    "LEGAL_LIMIT",
    "Table",
    "engine_reason",
    "game_catalogue",
    "preview_action",
    "random_record",
    "suggestion",
    "undo_part",
]

COMPANION_FORMAT = "polytable-companion/1"
LEGAL_LIMIT = 2000
"""At most this many legal moves are listed (as the server does); the rest can be typed as notation."""
CODE = "LOCAL"


def game_catalogue() -> list[dict[str, Any]]:
    """The listed games as the home page describes them (``GameSpec.describe``), for the offline menu."""
    out = []
    for game in all_games():
        if game.spec.listed:
            out.append({**game.spec.describe(), **catalogue_facts(game)})
    return out


def preview_action(game: Any, state: Any, seat: int, text: str) -> dict[str, Any]:
    """What ``text`` played by ``seat`` would do: ``ok``, or a ``message``; scores before and after, the
    seat's gain and its view after the move (nothing changes: states are immutable)."""
    out: dict[str, Any] = {"action": text, "ok": False}
    if game.is_terminal(state):
        return {**out, "message": "the game is over", "reason": "game_over"}
    if seat not in game.acting_players(state):
        return {**out, "message": "it is not your turn", "reason": "not_your_turn"}
    try:
        action = game.parse_action(text, state)
        after = game.apply(state, action, seat)
    except PolytableError as exc:
        return {**out, "message": str(exc), **engine_reason(exc)}
    before = [float(x) for x in game.scores(state)]
    scores = [float(x) for x in game.scores(after)]
    return {
        **out,
        "ok": True,
        "action": game.format_action(action, state),
        "scores_before": before,
        "scores_after": scores,
        "delta": scores[seat] - before[seat],
        "view": game.view(after, seat),
    }


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


def undo_part(match: Match, seat: int, person: bool, ai: frozenset[int]) -> dict[str, Any]:
    """A seat's undo as its screen shows it: ``can_undo``, and while its last decision stands, ``undo_why``
    (the refusal: its reason, params and English message; none before the seat has moved). AI seats never
    undo."""
    refusal = match.undo_refusal(seat, ai) if person else None
    shown = refusal is not None and refusal.code not in ("match.nothing_to_undo", "match.undo_over")
    why = {"message": str(refusal), **engine_reason(refusal)} if shown and refusal is not None else None
    return {"can_undo": person and refusal is None, "undo_why": why}


def _seats(raw: Sequence[Mapping[str, Any]] | None, players: int) -> list[dict[str, Any]]:
    out = []
    for p in range(players):
        s = raw[p] if raw is not None and p < len(raw) else {}
        ai = s.get("ai") or None
        name = str(s.get("name") or "").strip()[:24]
        out.append({"name": name or player_name(p), "default_name": not name, "ai": ai})
    return out


class Table:
    """One match on one device. Seats are ``{"name", "ai"}``: ``ai`` None for a person at this device.

    ``make_player`` (``polytable.ai.make_bot``) seats the AIs and gives hints; matches sit below the players,
    so whoever opens the table passes it in (the offline worker does)."""

    def __init__(
        self,
        match: Match,
        seats: Sequence[Mapping[str, Any]] | None = None,
        make_player: PlayerMaker | None = None,
        dealer: Dealer | None = None,
    ) -> None:
        self.match = match
        self.make_player = make_player
        self.dealer = dealer
        self.seats = _seats(seats, match.players)
        self._bots: dict[int, Any] = {}
        self._rngs = {p: Rng(match.seed, stream=1000 + p) for p in range(match.players)}

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
        table = cls(Match(get_game(game), dict(options or {}), players, seed), seats, make_player)
        table.match.resolve_chance()
        return table

    @classmethod
    def companion(
        cls, game: str, options: Mapping[str, object] | None, players: int | None, seed: int, dealt: Sequence[str] = ()
    ) -> Table:
        """A companion table: the phone only deals cards for people playing on paper (a game that declares
        a companion), with the very :class:`Dealer` a server room uses; ``dealt`` replays the cards dealt
        so far."""
        match = Match(get_game(game), dict(options or {}), players, seed)
        return cls(match, None, None, Dealer(match.game, match.state, list(dealt)))

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
        m = self.match
        if m.is_over():
            return []
        cp = m.current_player()
        return list(m.acting_players()) if cp == SIMULTANEOUS else [cp]

    def seat_part(self, seat: int | None) -> dict[str, Any]:
        """What the screen shows for ``seat`` (None: a spectator): view, text board, legal moves, undo."""
        m = self.match
        game, state = m.game, m.state
        part: dict[str, Any] = {"view": game.view(state, seat), "render": game.render(state, seat, color=False)}
        if seat is None:
            return part
        acting = seat in self.acting()
        legal: list[str] = []
        count = 0
        if acting:
            actions = game.legal_actions(state, seat)
            for action in actions:
                legal.append(game.format_action(action, state))
                if len(legal) >= LEGAL_LIMIT:
                    break
            count = len(legal) if len(legal) < LEGAL_LIMIT else actions.count()
        part.update(
            to_act=acting,
            legal=legal,
            legal_count=count,
            **undo_part(m, seat, self.seats[seat]["ai"] is None, self.ai_seats()),
        )
        return part

    def summary(self) -> dict[str, Any]:
        m = self.match
        spec = m.game.spec
        return {
            "code": CODE,
            "game": spec.id,
            "name": spec.name,
            "mode": "play",
            "local": True,
            "time_control": {"kind": "none"},
            "rematch": None,
            "players": m.players,
            "options": dict(m.config.entries),
            "version": m.version,
            "over": m.is_over(),
            "seats": [
                {
                    "seat": p,
                    "label": player_name(p),
                    "name": s["name"],
                    "default_name": s["default_name"],
                    "kind": "ai" if s["ai"] else "here",
                    "ai": s["ai"],
                    "open": False,
                    "connected": True,
                }
                for p, s in enumerate(self.seats)
            ],
        }

    def history(self) -> list[dict[str, Any]]:
        """The log people may see: chance hidden until the end where the game hides information."""
        m = self.match
        hide = m.game.spec.hidden_information and not m.is_over()
        out = []
        for i, entry in enumerate(m.log):
            if hide and (entry.player == CHANCE or m.game.current_player(m.state_at(i)) == SIMULTANEOUS):
                continue
            out.append({"n": i + 1, "player": entry.player, "action": entry.action, "said": m.narration(i)})
        return out

    def message(self) -> dict[str, Any]:
        """The ``state`` message a server room sends to a connection holding every seat."""
        if self.dealer is not None:
            return self._companion_message()
        m = self.match
        over = m.is_over()
        people = [p for p, s in enumerate(self.seats) if s["ai"] is None]
        return {
            "type": "state",
            "version": m.version,
            "room": self.summary(),
            "current": m.current_player(),
            "acting": self.acting(),
            "over": over,
            "result": {**m.game.result(m.state), "why": m.outcome()} if over else None,
            "spectator": None if people else self.seat_part(None),
            "mine": {str(p): self.seat_part(p) for p in people},
            "history": self.history(),
            "moves": len(m.log),
            "scores": [float(x) for x in m.game.scores(m.state)],
            "clock": None,  # a game on one device has no time control
            "now": None,
            "error": None,
            "error_reason": None,
            "error_params": None,
        }

    def _companion_message(self) -> dict[str, Any]:
        assert self.dealer is not None
        m, dealt = self.match, len(self.dealer.dealt)
        room = self.summary()
        room.update(mode="companion", version=dealt, over=False)
        return {
            "type": "state",
            "version": dealt,
            "room": room,
            "current": -1,
            "acting": [],
            "over": False,
            "result": None,
            "spectator": None,
            "mine": {},
            "history": [{"n": i + 1, "player": -1, "action": a} for i, a in enumerate(self.dealer.dealt)],
            "moves": dealt,
            "scores": [0.0] * m.players,
            "clock": None,
            "now": None,
            "error": None,
            "error_reason": None,
            "error_params": None,
            "companion": self.dealer.message(),
        }

    def welcome(self) -> dict[str, Any]:
        return {"type": "welcome", "seats": [p for p, s in enumerate(self.seats) if s["ai"] is None]}

    # ------------------------------------------------------------------ acting
    def handle(self, msg: Mapping[str, Any]) -> list[dict[str, Any]]:
        """Answer one client message as a server room would; the replies in order."""
        kind = msg.get("type")
        try:
            if kind in ("deal", "undeal"):
                self.deal(int(msg["version"]), undo=kind == "undeal", card=msg.get("card"))
            elif self.dealer is not None and kind in ("act", "undo", "preview", "hint"):
                return [_error("this table only deals cards; play on paper", "bad")]
            elif kind == "act":
                self.play(int(msg["seat"]), str(msg["action"]), int(msg["version"]))
            elif kind == "undo":
                self.undo(int(msg["seat"]), int(msg["version"]))
            elif kind == "hint":
                seat = int(msg["seat"])
                moves = self.hint(seat)
                return [
                    {"type": "hint", "seat": seat, "ask": msg.get("ask"), "version": self.match.version, "moves": moves}
                ]
            elif kind == "preview":
                seat = int(msg["seat"])
                out = preview_action(self.match.game, self.match.state, seat, str(msg["action"]))
                return [{"type": "preview", "seat": seat, "ask": msg.get("ask"), "version": self.match.version, **out}]
            elif kind not in ("sync", "hello", "text"):  # this table always sends the text rendering
                return [_error(f"unknown message type {kind!r}", "bad")]
        except (KeyError, TypeError, ValueError) as exc:
            if isinstance(exc, PolytableError):
                return [_error(str(exc), "illegal", exc), self.message()]
            return [_error(f"malformed message: {exc}", "bad")]
        return [self.message()]

    def play(self, seat: int, text: str, version: int) -> int:
        """Play ``text`` for ``seat`` on ``version``, then resolve chance; the new version. A refused move
        raises :class:`~polytable.core.IllegalActionError` and changes nothing."""
        m = self.match
        if not 0 <= seat < m.players or self.seats[seat]["ai"] is not None:
            raise IllegalActionError(
                f"seat {seat + 1} is not played on this device", "match.seat_elsewhere", {"seat": seat + 1}
            )
        start = m.version
        m.play(text, seat, expected_version=version)
        try:
            m.resolve_chance()
        except PolytableError:
            m.rewind(start)
            raise
        return m.version

    def undo(self, seat: int, version: int) -> int:
        """Take back the seat's last decision and the AIs' replies to it (``Match.undo_span`` says when)."""
        if version != self.match.version:
            raise IllegalActionError(
                "the game moved on since you asked to undo; the board is updated", "match.undo_stale"
            )
        self.match.undo(seat, self.ai_seats())
        return self.match.version

    def ai_seats(self) -> frozenset[int]:
        """The AI seats (an undo takes their replies back with the move they answered)."""
        return frozenset(p for p, s in enumerate(self.seats) if s["ai"] is not None)

    def deal(self, version: int, undo: bool = False, card: object = None) -> int:
        """Deal the next card (or take the last one back, or take ``card`` from a printed deck); the count."""
        if self.dealer is None:
            raise IllegalActionError(
                "this table plays the game; cards are dealt by the game itself", "match.not_companion"
            )
        if version != len(self.dealer.dealt):
            raise IllegalActionError("the deal moved on; here is the current card", "match.deal_stale")
        if undo:
            self.dealer.pop()
        elif card is not None:
            self.dealer.give(str(card))
        else:
            self.dealer.push()
        return len(self.dealer.dealt)

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
        action = bot.choose(m.game, m.state, p, self._rngs[p])
        m.play(action, p)
        m.resolve_chance()
        return True

    def hint(self, seat: int) -> list[str]:
        """The move the greedy player would make for ``seat`` now (a guided game's "show me"; see
        :func:`suggestion`), or nothing when it is not that seat's turn."""
        if seat not in self.acting():
            return []
        m = self.match
        return suggestion(m.game, m.state, seat, m.seed, m.version, self._maker())

    def _maker(self) -> PlayerMaker:
        if self.make_player is None:
            raise IllegalActionError(
                "this table was opened without players: no AI seat or hint is possible", "match.no_players"
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


def _error(message: str, code: str, exc: PolytableError | None = None) -> dict[str, Any]:
    """An ``error`` reply as a server room sends it; an engine error keeps its code (``engine.<code>``)."""
    out: dict[str, Any] = {"type": "error", "code": code, "message": message}
    if exc is not None:
        out.update(engine_reason(exc))
    return out


def engine_reason(exc: Exception) -> dict[str, Any]:
    """The ``reason`` and ``params`` an engine error is shown by: ``engine.<code>`` (the client shows
    ``error.engine.<code>``), or ``engine`` (its English message only) for an error without a code."""
    if isinstance(exc, PolytableError) and exc.code:
        return {"reason": f"engine.{exc.code}", "params": exc.params}
    return {"reason": "engine", "params": {}}


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
        table.play(seat, m.game.format_action(action, m.state), m.version)
    return table.record()
