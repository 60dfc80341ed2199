"""Placement generation: agreement with a brute-force judge, counting, sampling, golden counts and whole
game traces for 2, 3 and 4 players.

Golden data: tests/data/qwirkle_cubes/golden.json. After an intended change of behaviour, regenerate it
with ``QWIRKLE_CUBES_REGEN=1 .venv/bin/pytest tests/games/qwirkle_cubes -q -p no:cacheprovider``.
"""

from __future__ import annotations

import itertools
import json
import os
from pathlib import Path
from typing import Any

import pytest

from games.qwirkle_cubes.qc_helpers import GAME
from polytable.ai import make_bot
from polytable.core import CHANCE, Rng
from polytable.games.qwirkle_cubes import (
    PLACE,
    STRIDE,
    Place,
    cell,
    cell_xy,
    hand_mask,
    largest_line,
    line_ok,
    placement_error,
)
from polytable.match import Match

GOLDEN = Path(__file__).resolve().parents[2] / "data" / "qwirkle_cubes" / "golden.json"
REGEN = os.environ.get("QWIRKLE_CUBES_REGEN") == "1"


def _need(s: Any) -> int:
    return largest_line(hand_mask(s.hand)) if not s.board.cells else 0


def _brute(s: Any, maxk: int) -> set[tuple[tuple[int, int], ...]]:
    """Every placement of at most ``maxk`` cubes, judged one by one by the slow explicit checker."""
    b, hand = s.board, s.hand
    faces = sorted(set(hand))
    if b.cells:
        xs = [cell_xy(c)[0] for c in b.cells]
        ys = [cell_xy(c)[1] for c in b.cells]
        starts = [
            cell(x, y)
            for x in range(min(xs) - maxk, max(xs) + maxk + 1)
            for y in range(min(ys) - maxk, max(ys) + maxk + 1)
            if cell(x, y) not in b.cells
        ]
    else:
        starts = [cell(0, 0)]
    out = set()
    for p in starts:
        for step in (1, STRIDE):
            for k in range(1, maxk + 1):
                if k == 1 and step == STRIDE:
                    continue
                for seq in itertools.permutations(faces, k):
                    c, placed = p, []
                    for t in seq:
                        while c in b.cells:
                            c += step
                        placed.append((t, c))
                        c += step
                    pl = tuple(sorted(placed, key=lambda tc: tc[1]))
                    if placement_error(b, pl, hand, _need(s)) is None:
                        out.add(pl)
    return out


def _positions(seed: int, players: int, every: int, limit: int) -> list[Any]:
    """Placement positions met in a seeded random game."""
    s = GAME.new_game(players=players, seed=seed)
    rng = Rng(seed, stream=1)
    out = []
    n = 0
    while not GAME.is_terminal(s) and len(out) < limit:
        cp = GAME.current_player(s)
        if s.phase == PLACE:
            if n % every == 0:
                out.append(s)
            n += 1
        s = GAME.apply(s, GAME.chance_outcome(s) if cp == CHANCE else GAME.legal_actions(s).sample(rng))
    return out


@pytest.mark.parametrize("seed", [1, 2])
def test_generator_matches_brute_force(seed: int) -> None:
    for s in _positions(seed, 2, 4, 5):
        gen = [a.cubes for a in GAME.legal_actions(s)]
        assert len(gen) == len(set(gen)) == GAME.legal_actions(s).count()
        assert {p for p in gen if len(p) <= 2} == _brute(s, 2)
        for p in gen:
            assert placement_error(s.board, p, s.hand, _need(s)) is None
            assert s.board.is_legal(p, hand_mask(s.hand), _need(s))


def test_sampling_walks_the_same_order_as_the_generator() -> None:
    for s in _positions(3, 3, 3, 8):
        gen = [a.cubes for a in GAME.legal_actions(s)]
        for i in range(0, len(gen), max(1, len(gen) // 9)):
            assert s.board.sample(hand_mask(s.hand), _need(s), i) == gen[i]


def test_a_random_game_keeps_every_line_legal() -> None:
    s = GAME.new_game(players=4, seed=11)
    rng = Rng(11)
    while not GAME.is_terminal(s):
        cp = GAME.current_player(s)
        s = GAME.apply(s, GAME.chance_outcome(s) if cp == CHANCE else GAME.legal_actions(s).sample(rng))
    cells = s.board.cells
    for c in cells:
        for ax in (1, STRIDE):
            if c - ax in cells:
                continue
            mask, n, x = 0, 0, c
            while x in cells:
                assert not mask >> cells[x] & 1
                mask |= 1 << cells[x]
                n += 1
                x += ax
            assert n <= 6 and (n < 2 or line_ok(mask))
    # the cubes are all accounted for
    assert len(cells) + sum(len(h) for h in s.hands) + s.bag_size == 90


def _trace(players: int, seed: int, bot: str | None) -> dict[str, Any]:
    match = Match(GAME, {}, players, seed)
    rng = Rng(seed, stream=2)
    ai = make_bot(bot, "qwirkle-cubes") if bot else None
    counts = []
    while not match.is_over():
        s = match.state
        cp = GAME.current_player(s)
        if cp == CHANCE:
            match.play(GAME.chance_outcome(s), CHANCE)
            continue
        if s.phase == PLACE and len(counts) < 12:
            counts.append(GAME.legal_actions(s).count())
        action = ai.choose(GAME, s, cp, rng) if ai else GAME.legal_actions(s).sample(rng)
        match.play(action, cp)
    record = match.record()
    return {
        "players": players,
        "seed": seed,
        "bot": bot or "random",
        "placement_counts": counts,
        "points": list(match.state.points),
        "winners": list(GAME.winners(match.state)),
        "log": [e[1] for e in record["actions"]],
    }


CASES = [(2, 101, None), (3, 202, None), (4, 303, None), (2, 404, "greedy")]


def test_whole_game_traces() -> None:
    got = {f"{p}p-{seed}-{bot or 'random'}": _trace(p, seed, bot) for p, seed, bot in CASES}
    if REGEN or not GOLDEN.exists():
        GOLDEN.parent.mkdir(parents=True, exist_ok=True)
        GOLDEN.write_text(json.dumps(got, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    assert got.keys() == want.keys()
    for key in got:
        assert got[key]["placement_counts"] == want[key]["placement_counts"], key
        assert got[key]["log"] == want[key]["log"], key
        assert got[key]["points"] == want[key]["points"], key
        assert got[key]["winners"] == want[key]["winners"], key


def test_traces_replay_from_their_notation() -> None:
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))
    for trace in want.values():
        s = GAME.new_game(players=trace["players"], seed=trace["seed"])
        for text in trace["log"]:
            s = GAME.apply_text(s, text, CHANCE if text.startswith(("rolls", "draws")) else None)
        assert GAME.is_terminal(s)
        assert list(s.points) == trace["points"]
        # the ASCII fallback replays the same game
    first = next(iter(want.values()))
    s = GAME.new_game(players=first["players"], seed=first["seed"])
    for text in first["log"]:
        action = GAME.parse_action(text, s)
        if isinstance(action, Place):
            from polytable.games.qwirkle_cubes import format_action

            assert GAME.parse_action(format_action(action, ascii_only=True), s) == action
        s = GAME.apply(s, action, CHANCE if text.startswith(("rolls", "draws")) else None)
    assert list(s.points) == first["points"]
