"""The compiled Quadefy solver (``polytable.ai._native``) against the pure-Python rules and solver.

The C file holds no geometry of its own (the tables come from Python), so these tests check that its bit
logic mirrors ``_moves`` exactly: legal placements in the same order on positions of random games with
every option set, the canonical keys of ``_symmetry``, and game values equal to plain minimax on endgames.
The solver is built with the package (setup.py); they skip only when ``POLYTABLE_PURE=1`` asks for the
pure engine, and fail when the extension is missing, since a normal install builds it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest

from polytable.ai.quadefy import FullSolver, checkpoint_line, load_native, native_unavailable, parse_checkpoint
from polytable.core import Rng, get_game, pure_engine_forced
from polytable.games.quadefy import (
    ALL_BLOCKS,
    PLACEMENTS,
    REACH,
    STABLE,
    QuadefyState,
    canonical_key,
    legal_count,
    moves_of,
)

pytestmark = pytest.mark.skipif(pure_engine_forced(), reason="POLYTABLE_PURE=1 asks for the pure engine")

GAME = get_game("quadefy")
FLAG_SETS = (0, REACH, STABLE, REACH | STABLE)


def _states(seed: int, options: Mapping[str, object] | None = None) -> list[QuadefyState]:
    rng = Rng(seed)
    state = GAME.new_game(dict(options or {}), seed)
    out = [state]
    while not GAME.is_terminal(state):
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        out.append(state)
    return out


def _options(flags: int) -> dict[str, object]:
    return {"reachability": bool(flags & REACH), "stability": bool(flags & STABLE)}


@cache
def _minimax(occ: int, me: int, opp: int, flags: int) -> bool:
    return any(
        not _minimax(occ | PLACEMENTS[pid].mask, opp, me & ~(1 << PLACEMENTS[pid].block), flags)
        for pid in moves_of(occ, me, flags)
    )


def test_the_extension_is_built() -> None:
    assert native_unavailable() is None


def test_empty_cube_has_761_moves() -> None:
    native = load_native()
    assert native.count(0, ALL_BLOCKS, REACH) == 761
    assert native.legal(0, ALL_BLOCKS, REACH) == moves_of(0, ALL_BLOCKS, REACH)


@pytest.mark.parametrize("flags", FLAG_SETS)
def test_legal_moves_and_keys_match_python(flags: int) -> None:
    native = load_native()
    checked = 0
    for seed in range(12):
        for s in _states(seed, _options(flags)):
            for hand in (s.remaining[0], s.remaining[1], ALL_BLOCKS, 1 << (seed % 8)):
                assert native.legal(s.occupied, hand, flags) == moves_of(s.occupied, hand, flags)
                assert native.count(s.occupied, hand, flags) == legal_count(s.occupied, hand, flags)
            me, opp = s.remaining[s.to_move], s.remaining[1 - s.to_move]
            assert native.canonical_key(s.occupied, me, opp) == canonical_key(s.occupied, me, opp)
            checked += 1
    assert checked > 100


def test_values_and_moves_match_minimax_on_endgames() -> None:
    native = load_native()
    checked = wins = 0
    with native.lock:
        for flags in (REACH, 0, REACH | STABLE):
            for seed in range(12):
                for s in _states(100 + seed, _options(flags))[-4:-1]:
                    me, opp = s.remaining[s.to_move], s.remaining[1 - s.to_move]
                    native.clear()
                    verdict, best = native.solve(s.occupied, me, opp, flags)
                    expected = _minimax(s.occupied, me, opp, flags)
                    assert verdict == int(expected)
                    # Again with the table full of this and earlier positions' entries.
                    assert native.solve(s.occupied, me, opp, flags)[0] == verdict
                    if expected:
                        wins += 1
                        assert best is not None
                        p = PLACEMENTS[best]
                        assert not _minimax(s.occupied | p.mask, opp, me & ~(1 << p.block), flags)
                    checked += 1
        native.clear()
    assert checked >= 100 and 0 < wins < checked


def test_budget_stops_the_search() -> None:
    native = load_native()
    with native.lock:
        native.clear()
        verdict, best = native.solve(0, ALL_BLOCKS, ALL_BLOCKS, REACH, max_nodes=5000)
        native.clear()
    assert verdict == -1 and best is None


def _root_child_key(pid: int) -> int:
    p = PLACEMENTS[pid]
    return canonical_key(p.mask, ALL_BLOCKS, ALL_BLOCKS & ~(1 << p.block))


def test_native_game_solve_verdicts_and_checkpoint(tmp_path: Path) -> None:
    from polytable.ai.quadefy import solve_game_native

    roots = FullSolver(REACH).root_moves(REACH)
    target = roots[3][1]
    known = {_root_child_key(pid): pid != target for _, pid, _, _ in roots}
    rep = solve_game_native(REACH, known=known, table_log2=16)
    assert rep.solved and rep.first_player_wins and rep.winning_move == target and rep.loaded == len(known)
    assert [r.status for r in rep.root[:4]] == ["loss"] * 3 + ["win"]
    rep = solve_game_native(REACH, known=dict.fromkeys(known, True), table_log2=16)
    assert rep.solved and rep.first_player_wins is False
    ckpt = tmp_path / "q.ckpt"
    lines: list[str] = []
    rep = solve_game_native(
        REACH, max_seconds=0.4, on_record=lambda k, v: lines.append(checkpoint_line(k, v)), table_log2=18
    )
    assert not rep.solved and rep.first_player_wins is None and rep.nodes > 0 and rep.cpu_seconds > 0
    assert rep.root[0].status == "open" and rep.root[0].nodes > 0
    assert rep.path and rep.path[0][0] == 1 and all(0 <= done <= n for _, done, n in rep.path)
    ckpt.write_text("".join(lines), encoding="ascii")
    assert len(parse_checkpoint(ckpt.read_text(encoding="ascii"))) == len(lines)


def test_solve_command_native() -> None:
    typer_testing = pytest.importorskip("typer.testing")
    import typer

    from polytable.cli.cmd_quadefy import register

    app = typer.Typer()
    register(app)
    runner = typer_testing.CliRunner()
    args = ["solve", "quadefy", "--native", "--max-seconds", "0.3", "--table-log2", "16", "--quiet"]
    res = runner.invoke(app, args)
    assert res.exit_code == 0, res.output
    assert "Not solved within the time limit" in res.output and "761 in 103 classes" in res.output
    data = json.loads(runner.invoke(app, [*args, "--json"]).output)
    assert data["solved"] is False and data["root_classes"] == 103 and data["nodes"] > 0


def test_hard_bot_plays_a_proven_win() -> None:
    from polytable.ai import make_bot
    from polytable.ai.quadefy import QuadefyHardBot

    bot = make_bot("hard:seconds=0.2", "quadefy")
    assert isinstance(bot, QuadefyHardBot)
    for seed in range(6):
        s = _states(seed)[-4]
        me, opp = s.remaining[s.to_move], s.remaining[1 - s.to_move]
        action = bot.choose(GAME, s, s.to_move, Rng(seed))
        assert bot.last is not None and bot.last[0] == int(_minimax(s.occupied, me, opp, REACH))
        if bot.last[0] == 1:
            p = PLACEMENTS[GAME.action_id(action)]
            assert not _minimax(s.occupied | p.mask, opp, me & ~(1 << p.block), REACH)
