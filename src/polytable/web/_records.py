"""Rooms as records: a match rebuilt from its stored log, default seat names, a finished game's positions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..core import CHANCE, IllegalActionError, PolytableError, get_game
from ..match import LogEntry, Match, default_seat_name
from ..storage import RoomRecord
from ._base import RoomError

__all__ = ["Health", "build_match", "default_seat_name", "extend_match", "health", "step_view"]


def build_match(record: RoomRecord) -> Match:
    """Rebuild a room's match from its stored log, checking every step (Match.replay)."""
    return Match.replay(
        {
            "game": record.game,
            "rules_version": record.rules_version,
            "config": {"players": record.players, "options": record.options},
            "seed": record.seed,
            "actions": [[p, a] for p, a in record.actions],
        },
        check_result=False,
    )


def extend_match(match: Match, actions: Sequence[tuple[int, str]], first: int = 0) -> bool:
    """Bring ``match`` up to a stored log that extends it (another process played on): play only the new
    entries, each checked as a replay checks it. ``actions`` is the stored log from position ``first`` on
    (a reload reads only the entries it lacks, plus one it has, so a log that changed under it is seen).
    False (and ``match`` as it was) if the stored log does not agree with this match's log where both have
    entries, or an entry does not apply; then the caller rebuilds the whole match."""
    have = len(match.log)
    if first > have or first + len(actions) < have:
        return False
    if any((e.player, e.action) != tuple(a) for e, a in zip(match.log[first:], actions, strict=False)):
        return False
    if _play_stored(match, actions[have - first :]) is not None:
        match.rewind(have)
        return False
    return True


def _play_stored(match: Match, actions: Sequence[tuple[int, str]]) -> PolytableError | None:
    """Play stored log entries on ``match``, each checked as a replay checks it (a chance outcome must be
    the one the seed gives); stops at the first that does not apply and returns why (None: all played)."""
    game = match.game
    try:
        for player, text in actions:
            if player == CHANCE and game.format_action(game.chance_outcome(match.state), match.state) != text:
                raise IllegalActionError("the stored chance outcome is not what the seed gives")
            match.play(text, player)
    except PolytableError as exc:
        return exc
    return None


@dataclass(frozen=True)
class Health:
    """A stored room as checked against the rules: ``consistent`` of its ``stored`` log entries replay
    (the match at that point is ``match``), and ``problem`` says why the rest cannot (None: all of it)."""

    code: str
    stored: int
    consistent: int
    problem: str | None
    match: Match | None

    @property
    def damaged(self) -> bool:
        return self.problem is not None


def health(record: RoomRecord) -> Health:
    """How much of a stored room's log replays (a hole in the log or an entry the rules refuse ends it).

    The match is made from the record's game, options and seed; a record whose rules version is not this
    program's, or whose options no longer make a game, has no consistent part at all."""
    stored = len(record.actions)
    try:
        game = get_game(record.game)
        match = Match(game, record.options, record.players, record.seed)
    except PolytableError as exc:
        return Health(record.code, stored, 0, f"its game cannot be made again: {exc}", None)
    if record.rules_version != game.spec.rules_version:
        why = f"it was played under rules version {record.rules_version}, not {game.spec.rules_version}"
        return Health(record.code, stored, 0, why, match)
    if record.mode == "companion":  # dealt cards only: the dealer checks them, not the game's moves
        return Health(record.code, stored, len(record.actions), record.damage, match)
    error = _play_stored(match, record.actions)
    problem = f"entry {len(match.log)} does not apply: {error}" if error is not None else record.damage
    return Health(record.code, stored, len(match.log), problem, match)


def step_view(match: Match, version: int) -> dict[str, Any]:
    """A game at log position ``version`` (0 = the start), as a spectator sees it."""
    game = match.game
    total = len(match.log)
    if not 0 <= version <= total:
        raise RoomError(f"the game has positions 0 to {total}", "bad", "no_position", {"total": total})
    state = match.state_at(version)
    entry: LogEntry | None = match.log[version - 1] if version else None
    return {
        "position": version,
        "total": total,
        "render": game.render(state, None, color=False),
        "view": game.view(state, None),
        "action": None if entry is None else {"player": entry.player, "action": entry.action},
        "result": game.result(state) if version == total else None,
    }
