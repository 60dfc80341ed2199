"""Seeded games played the same way under CPython (the tests) and Pyodide (pyodide_records.mjs runs this
very file), so their records can be compared action for action."""

from __future__ import annotations

from typing import Any

from polytable.ai import make_bot
from polytable.match import Table, random_record


def play(case: list[Any]) -> dict[str, Any]:
    """``[game, options, players, seed, ais]``: uniform random moves, or the named AIs in every seat."""
    game, options, players, seed, ais = case
    if not ais:
        return random_record(game, options, players, seed)
    table = Table.new(game, options, players, seed, [{"ai": a} for a in ais], make_bot)
    while table.ai_step():
        pass
    assert table.match.is_over()
    return table.record()
