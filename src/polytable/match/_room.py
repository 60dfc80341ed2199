"""A room's rules of play around a match, decided once for the server and the offline table.

Why: the web server's rooms and the offline table on a phone answer the same protocol, and every rule of
that protocol lives here, with no I/O, so both say the same thing in the same words (a contract test
replays one message sequence through both and compares every message):

* **Versions.** A room's version is ``len(log) + 2 * undone`` (``undone``: log entries ever taken back,
  the dealt cards' count in a companion room): it grows on every change, an undo included, so a version
  names one state for ever. An action quotes the version it was made on and is refused as stale unless
  that is the current one, with one exception: in a simultaneous round the other seats' hidden choices do
  not change what a seat sees, so an action made before them (and after nothing else) still counts.
* **Undo.** A person takes back their own last decision with the AI seats' replies to it, as
  :meth:`Match.undo_span` allows; AI seats never undo; the undo must quote the current version.
* **History.** While the game goes on the history leaves out every choice made in a simultaneous round
  and, in a game with hidden information, every chance outcome (a card, a draw); it holds the last
  :data:`HISTORY_LIMIT` shown entries. Once the game is over the whole log is public.
* **The state message.** Per seat: its view, its legal actions as notation (at most :data:`LEGAL_LIMIT`,
  with their count) and whether it may undo; spectators get the ``None`` view. The room's own summary
  (code, seats' names, connections, clocks) is the wrapper's: it is passed in.

The wrappers (``polytable.web``'s rooms: locks, storage, broadcasting; :class:`~polytable.match.Table`:
one device) ask this class what to do, persist and tell.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from ..core import CHANCE, SIMULTANEOUS, IllegalActionError, PolytableError, Rng, player_name
from ._companion import GIVEN, Dealer
from ._match import Match

__all__ = [
    "HISTORY_LIMIT",
    "LEGAL_LIMIT",
    "MAX_ACTION",
    "RoomError",
    "RoomMachine",
    "action_text",
    "ask_of",
    "default_seat_name",
    "engine_error",
    "engine_reason",
    "error_reply",
    "seat_entry",
    "seat_number",
    "version_of",
]

LEGAL_LIMIT = 2000
"""At most this many legal actions are listed per seat; the rest can be typed as notation."""
HISTORY_LIMIT = 30
"""Entries of the live history a state message carries (the newest ones)."""
MAX_ACTION = 1000
"""Longest action text accepted (the notation of any move of the five games is far shorter)."""


class RoomError(PolytableError):
    """A request about a room that cannot be served.

    ``code`` says what kind (the client acts on it: ``stale`` reloads, ``missing`` leaves the room);
    ``reason`` names the exact message, stable across versions, so the client shows it from its translation
    files as ``error.<reason>`` with ``params``; the English ``message`` is the fallback. An error relayed
    from the engine has the reason ``engine.<code>`` (``error.engine.<code>``).
    """

    def __init__(
        self, message: str, code: str = "bad", reason: str = "engine", params: dict[str, object] | None = None
    ) -> None:
        super().__init__(message)
        self.code = code
        self.reason = reason
        self.params: dict[str, object] = params or {}

    def payload(self) -> dict[str, object]:
        """The JSON fields every error carries: ``code``, ``reason``, ``params``, ``message``."""
        return {"code": self.code, "reason": self.reason, "params": self.params, "message": str(self)}


def engine_reason(exc: Exception) -> dict[str, Any]:
    """The ``reason`` and ``params`` an engine error is shown by: ``engine.<code>`` (the client shows
    ``error.engine.<code>``), or ``engine`` (its English message only) for an error without a code."""
    if isinstance(exc, PolytableError) and exc.code:
        return {"reason": f"engine.{exc.code}", "params": exc.params}
    return {"reason": "engine", "params": {}}


def engine_error(exc: PolytableError, code: str = "bad") -> RoomError:
    """An engine error relayed to the client by its stable code (``error.engine.<code>``) and params."""
    shown = engine_reason(exc)
    return RoomError(str(exc), code, shown["reason"], shown["params"])


def error_reply(exc: RoomError) -> dict[str, Any]:
    """The ``error`` message for a refusal; a ``stale`` or ``storage`` one is followed by the state."""
    return {"type": "error", **exc.payload()}


def default_seat_name(seat: int, ai: str | None) -> str:
    """The name a seat gets when nobody gives one: "Player 2", or "Greedy AI" for an AI seat."""
    return f"{ai.capitalize()} AI" if ai else player_name(seat)


def seat_entry(
    seat: int, name: str, default_name: bool, kind: str, ai: str | None, open: bool, connected: bool
) -> dict[str, Any]:
    """One seat as the room's summary lists it: its number and label, its name (``default_name``: made by
    the room, so the client shows it in its language), its ``kind`` (here, invite or ai), its AI, whether
    it is open to join and whether someone is connected to it."""
    return {
        "seat": seat,
        "label": player_name(seat),
        "name": name,
        "default_name": default_name,
        "kind": kind,
        "ai": ai,
        "open": open,
        "connected": connected,
    }


# ---------------------------------------------------------------------- the client's messages, checked
def seat_number(msg: Mapping[str, Any], held: Collection[int], what: str = "acts") -> int:
    """The message's seat, which the connection must hold (``held``)."""
    seat = msg.get("seat")
    if isinstance(seat, bool) or not isinstance(seat, int):
        raise RoomError(f"say which seat {what} (a number)", reason="seat_number")
    if seat not in held:
        raise RoomError(
            f"you do not hold seat {seat + 1}; you cannot act for it", "forbidden", "not_your_seat", {"seat": seat + 1}
        )
    return seat


