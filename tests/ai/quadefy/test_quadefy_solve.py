"""The full-game solver (``polytable solve quadefy``): symmetry canonicalisation and agreement with minimax."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from pathlib import Path

import pytest

from polytable.ai.quadefy import PERSIST_PLIES, FullSolver, checkpoint_line, parse_checkpoint, solve_game
from polytable.core import Rng, get_game
from polytable.games.quadefy import (
    ALL_BLOCKS,
    BLOCK_INDEX,
    FULL,
    PLACEMENTS,
    REACH,
    REFLECTS,
    STABLE,
    SYMMETRIES,
    QuadefyState,
    canonical_key,
    moves_of,
    pack_key,
    swap_screws,
    transform_cells,
    transform_placement,
)

GAME = get_game("quadefy")
SL, SR = BLOCK_INDEX["SL"], BLOCK_INDEX["SR"]


def _states(seed: int, options: Mapping[str, object] | None = None) -> list[QuadefyState]:
    rng = Rng(seed)
    state = GAME.new_game(dict(options or {}), seed)
    out = [state]
    while not GAME.is_terminal(state):
        state = GAME.apply(state, GAME.legal_actions(state).sample(rng))
        out.append(state)
    return out


@cache
def _minimax(occ: int, me: int, opp: int, flags: int) -> bool:
    """Plain minimax (no ordering, no table beyond the cache, no symmetry): does the player to move win?"""
    return any(
        not _minimax(occ | PLACEMENTS[pid].mask, opp, me & ~(1 << PLACEMENTS[pid].block), flags)
        for pid in moves_of(occ, me, flags)
    )


def _hands(s: QuadefyState) -> tuple[int, int]:
    return s.remaining[s.to_move], s.remaining[1 - s.to_move]


def test_transforms_are_the_eight_symmetries_of_the_square() -> None:
    assert len(SYMMETRIES) == 8 and sum(REFLECTS) == 4
    images = set()
    for t in range(8):
        cells = [transform_cells(t, 1 << i) for i in range(64)]
        assert sorted(cells) == [1 << i for i in range(64)]  # a permutation of the cells
        # layers are kept: gravity makes the floor special
        assert all(transform_cells(t, 1 << i) >> (16 * (i // 16)) < 1 << 16 for i in range(64))
        images.add(tuple(cells))
        assert transform_cells(t, FULL) == FULL
    assert len(images) == 8


def test_placements_map_to_placements_and_reflections_swap_the_screws() -> None:
    for t in range(8):
        perm = [transform_placement(t, p.id) for p in PLACEMENTS]
        assert sorted(perm) == list(range(len(PLACEMENTS)))
        for p in PLACEMENTS:
            q = PLACEMENTS[perm[p.id]]
            assert q.mask == transform_cells(t, p.mask)
            if p.block in (SL, SR) and REFLECTS[t]:
                assert q.block == (SR if p.block == SL else SL)
            else:
                assert q.block == p.block
    assert swap_screws(1 << SL) == 1 << SR and swap_screws(1 << SR) == 1 << SL
    assert swap_screws(ALL_BLOCKS) == ALL_BLOCKS and swap_screws(0b111111) == 0b111111


@pytest.mark.parametrize("flags", [REACH, 0, REACH | STABLE])
def test_legal_moves_commute_with_every_symmetry(flags: int) -> None:
    options = {"reachability": bool(flags & REACH), "stability": bool(flags & STABLE)}
    for seed in range(2):
        for s in _states(seed, options)[::4]:
            me, _ = _hands(s)
            base = moves_of(s.occupied, me, flags)
            for t in range(8):
                hand = swap_screws(me) if REFLECTS[t] else me
                image = moves_of(transform_cells(t, s.occupied), hand, flags)
                assert sorted(transform_placement(t, pid) for pid in base) == sorted(image)


def test_canonical_key_is_invariant_and_minimal() -> None:
    for seed in range(2):
        for s in _states(seed)[::2]:
            me, opp = _hands(s)
            keys = []
            for t in range(8):
                a, b = (swap_screws(me), swap_screws(opp)) if REFLECTS[t] else (me, opp)
                keys.append(pack_key(transform_cells(t, s.occupied), a, b))
            canon = canonical_key(s.occupied, me, opp)
            assert canon == min(keys)
            for t in range(8):
                a, b = (swap_screws(me), swap_screws(opp)) if REFLECTS[t] else (me, opp)
                assert canonical_key(transform_cells(t, s.occupied), a, b) == canon


def test_symmetric_positions_have_the_same_value() -> None:
    s = _states(11)[-4]
    me, opp = _hands(s)
    values = set()
    for t in range(8):
        a, b = (swap_screws(me), swap_screws(opp)) if REFLECTS[t] else (me, opp)
        values.add(_minimax(transform_cells(t, s.occupied), a, b, REACH))
    assert len(values) == 1


def test_solver_agrees_with_minimax_on_random_endgames() -> None:
    """Many endgames from random games (with and without reachability), searched at their own ply and as if
    shallow (which switches on child deduplication and the persistent table)."""
    checked = wins = 0
    for seed in range(30):
        options = {"reachability": seed % 4 != 3}
        flags = REACH if options["reachability"] else 0
        states = _states(seed, options)
        for s in states[-5:]:
            if GAME.is_terminal(s):
                continue
            me, opp = _hands(s)
            expected = _minimax(s.occupied, me, opp, flags)
            placed = 16 - me.bit_count() - opp.bit_count()
            solver = FullSolver(flags)
            assert solver.win(s.occupied, me, opp, placed) == expected
            assert FullSolver(flags).win(s.occupied, me, opp, 0) == expected
            checked += 1
            wins += expected
    assert checked >= 100 and 0 < wins < checked


def test_shared_table_keeps_answers_exact() -> None:
    solver = FullSolver(REACH)
    for seed in range(10):
        for s in _states(100 + seed)[-5:]:
            if GAME.is_terminal(s):
                continue
            me, opp = _hands(s)
            assert solver.win(s.occupied, me, opp, 8) == _minimax(s.occupied, me, opp, REACH)
    assert solver.tt_hits > 0 and solver.per_ply


def test_root_classes() -> None:
    roots = FullSolver(REACH).root_moves(REACH)
    assert len(roots) == 103 and sum(size for _, _, size, _ in roots) == 761
    assert [r for r, *_ in roots] == sorted(r for r, *_ in roots)  # fewest replies first
    assert len(FullSolver(0).root_moves(0)) == len(FullSolver(REACH).root_moves(REACH))


def _root_child_key(pid: int) -> int:
    p = PLACEMENTS[pid]
    return canonical_key(p.mask, ALL_BLOCKS, ALL_BLOCKS & ~(1 << p.block))


def test_verdicts_from_known_root_children() -> None:
    """The root logic: a first move after which Player 2 loses is a win; all refuted is a loss."""
    solver = FullSolver(REACH)
    roots = solver.root_moves(REACH)
    target = roots[5][1]
    for _, pid, _, _ in roots:
        solver.shallow[_root_child_key(pid)] = pid != target
    rep = solver.solve()
    assert rep.solved and rep.first_player_wins and rep.winning_move == target
    assert [r.status for r in rep.root[:6]] == ["loss"] * 5 + ["win"]
    solver = FullSolver(REACH)
    for _, pid, _, _ in roots:
        solver.shallow[_root_child_key(pid)] = True
    rep = solver.solve()
    assert rep.solved and rep.first_player_wins is False and rep.winning_move is None
    assert all(r.status == "loss" for r in rep.root)


def test_time_limit_and_checkpoint_resume(tmp_path: Path) -> None:
    ckpt = tmp_path / "q.ckpt"

    def append(key: int, value: bool) -> None:
        with ckpt.open("a", encoding="ascii") as fh:
            fh.write(checkpoint_line(key, value))

    rep = solve_game(REACH, max_seconds=0.5, on_record=append)
    assert not rep.solved and rep.first_player_wins is None and rep.nodes > 0
    assert rep.root[0].status == "open" and rep.root[0].nodes > 0
    assert rep.path and rep.path[0][0] == 1 and all(0 <= done < n for _, done, n in rep.path)
    assert [ply for ply, _, _ in rep.path] == list(range(1, len(rep.path) + 1)) and rep.cpu_seconds > 0
    # Positions near the root are proven only after long searches; plant one to check the file round trip.
    key = _root_child_key(rep.root[1].pid)
    solver = FullSolver(REACH, on_record=append)
    solver._record(key, 1, True)
    solver._record(12345, PERSIST_PLIES + 1, False)  # deep entries stay in memory only
    again = FullSolver(REACH, known=parse_checkpoint(ckpt.read_text(encoding="ascii")))
    assert again.shallow.get(key) is True and 12345 not in again.shallow and again.loaded >= 1


def test_solve_command() -> None:
    typer_testing = pytest.importorskip("typer.testing")
    import json

    import typer

    from polytable.cli.cmd_quadefy import register

    app = typer.Typer()
    register(app)
    runner = typer_testing.CliRunner()
    res = runner.invoke(app, ["solve", "quadefy", "--max-seconds", "0.3", "--quiet"])
    assert res.exit_code == 0, res.output
    assert "Not solved within the time limit" in res.output and "761 in 103 classes" in res.output
    assert "TT hits" in res.output and "nodes/s" in res.output and "stopped at" in res.output
    res = runner.invoke(app, ["solve", "quadefy", "--max-seconds", "0.3", "--json", "--quiet"])
    data = json.loads(res.output)
    assert data["solved"] is False and data["winner"] is None and data["root_classes"] == 103
    assert data["options"] == {"reachability": True, "stability": False} and data["nodes"] > 0
    assert data["stopped_at"][0]["ply"] == 1 and data["cpu_seconds"] > 0
