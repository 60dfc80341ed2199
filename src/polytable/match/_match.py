"""A match: one game being played, with its action log, versions, undo and seats.

Every interface (terminal, web server, simulations) drives games through this class, so the rules about
*applying* actions that are not rules of any one game live here once: the state version that a client
must quote, the log that makes a record, chance resolution from the state's own generator, and undo.

Undo follows the habit of online tables (Board Game Arena's): a player may take back their own last
decision as long as nothing hidden was revealed since (no card, roll or draw: a chance event) and no
other person has acted since. Against AIs the AIs' replies to it are taken back with it, so the player
is where they were before their move; a game may also declare an action binding (Forma's touch-move pick,
:meth:`~polytable.core.Game.check_undo`). The policy lives here, once, for the server, the offline table
and the terminal (:meth:`Match.undo_span`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from ..core import CHANCE, SIMULTANEOUS, Game, IllegalActionError, Rng, StateFormatError, get_game, player_name

__all__ = ["MAX_STEPS", "LogEntry", "Match", "Seat"]

MAX_STEPS = 100_000
"""No game here lasts this long; a match that does is a bug, and stops with an error instead of hanging."""


@dataclass(frozen=True)
class LogEntry:
    """One applied action: who (a player index, or -1 for chance) and the action in canonical notation."""

    player: int
    action: str

    def to_json(self) -> list[object]:
        return [self.player, self.action]


@dataclass(frozen=True)
class Seat:
    """Who plays a seat: a person (``ai`` is None) or a named AI."""

    name: str
    ai: str | None = None

    @property
    def is_ai(self) -> bool:
        return self.ai is not None


class Match:
    """A game in progress: the current state, the full log and the states before each action."""

    def __init__(
        self,
        game: Game[Any, Any] | str,
        options: Mapping[str, object] | None = None,
        players: int | None = None,
        seed: int = 0,
    ) -> None:
        self.game: Game[Any, Any] = get_game(game) if isinstance(game, str) else game
        self.seed = seed
        self.state: Any = self.game.new_game(options, seed=seed, players=players)
        self.config = self.state.config
        self.log: list[LogEntry] = []
        self._states: list[Any] = [self.state]
        self._said: list[dict[str, object]] = []  # the log entries told in words so far (see narration)

    # ------------------------------------------------------------------ reading
    @property
    def version(self) -> int:
        """How many actions have been applied; a client quotes it with each action."""
        return len(self.log)

    @property
    def players(self) -> int:
        return int(self.config.players)

    def current_player(self) -> int:
        return self.game.current_player(self.state)

    def acting_players(self) -> tuple[int, ...]:
        return self.game.acting_players(self.state)

    def is_over(self) -> bool:
        return self.game.is_terminal(self.state)

    def state_at(self, version: int) -> Any:
        """The state after ``version`` actions (for stepping through a finished game)."""
        if not 0 <= version <= len(self.log):
            raise IndexError(f"version {version} is outside 0..{len(self.log)}")
        return self._states[version]

    def narration(self, i: int) -> dict[str, object]:
        """Log entry ``i`` (0-based) in words, as its game tells it (``Game.narrate``): a coded phrase for
        the history. Made once per entry."""
        said = self._said
        while len(said) <= i:
            k = len(said)
            entry, before = self.log[k], self._states[k]
            action = self.game.parse_action(entry.action, before)
            said.append(self.game.narrate(action, before, self._states[k + 1], entry.player))
        return said[i]

    def outcome(self) -> dict[str, object] | None:
        """Why the finished game ended as it did (``Game.outcome``), None while it goes on."""
        return self.game.outcome(self.state) if self.is_over() else None

    # ------------------------------------------------------------------ acting
    def play(self, action: object, player: int | None = None, expected_version: int | None = None) -> Any:
        """Apply an action (a value or its text) for ``player``; returns the new state.

        With ``expected_version`` a stale action (made on an older state) is refused. Any refusal raises
        :class:`IllegalActionError` and changes nothing.
        """
        if expected_version is not None and expected_version != self.version:
            raise IllegalActionError(
                f"this move was made on version {expected_version} of the game, which is now at version "
                f"{self.version}; look at the board again",
                "match.stale",
                {"expected_version": expected_version, "version": self.version},
            )
        game, state = self.game, self.state
        if player is None:
            who = game._resolve_player(state, None)
        else:
            who = player
        value = game.parse_action(action, state) if isinstance(action, str) else action
        new_state = game.apply(state, value, who)
        self._push(LogEntry(who, game.format_action(value, state)), new_state)
        return new_state

    def _push(self, entry: LogEntry, state: Any) -> None:
        if len(self.log) >= MAX_STEPS:
            raise IllegalActionError(
                f"the match exceeded {MAX_STEPS} actions", "match.too_long", {"max_steps": MAX_STEPS}
            )
        self.log.append(entry)
        self._states.append(state)
        self.state = state

    def resolve_chance(self) -> int:
        """Apply chance outcomes (drawn from the state's own generator) until a player must act or the
        game ends; returns how many were applied."""
        n = 0
        game = self.game
        while game.current_player(self.state) == CHANCE:
            outcome = game.chance_outcome(self.state)
            new_state = game.apply(self.state, outcome, CHANCE)
            self._push(LogEntry(CHANCE, game.format_action(outcome, self.state)), new_state)
            n += 1
        return n

    def rewind(self, version: int) -> Any:
        """Forget every action after ``version`` (an interface's own rollback, for example when a move
        could not be saved). Unlike :meth:`undo` this ignores the rules: it is not a player's action."""
        if not 0 <= version <= len(self.log):
            raise IndexError(f"version {version} is outside 0..{len(self.log)}")
        del self.log[version:]
        del self._states[version + 1 :]
        del self._said[version:]
        self.state = self._states[-1]
        return self.state

    def undo_span(self, player: int, ai: Collection[int] = ()) -> int:
        """How many log entries an undo by ``player`` takes back: their last decision and the replies of
        the ``ai`` seats after it. Raises :class:`IllegalActionError` saying why when there is none to take
        back: nothing of theirs, a chance event since (a revealed card, roll or draw), another person's
        action since, a decision the game makes binding, or the end of the game (its result stands)."""
        if self.is_over():
            raise IllegalActionError("the game is over: its result stands", "match.undo_over")
        log = self.log
        i = len(log) - 1
        while i >= 0 and log[i].player != player and log[i].player in ai:
            i -= 1  # an AI's reply goes back with the move it answered
        if not any(e.player == player for e in log[: i + 1]):
            raise IllegalActionError(
                f"{player_name(player)} has no move to take back", "match.nothing_to_undo", {"player": player + 1}
            )
        last = log[i]
        if last.player == CHANCE:
            raise IllegalActionError(
                f"{player_name(player)} cannot undo: a card, a roll or a draw was revealed since",
                "match.undo_after_chance",
                {"player": player + 1},
            )
        if last.player != player:
            raise IllegalActionError(
                f"{player_name(player)} cannot undo: {player_name(last.player)} has moved since",
                "match.undo_after_other",
                {"player": player + 1, "other": last.player + 1},
            )
        state = self._states[i]
        self.game.check_undo(state, self.game.parse_action(last.action, state), player)
        return len(log) - i

    def can_undo(self, player: int, ai: Collection[int] = ()) -> bool:
        """Whether ``player`` may take back their last decision now (see :meth:`undo_span`)."""
        return self.undo_refusal(player, ai) is None

    def undo_refusal(self, player: int, ai: Collection[int] = ()) -> IllegalActionError | None:
        """Why ``player`` may not take back their last decision now, or None when they may."""
        try:
            self.undo_span(player, ai)
        except IllegalActionError as exc:
            return exc
        return None

    def undo(self, player: int, ai: Collection[int] = ()) -> Any:
        """Take back ``player``'s last decision, and the ``ai`` seats' replies to it, if the rules allow
        it (see :meth:`undo_span`); returns the state the player is back at."""
        if player == CHANCE:
            raise IllegalActionError("chance cannot take anything back", "match.chance_undo")
        return self.rewind(len(self.log) - self.undo_span(player, ai))

    def step_ai(self, bots: Mapping[int, Any], rng: Mapping[int, Rng]) -> bool:
        """Let AI seats act (and chance resolve) once; returns False when a person must act or it is over.

        In a simultaneous round each AI seat that has not chosen yet chooses (each sees only its view;
        bots receive the state but are trusted to use only what ``determinize`` leaves them)."""
        self.resolve_chance()
        if self.is_over():
            return False
        cp = self.current_player()
        acting = self.acting_players() if cp == SIMULTANEOUS else (cp,)
        moved = False
        for p in acting:
            if p in bots:
                action = bots[p].choose(self.game, self.state, p, rng[p])
                self.play(action, p)
                moved = True
                if self.current_player() != SIMULTANEOUS:
                    break
        return moved

    # ------------------------------------------------------------------ records
    def record(self) -> dict[str, Any]:
        """The game record: ``{game, rules_version, config, seed, actions, result}`` as JSON data."""
        return {
            "format": "polytable-record/1",
            "game": self.game.spec.id,
            "rules_version": self.game.spec.rules_version,
            "config": self.config.to_dict(),
            "seed": self.seed,
            "actions": [e.to_json() for e in self.log],
            "result": self.game.result(self.state),
        }

    @classmethod
    def replay(cls, record: Mapping[str, Any], check_result: bool = True) -> Match:
        """Rebuild a recorded game action by action, checking it is exactly what was recorded.

        Raises :class:`StateFormatError` for a malformed record, a different rules version, an action
        that is no longer legal, a chance outcome the seed would not have produced, or a different result.
        """
        if not isinstance(record, Mapping):
            raise StateFormatError("a record must be a JSON object", "match.record_type")
        for key in ("game", "rules_version", "config", "seed", "actions"):
            if key not in record:
                raise StateFormatError(f"the record has no {key!r}", "match.record_missing", {"key": f"{key!r}"})
        game = get_game(str(record["game"]))
        if record["rules_version"] != game.spec.rules_version:
            raise StateFormatError(
                f"the record was played under rules version {record['rules_version']} of {game.spec.name}; "
                f"this polytable has version {game.spec.rules_version}",
                "match.record_version",
                {"record": record["rules_version"], "name": game.spec.name, "rules_version": game.spec.rules_version},
            )
        config = record["config"]
        if not isinstance(config, Mapping) or not isinstance(config.get("options", {}), Mapping):
            raise StateFormatError(
                "the record's config must be {'players': N, 'options': {...}}", "match.record_config"
            )
        seed = record["seed"]
        if isinstance(seed, bool) or not isinstance(seed, int):
            raise StateFormatError("the record's seed must be a whole number", "match.record_seed")
        players = config.get("players")
        if players is not None and (isinstance(players, bool) or not isinstance(players, int)):
            raise StateFormatError("the record's player count must be a whole number", "match.record_players")
        match = cls(game, dict(config.get("options", {})), players, seed)
        actions = record["actions"]
        if not isinstance(actions, Sequence) or isinstance(actions, str):
            raise StateFormatError("the record's actions must be a list", "match.record_actions")
        for i, entry in enumerate(actions):
            if (
                not isinstance(entry, Sequence)
                or isinstance(entry, str)
                or len(entry) != 2
                or isinstance(entry[0], bool)
                or not isinstance(entry[0], int)
                or not isinstance(entry[1], str)
            ):
                raise StateFormatError(
                    f"action {i + 1} of the record must be [player, text]", "match.record_action_format", {"i": i + 1}
                )
            player, text = entry
            try:
                if player == CHANCE:
                    expected = game.format_action(game.chance_outcome(match.state), match.state)
                    if expected != text:
                        raise StateFormatError(
                            f"action {i + 1}: the recorded chance outcome {text!r} is not what the seed gives "
                            f"({expected!r})",
                            "match.record_chance",
                            {"i": i + 1, "text": f"{text!r}", "expected": f"{expected!r}"},
                        )
                match.play(text, player)
            except IllegalActionError as exc:
                raise StateFormatError(
                    f"action {i + 1} ({text!r} by player {player + 1}): {exc}",
                    "match.record_action",
                    {"i": i + 1, "text": f"{text!r}", "player": player + 1, "why": exc},
                ) from None
        if check_result and "result" in record and record["result"] is not None:
            got = game.result(match.state)
            if _jsonish(got) != _jsonish(record["result"]):
                raise StateFormatError(
                    f"the replayed result {got} differs from the recorded one {record['result']}",
                    "match.record_result",
                    {"got": got, "record": record["result"]},
                )
        return match


def _jsonish(value: Any) -> Any:
    import json

    return json.loads(json.dumps(value))
