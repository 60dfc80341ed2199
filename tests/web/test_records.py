"""A room brought up to date from the stored log of another process: only the new entries are played."""

from __future__ import annotations

from polytable.match import Match
from polytable.web._records import extend_match


def _log(match: Match) -> list[tuple[int, str]]:
    return [(e.player, e.action) for e in match.log]


def test_a_match_is_extended_by_a_stored_log_that_continues_it() -> None:
    ahead = Match("toy", {"rounds": 3}, 2, 11)
    ahead.resolve_chance()
    behind = Match("toy", {"rounds": 3}, 2, 11)
    behind.resolve_chance()
    for player in (0, 1):
        ahead.play("2", player)
    ahead.resolve_chance()
    assert extend_match(behind, _log(ahead))
    assert _log(behind) == _log(ahead) and behind.state == ahead.state


def test_a_diverging_or_forged_log_is_refused_and_changes_nothing() -> None:
    match = Match("toy", {"rounds": 3}, 2, 11)
    match.resolve_chance()
    match.play("1", 0)
    before = _log(match)
    other = [*before[:-1], (0, "3")]
    assert not extend_match(match, other)
    forged = [*before, (1, "2"), (-1, "9")]  # a chance outcome the seed would not give
    assert not extend_match(match, forged)
    assert _log(match) == before