def version_of(
    msg: Mapping[str, Any], message: str = "every action carries the version of the game it was made on"
) -> int:
    """The version the message quotes."""
    version = msg.get("version")
    if isinstance(version, bool) or not isinstance(version, int):
        raise RoomError(message, reason="no_version")
    return version


def action_text(action: object) -> str:
    """The action's notation, checked for type and length."""
    if not isinstance(action, str) or not action.strip() or len(action) > MAX_ACTION:
        raise RoomError(f"the action must be text in the game's notation (at most {MAX_ACTION} characters)")
    return action


def ask_of(msg: Mapping[str, Any]) -> int | None:
    """The request number a preview or hint carries back (None when it is not a whole number)."""
    ask = msg.get("ask")
    return ask if isinstance(ask, int) and not isinstance(ask, bool) else None


class RoomMachine:
    """The state of one room's play: its match, which seats the AIs play, versions, undo and what each
    seat is shown. Pure: every method works in memory; whoever holds it persists and broadcasts.

    ``forfeits`` tells which seats lost on time (the server's clocks; a table on one device has none).
    """

    def __init__(
        self,
        match: Match,
        ai: Collection[int] = (),
        *,
        mode: str = "play",
        undone: int = 0,
        dealt: Sequence[str] | None = None,
        legal_limit: int = LEGAL_LIMIT,
        forfeits: Callable[[], Sequence[int]] = tuple,
    ) -> None:
        self.mode = mode
        self.ai = frozenset(ai)
        self.legal_limit = legal_limit
        self.forfeits = forfeits
        self.failed: str | None = None
        self.failed_reason: tuple[str, dict[str, object]] = ("engine", {})
        self.dealer: Dealer | None = None
        # Versions quoted before this one are stale whatever happened since; after a restart the versions
        # before the last undo are unknown, so all older versions count as stale then.
        self.undo_version = 0
        self.simultaneous: list[bool] = []  # per log position: was it a choice in a simultaneous round?
        self._legal: dict[int, tuple[int, int, Any, list[str], int]] = {}  # seat -> (undone, log length,
        # last log entry, legal, count) when the list was made: kept across versions, see legal_actions
        self._shown: tuple[Any, int, int, Any, list[dict[str, Any]]] | None = None  # the live history as of
        # a log length: (log, undone, length, last entry, the newest shown entries), see history
        self.match = match
        self.undone = -1  # set by reset
        self.reset(match, undone, dealt)
        self.undo_version = self.version if undone else 0

    def reset(self, match: Match, undone: int, dealt: Sequence[str] | None = None) -> None:
        """Hold ``match`` (a companion room: its ``dealt`` cards) as rebuilt from a record; an undo made
        elsewhere (``undone`` differs) makes every older version stale."""
        if match is not self.match:
            self.simultaneous = []  # a new match: count again (the same one was only played on)
        self.match = match
        if self.mode == "companion":
            self.dealer = Dealer(match.game, match.state_at(0), list(dealt or ()))
        if undone != self.undone:
            self.undone = undone
            self.undo_version = self.version
        self.count_simultaneous()

    def count_simultaneous(self) -> None:
        """Note for each log entry not yet noted whether it was a choice in a simultaneous round."""
        match, flags = self.match, self.simultaneous
        del flags[len(match.log) :]
        for i in range(len(flags), len(match.log)):
            flags.append(match.game.current_player(match.state_at(i)) == SIMULTANEOUS)

    # ------------------------------------------------------------------ reading
    @property
    def version(self) -> int:
        length = len(self.dealer.dealt) if self.dealer is not None else len(self.match.log)
        return length + 2 * self.undone

    def is_over(self) -> bool:
        """The game ended, or a seat forfeited on time."""
        return self.match.is_over() or bool(self.forfeits())

    def acting(self) -> tuple[int, ...]:
        """The seats that must act now (none once the game is over)."""
        return () if self.is_over() else tuple(self.match.acting_players())

    def result(self) -> dict[str, Any] | None:
        """The end of the game: the game's own result with why (in words), or on a forfeit the others win
        with the scores so far."""
        match = self.match
        if match.is_over():
            return {**match.game.result(match.state), "why": match.outcome()}
        lost = list(self.forfeits())
        if not lost:
            return None
        try:
            scores: list[Any] = list(match.game.scores(match.state))
        except PolytableError:
            scores = []
        winners = [p for p in range(match.players) if p not in lost]
        return {"scores": scores, "winners": winners, "forfeited": lost, "terminal": False}

    def ai_rng(self, seat: int) -> Rng:
        """The generator an AI seat draws from, from the match's seed and its length now: the same on the
        server and on the offline table, and a room loaded again mid-game does not repeat its draws."""
        return Rng(self.match.seed, 1000 + seat + 17 * len(self.match.log))

    def summary(self, code: str, seats: Sequence[dict[str, Any]], **room: Any) -> dict[str, Any]:
        """The room's summary in the state message: its ``code``, the game, mode, players, options, version,
        whether it is over and its ``seats`` (:func:`seat_entry`); ``room`` adds the wrapper's fields (its
        time control, a rematch)."""
        match = self.match
        spec = match.game.spec
        return {
            "code": code,
            "game": spec.id,
            "name": spec.name,
            "mode": self.mode,
            "players": match.players,
            "options": dict(match.config.entries),
            "time_control": {"kind": "none"},
            "rematch": None,
            **room,
            "version": self.version,
            "over": self.is_over(),
            "seats": seats,
        }

    def fail(self, message: str, reason: str, params: dict[str, object] | None = None) -> None:
        """Stop the room with a message for everyone (English) and its reason for the translations."""
        self.failed = message
        self.failed_reason = (reason, params or {})

    # ------------------------------------------------------------------ acting
    def check_playable(self, seat: int, undo: bool = False) -> None:
        """Refuse a move (or an undo) this room cannot take now, whatever its version."""
        if self.mode != "play":
            raise RoomError("this room only deals cards; play on paper", "bad", "companion_only")
        if self.failed:
            raise RoomError(self.failed, "broken", self.failed_reason[0], self.failed_reason[1])
        if not 0 <= seat < self.match.players:
            raise RoomError(f"there is no seat {seat + 1} in this room", "bad", "no_seat", {"seat": seat + 1})
        if self.is_over() and not undo:
            raise RoomError("the game is over: no more moves can be made", "illegal", "game_over")

    def check_version(self, seat: int, version: int) -> None:
        """Refuse an action of ``seat`` quoting ``version`` as stale (see the module's versions)."""
        current = self.version
        if version == current:
            return
        stale = RoomError(
            f"the game moved on (you played on version {version}, it is now at {current}); the board is updated",
            "stale",
            "stale",
            {"version": version, "current": current},
        )
        if version > current or version < self.undo_version:
            raise stale
        log = self.match.log
        start = len(log) - (current - version)
        if start < 0:
            raise stale
        for i in range(start, len(log)):
            if not self.simultaneous[i] or log[i].player in (CHANCE, seat):
                raise stale
        if self.match.current_player() != SIMULTANEOUS:
            raise stale

    def play(self, seat: int, action: object) -> int:
        """Apply ``action`` for ``seat`` and the chance outcomes after it; the log length before it (the
        new entries are the log from there). An illegal action changes nothing and raises RoomError."""
        match = self.match
        start = len(match.log)
        try:
            match.play(action, seat)
            match.resolve_chance()
        except IllegalActionError as exc:
            match.rewind(start)  # resolve_chance may have failed half-way; play itself changes nothing
            raise engine_error(exc, "illegal") from None
        self.count_simultaneous()
        return start

    def resolve_chance(self) -> int:
        """Resolve the chance at the start of a new room (the first card, the first roll); the log length
        before it."""
        start = len(self.match.log)
        self.match.resolve_chance()
        self.count_simultaneous()
        return start

    def rewind(self, length: int) -> None:
        """Forget the log after ``length`` (a change that could not be kept)."""
        self.match.rewind(length)
        self.count_simultaneous()

    def undo(self, seat: int, version: int) -> tuple[int, int]:
        """Take back ``seat``'s last decision and the AI seats' replies to it; the log's length before and
        after. The version counts it once :meth:`count_undone` is told it stands."""
        if version != self.version:
            raise RoomError("the game moved on since you asked to undo; the board is updated", "stale", "stale_undo")
        before = len(self.match.log)
        try:
            self.match.undo(seat, self.ai)
        except IllegalActionError as exc:
            raise engine_error(exc, "illegal") from None
        self.count_simultaneous()
        return before, len(self.match.log)

    def count_undone(self, taken: int) -> None:
        """``taken`` entries were taken back for good: the version grows by twice that, and every version
        quoted before is stale."""
        self.undone += taken
        self.undo_version = self.version

    def plan_deal(self, version: int, undo: bool = False, card: str | None = None) -> str | None:
        """A companion room's next card as it will be stored (``card``: from a printed deck), or None to
        take the last one back; refused when not a companion room, stale or impossible. Nothing changes
        until :meth:`deal`."""
        if self.dealer is None:
            raise RoomError("this room plays the game; cards are dealt by the game itself", reason="not_companion")
        if version != self.version:
            raise RoomError("someone dealt already; here is the current card", "stale", "stale_deal")
        try:
            if undo:
                if not self.dealer.dealt:
                    raise IllegalActionError("no card has been dealt yet", "match.nothing_dealt")
                return None
            return GIVEN + self.dealer.check_give(card) if card is not None else self.dealer.next_card()
        except IllegalActionError as exc:
            raise engine_error(exc, "illegal") from None
        except ValueError as exc:
            raise RoomError(str(exc), "bad", "bad_card", {"card": str(card)[:40]}) from None

    def deal(self, undo: bool = False, card: str | None = None) -> None:
        """Make the deal :meth:`plan_deal` allowed (a card taken back counts as an undo)."""
        assert self.dealer is not None
        if undo:
            self.dealer.pop()
            self.count_undone(1)
        elif card is not None:
            self.dealer.give(card)
        else:
            self.dealer.push()

    def preview(self, seat: int, text: str) -> dict[str, Any]:
        """What ``text`` played by ``seat`` would do now: ``ok``, or a ``message`` and its ``reason``; the
        scores before and after, the seat's gain and its view after the move, and the ``version`` it was
        asked on. States are immutable: nothing changes, and chance after the move is never resolved."""
        game, state = self.match.game, self.match.state
        out: dict[str, Any] = {"action": text, "version": self.version, "ok": False}
        if self.is_over():
            return {**out, "message": "the game is over", "reason": "game_over"}
        if seat not in self.match.acting_players():
            return {**out, "message": "it is not your turn", "reason": "not_your_turn"}
        try:
            action = game.parse_action(text, state)
            after = game.apply(state, action, seat)
        except PolytableError as exc:  # IllegalActionError included: shown by its code
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

    # ------------------------------------------------------------------ the state message
    def part(self, seat: int | None) -> dict[str, Any]:
        """A seat's part of the state (``None``: the spectators'), without the text rendering: its view,
        and for a seat whether it acts, its legal actions and its undo."""
        match = self.match
        part: dict[str, Any] = {"view": match.game.view(match.state, seat)}
        if seat is None:
            return part
        acting = seat in self.acting()
        legal, count = self.legal_actions(seat) if acting else ([], 0)
        part.update(to_act=acting, legal=legal, legal_count=count, **self.undo_part(seat))
        return part

    def undo_part(self, seat: int) -> dict[str, Any]:
        """A seat's undo as its screen shows it: ``can_undo``, and while its last decision stands,
        ``undo_why`` (the refusal: its reason, params and English message; none before the seat has
        moved). AI seats never undo."""
        person = seat not in self.ai
        refusal = self.match.undo_refusal(seat, self.ai) if person else None
        shown = refusal is not None and refusal.code not in ("match.nothing_to_undo", "match.undo_over")
        why = {"message": str(refusal), **engine_reason(refusal)} if shown and refusal is not None else None
        return {"can_undo": person and refusal is None, "undo_why": why}

    def render(self, seat: int | None) -> str:
        """The game's text rendering for ``seat`` (sent only to pages that show it)."""
        return str(self.match.game.render(self.match.state, seat, color=False))

    def legal_actions(self, seat: int) -> tuple[list[str], int]:
        """The seat's legal actions as notation (at most ``legal_limit``) and how many there are.

        In a simultaneous round another seat's hidden choice does not change a seat's situation (the rule
        by which a stale-looking action still counts, see :meth:`check_version`), so the list made before
        them is reused rather than formatted again; anything else in between (a chance event, a resolved
        round, the seat's own action, an undo or a reload) makes a new one."""
        match = self.match
        log, length = match.log, len(match.log)
        hit = self._legal.get(seat)
        if hit is not None and hit[0] == self.undone and hit[1] <= length and match.current_player() == SIMULTANEOUS:
            made, last = hit[1], hit[2]
            if (made == 0 or log[made - 1] is last) and all(
                self.simultaneous[i] and log[i].player not in (CHANCE, seat) for i in range(made, length)
            ):
                return hit[3], hit[4]
        limit = self.legal_limit
        actions = match.game.legal_actions(match.state, seat)
        legal = actions.notation(limit)
        count = len(legal) if len(legal) < limit else actions.count()
        self._legal[seat] = (self.undone, length, log[-1] if log else None, legal, count)
        return legal, count

    def history(self) -> list[dict[str, Any]]:
        """The log entries people may see now: all of them once the game is over, else the newest
        :data:`HISTORY_LIMIT` shown ones (see the module's history).

        They are kept with the log length they were found at and brought up to date from the entries
        added since; a log that is not the same up to that length (an undo, a reload) is scanned again."""
        log = self.match.log
        if self.is_over():
            return [self._entry(i) for i in range(len(log))]
        length = len(log)
        kept = self._shown
        if (
            kept is not None
            and kept[0] is log
            and kept[1] == self.undone
            and kept[2] <= length
            and (kept[2] == 0 or log[kept[2] - 1] is kept[3])
        ):
            shown = kept[4]
            shown.extend(self._entry(i) for i in range(kept[2], length) if self._shows(i))
            del shown[:-HISTORY_LIMIT]
        else:
            shown = []
            for i in range(length - 1, -1, -1):  # newest first, until enough are shown
                if len(shown) == HISTORY_LIMIT:
                    break
                if self._shows(i):
                    shown.append(self._entry(i))
            shown.reverse()
        self._shown = (log, self.undone, length, log[-1] if log else None, shown)
        return list(shown)

    def _entry(self, i: int) -> dict[str, Any]:
        """Log entry ``i`` as the history shows it: its number, who, the notation and the words."""
        entry = self.match.log[i]
        return {"n": i + 1, "player": entry.player, "action": entry.action, "said": self.match.narration(i)}

    def _shows(self, i: int) -> bool:
        """Whether log entry ``i`` is in the live history (not a simultaneous choice, not a hidden card)."""
        return not self.simultaneous[i] and not (
            self.match.log[i].player == CHANCE and self.match.game.spec.hidden_information
        )

    def head(self) -> dict[str, Any]:
        """The fields of the state message every connection gets, but the room's summary, clocks and time
        (the wrapper's)."""
        match, over, failed = self.match, self.is_over(), self.failed
        head: dict[str, Any] = {
            "type": "state",
            "version": self.version,
            "current": match.current_player(),
            "acting": list(self.acting()),
            "over": over,
            "result": self.result(),
            "history": self.history(),
            "moves": len(match.log),
            "scores": _scores(match),
            "error": failed,
            "error_reason": self.failed_reason[0] if failed else None,
            "error_params": self.failed_reason[1] if failed else None,
            "paused": False,  # the storage does not answer (a server room only: the wrapper says so)
        }
        if self.dealer is not None:
            head["companion"] = self.dealer.message()
        return head

    def message(self, seats: Collection[int], text: bool, **room: Any) -> dict[str, Any]:
        """The whole state message for a connection holding ``seats`` (with each part's text rendering
        when ``text``); ``room`` holds the wrapper's fields (``room``, ``clock``, ``now``)."""
        held = [] if self.dealer is not None else sorted(seats)  # a companion room's cards are in the head
        parts = {str(p): self._with_render(p, text) for p in held}
        spectator = None if seats else self._with_render(None, text)
        return {**self.head(), **room, "spectator": spectator, "mine": parts}

    def _with_render(self, seat: int | None, text: bool) -> dict[str, Any]:
        part = self.part(seat)
        return {**part, "render": self.render(seat)} if text else part


def _scores(match: Match) -> list[float]:
    """The scores so far (a guided game tells the learner what a move gained); none where the game's state
    has none to give (a companion room's first state)."""
    try:
        return [float(x) for x in match.game.scores(match.state)]
    except PolytableError:
        return []
