"""Quadefy: the arena between two AIs, with a count of the distinct games it played.

Why: Quadefy has no chance, so two players that never randomise would play the same game again and again
under alternating seats; the arena's win share means something only if its games differ. This runs
`polytable arena`'s own round robin (:func:`polytable.ai.arena`, in this process: the same seeds, the same
seat alternation and the same result as ``polytable arena quadefy --ai A --ai B -n N --seed S --workers 1
--json``) and records every game's placements on the way. It prints the arena's JSON with a ``games_seen``
entry: the games, the distinct games (whole move sequences), the distinct openings (first 2 and 4
placements) and the wins of each AI by seat.

    nice python benchmarks/quadefy_arena_games.py --ai hard:seconds=0.1,clock=cpu \\
        --ai greedy -n 100 --seed 40000
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from polytable.ai import _arena, make_bot
from polytable.core import get_game
from polytable.match import play_game


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--ai", action="append", required=True, help="an AI, NAME or NAME:key=value (two)")
    ap.add_argument("-n", "--games", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    games: list[tuple[tuple[str, ...], tuple[int, ...], int]] = []

    def recorded(job: tuple[str, tuple[str, ...], dict[str, Any], int]) -> set[int]:
        game_id, seats, options, seed = job
        game = get_game(game_id)
        state = play_game(game, [make_bot(s, game_id) for s in seats], options, seed).state
        games.append((seats, state.moves, state.loser))
        return set(game.winners(state))

    _arena._winners = recorded  # type: ignore[assignment]  # the arena looks it up at each call
    result = _arena.arena("quadefy", args.ai, args.games, seed=args.seed, workers=1)
    by_seat = {ai: [0, 0] for ai in args.ai}
    for seats, _moves, loser in games:
        winner = 1 - loser
        by_seat[seats[winner]][winner] += 1
    result["games_seen"] = {
        "games": len(games),
        "distinct_games": len({m for _, m, _ in games}),
        "distinct_openings_2": len({m[:2] for _, m, _ in games}),
        "distinct_openings_4": len({m[:4] for _, m, _ in games}),
        "wins_as_first_second": by_seat,
    }
    print(json.dumps(result))


if __name__ == "__main__":
    main()
