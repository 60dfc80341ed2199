"""The arena: a seat-balanced round robin between AIs, win rates with 95% intervals, and Elo ratings.

Pairings: every pair of AIs plays ``games`` games; seats alternate between the two AIs and the
alternation is shifted every game, so each AI sits in every seat equally often (for 2 players: first half
A moves first, second half B). Every game is seeded (``seed + game number``), so a ladder is reproducible.

Scoring a game for the pair: the AI with the higher final result wins (several winners share: each gets
``1/k`` of a win); a multiplayer game seats both AIs several times, and each seat counts.

Elo: a Bradley-Terry fit of all pairwise results (draws as half a win) by the minorisation-maximisation
iteration, converted to the Elo scale (400 * log10), anchored so that ``random`` (or the first AI if
``random`` is absent) is 0. Intervals are Wilson score intervals on the win share.
"""

from __future__ import annotations

import itertools
import math
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from ..core import get_game
from ..match import parallel_map, play_game
from ._registry import make_bot

__all__ = ["arena", "elo_ratings", "paired_match", "wilson"]


def _winners(job: tuple[str, tuple[str, ...], dict[str, Any], int]) -> set[int]:
    """The winning seats of one seeded game (the unit of work of a worker process)."""
    game_id, seats, options, seed = job
    game = get_game(game_id)
    return set(game.winners(play_game(game, [make_bot(s, game_id) for s in seats], options, seed).state))


def wilson(successes: float, n: float, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (successes may be fractional: shared wins)."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def paired_match(
    game_id: str, games: int, play: Callable[[int, bool], Any], lead: Callable[[Any, int], float]
) -> dict[str, Any]:
    """A's results against B over ``games`` 2-player games, seats alternating (A first in even games).

    ``play(g, a_first)`` plays game ``g`` and returns its final state; ``lead(state, seat)`` is that seat's
    score minus the other's. The result: A's win share (a shared win split), its Wilson 95% interval, A's
    mean final lead with its standard error (the tuning searches' measure), and the CPU seconds spent."""
    game = get_game(game_id)
    wins, leads = 0.0, []
    start = time.process_time()
    for g in range(games):
        first = g % 2 == 0
        st = play(g, first)
        me = 0 if first else 1
        won = set(game.winners(st))
        wins += (me in won) / len(won) if won else 0.5
        leads.append(lead(st, me))
    mean = sum(leads) / games
    sd = math.sqrt(sum((x - mean) ** 2 for x in leads) / max(1, games - 1))
    lo, hi = wilson(wins, games)
    return {
        "games": games,
        "win_rate": wins / games,
        "ci95": [lo, hi],
        "lead": mean,
        "lead_se": sd / math.sqrt(games),
        "cpu_s": round(time.process_time() - start, 2),
    }


def elo_ratings(names: Sequence[str], wins: Mapping[tuple[str, str], float], anchor: str) -> dict[str, float]:
    """Bradley-Terry strengths from ``wins[(a, b)]`` (a's wins over b, draws as halves), on the Elo scale."""
    strength = dict.fromkeys(names, 1.0)
    prior = 0.5  # a virtual half-draw against every opponent keeps unbeaten AIs finite
    for _ in range(500):
        new = {}
        for a in names:
            w = sum(wins.get((a, b), 0.0) for b in names if b != a) + prior * (len(names) - 1)
            denom = 0.0
            for b in names:
                if b == a:
                    continue
                n = wins.get((a, b), 0.0) + wins.get((b, a), 0.0) + 2 * prior
                denom += n / (strength[a] + strength[b])
            new[a] = w / denom if denom else strength[a]
        mean = math.exp(sum(math.log(v) for v in new.values()) / len(new))
        new = {k: v / mean for k, v in new.items()}
        done = max(abs(math.log(new[k] / strength[k])) for k in names) < 1e-9
        strength = new
        if done:
            break
    base = strength[anchor]
    return {k: 400.0 * math.log10(v / base) for k, v in strength.items()}


def arena(
    game_id: str,
    bots: Sequence[str],
    games: int,
    players: int | None = None,
    options: Mapping[str, object] | None = None,
    seed: int = 0,
    on_game: Callable[[], None] | None = None,
    workers: int | None = 1,
) -> dict[str, Any]:
    """Play the round robin and return the ladder as JSON data (see the module docstring).

    ``workers``: processes to play on (None: every core); the games and their seeds do not depend on it."""
    game = get_game(game_id)
    n = players if players is not None else game.spec.default_players
    if n < 2:
        raise ValueError("the arena needs a game of at least 2 players")
    if len(bots) < 2 or len(set(bots)) != len(bots):
        raise ValueError("give at least two different AIs")
    pair_wins: dict[tuple[str, str], float] = {}
    played: dict[str, float] = dict.fromkeys(bots, 0.0)
    won: dict[str, float] = dict.fromkeys(bots, 0.0)
    pairs = []
    jobs: list[tuple[str, tuple[str, ...], dict[str, Any], int]] = []
    for a, b in itertools.combinations(bots, 2):
        for g in range(games):
            seats = tuple(a if (i + g) % 2 == 0 else b for i in range(n))
            jobs.append((game.spec.id, seats, dict(options or {}), seed + len(jobs)))
    results = parallel_map(_winners, jobs, workers, chunksize=1)  # games of AIs: long and uneven, balance
    for a, b in itertools.combinations(bots, 2):
        wa = wb = 0.0
        for g in range(games):
            seats = tuple(a if (i + g) % 2 == 0 else b for i in range(n))
            winners = next(results)
            share = 1.0 / len(winners) if winners else 0.0
            a_share = sum(share for i in winners if seats[i] == a)
            b_share = sum(share for i in winners if seats[i] == b)
            # Normalise to one game between the pair: a draw among only-a or only-b seats is decisive.
            total = a_share + b_share
            if total > 0:
                wa += a_share / total
                wb += b_share / total
            else:
                wa += 0.5
                wb += 0.5
            if on_game is not None:
                on_game()
        pair_wins[(a, b)] = wa
        pair_wins[(b, a)] = wb
        played[a] += games
        played[b] += games
        won[a] += wa
        won[b] += wb
        lo, hi = wilson(wa, games)
        pairs.append({"a": a, "b": b, "games": games, "a_win_rate": wa / games, "a_ci95": [lo, hi]})
    anchor = "random" if "random" in bots else bots[0]
    elo = elo_ratings(list(bots), pair_wins, anchor)
    ladder = []
    for name in sorted(bots, key=lambda x: -elo[x]):
        lo, hi = wilson(won[name], played[name])
        ladder.append(
            {
                "ai": name,
                "games": played[name],
                "win_rate": won[name] / played[name] if played[name] else 0.0,
                "ci95": [lo, hi],
                "elo": elo[name],
            }
        )
    return {
        "game": game.spec.id,
        "players": n,
        "games_per_pair": games,
        "seed": seed,
        "options": dict(options or {}),
        "anchor": anchor,
        "ladder": ladder,
        "pairs": pairs,
    }
